// How long the page's main thread is blocked while "Check my implementation"
// reads, identifies and draws a large table given as a file, in headless
// Chromium: per table shape, the longest main-thread task (Long Tasks API:
// tasks of 50 ms and more), the total time of such tasks, the longest gap
// between animation frames, and the time from choosing the file to the
// difference heatmap being drawn. The tables are the paper's, with row 1
// perturbed (so that there is a difference to draw), as float64 .npy files.
// Runs against any built site (default dist/site):
//   node tests/bench/check-freeze.mjs [siteDir] [--shapes 1000000x2,500000x2,100000x8]
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../e2e/chromium.mjs';
import { npyFile, startFreezeLog, stopFreezeLog } from '../e2e/responsiveness.mjs';
import { serveStatic } from '../e2e/server.mjs';

/** The paper's table (float64, from its formula), with row 1 off by 0.01: a difference to draw. */
export function perturbedPaperTable(length, d) {
  const values = new Float64Array(length * d);
  for (let pos = 0; pos < length; pos++)
    for (let j = 0; j < d; j++) {
      const angle = pos / 10000 ** ((2 * Math.floor(j / 2)) / d);
      values[pos * d + j] = (j % 2 === 0 ? Math.sin(angle) : Math.cos(angle)) + (pos === 1 ? 0.01 : 0);
    }
  return values;
}

/** Waits until the checker has answered about `name` and drawn its difference heatmap. */
export function checked(page, name, timeout) {
  return page.waitForFunction(
    (source) =>
      document.getElementById('check-status')?.dataset.state === 'done' &&
      document.querySelector('.check-source')?.textContent.includes(source) &&
      document.querySelector('[data-testid="check-largest"]')?.textContent !== '' &&
      // (A page that paints on the main thread, as before 0.3, sets no such flag: drawn with the caption.)
      document.querySelector('[data-check-plot="difference"]')?.dataset.painted !== 'false',
    name,
    { timeout, polling: 100 },
  );
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args.splice(at, 2)[1] : fallback;
  };
  const shapes = option('shapes', '1000000x2,500000x2,100000x8')
    .split(',')
    .map((shape) => shape.split('x').map(Number));
  const siteDir = args[0] ?? fileURLToPath(new URL('../../dist/site', import.meta.url));
  if (!existsSync(`${siteDir}/index.html`)) throw new Error(`${siteDir} has no index.html: build the site first`);
  const site = await serveStatic(siteDir);
  const folder = mkdtempSync(join(tmpdir(), 'posenc-check-'));
  const browser = await launchChromium();
  try {
    for (const [length, d] of shapes) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(site.url);
      await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 30000 });
      await page.locator('#check').scrollIntoViewIfNeeded();
      const name = `paper-${length}x${d}.npy`;
      const buffer = npyFile(perturbedPaperTable(length, d), length, d);
      // From disk: a buffer given to setInputFiles is decoded from base64 on the page's main thread (seconds).
      const path = join(folder, name);
      writeFileSync(path, buffer);
      await startFreezeLog(page);
      const started = Date.now();
      await page.setInputFiles('#check-file', path);
      await checked(page, name, 180000);
      const seconds = (Date.now() - started) / 1000;
      const log = await stopFreezeLog(page);
      console.log(
        `${length} × ${d} (.npy, ${(buffer.length / 2 ** 20).toFixed(1)} MB): longest main-thread task ` +
          `${log.longestTask.toFixed(0)} ms, ${log.longTasks} tasks ≥ 50 ms totalling ${log.longTaskTotal.toFixed(0)} ms, ` +
          `longest frame gap ${log.longestGap.toFixed(0)} ms; heatmap drawn after ${seconds.toFixed(1)} s`,
      );
      await page.close();
    }
  } finally {
    await browser.close();
    await site.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
