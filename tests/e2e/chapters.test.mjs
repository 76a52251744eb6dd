// The explainer as chapter documents (web/model/registry.js: CHAPTERS): every
// table-of-contents link and cross reference leads to an element of its target
// document, in both languages; the numbering is one scheme and the contents
// show it; every anchor of the one-page index.html forwards to the chapter
// that holds it, the query kept (a sample here, every one in
// tests/js/page/forward.test.js); links carry the language and the settings;
// each plot has its what-to-notice line above it and its notes folded;
// a chapter left alone goes quiet; axe-core passes on every document, both
// languages, desktop and phone; at phone width nothing sticks out sideways;
// no Chinese line begins with closing punctuation, at either width. Each
// document is opened once per language and width, and all of these are read
// from that one load.
// Usage: node tests/e2e/chapters.test.mjs (after `npx vite build --config web/vite.config.js`).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { CHAPTERS, PLOTS } from '../../web/model/registry.js';
import { launchChromium } from './chromium.mjs';
import { assert, axeViolations, check, finish, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const site = fileURLToPath(new URL('../../dist/site', import.meta.url));
if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const DOCUMENTS = ['index.html', ...CHAPTERS.map((chapter) => chapter.file)];
// The ids of the built documents, read from their files.
const idsOf = Object.fromEntries(
  DOCUMENTS.map((file) => [
    file,
    new Set([...readFileSync(`${site}/${file}`, 'utf8').matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])),
  ]),
);
// Every id of the <main> of index.html when the explainer was one page (commit e89a48c).
const ONE_PAGE_IDS = readFileSync(new URL('./fixtures/one-page-ids.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean);

const server = await serveStatic(site);
const browser = await launchChromium();

/** `file` opened in `language` (the start page has no status line), its text in that language. */
async function openDocument(context, file, language, rest = '') {
  const page = await watchedPage(context);
  // The layout shift score (CLS: what moved on screen, not after input) from the start.
  await page.addInitScript(() => {
    self.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) self.layoutShift += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`${server.url}${file}?lang=${language}${rest}`);
  if (file !== 'index.html') await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 20000 });
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language === 'zh' ? 'zh-CN' : 'en', {
    timeout: 20000,
  });
  return page;
}

/** The links of the site in the document: { href, file, hash } ('' file: the same document). */
const siteLinks = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('a[href]')]
      .map((link) => link.getAttribute('href'))
      .map((href) => {
        const match = /^(?:\.\/)?([\w-]+\.html)?(\?[^#]*)?(#.*)?$/.exec(href);
        return match ? { href, file: match[1] ?? '', query: match[2] ?? '', hash: match[3] ?? '' } : null;
      })
      .filter(Boolean),
  );

/**
 * Main-thread task time (s) of `page` over two seconds with nothing asked of it, after a second
 * to finish what it was doing (Chromium's TaskDuration metric).
 */
async function idleTaskSeconds(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration').value;
  await page.waitForTimeout(1000);
  const before = await taskSeconds();
  await page.waitForTimeout(2000);
  const spent = (await taskSeconds()) - before;
  await cdp.detach();
  return spent;
}

/**
 * What each plot of the chapter `file` shows around it once drawn: the text of the line above it
 * (the notice), and each block of notes: folded (in a <details class="plot-numbers">), open, its
 * summary and its text.
 */
async function readingAids(page, file) {
  const plots = PLOTS.filter((plot) => plot.chapter === CHAPTERS.find((chapter) => chapter.file === file).name);
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-plot]')].every((plot) => plot.childElementCount > 0),
    null,
    { timeout: 30000 },
  );
  return page.evaluate(
    (names) => ({
      notices: names.map((name) => {
        const plot = document.querySelector(`[data-plot="${name}"]`);
        // (The build puts each plot that has an element in one area with its Embed button.)
        const above = (plot.parentElement.matches('.embed-plot-area') ? plot.parentElement : plot)
          .previousElementSibling;
        return { name, text: above?.matches('p.plot-notice') ? above.textContent : null };
      }),
      notes: [...document.querySelectorAll('main .posenc-notes')].map((node) => {
        const details = node.parentElement.closest('details');
        return {
          plot: node.closest('[data-plot]').dataset.plot,
          folded: details?.matches('.plot-numbers') ?? false,
          open: details?.open ?? true,
          summary: details?.querySelector(':scope > summary')?.textContent ?? null,
          text: node.textContent.trim(),
        };
      }),
    }),
    plots.map((plot) => plot.name),
  );
}

