// End-to-end checks of the precision section (12), <posenc-precision> and
// embed.html?plot=precision in headless Chromium, against the built site: every
// number shown is checked against a reference computed here, in float64 with
// float16 rounded from the bits of the double, bfloat16 from the top 16 bits
// of a float32 and float32 by Math.fround (never by posenc).
// Usage: node tests/e2e/precision.test.mjs (after `npx vite build --config web/vite.config.js`).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';
import { float16, ROUND } from '../precision-reference.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = `${root}dist/site`;
const artifacts = `${root}test-results/e2e`;
const require = createRequire(import.meta.url);
if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync(artifacts, { recursive: true });

// ---- references ----

/** The page's number format: 3 (or `digits`) significant digits, exponential beyond [1e-3, 1e5). */
const n = (value, digits = 3) =>
  value !== 0 && (Math.abs(value) >= 1e5 || Math.abs(value) < 1e-3)
    ? value.toExponential(digits - 1)
    : String(Number(value.toPrecision(digits)));

/** The paper's table (base 10000) through `format` against exact: largest |error| and its cell. */
function tableError(format, length, d) {
  const f = ROUND[format];
  let worst = { value: 0, position: 0, column: 0 };
  for (let p = 0; p < length; p++)
    for (let j = 0; j < d; j++) {
      const w = 10000 ** (-(2 * Math.floor(j / 2)) / d);
      const a = f(f(p) * f(w));
      const rounded = j % 2 === 0 ? Math.sin(a) : Math.cos(a);
      const exact = j % 2 === 0 ? Math.sin(p * w) : Math.cos(p * w);
      const error = Math.abs(rounded - exact);
      if (error > worst.value) worst = { value: error, position: p, column: j };
    }
  return worst;
}

/** First 2^k whose successor rounds onto it, and the first integer that rounds to Infinity. */
function collision(format) {
  for (let k = 1; k < 53; k++) if (ROUND[format](2 ** k + 1) === ROUND[format](2 ** k)) return 2 ** k;
  return null;
}
function overflow(format) {
  for (let p = 65000; p < 70000; p++) if (ROUND[format](p) === Infinity) return p;
  return null;
}

/** Largest cos error of a RoPE cache (pairs of 1 / 10000^(2i/dim)) through `format`, and where. */
function cacheError(format, dim, start, length) {
  const f = ROUND[format];
  let worst = { value: 0, position: 0, feature: 0 };
  const distinct = new Set();
  for (let p = start; p < start + length; p++) {
    const row = [];
    for (let i = 0; i < dim / 2; i++) {
      const w = 1 / 10000 ** ((2 * i) / dim);
      const c = Math.cos(f(f(p) * f(w)));
      row.push(c);
      const error = Math.abs(c - Math.cos(p * w));
      if (error > worst.value) worst = { value: error, position: p, feature: i };
    }
    distinct.add(row.join());
  }
  return { ...worst, distinct: distinct.size };
}

const L = 512;
const D = 64;
const neoxW = 1 / 10000 ** (2 / 32);
const neox = {
  exactAngle: 1857 * neoxW,
  halfAngle: float16(float16(1857) * float16(neoxW)),
  halfFrequency: float16(neoxW),
  half: cacheError('float16', 32, 0, 2048),
  single: cacheError('float32', 32, 0, 2048),
};
const diffusers = { half: cacheError('bfloat16', 128, 65536, 512), single: cacheError('float32', 128, 65536, 512) };
let rowsApart = 0;
for (let j = 0; j < 64; j++) {
  const w = 10000 ** (-(2 * Math.floor(j / 2)) / 64);
  const at = (p) => (j % 2 === 0 ? Math.sin(p * w) : Math.cos(p * w));
  rowsApart = Math.max(rowsApart, Math.abs(at(256) - at(257)));
}

// ---- the page ----

const server = await serveStatic(site);
const browser = await launchChromium();

async function openSection(context, query) {
  const page = await watchedPage(context);
  await page.goto(`${server.url}implementations.html${query}`);
  await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 20000 });
  await page.locator('#precision').scrollIntoViewIfNeeded();
  // (On the page the notes are folded under a summary: in the document, not shown.)
  await page.waitForSelector('[data-plot="precision"] [data-testid="precision-neox"]', {
    state: 'attached',
    timeout: 60000,
  });
  return page;
}

