// npm run bench, browser part: the suite in headless Chromium, the page's
// first-load size (gzip), and frame times while each slider is dragged
// (drag.mjs).
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../e2e/chromium.mjs';
import { serveStatic } from '../e2e/server.mjs';
import { formatDrag, formatSummary, measureDrags, summarise } from './drag.mjs';

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
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const bodies = [];
      page.on('response', async (response) => {
        try {
          bodies.push({ url: response.url(), body: await response.body() });
        } catch {
          /* redirects have no body */
        }
      });
      await page.goto(`${site.url}?dModel=512&length=2048`, { waitUntil: 'networkidle' });
      const byKind = {};
      for (const { url, body } of bodies) {
        const kind = url.match(/\.(js|wasm|css)(\?|$)/)?.[1];
        if (kind) byKind[kind] = (byKind[kind] ?? 0) + gzipSync(body).length;
      }
      const total = Object.values(byKind).reduce((a, b) => a + b, 0);
      console.log(
        `${total <= 250 * 1024 ? 'MET ' : 'MISS'} page first load (gzip): ${(total / 1024).toFixed(1)} KB ` +
          `(${Object.entries(byKind)
            .map(([k, v]) => `${k} ${(v / 1024).toFixed(1)} KB`)
            .join(', ')}; target ≤ 250 KB)`,
      );
      await page.close();
      console.log(
        'slider drags at dModel 512 × length 2048, each part of the page in view ' +
          '(target: p95 frame and longest main-thread task within one frame):',
      );
      const drags = await measureDrags(browser, site.url, { onResult: (result) => console.log(formatDrag(result)) });
      for (const summary of summarise(drags)) console.log(formatSummary(summary));
    } finally {
      await site.close();
    }
  }
} finally {
  await browser.close();
}
process.exit(ok ? 0 : 1);
