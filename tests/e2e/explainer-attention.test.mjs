// End-to-end checks of the sections on attention, sine and cosine, the
// training length and the FAQ (issue #20), in headless Chromium: each renders
// and is reachable by its URL anchor, the numbers it shows equal float64
// references computed here (in English and Chinese), they follow the controls
// and the URL, and each plot renders as an element and in embed.html (phone
// width and axe-core: chapters.test.mjs, for every document). Needs the built site (`npx vite build --config
// web/vite.config.js`); builds the elements bundle if it is missing.
// Usage: node tests/e2e/explainer-attention.test.mjs   — screenshots go to test-results/e2e/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tokenVector } from '../../web/model/attention-data.js';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = `${root}dist/site`;
const artifacts = `${root}test-results/e2e`;
const PLOTS = ['attention', 'attention-rows', 'sine-only', 'sine-fit', 'extrapolation', 'token-scale'];
const SECTIONS = ['h-attention', 'h-sine-cosine', 'h-extrapolation', 'h-faq'];

if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync(artifacts, { recursive: true });

// ---- float64 references: the paper's encoding (pairs only), s(k), M_k, softmax.
const TWO_PI = 2 * Math.PI;
const omega = (i, d, base) => base ** ((-2 * i) / d);
const pairsOf = (d) => Math.floor(d / 2);
function pe(pos, d, base) {
  const row = new Float64Array(d);
  for (let i = 0; i < pairsOf(d); i++) {
    row[2 * i] = Math.sin(pos * omega(i, d, base));
    row[2 * i + 1] = Math.cos(pos * omega(i, d, base));
  }
  return row;
}
const s = (m, d, base) => {
  let sum = 0;
  for (let i = 0; i < pairsOf(d); i++) sum += Math.cos(m * omega(i, d, base));
  return sum;
};
const dot = (a, b) => a.reduce((sum, value, j) => sum + value * b[j], 0);
function rotate(v, k, d, base) {
  const out = Float64Array.from(v);
  for (let i = 0; i < pairsOf(d); i++) {
    const [c, sn] = [Math.cos(omega(i, d, base) * k), Math.sin(omega(i, d, base) * k)];
    out[2 * i] = v[2 * i] * c + v[2 * i + 1] * sn;
    out[2 * i + 1] = v[2 * i + 1] * c - v[2 * i] * sn;
  }
  return out;
}

