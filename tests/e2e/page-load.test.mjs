// The page's first load (docs/performance.md, "The page's first load"): its
// text and formulas come typeset in the HTML and the language chunks (built
// by web/build/vite-rich-text.js), so the page runs no KaTeX at load, in either
// language; and it records the User Timing marks npm run bench reads.
// Usage: node tests/e2e/page-load.test.mjs (after a build of dist/site).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { defaultState } from '../../web/model/state.js';
import { CHAPTERS, PLOTS, TAG_OF_PLOT } from '../../web/model/registry.js';
import { textFacts } from '../../web/model/text-facts.js';
import { launchChromium, traced } from './chromium.mjs';
import { assert, check, finish, firstPlotShown, inFreshPage, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const site = fileURLToPath(new URL('../../dist/site', import.meta.url));
if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// The TeX of every $…$ and $$…$$ of a rich string, in order (display first, as the page's format says).
// A string worded from the settings' facts is shown as at the defaults (the page's first view).
const DEFAULT_FACTS = textFacts(defaultState());
const textOf = (entry) => (typeof entry === 'function' ? entry(DEFAULT_FACTS) : entry);
const mathOf = (entry) =>
  [...textOf(entry).matchAll(/\$\$([\s\S]+?)\$\$|\$([^$]+?)\$/g)].map((m) => (m[1] ?? m[2]).trim());
const TABLES = { en, zh: { ...en, ...zh } };
// The page splits a long formula followed by Chinese punctuation after its last "=", as "A = {}" and
// "B" (web/page/rich-text.js): joined again, and compared without TeX's insignificant spaces.
const rejoined = (texts) =>
  texts.reduce((out, tex) => {
    if (out.at(-1)?.endsWith('= {}')) out[out.length - 1] = `${out.at(-1).slice(0, -2)}${tex}`;
    else out.push(tex);
    return out;
  }, []);
const squeezed = (texts) => texts.map((tex) => tex.replace(/\s+/g, ''));
// A piece of KaTeX's own code, in any bundle that contains its parser.
const KATEX_CODE = 'KaTeX parse error';

const server = await serveStatic(site);
const browser = await launchChromium();

/** A cold page in `locale`: the JS bodies it received are kept (scripts), and the moment of each posenc mark. */
async function coldPage(locale) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await watchedPage(context);
  page.scripts = [];
  page.on('response', async (response) => {
    if (!/\.m?js$/.test(new URL(response.url()).pathname)) return;
    page.scripts.push({ url: response.url(), body: await response.text().catch(() => '') });
  });
  // At the first-plot mark: whether the heatmap's canvas holds pixels yet (the mark says a plot shows its data).
  await page.addInitScript(() => {
    const mark = performance.mark.bind(performance);
    window.__marked = {};
    // Each worker the page starts, and whether the document's body had been parsed yet.
    window.__workers = [];
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(url, options) {
        super(url, options);
        window.__workers.push({ url: String(url), bodyParsed: document.body !== null });
      }
    };
    // The paragraphs of the explanations as the build wrote them, to tell which the page rewrote.
    document.addEventListener('DOMContentLoaded', () => {
      window.__built = [...document.querySelectorAll('[data-i18n-rich]')].map((node) => ({
        key: node.dataset.i18nRich,
        node,
        paragraphs: [...node.children].map((paragraph) => ({ paragraph, html: paragraph.outerHTML })),
      }));
    });
    // Formulas of the page read back as HTML before the first plot (taking apart an explanation),
    // and whether each one's section was on screen.
    window.__formulaReads = [];
    const innerHtml = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML');
    Object.defineProperty(Element.prototype, 'innerHTML', {
      ...innerHtml,
      get() {
        const inPage = this.isConnected && this.matches('span.math, span.math-display');
        if (inPage && !performance.getEntriesByName('posenc:first-plot').length) {
          const { top, bottom } = (this.closest('section') ?? this).getBoundingClientRect();
          window.__formulaReads.push(bottom > 0 && top < innerHeight);
        }
        return innerHtml.get.call(this);
      },
    });
    performance.mark = (name, ...rest) => {
      if (name === 'posenc:first-plot') {
        const canvas = document.querySelector('[data-plot="heatmap"] canvas');
        const pixels = canvas?.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        window.__marked.painted = pixels ? pixels.some((value, index) => index % 4 === 3 && value > 0) : false;
      }
      return mark(name, ...rest);
    };
  });
  await page.goto(`${server.url}sinusoidal.html`);
  await page.waitForFunction(
    () => ['posenc:first-plot', 'posenc:interactive'].every((name) => performance.getEntriesByName(name).length),
    null,
    { timeout: 30000 },
  );
  return { context, page };
}