const textOf = (page, id) => page.locator(`[data-plot="precision"] [data-testid="${id}"]`).textContent();

/** The facts table: format -> [collision, overflow, largest]. */
async function factsOf(page) {
  const rows = await page
    .locator('[data-plot="precision"] .posenc-facts tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)));
  return Object.fromEntries(rows.map(([format, ...rest]) => [format, rest]));
}

function expectFacts(facts, language) {
  const none = language === 'zh' ? '无' : 'none';
  for (const format of ['float16', 'bfloat16', 'float32']) {
    const [collided, overflowed, largest] = facts[format] ?? [];
    const p = collision(format);
    assert(collided === `${p} = ${p + 1}`, `${format}: collision ${collided}, want ${p} = ${p + 1}`);
    const o = overflow(format);
    assert(
      o === null ? overflowed === none : overflowed.startsWith(language === 'zh' ? `从 ${o} 起` : `from ${o}:`),
      `${format}: overflow ${overflowed}`,
    );
    const want = tableError(format, L, D);
    const [open, close] = language === 'zh' ? ['（', '）'] : [' (', ')'];
    const separator = language === 'zh' ? '，' : ', ';
    const text = `${n(want.value)}${open}p = ${want.position}${separator}j = ${want.column}${close}`;
    assert(largest === text, `${format}: largest ${largest}, want ${text}`);
  }
}

function expectReplays(neoxText, bfloat16Text, diffusersText) {
  for (const expected of [
    `1857 × ${n(neoxW, 6)} = ${n(neox.exactAngle, 8)}`,
    `1857 × ${n(neox.halfFrequency, 6)} → ${n(neox.halfAngle, 8)}`,
    n(Math.cos(neox.halfAngle), 4),
    n(Math.cos(neox.exactAngle), 4),
    n(neox.half.value, 4),
    String(neox.half.position),
    n(neox.single.value),
  ])
    assert(neoxText.includes(expected), `gpt-neox replay lacks ${expected}: ${neoxText}`);
  assert(neox.halfAngle === 1045 && n(neox.half.value, 4) === '0.7819', 'reference: the issue reports 1045 and 0.7819');
  for (const expected of [n(rowsApart), ' 0'])
    assert(bfloat16Text.includes(expected), `bfloat16 replay lacks ${expected}: ${bfloat16Text}`);
  for (const expected of [` ${diffusers.half.distinct} `, n(diffusers.half.value), n(diffusers.single.value), '65536'])
    assert(diffusersText.includes(expected), `diffusers replay lacks "${expected}": ${diffusersText}`);
  assert(diffusers.half.distinct === 2, `reference: ${diffusers.half.distinct} distinct rows`);
}

async function axeOn(page, selector) {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async (target) => {
    const result = await window.axe.run(target, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }, selector);
}

const desktop = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: 'en-US' });
const page = await openSection(desktop, `?dModel=${D}&length=${L}`);

await check('English: the facts of every format and the largest error up to L equal the references', async () => {
  expectFacts(await factsOf(page), 'en');
  const want = tableError('float16', L, D);
  const note = await textOf(page, 'precision-largest');
  const expected = `Through float16, the largest error up to L = ${L} is ${n(want.value)}, at p = ${want.position}, j = ${want.column}`;
  assert(note.startsWith(expected), `${note}\nwant ${expected}`);
  return note;
});

await check(
  'English: the replays (gpt-neox #1003, bfloat16 256 = 257, diffusers #13920) carry the reference numbers',
  async () => {
    expectReplays(
      await textOf(page, 'precision-neox'),
      await textOf(page, 'precision-bfloat16'),
      await textOf(page, 'precision-diffusers'),
    );
  },
);