/** Everything the notes quote, for a state, computed here. */
function references({ dModel: d, base, length: L, position: p, offset: k, dimension: j }) {
  const reach = 48;
  const offsets = Array.from({ length: reach + Math.min(reach, p) + 1 }, (_, n) => n - Math.min(reach, p));
  const scores = offsets.map((m) => s(m + k, d, base) / Math.sqrt(d));
  const plainScores = offsets.map((m) => s(m, d, base) / Math.sqrt(d));
  const weightAt = (values, m) => {
    const top = Math.max(...values);
    const total = values.reduce((a, v) => a + Math.exp(v - top), 0);
    return Math.exp(values[offsets.indexOf(m)] - top) / total;
  };
  // The look-back counts over the window 0 … N − 1.
  const size = Math.min(L, 512, Math.max(128, k + 64));
  const rows = Array.from({ length: size }, (_, q) => pe(q, d, base));
  const count = (scale) => {
    const u = rows.map((row, q) => {
      const token = tokenVector(d, q, scale);
      return row.map((v, c) => v + token[c]);
    });
    const keys = u.map((row) => rotate(row, k, d, base));
    let hits = 0;
    for (let q0 = k; q0 < size; q0++) {
      let [best, at] = [-Infinity, -1];
      for (let q = 0; q < size; q++) {
        const value = dot(u[q0], keys[q]);
        if (value > best) [best, at] = [value, q];
      }
      if (at === q0 - k) hits++;
    }
    return hits;
  };
  const pairs = pairsOf(d);
  let zero = 0;
  for (let i = 0; i < pairs; i++) zero += Math.sin(k * omega(i, d, base)) ** 2;
  const pair = Math.min(Math.floor(j / 2), pairs - 1);
  const theta = (omega(pair, d, base) * p) % TWO_PI;
  let [incomplete, first, unseen] = [0, -1, 0];
  for (let i = 0; i < pairs; i++) {
    const w = omega(i, d, base);
    if (w * (L - 1) >= TWO_PI) continue;
    incomplete++;
    if (first < 0) first = i;
    if (w * p - TWO_PI * Math.floor((w * p) / TWO_PI) > w * (L - 1)) unseen++;
  }
  const token = tokenVector(d, p, 1);
  const row = pe(p, d, base);
  return {
    symmetry: [s(-k, d, base), s(k, d, base), s(0, d, base), s(2 * k, d, base)],
    weights: p >= k ? [weightAt(plainScores, -k), weightAt(scores, -k)] : null,
    counts: { rows: size - k, unscaled: count(1), scaled: count(Math.sqrt(d)) },
    zeroNorm: Math.sqrt(zero),
    mirror: [theta, (Math.PI - theta + TWO_PI) % TWO_PI, ((Math.PI - theta + TWO_PI) % TWO_PI) / omega(pair, d, base)],
    extrapolation: {
      incomplete,
      first,
      unseen,
      degrees: Math.min(1, (omega(pairs - 1, d, base) * (L - 1)) / TWO_PI) * 360,
    },
    norms: [Math.sqrt(pairs), Math.sqrt(dot(token, token)), Math.sqrt(dot(token, token) * d)],
    cosine: dot(row, token) / Math.sqrt(dot(row, row) * dot(token, token)),
    uniform: 1 / (p + 1),
  };
}

// ---- reading the notes
/** The decimal numbers of a text (ASCII minus signs only: "p − 8" is no number). */
const decimals = (text) => [...text.matchAll(/-?\d+\.\d+(?:e[+-]?\d+)?/g)].map((m) => Number(m[0]));
/** The numbers after "= " (values, not indices). */
const valuesAfterEquals = (text) =>
  [...text.matchAll(/= (-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)(?![\d(])/g)].map((m) => Number(m[1]));
/** |shown − want| within what `digits` significant digits can show. */
function near(shown, want, digits, what) {
  const tolerance = Math.max(Math.abs(want), 1e-300) * 10 ** (1 - digits) * 0.51 + 1e-12;
  assert(Math.abs(shown - want) <= tolerance, `${what}: shows ${shown}, reference ${want}`);
}
const pct = (value) => `${Number((100 * value).toPrecision(3))}%`;

/** Per language, the fragments of the fraction note that carry the counts. */
const fractionFragments = {
  en: ({ rows, unscaled, scaled }, k) => [
    `for 0 of ${rows} with the plain dot product`,
    `, ${rows} with M_${k},`,
    `${unscaled} (${pct(unscaled / rows)}) with tokens of norm ≈ 1`,
    `${scaled} (${pct(scaled / rows)}) with tokens × √d`,
  ],
  zh: ({ rows, unscaled, scaled }, k) => [
    `普通点积有 0 个`,
    `用 M_${k} 有 ${rows} 个`,
    `有 ${unscaled} 个（${pct(unscaled / rows)}）`,
    `词元乘以 √d 后有 ${scaled} 个（${pct(scaled / rows)}）`,
  ],
};

const NOTE_IDS = [
  'attention-symmetry',
  'attention-weight',
  'attention-fractions',
  'fit-residual',
  'fit-zero',
  'fit-spread',
  'fit-mirror',
  'extrapolation-count',
  'extrapolation-p',
  'faq-norms',
  'faq-cosine',
  'faq-nope',
];
/** A predicate for notes(): every note there, in `language`, and `also` holds. */
const settled =
  (language, also = () => true) =>
  (found) =>
    NOTE_IDS.every((id) => found[id] && /[\u4e00-\u9fff]/.test(found[id]) === (language === 'zh')) && also(found);

/** The notes' texts of the page's plots, by test id, once `ready(notes)` holds (10 s at most). */
async function notes(page, ready = () => true) {
  const read = () =>
    page.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll('main [data-testid]')].map((node) => [node.dataset.testid, node.textContent]),
      ),
    );
  const deadline = Date.now() + 10000;
  for (;;) {
    const found = await read();
    if (ready(found) || Date.now() > deadline) return found;
    await page.waitForTimeout(200);
  }
}