/** Per [data-i18n-rich] element: its key, the TeX of its typeset formulas, and the language it says it shows. */
const richElements = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[data-i18n-rich]')].map((node) => ({
      key: node.dataset.i18nRich,
      rendered: node.dataset.i18nRendered ?? null,
      tex: [...node.querySelectorAll('.katex annotation[encoding="application/x-tex"]')].map((a) =>
        a.textContent.trim(),
      ),
      // Formulas without KaTeX's HTML markup (the build's MathML-only ones, web/build/vite-rich-text.js).
      mathmlOnly: [...node.querySelectorAll('.katex')].filter((katex) => !katex.querySelector('.katex-html')).length,
      text: node.textContent,
    })),
  );

/**
 * Every rich element shows the formulas of its string in `language`, typeset (KaTeX's markup; with
 * `mathmlAllowed`, some may still be the build's MathML-only ones).
 */
async function formulasMatch(page, language, { mathmlAllowed = false } = {}) {
  const elements = await richElements(page);
  assert(elements.length >= 10, `only ${elements.length} rich elements`);
  let formulas = 0;
  for (const { key, rendered, tex, mathmlOnly } of elements) {
    assert(mathmlAllowed || mathmlOnly === 0, `${key} (${language}): ${mathmlOnly} formulas as MathML only`);
    const expected = mathOf(TABLES[language][key]);
    // A string worded from live facts is worded again once its plot is drawn (from the build's formulas).
    const live = typeof TABLES[language][key] === 'function';
    assert(live || rendered === language, `${key}: data-i18n-rendered is ${rendered}, not ${language}`);
    // (Its formulas then follow the numbers of the plot, which only the page knows: they must be typeset.)
    if (live) {
      assert(tex.length > 0 || expected.length === 0, `${key} (${language}): no formula typeset`);
      formulas += tex.length;
      continue;
    }
    assert(
      JSON.stringify(squeezed(rejoined(tex))) === JSON.stringify(squeezed(expected)),
      `${key} (${language}): typeset ${JSON.stringify(tex).slice(0, 200)}, string has ${JSON.stringify(expected).slice(0, 200)}`,
    );
    formulas += expected.length;
  }
  assert(formulas > 50, `only ${formulas} formulas`);
  return formulas;
}

/** No script the page received contains KaTeX: nothing was typeset at run time. */
function noKatexLoaded(page) {
  const katex = page.scripts.filter(({ body }) => body.includes(KATEX_CODE)).map(({ url }) => url);
  assert(katex.length === 0, `KaTeX's code was loaded: ${katex.join(', ')}`);
  assert(page.scripts.length > 0, 'no scripts seen');
}