await check('the map shows the chosen path: bfloat16 from the control, in the URL too', async () => {
  await page.selectOption('#c-precision-precision', 'bfloat16');
  const want = tableError('bfloat16', L, D);
  await page.waitForFunction(
    (text) => document.querySelector('[data-testid="precision-largest"]')?.textContent.startsWith(text),
    `Through bfloat16, the largest error up to L = ${L} is ${n(want.value)}, at p = ${want.position}, j = ${want.column}`,
    { timeout: 30000 },
  );
  await page.waitForFunction(() => location.search.includes('precision=bfloat16'), null, { timeout: 5000 });
  const label = await page.locator('[data-plot="precision"] .posenc-surface').first().getAttribute('aria-label');
  assert(/bfloat16/.test(label) && label.includes(`${L} positions by ${D} dimensions`), label);
  assert(page.problems.length === 0, page.problems.join('\n'));
  await page.locator('#precision').screenshot({ path: `${artifacts}/precision-en.png` });
});

await check('Chinese: the same numbers in Chinese text', async () => {
  await page.selectOption('#language', 'zh');
  await page.waitForFunction(() => document.getElementById('h-precision').textContent.includes('半精度'), null, {
    timeout: 10000,
  });
  await page.waitForFunction(
    () => document.querySelector('[data-testid="precision-neox"]')?.textContent.includes('特征'),
    null,
    {
      timeout: 20000,
    },
  );
  expectFacts(await factsOf(page), 'zh');
  const neoxText = await textOf(page, 'precision-neox');
  expectReplays(neoxText, await textOf(page, 'precision-bfloat16'), await textOf(page, 'precision-diffusers'));
  const caption = await page.locator('[data-plot="precision"] .posenc-facts caption').innerText();
  assert(/[\u4e00-\u9fff]/.test(caption) && !/format/.test(caption), caption);
  await page.locator('#precision').screenshot({ path: `${artifacts}/precision-zh.png` });
  assert(page.problems.length === 0, page.problems.join('\n'));
});
await page.close();

await check('phone width (360 px): the section fits in both languages, no axe violations in it', async () => {
  const phone = await browser.newContext({
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
  });
  const small = await openSection(phone, '?precision=float32');
  for (const language of ['en', 'zh']) {
    await small.selectOption('#language', language);
    await small.waitForTimeout(500);
    const sticking = await small.evaluate(() =>
      [...document.querySelectorAll('#precision *')]
        .filter((node) => node.getBoundingClientRect().right > window.innerWidth + 1 && !node.closest('.katex'))
        .slice(0, 3)
        .map((node) => `${node.tagName}.${node.className} at ${Math.round(node.getBoundingClientRect().right)}px`),
    );
    assert(sticking.length === 0, `${language}: sticking out: ${sticking.join(', ')}`);
    const violations = await axeOn(small, '#precision');
    assert(violations.length === 0, `${language}: ${violations.join('\n')}`);
  }
  await small.locator('#precision').screenshot({ path: `${artifacts}/precision-phone.png` });
  assert(small.problems.length === 0, small.problems.join('\n'));
  await phone.close();
});

await check(
  'embed.html?plot=precision: <posenc-precision> draws the float32 path with the reference numbers',
  async () => {
    const embed = await watchedPage(desktop);
    await embed.goto(`${server.url}embed.html?plot=precision&dModel=32&length=300&precision=float32`);
    await embed.waitForSelector('posenc-precision [data-testid="precision-largest"]', { timeout: 60000 });
    const want = tableError('float32', 300, 32);
    const note = await embed.locator('posenc-precision [data-testid="precision-largest"]').innerText();
    const expected = `Through float32, the largest error up to L = 300 is ${n(want.value)}, at p = ${want.position}, j = ${want.column}`;
    assert(note.startsWith(expected), `${note}\nwant ${expected}`);
    const state = await embed.locator('posenc-precision').getAttribute('data-state');
    assert(state === 'ready', `state ${state}`);
    const bad = await watchedPage(desktop);
    await bad.goto(`${server.url}embed.html?plot=precision&precision=half`);
    await bad.waitForFunction(() => document.querySelector('posenc-precision')?.dataset.state === 'error', null, {
      timeout: 20000,
    });
    const message = await bad.locator('posenc-precision').evaluate((element) => element.shadowRoot.textContent);
    assert(message.includes('precision') && message.includes('“half”'), message);
    assert(embed.problems.length === 0, embed.problems.join('\n'));
    await embed.close();
    await bad.close();
  },
);

await browser.close();
server.close?.();
finish('precision');