/**
 * Every punctuation mark of `main` that closes a line but begins a line box, with the text before it.
 * Such a line comes from a break between an inline formula and the punctuation after it
 * (web/page/rich-text.js keeps them together).
 */
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

/**
 * What a phone-width document shows beyond the screen's right edge: the document's scroll width
 * over the viewport, elements sticking out (a formula or a table that scrolls in its own box
 * aside), display formulas wider than their column (they would scroll, and axe asks scrollable
 * regions to be focusable), and tables wider than the screen with no shadow cueing that they scroll.
 */
const sidewaysProblems = (page) =>
  page.evaluate(() => {
    const problems = [];
    const width = window.innerWidth;
    const scrollWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (scrollWidth > width) problems.push(`scroll width ${scrollWidth}`);
    const describe = (node) =>
      `${node.tagName}.${node.className?.baseVal ?? node.className} in ${node.closest('[data-plot]')?.dataset.plot ?? node.closest('section')?.id ?? 'main'} at ${Math.round(node.getBoundingClientRect().right)}px`;
    const sticking = [...document.querySelectorAll('main *')].filter(
      (node) => node.getBoundingClientRect().right > width + 1 && !node.closest('.math-display, .table-scroll, .katex'),
    );
    if (sticking.length) problems.push(`sticking out: ${sticking.slice(0, 3).map(describe).join(', ')}`);
    const wide = [...document.querySelectorAll('main .math-display')].filter(
      (node) => node.scrollWidth > node.clientWidth + 1,
    );
    if (wide.length)
      problems.push(`formulas wider than the column: ${wide.map((n) => n.textContent.slice(0, 40)).join(' | ')}`);
    const uncued = [...document.querySelectorAll('.table-scroll')]
      .filter((box) => box.scrollWidth > box.clientWidth)
      .filter((box) => {
        const style = getComputedStyle(box);
        return !(style.backgroundImage.includes('gradient') && style.backgroundAttachment.includes('local'));
      });
    if (uncued.length)
      problems.push(
        `tables that scroll with no cue: ${uncued.map((box) => box.querySelector('table')?.id ?? box.className).join(', ')}`,
      );
    return problems;
  });

/**
 * The layout shift score of a chapter's first view: until the first plot is shown, or, with none on
 * the first screen, a moment after the page is interactive (what web/page/first-view.js waits).
 */
async function firstViewShift(page) {
  await page.waitForFunction(() => performance.getEntriesByName('posenc:interactive').length > 0, null, {
    timeout: 20000,
  });
  await page
    .waitForFunction(() => performance.getEntriesByName('posenc:first-plot').length > 0, null, { timeout: 1500 })
    .catch(() => {});
  await page.waitForTimeout(300);
  return page.evaluate(() => self.layoutShift);
}

/**
 * `file` opened and settled: its first view's layout shift read, scrolled to the end (every
 * explanation worded), its formulas typeset (one still MathML only is wider for a moment), its
 * fonts loaded, and in a chapter every plot drawn.
 */
/** The start page's layout shift score once its fonts have come (it has no plot to wait for). */
async function startPageShift(page) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  return page.evaluate(() => self.layoutShift);
}

