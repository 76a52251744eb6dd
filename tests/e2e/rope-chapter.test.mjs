// End-to-end checks of the RoPE chapter (and the sinusoidal "why 10000"
// section) in headless Chromium, against the built site (run `npx vite build
// --config web/vite.config.js` first). Every number the sections show is
// checked against a float64 reference computed here with Math.cos.
// Usage: node tests/e2e/rope-chapter.test.mjs — screenshots go to test-results/rope/.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = `${root}dist/site`;
const artifacts = `${root}test-results/rope`;
const require = createRequire(import.meta.url);

if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync(artifacts, { recursive: true });

const SECTIONS = ['why-base', 'rope-relative', 'rope-decay', 'rope-base'];

// ---- float64 references ----

/** base^(-2i/d) for the d/2 pairs. */
const ladder = (d, base) => Array.from({ length: d / 2 }, (_, i) => base ** ((-2 * i) / d));
const cosineSum = (w, m) => w.reduce((sum, x) => sum + Math.cos(m * x), 0);
/** The first m < limit with sum_i cos(m w_i) < 0, or limit. */
function firstNegative(w, limit) {
  for (let m = 0; m < limit; m++) if (cosineSum(w, m) < 0) return m;
  return limit;
}
/** The criterion of Men et al. 2024 (arXiv 2405.14591) for (d, L) at `base`. */
const holds = (d, L, base) => firstNegative(ladder(d, base), L) === L;
/** The largest cosine similarity of two rows of the paper's table at least `apart` apart, L rows, width d. */
function largestSimilarity(d, L, base, apart) {
  const w = ladder(d, base);
  let best = -Infinity;
  for (let j = apart; j < L; j++) best = Math.max(best, cosineSum(w, j) / (d / 2));
  return best;
}
/** Dimensions of the paper's table (two per pair) that turn less than one radian across L rows. */
const slowDimensions = (d, L, base) => 2 * ladder(d, base).filter((w) => (L - 1) * w < 1).length;
/** RoFormer's relative upper bound (1/d) sum_{j=1..d/2} |S_j|, S_j = sum_{l<j} e^{i m w_l}. */
function roformerBound(d, base, m) {
  const w = ladder(d, base);
  let [re, im, sum] = [0, 0, 0];
  for (const x of w) {
    re += Math.cos(m * x);
    im += Math.sin(m * x);
    sum += Math.hypot(re, im);
  }
  return sum / (d / 2);
}

/** The numbers in a text, digit groups joined: "1,707 of 2.5e-3" -> [1707, 0.0025]. */
const numbersIn = (text) =>
  [...text.replaceAll(/(\d),(\d{3})/g, '$1$2').matchAll(/-?\d+(\.\d+)?(e[+-]?\d+)?/g)].map((m) => Number(m[0]));
/** `shown` is `value` to the 3 significant digits the page prints. */
const closeTo = (shown, value, digits = 3) =>
  Math.abs(shown - value) <= 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(value))) - digits + 1) * 1.0001;

const server = await serveStatic(site);
const browser = await launchChromium();

/** The RoPE chapter (or `file`: "why 10000" is the sinusoidal chapter's). */
async function openPage(context, query = '', file = 'rope.html') {
  const page = await watchedPage(context);
  await page.goto(`${server.url}${file}${query}`);
  await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
  return page;
}

/** Scrolls each section of the document into view and waits until its plot is drawn. */
async function waitForSections(page) {
  for (const name of SECTIONS) {
    if ((await page.locator(`[data-plot="${name}"]`).count()) === 0) continue;
    await page.locator(`[data-plot="${name}"]`).scrollIntoViewIfNeeded();
    await page.waitForSelector(`[data-plot="${name}"] .posenc-plot`, { timeout: 30000 });
  }
}

/** The text of a note (by its test id), once it includes `wanted` (waits up to 30 s). */
async function noteText(page, testId, wanted = '') {
  const selector = `[data-testid="${testId}"]`;
  await page.waitForFunction(
    ([sel, want]) => document.querySelector(sel)?.textContent.includes(want),
    [selector, wanted],
    {
      timeout: 30000,
    },
  );
  return page.textContent(selector);
}

const captionOf = (page, name) => page.textContent(`[data-plot="${name}"] .posenc-caption`);

