// The page's first load (docs/performance.md, "The page's first load"): its
// text and formulas come typeset in the HTML and the language chunks (built
// by web/vite-rich-text.js), so the page runs no KaTeX at load, in either
// language; and it records the User Timing marks npm run bench reads.
// Usage: node tests/e2e/page-load.test.mjs (after a build of dist/site).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const site = fileURLToPath(new URL('../../dist/site', import.meta.url));
if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// The TeX of every $…$ and $$…$$ of a rich string, in order (display first, as the page's format says).
const mathOf = (text) => [...text.matchAll(/\$\$([\s\S]+?)\$\$|\$([^$]+?)\$/g)].map((m) => (m[1] ?? m[2]).trim());
const TABLES = { en, zh: { ...en, ...zh } };
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
    performance.mark = (name, ...rest) => {
      if (name === 'posenc:first-plot') {
        const canvas = document.querySelector('[data-plot="heatmap"] canvas');
        const pixels = canvas?.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        window.__marked.painted = pixels ? pixels.some((value, index) => index % 4 === 3 && value > 0) : false;
      }
      return mark(name, ...rest);
    };
  });
  await page.goto(server.url);
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
      text: node.textContent,
    })),
  );

/** Every rich element shows the formulas of its string in `language`, typeset (KaTeX's markup). */
async function formulasMatch(page, language) {
  const elements = await richElements(page);
  assert(elements.length >= 10, `only ${elements.length} rich elements`);
  let formulas = 0;
  for (const { key, rendered, tex } of elements) {
    const expected = mathOf(TABLES[language][key]);
    assert(rendered === language, `${key}: data-i18n-rendered is ${rendered}, not ${language}`);
    assert(
      JSON.stringify(tex) === JSON.stringify(expected),
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

  await check('the served HTML holds the English formulas already typeset', async () => {
    const html = await (await fetch(server.url)).text();
    const typeset = (html.match(/class="katex"/g) ?? []).length;
    const expected = Object.values(
      Object.fromEntries([...html.matchAll(/data-i18n-rich="([^"]+)"/g)].map((m) => [m[1], mathOf(en[m[1]]).length])),
    ).reduce((a, b) => a + b, 0);
    assert(typeset === expected, `${typeset} typeset formulas in the HTML, the strings have ${expected}`);
    return `${typeset} formulas`;
  });

  await check('a cold load in English typesets nothing: no KaTeX code loaded, every formula in place', async () => {
    noKatexLoaded(page);
    return `${await formulasMatch(page, 'en')} formulas`;
  });

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

  await check('switching to Chinese and back puts the built formulas in place, still without KaTeX', async () => {
    await page.selectOption('#language', 'zh');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    const zhFormulas = await formulasMatch(page, 'zh');
    const intro = (await richElements(page)).find((element) => element.key === 'intro.text');
    assert(/[\u4e00-\u9fff]/.test(intro.text), `intro not in Chinese: ${intro.text.slice(0, 80)}`);
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