async function openSettled(context, file, language) {
  const page = await openDocument(context, file, language);
  page.firstViewShift = file === 'index.html' ? await startPageShift(page) : await firstViewShift(page);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForFunction(() => !document.querySelector('[data-i18n-mathml-only]'), null, { timeout: 20000 });
  await page.evaluate(() => document.fonts.ready);
  if (file !== 'index.html')
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-plot]')].every((plot) => plot.childElementCount > 0),
      null,
      { timeout: 30000 },
    );
  await page.waitForTimeout(500);
  return page;
}

try {
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });

  // Each document is opened once a language at 1280 px (one at a time): its links, its numbering and
  // axe-core's findings are read from it, then the checks below judge them.
  for (const language of ['en', 'zh']) {
    const seen = {};
    for (const file of DOCUMENTS) {
      const page = await openSettled(desktop, file, language);
      seen[file] = {
        links: await siteLinks(page),
        crossReferences: await page.locator('a.ref').count(),
        numbering:
          file === 'index.html'
            ? null
            : await page.evaluate(() => {
                const entry = (node) => ({
                  number: node.querySelector('.section-number').textContent,
                  text: node.querySelector('[data-i18n]').textContent,
                });
                // (The list of sources ending each chapter is not a numbered section.)
                return {
                  toc: [...document.querySelectorAll('.toc-list a')].map(entry),
                  headings: [...document.querySelectorAll('main section:not(.sources) > h2[id^="h-"]')].map(entry),
                  title: document.querySelector('#chapter-title .section-number')?.textContent,
                };
              }),
        reading: file === 'index.html' ? null : await readingAids(page, file),
        violations: (await axeViolations(page)).map((v) => `${file}: ${v}`),
        lineStarts: language === 'zh' ? await lineStarts(page) : [],
        problems: page.problems,
        shift: page.firstViewShift,
        idleTaskSeconds: language === 'en' && file !== 'index.html' ? await idleTaskSeconds(page) : null,
      };
      await page.close();
    }

    await check(
      `${language}: every link of the site and cross reference leads to an element of its document`,
      async () => {
        let crossReferences = 0;
        for (const file of DOCUMENTS) {
          const { links, problems } = seen[file];
          assert(links.length > 5, `${file}: ${links.length} links`);
          for (const link of links) {
            const target = link.file || file;
            assert(DOCUMENTS.includes(target), `${file}: ${link.href} names no document of the site`);
            if (link.hash) assert(idsOf[target].has(link.hash.slice(1)), `${file}: ${link.href} has no element there`);
            // A link to another document carries the language.
            if (link.file) assert(link.query.includes(`lang=${language}`), `${file}: ${link.href} lost the language`);
          }
          crossReferences += seen[file].crossReferences;
          assert(problems.length === 0, `${file}: ${problems.join('; ')}`);
        }
        assert(crossReferences >= 5, `${crossReferences} cross references (most are in wordings of other settings)`);
        return `${crossReferences} cross references`;
      },
    );

    await check(
      `${language}: one numbering, chapter.section, shown alike in each chapter's contents and headings`,
      async () => {
        for (const [c, chapter] of CHAPTERS.entries()) {
          const { toc, headings, title } = seen[chapter.file].numbering;
          assert(title === String(c + 1), `${chapter.file}: chapter number ${title}`);
          assert(
            JSON.stringify(toc) === JSON.stringify(headings),
            `${chapter.file}: ${JSON.stringify([toc, headings])}`,
          );
          headings.forEach(({ number, text }, s) => {
            assert(number === `${c + 1}.${s + 1}`, `${chapter.file}: ${number} ${text}`);
            assert(
              text.length >= 2 && !/^\s*(R?\d+\.|§)/.test(text),
              `${chapter.file}: "${text}" has a number of its own`,
            );
            if (language === 'zh') assert(/[\u4e00-\u9fff]/.test(text), `${chapter.file}: "${text}" not in Chinese`);
          });
        }
      },
    );

    await check(
      `${language}: a line saying what to notice above each plot; the notes of numbers folded, closed, still in the text`,
      async () => {
        const table = language === 'zh' ? zh : en;
        let folded = 0;
        for (const { file } of CHAPTERS) {
          const { notices, notes } = seen[file].reading;
          for (const { name, text } of notices) {
            const notice = table[PLOTS.find((plot) => plot.name === name).notice];
            assert(text === notice, `${file}: above ${name}: ${text}`);
          }
          for (const note of notes) {
            // The RoPE dials' notes are their legend, read with them.
            const where = `${file} ${note.plot}`;
            if (note.plot === 'rope-dials') {
              assert(!note.folded, `${where}: the dials' legend folded`);
              continue;
            }
            assert(note.folded && !note.open, `${where}: notes not folded and closed`);
            assert(note.summary === table['notes.summary'], `${where}: summary ${note.summary}`);
            assert(note.text.length > 10, `${where}: notes empty: ${note.text}`);
            folded += 1;
          }
        }
        assert(folded >= 10, `${folded} folded notes`);
        return `${folded} folded notes`;
      },
    );

    // The documents come worded in English: a Chinese reader's first view is reworded (reported, not judged).
    await check(
      `${language}, 1280 px: a chapter's first view moves nothing on screen (layout shift score${language === 'en' ? ' under 0.05' : ', reported'}; the start page's reported)`,
      async () => {
        const scores = DOCUMENTS.map((file) => `${file} ${seen[file].shift.toFixed(3)}`);
        if (language === 'en')
          assert(
            CHAPTERS.every(({ file }) => seen[file].shift < 0.05),
            scores.join(', '),
          );
        return scores.join(', ');
      },
    );

    if (language === 'en')
      await check('a chapter left alone goes quiet: under 0.2 s of main-thread tasks in 2 s', async () => {
        const busy = CHAPTERS.map(({ file }) => `${file} ${seen[file].idleTaskSeconds.toFixed(2)} s`);
        assert(
          CHAPTERS.every(({ file }) => seen[file].idleTaskSeconds < 0.2),
          `main-thread tasks in 2 s with nothing to do: ${busy.join(', ')}`,
        );
        return busy.join(', ');
      });

    await check(`axe-core: no serious or critical violation on any document, ${language}, 1280 px`, async () => {
      const found = DOCUMENTS.flatMap((file) => seen[file].violations);
      assert(found.length === 0, found.join('\n'));
    });

    if (language === 'zh')
      await check('zh, 1280 px: no line of any document begins with closing punctuation', async () => {
        const found = DOCUMENTS.flatMap((file) => seen[file].lineStarts.map((line) => `${file}: ${line}`));
        assert(found.length === 0, `${found.length} lines: ${found.slice(0, 12).join(' | ')}`);
      });
  }

  await check(
    'old anchors of the one-page index.html forward to their element in its chapter, the query kept',
    async () => {
      const page = await desktop.newPage();
      // The chapter documents are answered with an empty page: only where the start page sends the reader counts.
      let arrived = null;
      await page.route(/\/(sinusoidal|implementations|rope)\.html/, (route) => {
        arrived = route.request().url();
        return route.fulfill({ body: '<!doctype html><title>arrived</title>', contentType: 'text/html' });
      });
      const query = '?ropePreset=llama3&lang=zh';
      // Every old id's target is checked against the documents in tests/js/page/forward.test.js; here the
      // start page does it: one id of each chapter and one the start page keeps.
      const onlyIn = (file) =>
        ONE_PAGE_IDS.find(
          (id) => idsOf[file].has(id) && DOCUMENTS.every((other) => other === file || !idsOf[other].has(id)),
        );
      // The chapters the one-page site had: a later chapter holds none of its sections' headings.
      const older = CHAPTERS.filter((chapter) =>
        ONE_PAGE_IDS.some((id) => id.startsWith('h-') && idsOf[chapter.file].has(id)),
      );
      const sample = ['content', ...older.map((chapter) => onlyIn(chapter.file))];
      assert(!sample.includes(undefined), `no old id only in one chapter: ${sample}`);
      for (const id of sample) {
        arrived = null;
        // From another document: a new load of the start page, not a move within it.
        await page.goto('about:blank');
        await page.goto(`${server.url}index.html${query}#${id}`);
        if (idsOf['index.html'].has(id)) {
          // The start page has it (the skip link's #content): it stays.
          await page.waitForTimeout(200);
          assert(arrived === null, `#${id} left the start page for ${arrived}`);
          continue;
        }
        await page.waitForFunction(() => document.title === 'arrived', null, { timeout: 30000 });
        // (The request leaves the fragment out: the page's URL has it.)
        const url = new URL(page.url());
        const file = url.pathname.split('/').pop();
        assert(idsOf[file]?.has(id), `#${id} went to ${file}, which has no such element`);
        assert(url.search === query && url.hash === `#${id}`, `#${id}: ${arrived}`);
      }
      // State parameters without an anchor: the chapter that uses them.
      for (const [search, file] of [
        ['?ropePreset=llama3&lang=zh', 'rope.html'],
        ['?dModel=64&p=12', 'sinusoidal.html'],
        ['?compare=tensor2tensor', 'implementations.html'],
      ]) {
        await page.goto('about:blank');
        await page.goto(`${server.url}index.html${search}`);
        await page.waitForFunction(() => document.title === 'arrived', null, { timeout: 30000 });
        assert(arrived.endsWith(`/${file}${search}`), `${search}: ${arrived}`);
      }
      await page.close();
      return `${sample.length} of ${ONE_PAGE_IDS.length} anchors loaded`;
    },
  );

  await check('the language switch goes into the URL and the links; moved settings go with the links', async () => {
    const page = await openDocument(desktop, 'sinusoidal.html', 'en');
    await page.selectOption('#language', 'zh');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('lang') === 'zh');
    await page.fill('#c-dModel', '64');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('dModel') === '64');
    await page.waitForFunction(() =>
      document.querySelector('a[rel="next"]').getAttribute('href').includes('dModel=64&lang=zh'),
    );
    await page.click('a[rel="next"]');
    await page.waitForURL(/implementations\.html\?dModel=64&lang=zh$/);
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert((await page.inputValue('#c-dModel')) === '64', 'the next chapter lost d_model');
    assert(page.problems.length === 0, page.problems.join('; '));
    await page.close();
  });

  // The narrowest common phone width (knobs.test.mjs checks each section at 390 × 844).
  const phone = await browser.newContext({
    viewport: { width: 360, height: 780 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  for (const language of ['en', 'zh']) {
    const shifts = [];
    const found = { axe: [], sideways: [], lines: [], problems: [] };
    for (const file of DOCUMENTS) {
      const page = await openSettled(phone, file, language);
      if (file !== 'index.html') shifts.push(`${file} ${page.firstViewShift.toFixed(3)}`);
      found.sideways.push(...(await sidewaysProblems(page)).map((problem) => `${file}: ${problem}`));
      if (language === 'zh') found.lines.push(...(await lineStarts(page)).map((line) => `${file}: ${line}`));
      found.axe.push(...(await axeViolations(page)).map((v) => `${file}: ${v}`));
      found.problems.push(...page.problems.map((problem) => `${file}: ${problem}`));
      await page.close();
    }
    await check(`${language}, 360 px: no document reaches past the screen's edge`, async () => {
      assert(found.sideways.length === 0, found.sideways.join('\n'));
      assert(found.problems.length === 0, found.problems.join('\n'));
    });
    if (language === 'zh')
      await check('zh, 360 px: no line of any document begins with closing punctuation', async () => {
        assert(found.lines.length === 0, `${found.lines.length} lines: ${found.lines.slice(0, 12).join(' | ')}`);
      });
    await check(`axe-core: no serious or critical violation on any document, ${language}, 360 px`, async () => {
      assert(found.axe.length === 0, found.axe.join('\n'));
      return `layout shift score of the first view (reported) ${shifts.join(', ')}`;
    });
  }
  await phone.close();
} finally {
  await browser.close();
  await server.close();
}
finish('chapters');