/** Checks every note against the references of `state` in `language`. */
function checkNotes(found, state, language) {
  const want = references(state);
  const { offset: k, position: p, length: L } = state;
  const symmetry = valuesAfterEquals(found['attention-symmetry'] ?? '');
  assert(symmetry.length === 4, `attention-symmetry: ${found['attention-symmetry']}`);
  symmetry.forEach((value, n) => near(value, want.symmetry[n], 6, `attention-symmetry ${n}`));
  if (want.weights) {
    const weights = decimals(found['attention-weight']);
    near(weights[0], want.weights[0], 3, 'softmax weight, plain');
    near(weights[1], want.weights[1], 3, 'softmax weight, M_k');
  }
  for (const fragment of fractionFragments[language](want.counts, k))
    assert(
      found['attention-fractions'].includes(fragment),
      `attention-fractions lacks “${fragment}”: ${found['attention-fractions']}`,
    );
  near(decimals(found['fit-zero']).at(-1), want.zeroNorm, 4, 'fit-zero norm');
  const mirror = decimals(found['fit-mirror']);
  want.mirror.forEach((value, n) => near(mirror[n], value, 4, `fit-mirror ${n}`));
  const count = found['extrapolation-count'];
  const { incomplete, first, unseen, degrees } = want.extrapolation;
  const pairs = pairsOf(state.dModel);
  assert(
    language === 'en'
      ? count.includes(`pairs ${first} … ${pairs - 1} (${incomplete} of ${pairs})`)
      : count.includes(`维度对 ${first} … ${pairs - 1}（${pairs} 对中的 ${incomplete} 对）`),
    `extrapolation-count: ${count}`,
  );
  near(decimals(count).at(-1), degrees, 3, 'degrees of the slowest pair');
  const atP = found['extrapolation-p'];
  if (p >= L)
    assert(
      atP.includes(language === 'en' ? `${unseen} of the ${incomplete} pairs` : `${incomplete} 对中有 ${unseen} 对`),
      `extrapolation-p: ${atP}`,
    );
  else assert(atP.includes(`p = ${p}`) && unseen === 0, `extrapolation-p: ${atP}`);
  const norms = decimals(found['faq-norms'].replace(/√d = [\d.]+/, ''));
  near(Number(/\|PE\(p\)\| = ([\d.]+)/.exec(found['faq-norms'])[1]), want.norms[0], 4, '|PE(p)|');
  near(norms.at(-2), want.norms[1], 3, 'token norm');
  near(norms.at(-1), want.norms[2], 3, 'token norm × √d');
  near(decimals(found['faq-cosine'])[0], want.cosine, 2, 'cosine');
  near(decimals(found['faq-nope']).at(-1), want.uniform, 3, '1/(p + 1)');
  // Chinese text in Chinese, none in English.
  const han = /[\u4e00-\u9fff]/;
  for (const id of ['attention-symmetry', 'fit-residual', 'extrapolation-count', 'faq-norms'])
    assert(han.test(found[id]) === (language === 'zh'), `${id} in ${language}: ${found[id]}`);
}

const server = await serveStatic(site);
const browser = await launchChromium();

async function openPage(context, query = '') {
  const page = await watchedPage(context);
  await page.goto(`${server.url}sinusoidal.html${query}`);
  await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 20000 });
  return page;
}

