// Bytes that cross between the page's main thread and its compute worker
// while a slider moves: every postMessage is counted on the side that sends
// it, split into bytes copied (structured clone: each ArrayBuffer not in the
// transfer list, whole, plus a rough size of the other values) and bytes
// transferred (ownership moved, nothing copied). Per drag step, over N steps
// of a slider moved with the keyboard, with the heatmap on screen.
// Usage: node tests/bench/worker-bytes.mjs [siteDir=dist/site] [--slider dModel] [--steps 20]
//   [--query '?dModel=512&length=2048'] [--step-ms 50]
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../e2e/chromium.mjs';
import { serveStatic } from '../e2e/server.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? fallback : args[at + 1];
};
const site =
  args[0] && !args[0].startsWith('--') ? args[0] : fileURLToPath(new URL('../../dist/site', import.meta.url));
const slider = option('slider', 'dModel');
const steps = Number(option('steps', 20));
const query = option('query', '?dModel=512&length=2048');
const stepMs = Number(option('step-ms', 50));

/** Installed on both sides of the boundary: counts what each postMessage sends. */
function counter() {
  // Bytes and arrays by how they crossed; arrays also by kind (Float32Array: tables, Uint8ClampedArray: pixels).
  const totals = { messages: 0, copied: 0, transferred: 0, arraysCopied: 0, arraysTransferred: 0, kinds: {} };
  const size = (value, transfer, seen) => {
    if (value === null || typeof value !== 'object') return typeof value === 'string' ? 2 * value.length : 8;
    if (seen.has(value)) return 0;
    seen.add(value);
    const buffer = value instanceof ArrayBuffer ? value : ArrayBuffer.isView(value) ? value.buffer : null;
    if (buffer) {
      if (seen.has(buffer)) return 0;
      seen.add(buffer);
      const kind = `${value.constructor.name} ${transfer.includes(buffer) ? 'transferred' : 'copied'}`;
      totals.kinds[kind] = (totals.kinds[kind] ?? 0) + 1;
      if (transfer.includes(buffer)) {
        totals.transferred += buffer.byteLength;
        totals.arraysTransferred++;
        return 0;
      }
      totals.arraysCopied++;
      return buffer.byteLength;
    }
    let bytes = 0;
    for (const key of Object.keys(value)) bytes += 2 * key.length + size(value[key], transfer, seen);
    return bytes;
  };
  return {
    totals,
    count(message, transfer = []) {
      const list = Array.isArray(transfer) ? transfer : (transfer?.transfer ?? []);
      totals.messages++;
      totals.copied += size(message, list, new Set());
    },
    reset() {
      for (const key of Object.keys(totals)) totals[key] = key === 'kinds' ? {} : 0;
    },
  };
}

const server = await serveStatic(site);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(`(() => {
    const counter = (${counter})();
    window.__toWorker = counter;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, transfer) {
      counter.count(message, transfer);
      return post.call(this, message, transfer);
    };
  })()`);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker));
  await page.goto(`${server.url}${query}`);
  await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 30000 });
  await page.waitForSelector('[data-plot="heatmap"] canvas', { timeout: 30000 });
  await page.waitForTimeout(1500);
  // The compute worker (the check tool's starts only when used).
  const patched = [];
  for (const worker of workers) {
    if (!worker.url().includes('compute-worker')) continue;
    await worker.evaluate(`(() => {
      const counter = (${counter})();
      self.__toMain = counter;
      const post = self.postMessage.bind(self);
      self.postMessage = (message, transfer) => {
        counter.count(message, transfer);
        return post(message, transfer);
      };
    })()`);
    patched.push(worker);
  }
  if (patched.length !== 1) throw new Error(`${patched.length} compute workers found`);
  const [worker] = patched;
  await page.evaluate(() => window.__toWorker.reset());
  await worker.evaluate(() => self.__toMain.reset());
  // The first of the knob's instances (the strip's, or the first section's that shows it).
  const input = page.locator(`form[data-knobs] [name="${slider}"]`).first();
  await input.focus();
  for (let i = 0; i < steps; i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(stepMs);
  }
  // Everything the steps asked for, answered (the exact repaint after the drag settles included).
  await page.waitForTimeout(2000);
  const toWorker = await page.evaluate(() => window.__toWorker.totals);
  const toMain = await worker.evaluate(() => self.__toMain.totals);
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  const line = (name, t) =>
    `${name}: ${(t.messages / steps).toFixed(1)} messages, ${kb(t.copied / steps)} copied ` +
    `(${(t.arraysCopied / steps).toFixed(1)} arrays), ${kb(t.transferred / steps)} transferred ` +
    `(${(t.arraysTransferred / steps).toFixed(1)} arrays) per step; arrays in all: ${JSON.stringify(t.kinds)}`;
  console.log(`${steps} steps of ${slider}, ${query}, heatmap on screen:`);
  console.log(line('main -> worker', toWorker));
  console.log(line('worker -> main', toMain));
  // How many tables reach the main thread depends on how fast the worker keeps up (it drops superseded steps).
  const tables = toMain.kinds['Float32Array transferred'] ?? 0;
  console.log(
    `${tables} tables handed over; per table: ${kb((toMain.transferred + toWorker.transferred) / tables)} transferred, ` +
      `${kb((toMain.copied + toWorker.copied) / tables)} copied (section numbers and requests included), ` +
      `${((toMain.messages + toWorker.messages) / tables).toFixed(1)} messages`,
  );
  console.log(
    `total: ${kb((toWorker.copied + toMain.copied) / steps)} copied, ` +
      `${kb((toWorker.transferred + toMain.transferred) / steps)} transferred per step`,
  );
} finally {
  await browser.close();
  await server.close();
}