/** Serious and critical axe-core violations inside the chapter's sections. */
async function axeViolations(page) {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const include = [
      '#rope',
      '#controls',
      ...['why-base', 'rope-relative', 'rope-decay', 'rope-base'].map((name) => `section[aria-labelledby="h-${name}"]`),
    ].filter((selector) => document.querySelector(selector));
    const result = await window.axe.run(
      { include: include.map((selector) => [selector]) },
      { resultTypes: ['violations'] },
    );
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

try {
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  // Su Jianlin's example: d = 128, L = 1024.
  const page = await openPage(desktop, '?context=1024&p=20&k=8');
  await waitForSections(page);

  await check(
    'choosing the base: the smallest base for d 128, L 1024 meets the criterion, none below it on the grid',
    async () => {
      const text = await noteText(page, 'rope-base-smallest', '1,024');
      const [, , , shown] = numbersIn(text); // "... m < 1024 at d = 128: <base>."
      assert(Math.abs(shown - 4.3e3) < 50, `not Su Jianlin's ≈4.3e3: ${text}`);
      assert(holds(128, 1024, shown * (1 + 1e-5)), `the criterion fails just above ${shown}`);
      assert(!holds(128, 1024, shown * (1 - 1e-5)), `the criterion holds just below ${shown}`);
      // Every grid point below (256 a doubling from 1, as documented) fails.
      for (let k = 0; 2 ** (k / 256) < shown * (1 - 1e-5); k++)
        assert(!holds(128, 1024, 2 ** (k / 256)), `the criterion holds at 2^(${k}/256) = ${2 ** (k / 256)}`);
      return text;
    },
  );

  await check('the presets table fits its box at 1280 px in English and Chinese (no sideways scrolling)', async () => {
    const widths = [];
    // A context of its own: the language chosen here is remembered, and the other checks read English.
    const own = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const table = await openPage(own, '', 'implementations.html');
    for (const language of ['en', 'zh']) {
      await table.selectOption('#language', language);
      await table.waitForFunction(
        (lang) => document.documentElement.lang.startsWith(lang) && document.querySelector('#presets tbody tr'),
        language,
      );
      await table.locator('#presets').scrollIntoViewIfNeeded();
      const box = await table.evaluate(() => {
        const scroll = document.querySelector('#presets').closest('.table-scroll');
        return {
          scrollWidth: scroll.scrollWidth,
          clientWidth: scroll.clientWidth,
          rows: scroll.querySelectorAll('tbody tr').length,
        };
      });
      assert(box.rows === 6, `${language}: ${box.rows} rows`);
      assert(
        box.scrollWidth <= box.clientWidth,
        `${language}: table ${box.scrollWidth} px in a ${box.clientWidth} px box`,
      );
      await table.locator('#presets').screenshot({ path: `${artifacts}/presets-${language}-1280.png` });
      widths.push(`${language} ${box.scrollWidth}/${box.clientWidth}`);
    }
    assert(table.problems.length === 0, table.problems.join('\n'));
    await own.close();
    return widths.join(', ');
  });

  await check('choosing the base: the contexts of 10000, 500000 and 1e6 at d 128', async () => {
    const found = [];
    for (const base of [1e4, 5e5, 1e6]) {
      const text = await noteText(page, `rope-base-${base}`);
      const reference = firstNegative(ladder(128, base), 1 << 19);
      assert(numbersIn(text).includes(reference), `${base}: ${text} (reference ${reference})`);
      assert(text.includes(reference >= 1024 ? 'enough for' : 'fewer than'), text);
      found.push(`${base}: ${reference}`);
    }
    return found.join(', ');
  });

  await check('why 10000: similarity, slow dimensions and the smallest base for d 128, L 256, k 8', async () => {
    // Its section is in the sinusoidal chapter; the same link's settings.
    const page = await openPage(desktop, '?context=1024&p=20&k=8', 'sinusoidal.html');
    await waitForSections(page);
    const text = await noteText(page, 'why-base-current', 'At base 10,000');
    const [, similarity, slow, d] = numbersIn(text).filter((v) => v !== 8);
    assert(closeTo(similarity, largestSimilarity(128, 256, 1e4, 8)), `similarity ${similarity}: ${text}`);
    assert(slow === slowDimensions(128, 256, 1e4) && d === 128, `slow dimensions: ${text}`);
    const smallestText = await noteText(page, 'why-base-smallest');
    const smallest = Number(/is ([\d.]+):/.exec(smallestText)?.[1]);
    assert(holds(128, 256, smallest * (1 + 1e-5)) && !holds(128, 256, smallest * (1 - 1e-5)), smallestText);
    assert(smallestText.includes(smallest <= 1e4 ? 'above it' : 'below it'), smallestText);
    assert(page.problems.length === 0, page.problems.join('; '));
    await page.close();
    return `${text} ${smallestText}`;
  });

  await check('long-term decay: the bound at 0 and at the last offset, and the score on s(m)/(d/2)', async () => {
    const text = await noteText(page, 'rope-decay-bound');
    const [, , atZero, , last, window] = numbersIn(text); // "(1/(d/2))·Σ|S_j| falls from A at k = 0 to B at k = W (..%)"
    assert(window === 1023, `window ${window}: ${text}`);
    assert(closeTo(atZero, roformerBound(128, 1e4, 0)), `at 0: ${atZero} vs ${roformerBound(128, 1e4, 0)}`);
    assert(
      closeTo(last, roformerBound(128, 1e4, window)),
      `at ${window}: ${last} vs ${roformerBound(128, 1e4, window)}`,
    );
    const agreement = await noteText(page, 'rope-decay-agreement');
    assert(numbersIn(agreement)[numbersIn(agreement).length - 1] < 1e-12, agreement);
    return `${text} ${agreement}`;
  });

  await check(
    'from adding to rotating: the curves coincide, and the layouts agree only after the permutation',
    async () => {
      const caption = await captionOf(page, 'rope-relative');
      const [starts, spread, permuted, unpermuted] = numbersIn(caption);
      assert(starts === 3 && spread < 1e-12, `curves: ${caption}`);
      assert(permuted < 1e-12 && unpermuted > 1e-3, `layouts: ${caption}`);
      const labels = await page.$$eval('[data-plot="rope-relative"] .posenc-key li', (items) =>
        items.map((i) => i.textContent),
      );
      assert(labels.join('|') === 'q at position 20|q at position 120|q at position 1,020', labels.join('|'));
      return caption;
    },
  );

  await check('the sections follow their controls: head dimension and context sliders', async () => {
    const setSlider = (name, value) =>
      page.$eval(
        `form[data-knobs] [name="${name}"]`,
        (input, v) => {
          input.value = String(v);
          input.dispatchEvent(new Event('input', { bubbles: true }));
        },
        value,
      );
    await setSlider('context', 11); // 2^11 = 2048
    const text = await noteText(page, 'rope-base-smallest', '2,048');
    const shown = numbersIn(text).find((v) => v > 1000 && v !== 2048 && v !== 128);
    assert(holds(128, 2048, shown * (1 + 1e-5)) && !holds(128, 2048, shown * (1 - 1e-5)), text);
    await setSlider('ropeDim', 64);
    const reference = firstNegative(ladder(64, 1e4), 1 << 19);
    const marked = await noteText(page, 'rope-base-10000', `at k = ${reference.toLocaleString('en-US')},`);
    assert(marked.includes(reference >= 2048 ? 'enough for L = 2,048' : 'fewer than L = 2,048'), marked);
    assert(numbersIn(marked).includes(reference), `${marked} (reference ${reference})`);
    await page.waitForFunction(
      () => location.search.includes('ropeDim=64') && location.search.includes('context=2048'),
    );
    return `${text} ${marked}`;
  });

  await check('Chinese: headings, notes and captions in Chinese with the same numbers', async () => {
    await page.selectOption('#language', 'zh');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    const heading = await page.textContent('#h-rope');
    assert(heading.includes('旋转位置编码'), heading);
    const text = await noteText(page, 'rope-base-10000', '基数');
    const reference = firstNegative(ladder(64, 1e4), 1 << 19);
    assert(numbersIn(text).includes(reference) && /首次为负/.test(text), text);
    // Off-screen plots redraw when they come into view or the page is idle.
    await page.locator('[data-plot="rope-relative"]').scrollIntoViewIfNeeded();
    await page
      .waitForFunction(
        () => document.querySelector('[data-plot="rope-relative"] .posenc-caption')?.textContent.includes('曲线'),
        null,
        { timeout: 20000 },
      )
      .catch(() => {});
    const caption = await captionOf(page, 'rope-relative');
    assert(/曲线相差不超过/.test(caption), caption);
    const label = await page.textContent('label[for="c-rope-decay-context"]');
    assert(label.includes('上下文长度'), label);
    await page.selectOption('#language', 'en');
    return text;
  });

  await check('axe-core finds no serious or critical violations in the chapter', async () => {
    const violations = await axeViolations(page);
    assert(violations.length === 0, violations.join('\n'));
    assert(page.problems.length === 0, page.problems.join('\n'));
  });
  await page.locator('#rope').screenshot({ path: `${artifacts}/chapter-heading.png` });
  await page.close();
  await desktop.close();

  const frame = await browser.newContext({ viewport: { width: 720, height: 700 } });
  await check(
    'embed.html plot=rope-relative renders <posenc-rope-relative>, in both languages and with its attributes',
    async () => {
      const shown = [];
      for (const [query, start, wanted] of [
        ['plot=rope-relative', 10, 'q at position 10'],
        ['plot=rope-relative&ropeDim=64&ropeLayout=interleaved&p=3&base=500000&lang=zh', 3, 'q 在位置 3'],
      ]) {
        const embed = await watchedPage(frame);
        await embed.goto(`${server.url}embed.html?${query}`);
        await embed.waitForFunction(
          () => document.querySelector('posenc-rope-relative')?.dataset.state === 'ready',
          null,
          {
            timeout: 20000,
          },
        );
        const caption = await embed.locator('posenc-rope-relative .posenc-caption').textContent();
        const key = await embed.locator('posenc-rope-relative .posenc-key li').first().textContent();
        const [, spread, permuted] = numbersIn(caption);
        assert(key === wanted, `key ${key}`);
        assert(spread < 1e-12 && permuted < 1e-12, caption);
        const paths = await embed.locator('posenc-rope-relative svg path').count();
        assert(paths >= 3, `${paths} paths`);
        assert(
          start === 3 ? caption.includes('前后对半') : caption.includes('interleaved'),
          `other layout: ${caption}`,
        );
        await embed.screenshot({ path: `${artifacts}/embed-rope-relative-${start}.png` });
        assert(embed.problems.length === 0, embed.problems.join('\n'));
        shown.push(caption);
        await embed.close();
      }
      return shown.join(' | ');
    },
  );
  await frame.close();
} finally {
  await browser.close();
  await server.close();
}
finish('rope chapter');
