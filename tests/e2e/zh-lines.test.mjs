// Chinese typesetting: no line of the Chinese page begins with a punctuation
// mark that must close a line (，。、；：）」』…), at desktop and phone width,
// over every section once all of them are loaded and typeset. Such a line comes
// from a break between an inline formula and the punctuation after it
// (web/page/rich-text.js keeps them together).
// Usage: node tests/e2e/zh-lines.test.mjs (after `npx vite build --config web/vite.config.js`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHAPTERS } from '../../web/model/registry.js';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const site = fileURLToPath(new URL('../../dist/site', import.meta.url));
if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const server = await serveStatic(site);
const browser = await launchChromium();

/** The Chinese `file` (a chapter or the start page) at `width`, scrolled through so that every section is loaded and typeset. */
async function chinesePage(file, width) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'zh-CN' });
  const page = await watchedPage(context);
  await page.goto(`${server.url}${file}?lang=zh`);
  if (file !== 'index.html') await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 20000 });
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN', null, { timeout: 20000 });
  for (let y = 0; ; y += 800) {
    const height = await page.evaluate((top) => {
      window.scrollTo(0, top);
      return document.documentElement.scrollHeight;
    }, y);
    await page.waitForTimeout(60);
    if (y > height) break;
  }
  // The later chapters' formulas are MathML until the page typesets them as they near the screen.
  await page.waitForFunction(() => document.querySelectorAll('[data-i18n-mathml-only]').length === 0, null, {
    timeout: 30000,
  });
  await page.evaluate(() => document.fonts.ready);
  return { page, context };
}

/** Every punctuation mark of `main` that begins a line box, with the text before it. */
const lineStarts = (page) =>
  page.evaluate(() => {
    const CLOSING = /[，。、；：！？）」』》〉]/;
    const skipped = (node) => node.parentElement?.closest('.katex-mathml, svg, script, style, [hidden], pre');
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    const rectOf = (node, index) => {
      range.setStart(node, index);
      range.setEnd(node, index + 1);
      const rects = range.getClientRects();
      return rects.length ? rects[rects.length - 1] : null;
    };
    const found = [];
    let previous = null; // { rect, text } of the last visible character seen
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (skipped(node)) continue;
      const text = node.data;
      for (let i = 0; i < text.length; i++) {
        if (/\s/.test(text[i])) continue;
        const rect = rectOf(node, i);
        if (!rect || rect.width === 0) continue;
        if (CLOSING.test(text[i]) && previous && rect.top >= previous.rect.bottom - 1)
          found.push(`${previous.text.slice(-12)}⏎${text.slice(i, i + 8)}`);
        previous = { rect, text: (previous?.text ?? '').slice(-12) + text[i] };
      }
    }
    return found;
  });

try {
  for (const file of ['index.html', ...CHAPTERS.map((chapter) => chapter.file)])
    for (const width of [1280, 390])
      await check(`zh ${file}, ${width} px: no line begins with closing punctuation`, async () => {
        const { page, context } = await chinesePage(file, width);
        try {
          const found = await lineStarts(page);
          assert(found.length === 0, `${found.length} lines: ${found.slice(0, 12).join(' | ')}`);
          assert(page.problems.length === 0, page.problems.join('; '));
        } finally {
          await context.close();
        }
      });
} finally {
  await browser.close();
  await server.close();
}
finish('zh-lines');
