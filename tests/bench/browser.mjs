// npm run bench, browser part: the suite in headless Chromium, the page's
// first-load size (gzip), and frame times while a slider is dragged.
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '../e2e/server.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
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
      const frames = await dragSlider(page);
      if (frames) {
        console.log(
          `${frames.longest <= (1000 / 60) * 1.5 ? 'MET ' : 'MISS'} slider drag at dModel 512 × length 2048: ` +
            `${frames.count} frames, median ${frames.median.toFixed(1)} ms, p95 ${frames.p95.toFixed(1)} ms, ` +
            `longest main-thread task ${frames.longest.toFixed(1)} ms (target: no block longer than one frame)`,
        );
      }
    } finally {
      await site.close();
    }
  }
} finally {
  await browser.close();
}
process.exit(ok ? 0 : 1);

/** Drags the position slider with the mouse and records frame intervals and long tasks. */
async function dragSlider(page) {
  const slider = page.locator('input[type=range]').first();
  if ((await slider.count()) === 0) return null;
  await page.evaluate(() => {
    window.frameLog = { intervals: [], longTasks: [] };
    let last = performance.now();
    const tick = (now) => {
      window.frameLog.intervals.push(now - last);
      last = now;
      if (!window.frameLog.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.frameLog.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  await slider.scrollIntoViewIfNeeded();
  const box = await slider.boundingBox();
  await page.mouse.move(box.x + 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let step = 0; step <= 60; step++) {
    await page.mouse.move(box.x + 2 + ((box.width - 4) * step) / 60, box.y + box.height / 2);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  await page.waitForTimeout(200);
  const { intervals, longTasks } = await page.evaluate(() => {
    window.frameLog.stop = true;
    return window.frameLog;
  });
  const sorted = intervals.slice(2).sort((a, b) => a - b);
  return {
    count: sorted.length,
    median: sorted[sorted.length >> 1],
    p95: sorted[Math.floor(sorted.length * 0.95)],
    longest: Math.max(0, ...longTasks, sorted[sorted.length - 1]),
  };
}