try {
  const { context, page } = await coldPage('en-US');

  await check(
    'the served HTML holds the English formulas: typeset, and MathML only from the later chapters on',
    async () => {
      const html = await (await fetch(`${server.url}sinusoidal.html`)).text();
      const count = (part, pattern) => (part.match(pattern) ?? []).length;
      const formulasOf = (part) =>
        Object.values(
          Object.fromEntries(
            [...part.matchAll(/data-i18n-rich="([^"]+)"/g)].map((m) => [m[1], mathOf(en[m[1]]).length]),
          ),
        ).reduce((a, b) => a + b, 0);
      const expected = formulasOf(html);
      assert(
        count(html, /class="katex"/g) === expected,
        `${count(html, /class="katex"/g)} formulas in the HTML, the strings have ${expected}`,
      );
      // Split where the chapter's first later group begins (why sine and cosine): every formula above
      // typeset, every one below MathML only.
      const [first, later] = html.split('aria-labelledby="h-sine-cosine"');
      assert(later !== undefined, 'no sine-cosine section');
      assert(
        count(first, /class="katex-html"/g) === formulasOf(first),
        `above: ${count(first, /class="katex-html"/g)} typeset of ${formulasOf(first)}`,
      );
      // (The attribute of an element, not the page's styles that name it.)
      assert(
        count(first, / data-i18n-mathml-only>/g) === 0,
        'an element above the later chapters is marked MathML only',
      );
      assert(
        count(later, /class="katex-html"/g) === 0,
        `${count(later, /class="katex-html"/g)} typeset formulas in the later chapters`,
      );
      assert(
        count(later, /<math /g) === formulasOf(later),
        `below: ${count(later, /<math /g)} MathML of ${formulasOf(later)}`,
      );
      assert(
        count(later, / data-i18n-mathml-only>/g) === count(later, /data-i18n-rich=/g),
        'a later element not marked',
      );
      // Their one-letter identifiers marked for the page's italic (no math-italic code point to look up).
      const unmarked = later.match(/<mi>[^<]<\/mi>/g) ?? [];
      assert(unmarked.length === 0, `one-letter identifiers not marked: ${unmarked.slice(0, 5).join(' ')}`);
      assert(count(later, /<mi class="letter">/g) > 100, 'too few marked letters');
      return `${expected} formulas, ${formulasOf(later)} of them as MathML (HTML ${Math.round(html.length / 1000)} KB)`;
    },
  );

  await check('a cold load in English typesets nothing: no KaTeX code loaded, every formula in place', async () => {
    noKatexLoaded(page);
    return `${await formulasMatch(page, 'en', { mathmlAllowed: true })} formulas`;
  });

  await check(
    "the later chapters' MathML formulas are replaced by the build's typeset ones after the first view",
    async () => {
      await page.waitForFunction(() => !document.querySelector('[data-i18n-mathml-only]'), null, { timeout: 15000 });
      const formulas = await formulasMatch(page, 'en');
      noKatexLoaded(page);
      return `${formulas} formulas, all typeset`;
    },
  );

  await check(
    'a link to a later section gets its formulas typeset at once, and again if their chunk failed',
    async () => {
      return inFreshPage(browser, async (linked) => {
        let offline = true;
        await linked.route(/\/assets\/later-[\w-]{8}\.js$/, (route) =>
          offline ? route.abort('internetdisconnected') : route.continue(),
        );
        await linked.goto(`${server.url}implementations.html#precision`);
        for (let wait = 0; !linked.problems.some((p) => /later-/.test(p)) && wait < 100; wait++)
          await linked.waitForTimeout(100);
        assert(
          linked.problems.some((p) => /later-/.test(p)),
          `no failed load reported: ${linked.problems.join('; ')}`,
        );
        const waiting = () => linked.evaluate(() => document.querySelectorAll('[data-i18n-mathml-only]').length);
        assert((await waiting()) > 0, 'typeset although the chunk failed');
        offline = false;
        // Back near the top and down again: the later sections near the screen once more.
        await linked.evaluate(() => scrollTo(0, 0));
        await linked.waitForTimeout(300);
        await linked.locator('#precision').scrollIntoViewIfNeeded();
        await linked.waitForFunction(() => !document.querySelector('[data-i18n-mathml-only]'), null, {
          timeout: 10000,
        });
        return `typeset once the chunk came`;
      });
    },
  );

  await check('the load marks exist in order, and the first plot had its pixels when marked', async () => {
    const marks = await page.evaluate(() =>
      Object.fromEntries(
        ['posenc:first-plot', 'posenc:interactive'].map((name) => [name, performance.getEntriesByName(name)]),
      ),
    );
    for (const [name, entries] of Object.entries(marks)) {
      assert(entries.length === 1, `${name}: ${entries.length} marks`);
      assert(entries[0].startTime > 0, `${name} at ${entries[0].startTime}`);
    }
    assert(await page.evaluate(() => window.__marked.painted), 'the heatmap was blank at posenc:first-plot');
    return Object.entries(marks)
      .map(([name, [entry]]) => `${name} ${Math.round(entry.startTime)} ms`)
      .join(', ');
  });

  await check('a later chapter whose code did not arrive is loaded again when it nears the screen', async () => {
    return inFreshPage(browser, async (page) => {
      // The lab's page code (only its chapter imports it) does not arrive while offline.
      let offline = true;
      await page.route(/\/assets\/rope-lab-[\w-]{8}\.js$/, (route) =>
        offline ? route.abort('internetdisconnected') : route.continue(),
      );
      await page.goto(`${server.url}rope.html`);
      // The groups load after the first view: the page reports the lab's failure.
      for (let wait = 0; !page.problems.some((p) => /rope-lab/.test(p)) && wait < 150; wait++)
        await page.waitForTimeout(100);
      assert(
        page.problems.some((p) => /rope-lab/.test(p)),
        `no failed load of the lab's code reported: ${page.problems.join('; ')}`,
      );
      offline = false;
      await page.locator('[data-plot="rope-scaling"]').scrollIntoViewIfNeeded();
      await page.waitForFunction(
        () => document.querySelector('[data-plot="rope-scaling"] svg, [data-plot="rope-scaling"] canvas'),
        null,
        { timeout: 15000 },
      );
      return 'drawn once back online';
    });
  });

  await check('a page opened in a hidden tab (no frames painted) becomes interactive all the same', async () => {
    return inFreshPage(browser, async (hidden) => {
      // A background tab: hidden, and no animation frame ever comes.
      await hidden.addInitScript(() => {
        Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });
        Object.defineProperty(document, 'hidden', { get: () => true });
        window.requestAnimationFrame = () => 0;
      });
      await hidden.goto(`${server.url}sinusoidal.html`);
      // Polled by a timer: Playwright's default polling waits for animation frames, which never come
      // here, so a mark set after the first check was never seen (the check failed 1 time in 4).
      await hidden.waitForFunction(() => performance.getEntriesByName('posenc:interactive').length > 0, null, {
        timeout: 15000,
        polling: 100,
      });
      return 'interactive';
    });
  });

  await check(
    'the first layouts leave the sections below the screen out, however slow the network is for stylesheets',
    async () => {
      return inFreshPage(browser, async (slowPage) => {
        // Every stylesheet fetched comes long after the document is parsed.
        await slowPage.route(/\.css$/, async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 1500));
          await route.continue();
        });
        // Chromium's trace of each layout: how many layout objects it laid out.
        const { result: elements, events } = await traced(slowPage, 'devtools.timeline', async () => {
          await slowPage.goto(`${server.url}sinusoidal.html`);
          await firstPlotShown(slowPage);
          return slowPage.evaluate(() => document.querySelectorAll('*').length);
        });
        const layouts = events.filter((event) => event.name === 'Layout' && event.args?.beginData);
        const largest = Math.max(...layouts.map((event) => event.args.beginData.dirtyObjects ?? 0));
        // The whole page is ~1.35 layout objects per element; the first screen a small part of it.
        assert(layouts.length > 0, 'no layout traced');
        assert(
          largest < 0.4 * elements,
          `a layout of ${largest} objects, for a page of ${elements} elements: the whole page was laid out`,
        );
        return `largest layout ${largest} objects (page: ${elements} elements), ${layouts.length} layouts`;
      });
    },
  );

  await check('the compute worker starts before the document is parsed (the .wasm loads meanwhile)', async () => {
    const workers = await page.evaluate(() => window.__workers);
    const compute = workers.filter(({ url }) => /compute-worker-[\w-]+\.js$/.test(url));
    assert(compute.length === 1, `compute workers started: ${JSON.stringify(workers)}`);
    assert(!compute[0].bodyParsed, 'the compute worker was started after the body was parsed');
    return 'started from <head>';
  });

  await check('the first view asks the worker for its arrays while the core still loads', () =>
    inFreshPage(browser, async (page, context) => {
      // The worker's .wasm held back: the core cannot be ready before it is let go (the first one counts).
      let wasmReleased = null;
      await context.route(/\.wasm$/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        wasmReleased ??= Date.now();
        await route.continue();
      });
      await page.addInitScript(() => {
        window.__asked = [];
        const post = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (message, ...rest) {
          if (message?.type === 'compute' || message?.type === 'section') window.__asked.push(Date.now());
          return post.call(this, message, ...rest);
        };
      });
      await page.goto(`${server.url}sinusoidal.html`);
      await firstPlotShown(page);
      const asked = await page.evaluate(() => window.__asked);
      assert(wasmReleased !== null, 'no .wasm was requested');
      assert(asked.length > 0, 'nothing was asked of the worker');
      assert(
        asked[0] < wasmReleased,
        `the first request came ${asked[0] - wasmReleased} ms after the .wasm was let go`,
      );
      return `asked ${wasmReleased - asked[0]} ms before the .wasm arrived`;
    }),
  );

  await check("the first plot's table is asked for as soon as the page's code runs, before it waits for a frame", () =>
    inFreshPage(browser, async (page) => {
      // What happens, in order: the page's calls to requestAnimationFrame, and what it asks of the worker.
      await page.addInitScript(() => {
        window.__order = [];
        const frame = window.requestAnimationFrame;
        window.requestAnimationFrame = function (callback) {
          window.__order.push('frame');
          return frame.call(this, callback);
        };
        const post = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (message, ...rest) {
          if (message?.type === 'compute') window.__order.push(`compute ${message.source.kind}`);
          else if (message?.type === 'ready') window.__order.push('ready');
          return post.call(this, message, ...rest);
        };
      });
      await page.goto(`${server.url}sinusoidal.html`);
      await firstPlotShown(page);
      const order = await page.evaluate(() => window.__order);
      const table = order.indexOf('compute table');
      const frame = order.indexOf('frame');
      assert(table >= 0, `the table was never asked for (${order.slice(0, 8).join(', ')})`);
      // It used to wait for the parsed document's first frame, then for the sections on screen (a frame more).
      assert(
        frame === -1 || table < frame,
        `the table was asked for after ${order.slice(0, table).filter((step) => step === 'frame').length} frame requests`,
      );
      assert(
        order.includes('ready') && order.indexOf('ready') < frame,
        "the core's readiness was asked for after a frame",
      );
      return order.slice(0, table + 2).join(', ');
    }),
  );

  await check(
    'a heatmap at a fractional width paints its first image once (no second render for a rounding)',
    async () => {
      return inFreshPage(browser, async (page) => {
        await page.addInitScript(() => {
          // The images put into the heatmap's canvas (its legend's ramp is narrower).
          window.__images = [];
          const put = CanvasRenderingContext2D.prototype.putImageData;
          CanvasRenderingContext2D.prototype.putImageData = function (image, ...rest) {
            if (this.canvas.closest('[data-plot="heatmap"]') && image.width > 100) window.__images.push(image.width);
            return put.call(this, image, ...rest);
          };
          // Before the page's code measures its plots (it waits for the parsed document and a frame).
          document.addEventListener('DOMContentLoaded', () => {
            document.querySelector('[data-plot="heatmap"]').style.width = '500.5px';
          });
        });
        await page.goto(`${server.url}sinusoidal.html`);
        await firstPlotShown(page);
        // Past the plot's settle time, so that a preview's exact follow-up would be counted too.
        await page.waitForTimeout(1000);
        const { width, images } = await page.evaluate(() => ({
          width: getComputedStyle(document.querySelector('[data-plot="heatmap"]')).width,
          images: window.__images,
        }));
        assert(width === '500.5px', `the heatmap's width is ${width}, not the 500.5px the test set`);
        assert(images.length === 1, `${images.length} images put (widths ${images.join(', ')}), expected 1`);
        return `one image, ${images[0]} px wide`;
      });
    },
  );

  await check(
    'the first view loads none of the later chapters or tools: their code comes after the first plot',
    async () => {
      // The chunks of this chapter's later groups (web/sections/groups.js: "why 10000" is in the RoPE
      // group's) and the embed tools; the other chapters' chunks and tools are never loaded here.
      const CHAPTER_CHUNKS = ['attention-sections', 'rope-sections', 'embed-snippet'];
      const OTHER_CHAPTERS = ['rope-lab-sections', 'precision-sections', 'rope-lab', 'check'];
      const chunkOf = (url) =>
        new URL(url).pathname
          .split('/')
          .pop()
          .replace(/-[\w-]{8}\.js$/, '');
      await page.waitForFunction(
        (names) =>
          names.every((name) =>
            performance.getEntriesByType('resource').some(
              (entry) =>
                entry.name
                  .split('/')
                  .pop()
                  .replace(/-[\w-]{8}\.js$/, '') === name,
            ),
          ),
        CHAPTER_CHUNKS,
        { timeout: 15000 },
      );
      const { firstPlot, loads } = await page.evaluate(() => ({
        firstPlot: performance.getEntriesByName('posenc:first-plot')[0].startTime,
        loads: performance.getEntriesByType('resource').map((entry) => ({ url: entry.name, at: entry.startTime })),
      }));
      const elsewhere = loads.filter(({ url }) => OTHER_CHAPTERS.includes(chunkOf(url)));
      assert(elsewhere.length === 0, `other chapters' code loaded: ${elsewhere.map(({ url }) => chunkOf(url))}`);
      const early = loads.filter(({ url, at }) => CHAPTER_CHUNKS.includes(chunkOf(url)) && at < firstPlot);
      assert(early.length === 0, `requested before the first plot: ${early.map(({ url }) => chunkOf(url)).join(', ')}`);
      return `${CHAPTER_CHUNKS.length} chunks, all requested after the first plot (${Math.round(firstPlot)} ms)`;
    },
  );

  await check(
    'every plot with an element has its Embed button in the served HTML, working once its code loads',
    async () => {
      // Over the chapters: each holds some of the plots.
      let html = '';
      for (const { file } of CHAPTERS) html += await (await fetch(`${server.url}${file}`)).text();
      const served = [...html.matchAll(/data-embed="([\w-]+)"/g)].map((m) => m[1]).sort();
      const plots = Object.keys(TAG_OF_PLOT).sort();
      assert(
        JSON.stringify(served) === JSON.stringify(plots),
        `buttons ${served.join(', ')}; plots ${plots.join(', ')}`,
      );
      // Its tools' code has loaded by now (checked above): a click opens the panel with the plot's snippet.
      await page.click('[data-testid="embed-button-heatmap"]');
      await page.waitForFunction(() =>
        document.querySelector('#embed-heatmap textarea')?.value.includes('posenc-heatmap'),
      );
      const label = await page.getAttribute('[data-testid="embed-button-heatmap"]', 'aria-controls');
      assert(label === 'embed-heatmap', `aria-controls ${label}`);
      await page.click('[data-testid="embed-button-heatmap"]');
      return `${served.length} buttons`;
    },
  );

  await check('a click on Embed before its code has loaded opens the panel once it has', async () => {
    return inFreshPage(browser, async (earlyPage) => {
      // The tools' code is held back until after the click.
      let release;
      const held = new Promise((resolve) => (release = resolve));
      await earlyPage.route(/embed-snippet-[\w-]{8}\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await earlyPage.goto(`${server.url}sinusoidal.html`);
      await earlyPage.waitForFunction(() => performance.getEntriesByName('posenc:interactive').length > 0);
      await earlyPage.click('[data-testid="embed-button-waves"]');
      release();
      await earlyPage.waitForFunction(
        () => document.querySelector('#embed-waves textarea')?.value.includes('posenc-waves'),
        null,
        { timeout: 15000 },
      );
      const expanded = await earlyPage.getAttribute('[data-testid="embed-button-waves"]', 'aria-expanded');
      assert(expanded === 'true', `aria-expanded ${expanded}`);
      assert(earlyPage.problems.length === 0, earlyPage.problems.join('\n'));
      return 'opened';
    });
  });

  // A plot that grew from nothing when drawn moved everything under it: the page jumped by up to a
  // thousand pixels after it had loaded, and a click on an Embed button landed on whatever had moved
  // under the pointer. The room kept for a plot not drawn yet (styles.css) is measured here on an empty
  // copy of its container put beside the drawn plot (same width), against the drawn plot's height.
  await check(
    'a plot not yet drawn keeps about the room it will take (the page does not jump as plots draw)',
    async () => {
      const found = [];
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 360, height: 740 },
      ]) {
        const context = await browser.newContext({ viewport });
        try {
          const roomPage = await watchedPage(context);
          await roomPage.goto(`${server.url}sinusoidal.html`);
          await roomPage.waitForFunction(() => performance.getEntriesByName('posenc:interactive').length > 0);
          // Every plot drawn: the later chapters load and draw as they near the screen.
          for (let y = 0; y < (await roomPage.evaluate(() => document.documentElement.scrollHeight)); y += 600) {
            await roomPage.evaluate((top) => scrollTo(0, top), y);
            await roomPage.waitForTimeout(60);
          }
          await roomPage.waitForFunction(
            () => [...document.querySelectorAll('[data-plot]')].every((plot) => plot.childElementCount > 0),
            null,
            { timeout: 20000 },
          );
          await roomPage.waitForTimeout(500);
          // Each measured on screen: sections off it are not laid out (content-visibility).
          const rooms = await roomPage.evaluate(async () => {
            const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
            const measured = [];
            for (const plot of document.querySelectorAll('[data-plot]')) {
              plot.scrollIntoView({ block: 'center' });
              await frame();
              // Not stretched to a grid row's height, neither the copy nor the drawn plot's content.
              const empty = plot.cloneNode(false);
              empty.style.alignSelf = 'start';
              plot.after(empty);
              const room = empty.getBoundingClientRect().height;
              // The room does not widen it either (out of a phone's screen).
              const wider = empty.getBoundingClientRect().width - plot.parentElement.clientWidth;
              empty.remove();
              const top = plot.getBoundingClientRect().top;
              const bottoms = [...plot.children].map((child) => child.getBoundingClientRect().bottom);
              measured.push({ name: plot.dataset.plot, room, wider, drawn: Math.max(...bottoms) - top });
            }
            return measured;
          });
          // The plots above the first later chapter's (the first screens) closely; the later ones, whose
          // notes wrap differently with each width, roughly.
          const firstLater = rooms.findIndex(
            (plot) => plot.name === PLOTS.find((p) => p.chapter === 'sinusoidal' && p.group !== 'first-view').name,
          );
          assert(firstLater > 5, `the first later chapter's plot is ${firstLater}th`);
          rooms.forEach(({ name, room, wider, drawn }, index) => {
            const allowed = index < firstLater ? Math.max(40, 0.1 * drawn) : Math.max(100, 0.2 * drawn);
            found.push({
              name,
              width: viewport.width,
              room: Math.round(room),
              drawn: Math.round(drawn),
              wider: Math.round(wider),
              fails: Math.abs(drawn - room) > allowed || wider > 1,
            });
          });
          assert(roomPage.problems.length === 0, roomPage.problems.join('\n'));
        } finally {
          await context.close();
        }
      }
      const failing = found.filter((plot) => plot.fails);
      assert(
        failing.length === 0,
        failing
          .map(
            (p) =>
              `${p.name} at ${p.width} px: drawn ${p.drawn}, room ${p.room} px, ${p.wider} px wider than its container`,
          )
          .join('; '),
      );
      const off = (plot) => Math.abs(plot.drawn - plot.room);
      const worst = found.reduce((a, b) => (off(b) > off(a) ? b : a));
      return `${found.length} plots; at most ${off(worst)} px off (${worst.name} at ${worst.width} px: drawn ${worst.drawn}, room ${worst.room})`;
    },
  );

  await check('no explanation off screen is taken apart at load (the build worded it as the page would)', async () => {
    const reads = await page.evaluate(() => window.__formulaReads);
    const offScreen = reads.filter((onScreen) => !onScreen).length;
    assert(offScreen === 0, `${offScreen} formulas of sections off screen read back (${reads.length} in all)`);
    return `${reads.length} formulas read back, all of sections on screen`;
  });

  await check('the explanations the build wrote are not rewritten at load with the same words', async () => {
    const needless = await page.evaluate(() =>
      window.__built.flatMap(({ key, node, paragraphs }) =>
        paragraphs
          .map(({ paragraph, html }, index) => ({ key, index, replaced: !paragraph.isConnected, html }))
          .filter(({ replaced, index, html }) => replaced && node.children[index]?.outerHTML === html)
          .map(({ key, index }) => `${key} ¶${index + 1}`),
      ),
    );
    assert(needless.length === 0, `rewritten with the same words: ${needless.join(', ')}`);
    const rich = await page.evaluate(() => window.__built.length);
    return `${rich} rich elements, none rewritten needlessly`;
  });

  await check('switching to Chinese and back puts the built formulas in place, still without KaTeX', async () => {
    await page.selectOption('#language', 'zh');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    const zhFormulas = await formulasMatch(page, 'zh');
    const intro = (await richElements(page)).find((element) => element.key === 'heatmap.text');
    assert(/[\u4e00-\u9fff]/.test(intro.text), `the first text not in Chinese: ${intro.text.slice(0, 80)}`);
    await page.selectOption('#language', 'en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await formulasMatch(page, 'en');
    noKatexLoaded(page);
    assert(page.problems.length === 0, page.problems.join('\n'));
    return `${zhFormulas} formulas in Chinese`;
  });
  await context.close();

  await check('a cold load in Chinese typesets nothing either, and shows the Chinese formulas', async () => {
    const chinese = await coldPage('zh-CN');
    try {
      await chinese.page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
      const formulas = await formulasMatch(chinese.page, 'zh');
      noKatexLoaded(chinese.page);
      assert(chinese.page.problems.length === 0, chinese.page.problems.join('\n'));
      return `${formulas} formulas`;
    } finally {
      await chinese.context.close();
    }
  });
} finally {
  await browser.close();
  await server.close();
}
finish('page load');