/** Scrolls through the new sections so that each plot is drawn, and waits for all of them. */
async function drawAll(page) {
  for (const id of SECTIONS) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await page.waitForTimeout(150);
  }
  await page.waitForFunction(
    (names) => names.every((name) => document.querySelector(`[data-plot="${name}"] .posenc-plot`)),
    PLOTS,
    { timeout: 20000 },
  );
}

const DEFAULTS = { dModel: 128, base: 10000, length: 256, position: 10, offset: 8, dimension: 6 };

try {
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await openPage(desktop);

  await check(
    'the four sections render, each plot drawn, and the notes equal float64 references (English)',
    async () => {
      await drawAll(page);
      const found = await notes(page, settled('en'));
      checkNotes(found, DEFAULTS, 'en');
      const painted = await page.evaluate(() => {
        const canvas = document.querySelector('[data-plot="attention"] canvas');
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let count = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i]) count++;
        return count;
      });
      assert(painted > 10000, `the attention matrix painted ${painted} pixels`);
      const curves = await page.evaluate(
        (names) => names.map((name) => document.querySelectorAll(`[data-plot="${name}"] svg path`).length),
        ['attention-rows', 'sine-only', 'sine-fit', 'extrapolation', 'token-scale'],
      );
      assert(
        curves.every((count) => count >= 2),
        `curves drawn: ${curves}`,
      );
      // Section 4 no longer claims that the encoding extrapolates; it points to the section that says what happens.
      const rowText = await page.textContent('section[aria-labelledby="h-row"] .text');
      assert(!/extrapolate/.test(rowText) && rowText.includes('Beyond the training length'), `row text: ${rowText}`);
      assert(page.problems.length === 0, page.problems.join('\n'));
      return found['attention-fractions'];
    },
  );

  await check('the same in Chinese', async () => {
    await page.selectOption('#language', 'zh');
    await drawAll(page);
    const found = await notes(page, settled('zh'));
    checkNotes(found, DEFAULTS, 'zh');
    const title = await page.textContent('#h-attention');
    assert(title.includes('注意力'), `heading: ${title}`);
    const rowText = await page.textContent('section[aria-labelledby="h-row"] .text');
    assert(!rowText.includes('可以外推') && rowText.includes('超出训练长度'), `row text: ${rowText}`);
    await page.selectOption('#language', 'en');
  });

  await check("the notes follow the controls (k and p moved by the attention section's sliders)", async () => {
    const state = { ...DEFAULTS, offset: 5, position: 300 };
    await page.evaluate(({ offset, position }) => {
      for (const [name, value] of [
        ['offset', offset],
        ['position', position],
      ]) {
        const input = document.querySelector(`form[data-knobs="attention"] [name="${name}"]`);
        input.value = String(value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
    }, state);
    await drawAll(page);
    const found = await notes(
      page,
      settled('en', (n) => n['extrapolation-p'].includes('p = 300') && n['attention-symmetry'].includes('p − 5')),
    );
    checkNotes(found, state, 'en');
    await page.waitForFunction(() => location.search.includes('k=5'), null, { timeout: 5000 });
    return found['extrapolation-p'];
  });

  await check('a URL with other settings and a section anchor opens that section with its numbers', async () => {
    const state = { ...DEFAULTS, dModel: 64, length: 128, base: 2000, position: 200, offset: 3, dimension: 9 };
    const other = await openPage(desktop, '?dModel=64&length=128&base=2000&p=200&k=3&j=9#h-extrapolation');
    // In view (sections above it take their real height as they render, which may move it a little).
    const box = await other.evaluate(() => {
      const { top, bottom } = document
        .querySelector('section[aria-labelledby="h-extrapolation"]')
        .getBoundingClientRect();
      return { top, bottom, height: window.innerHeight };
    });
    assert(box.top < box.height / 2 && box.bottom > box.height / 2, `#h-extrapolation: ${JSON.stringify(box)}`);
    await drawAll(other);
    const found = await notes(
      other,
      settled('en', (n) => n['extrapolation-p'].includes('p = 200') && n['faq-norms'].includes('d = 64')),
    );
    checkNotes(found, state, 'en');
    assert(other.problems.length === 0, other.problems.join('\n'));
    await other.close();
  });

  await check('embed.html shows each new plot, with its notes in the language asked for', async () => {
    const frame = await watchedPage(desktop);
    const shown = [];
    for (const plot of PLOTS) {
      await frame.goto(`${server.url}embed.html?plot=${plot}&dModel=64&length=96&p=20&k=3&lang=zh`);
      const tag = `posenc-${plot}`;
      await frame.waitForFunction((tag) => document.querySelector(tag)?.dataset.state === 'ready', tag, {
        timeout: 20000,
      });
      const inside = await frame.evaluate((tag) => {
        const shadow = document.querySelector(tag).shadowRoot;
        return {
          paths: shadow.querySelectorAll('svg path').length,
          canvas: shadow.querySelectorAll('canvas').length,
          notes: Object.fromEntries(
            [...shadow.querySelectorAll('[data-testid]')].map((n) => [n.dataset.testid, n.textContent]),
          ),
        };
      }, tag);
      assert(inside.paths > 0 || inside.canvas > 0, `${plot}: nothing drawn`);
      shown.push(plot);
      if (plot === 'attention-rows') {
        const want = references({ ...DEFAULTS, dModel: 64, length: 96, position: 20, offset: 3 });
        valuesAfterEquals(inside.notes['attention-symmetry']).forEach((value, n) =>
          near(value, want.symmetry[n], 6, `embed attention-symmetry ${n}`),
        );
        for (const fragment of fractionFragments.zh(want.counts, 3))
          assert(
            inside.notes['attention-fractions'].includes(fragment),
            `embed fractions: ${inside.notes['attention-fractions']}`,
          );
      }
    }
    assert(frame.problems.length === 0, frame.problems.join('\n'));
    await frame.close();
    return shown.join(', ');
  });

  await check('the elements render on a static page (two of them in Chinese)', async () => {
    const bundle = `${root}dist/elements/posenc-elements.js`;
    if (!existsSync(bundle))
      execFileSync('npx', ['vite', 'build', '--config', 'web/elements/vite.config.js', '--logLevel', 'warn'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const blog = await serveStatic(root);
    try {
      const gallery = await watchedPage(desktop);
      await gallery.goto(`${blog.url}tests/e2e/fixtures/attention-elements.html`);
      for (const plot of PLOTS)
        await gallery.waitForFunction(
          (tag) => document.querySelector(tag)?.dataset.state === 'ready',
          `posenc-${plot}`,
          {
            timeout: 20000,
          },
        );
      const zh = await gallery.evaluate(
        () =>
          document.querySelector('posenc-token-scale').shadowRoot.querySelector('[data-testid="faq-nope"]').textContent,
      );
      assert(zh.includes('1/(p + 1) = 0.0476'), `posenc-token-scale (zh): ${zh}`);
      const unseen = await gallery.evaluate(
        () =>
          document.querySelector('posenc-extrapolation').shadowRoot.querySelector('[data-testid="extrapolation-p"]')
            .textContent,
      );
      const want = references({
        dModel: 64,
        base: 10000,
        length: 96,
        position: 150,
        offset: 8,
        dimension: 6,
      }).extrapolation;
      assert(unseen.includes(`${want.incomplete} 对中有 ${want.unseen} 对`), `posenc-extrapolation (zh): ${unseen}`);
      await gallery.setViewportSize({ width: 1100, height: await gallery.evaluate(() => document.body.scrollHeight) });
      await gallery.waitForTimeout(300);
      await gallery.screenshot({ path: `${artifacts}/attention-elements.png` });
      assert(gallery.problems.length === 0, gallery.problems.join('\n'));
      await gallery.close();
    } finally {
      await blog.close();
    }
  });

  assert(page.problems.length === 0, page.problems.join('\n'));
} finally {
  await browser.close();
  await server.close();
}
finish('explainer-attention');
