// npm run bench, browser part: the suite in headless Chromium, the page's
// first load (page-load.mjs: first plot, interactive, longest task, bytes of
// the first view), and frame times while each slider is dragged (drag.mjs).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../e2e/chromium.mjs';
import { serveStatic } from '../e2e/server.mjs';
import { formatDrag, measureDrags, printSummaries } from './drag.mjs';
import { chapterUrls, measureLoads } from './page-load.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));

const browser = await launchChromium();
let ok = true;
try {
  const root = await serveStatic(repo);
  try {
    const page = await browser.newPage();
    await page.goto(`${root.url}tests/bench/bench.html`);
    await page.waitForFunction(() => window.benchResults, null, { timeout: 240_000 });
    const { lines, results, error } = await page.evaluate(() => window.benchResults);
    if (error) throw new Error(error);
    for (const line of lines) console.log(line);
    ok = results.every((r) => r.accurate);
  } finally {
    await root.close();
  }

  const siteDir = `${repo}dist/site`;
  if (!existsSync(`${siteDir}/index.html`)) {
    console.log('page: dist/site not built (npm run build); skipping page measurements');
  } else {
    const site = await serveStatic(siteDir);
    try {
      // Cold loads (fresh contexts) of each chapter, unthrottled and at 4x CPU throttling: marks, longest task, bytes.
      await measureLoads(browser, chapterUrls(site.url));
      console.log(
        'slider drags at dModel 512 × length 2048, each part of the page in view, unthrottled and at 4× ' +
          '(target: main-thread CPU ≤ 8 ms per frame, p95 frame ≤ 33 ms at 4×, settled ≤ 100 ms after release):',
      );
      const drags = await measureDrags(browser, site.url, { onResult: (result) => console.log(formatDrag(result)) });
      printSummaries(drags);
    } finally {
      await site.close();
    }
  }
} finally {
  await browser.close();
}
process.exit(ok ? 0 : 1);
