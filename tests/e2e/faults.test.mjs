// Fault injection in headless Chromium against the built site (run `npx vite
// build --config web/vite.config.js` first): the compute worker's script
// missing or throwing, the .wasm never answering, the network gone after the
// page loaded, an element whose load failed. Each must end in a visible
// message, in the reader's language, within a bounded time, and Retry must
// work where it is offered. Faults are made with Playwright routes on the
// browser context (they also catch the workers' requests).
// Usage: node tests/e2e/faults.test.mjs
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, watchedPage } from './harness.mjs';
import { npyFile, startFreezeLog, stopFreezeLog } from './responsiveness.mjs';
import { serveStatic } from './server.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = `${root}dist/site`;

if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// The page and the elements say that a load is slow after this long (main.js, elements/element.js).
const PATIENCE_MS = 10000;
// A message must show within this much of the fault (a failure is reported at once; a stall after PATIENCE_MS).
const PROMPTLY_MS = 5000;

const server = await serveStatic(site);
const folder = mkdtempSync(join(tmpdir(), 'posenc-faults-'));
const browser = await launchChromium();

/** A fresh context (its own cache and routes) in `locale`, and a watched page in it. */
async function freshPage(locale = 'en-US') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await watchedPage(context);
  return { context, page };
}

/** Holds every request matching `pattern` unanswered until released: release('abort' | 'continue'). */
async function stall(context, pattern) {
  const held = [];
  const handler = (route) => held.push(route);
  await context.route(pattern, handler);
  return {
    held,
    async release(how) {
      await Promise.all(held.splice(0).map((route) => (how === 'abort' ? route.abort() : route.continue())));
      await context.unroute(pattern, handler);
    },
  };
}

/** Text of the page's loading line once it is in `state`, within `timeout` ms. */
async function statusIn(page, state, timeout) {
  await page.waitForFunction((wanted) => document.getElementById('status').dataset.state === wanted, state, {
    timeout,
  });
  return page.textContent('#status');
}

/** The shown state and message of the element in embed.html once its state is `state`. */
async function elementIn(page, state, timeout) {
  await page.waitForFunction((wanted) => document.querySelector('#embed > *')?.dataset.state === wanted, state, {
    timeout,
  });
  return page.evaluate(() => document.querySelector('#embed > *').shadowRoot.querySelector('.message').textContent);
}

/** Uncaught exceptions recorded on the page (console errors are expected here: the faults are logged). */
const exceptions = (page) => page.problems.filter((problem) => problem.startsWith('exception:'));

try {
  await check('the compute worker script is missing (404): a message and Retry at once; Retry loads', async () => {
    const { context, page } = await freshPage();
    const missing = (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' });
    await context.route('**/compute-worker-*.js', missing);
    const started = Date.now();
    await page.goto(`${server.url}sinusoidal.html`);
    const text = await statusIn(page, 'error', PROMPTLY_MS);
    const took = Date.now() - started;
    assert(text.includes('computing worker could not start'), `status: ${text}`);
    assert(await page.isVisible('#retry'), 'no Retry button');
    await context.unroute('**/compute-worker-*.js', missing);
    await page.click('#retry');
    await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
    assert(await page.isHidden('#retry'), 'Retry still shown after the page loaded');
    await page.waitForFunction(() => document.querySelector('[data-plot="heatmap"] canvas'), null, { timeout: 15000 });
    assert(exceptions(page).length === 0, exceptions(page).join('\n'));
    await context.close();
    return `message after ${took} ms`;
  });

  await check('the compute worker throws while starting: the message is in Chinese for a Chinese reader', async () => {
    const { context, page } = await freshPage('zh-CN');
    const throwing = (route) =>
      route.fulfill({ contentType: 'text/javascript', body: "throw new Error('injected fault');" });
    await context.route('**/compute-worker-*.js', throwing);
    // The Chinese strings arrive after the worker has failed (it starts before the page's code).
    const late = async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    };
    await context.route('**/*zh-*.js', late);
    await page.goto(`${server.url}sinusoidal.html`);
    const text = await statusIn(page, 'error', PROMPTLY_MS + 1000);
    assert(text.includes('计算线程') && !text.includes('injected fault'), `status: ${text}`);
    assert((await page.textContent('#retry')) === '重试', 'Retry not in Chinese');
    await context.unroute('**/compute-worker-*.js', throwing);
    await page.click('#retry');
    await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
    assert(exceptions(page).length === 0, exceptions(page).join('\n'));
    await context.close();
  });

  await check('the .wasm never answers: page and embed say so within the patience (en, zh); Retry loads', async () => {
    const pageRun = (async () => {
      const { context, page } = await freshPage();
      const wasm = await stall(context, '**/*.wasm');
      const started = Date.now();
      await page.goto(`${server.url}sinusoidal.html`);
      assert((await page.textContent('#status')).includes('Loading'), 'no loading line');
      const text = await statusIn(page, 'slow', PATIENCE_MS + PROMPTLY_MS);
      const took = Date.now() - started;
      assert(text.includes('has not arrived after 10 s'), `status: ${text}`);
      assert(await page.isVisible('#retry'), 'no Retry button');
      await wasm.release('abort');
      await page.click('#retry');
      await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
      assert(exceptions(page).length === 0, exceptions(page).join('\n'));
      await context.close();
      return took;
    })();
    const embedRun = (async () => {
      const { context, page } = await freshPage();
      const wasm = await stall(context, '**/*.wasm');
      const started = Date.now();
      await page.goto(`${server.url}embed.html?plot=heatmap&lang=zh`);
      const slow = await elementIn(page, 'slow', PATIENCE_MS + PROMPTLY_MS);
      const took = Date.now() - started;
      assert(slow.includes('仍未加载完成') && slow.includes('重试'), `embed: ${slow}`);
      // The request fails at last (the loader's own timeout, or the network): a message and Retry.
      await wasm.release('abort');
      const failed = await elementIn(page, 'error', PROMPTLY_MS);
      assert(failed.includes('无法加载 WebAssembly 核心'), `embed after the failure: ${failed}`);
      await page.getByRole('button', { name: '重试' }).click();
      await elementIn(page, 'ready', 15000);
      assert(exceptions(page).length === 0, exceptions(page).join('\n'));
      await context.close();
      return took;
    })();
    const [pageMs, embedMs] = await Promise.all([pageRun, embedRun]);
    return `slow message after ${pageMs} ms (page), ${embedMs} ms (embed)`;
  });

  await check('elements recover: a failed load shows Retry; a later load that succeeds redraws them all', async () => {
    const { context, page } = await freshPage();
    const missing = (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' });
    await context.route('**/*.wasm', missing);
    await page.goto(`${server.url}embed.html?plot=heatmap`);
    const text = await elementIn(page, 'error', PROMPTLY_MS);
    assert(text.includes('could not be loaded') && text.includes('Retry'), `element: ${text}`);
    // A second element, also failing.
    await page.evaluate(() => {
      const waves = document.createElement('posenc-waves');
      waves.id = 'second';
      document.getElementById('embed').append(waves);
    });
    await page.waitForFunction(() => document.getElementById('second').dataset.state === 'error', null, {
      timeout: PROMPTLY_MS,
    });
    // Back online: one element's Retry brings both back.
    await context.unroute('**/*.wasm', missing);
    await page.locator('#embed > posenc-heatmap').getByRole('button', { name: 'Retry' }).click();
    await elementIn(page, 'ready', 15000);
    await page.waitForFunction(() => document.getElementById('second').dataset.state === 'ready', null, {
      timeout: 5000,
    });
    assert(exceptions(page).length === 0, exceptions(page).join('\n'));
    await context.close();
  });

  await check('elements recover: an attribute change after a failed load tries again', async () => {
    const { context, page } = await freshPage();
    const missing = (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' });
    await context.route('**/*.wasm', missing);
    await page.goto(`${server.url}embed.html?plot=row`);
    await elementIn(page, 'error', PROMPTLY_MS);
    await context.unroute('**/*.wasm', missing);
    await page.evaluate(() => document.querySelector('#embed > *').setAttribute('d-model', '32'));
    await elementIn(page, 'ready', 15000);
    assert(exceptions(page).length === 0, exceptions(page).join('\n'));
    await context.close();
  });

  // ---- The checker ("Check my implementation") --------------------------------

  /** The chapter that holds the checker, loaded, scrolled to it. */
  async function checkerPage(locale = 'en-US') {
    const { context, page } = await freshPage(locale);
    await page.goto(`${server.url}implementations.html`);
    await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
    await page.locator('#check').scrollIntoViewIfNeeded();
    // The checker is a chunk of its own, loaded as its section nears the screen.
    await page.waitForSelector('#check-paste', { state: 'attached', timeout: 15000 });
    return { context, page };
  }

  /** The checker's status once it is in `state` (done: with the answer about `source` drawn). */
  async function checkerIn(page, state, timeout, source = '') {
    await page.waitForFunction(
      ([wanted, text]) =>
        document.getElementById('check-status').dataset.state === wanted &&
        (wanted !== 'done' ||
          (document.querySelector('.check-source').textContent.includes(text) &&
            document.querySelector('[data-testid="check-largest"]').textContent !== '')),
      [state, source],
      { timeout },
    );
    return page.textContent('#check-status');
  }

  await check("the checker's worker script is missing: a message and Retry; Retry checks the table", async () => {
    const { context, page } = await checkerPage();
    const missing = (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' });
    await context.route('**/check-worker-*.js', missing);
    await page.click('[data-testid="check-sample-fairseq"]');
    const text = await checkerIn(page, 'error', PROMPTLY_MS);
    assert(text.includes('The checker could not start'), `status: ${text}`);
    assert(await page.isVisible('#check-retry'), 'no Retry button');
    await context.unroute('**/check-worker-*.js', missing);
    await page.click('#check-retry');
    await checkerIn(page, 'done', 15000, 'fairseq');
    assert(exceptions(page).length === 0, exceptions(page).join('\n'));
    await context.close();
  });

  await check(
    'offline after the page loaded: a sample says so instead of throwing; Retry online checks it',
    async () => {
      const { context, page } = await checkerPage();
      await context.setOffline(true);
      await page.click('[data-testid="check-sample-off-by-one"]');
      const text = await checkerIn(page, 'error', PROMPTLY_MS);
      assert(text.includes('could not be fetched'), `status: ${text}`);
      assert(exceptions(page).length === 0, `uncaught: ${exceptions(page).join('\n')}`);
      // An export needs the same core: a sentence too, not "Failed to fetch dynamically imported module".
      await page.click('#export-npy');
      await page.waitForFunction(() => document.getElementById('export-status').dataset.state === 'error', null, {
        timeout: PROMPTLY_MS,
      });
      const exported = await page.textContent('#export-status');
      assert(exported.includes('could not be fetched') && !/Failed to fetch/i.test(exported), `export: ${exported}`);
      await context.setOffline(false);
      await page.click('#check-retry');
      await checkerIn(page, 'done', 15000, 'positions from 1');
      await context.close();
    },
  );

  await check("the checker's .wasm never answers: it says so within the patience; Retry checks the table", async () => {
    const { context, page } = await checkerPage();
    // The page's own core is loaded (in its worker); the checker's worker fetches its own.
    const wasm = await stall(context, '**/*.wasm');
    await page.fill('#check-paste', '0, 1, 0, 1\n0.841471, 0.540302, 0.00999983, 0.99995');
    await page.click('#check-run');
    const text = await checkerIn(page, 'slow', PATIENCE_MS + PROMPTLY_MS);
    assert(text.includes('has not arrived after 10 s'), `status: ${text}`);
    await wasm.release('abort');
    await page.click('#check-retry');
    await checkerIn(page, 'done', 15000, 'pasted');
    assert(exceptions(page).length === 0, exceptions(page).join('\n'));
    await context.close();
  });

  await check("a parse failure is a sentence in the reader's language, never the engine's message", async () => {
    const { context, page } = await checkerPage();
    // JSON nested 20,000 deep: a recursive reader overflows the stack.
    await page.fill('#check-paste', `${'['.repeat(20000)}0${']'.repeat(20000)}`);
    await page.click('#check-run');
    const english = await checkerIn(page, 'error', 15000);
    assert(english.includes('not a table the checker can read'), `en: ${english}`);
    assert(!/call stack|RangeError|undefined|null/i.test(english), `engine words shown: ${english}`);
    await page.selectOption('#language', 'zh');
    await page.waitForFunction(() =>
      document.getElementById('check-status').textContent.includes('无法把它读成一张表'),
    );
    assert(exceptions(page).length === 0, exceptions(page).join('\n'));
    await context.close();
  });

  await check('a 1,000,000 × 2 table from a file: the page stays responsive, and its one odd row shows', async () => {
    const [length, d, odd] = [1000000, 2, 500000];
    // The paper's table from its formula (float64), row `odd` off by +0.5: the only difference to see.
    const values = new Float64Array(length * d);
    for (let pos = 0; pos < length; pos++) {
      values[2 * pos] = Math.sin(pos) + (pos === odd ? 0.5 : 0);
      values[2 * pos + 1] = Math.cos(pos) + (pos === odd ? 0.5 : 0);
    }
    const path = join(folder, 'million.npy');
    writeFileSync(path, npyFile(values, length, d));
    const { context, page } = await checkerPage();
    await startFreezeLog(page);
    // From disk: a buffer given to setInputFiles would be decoded on the page's main thread.
    await page.setInputFiles('#check-file', path);
    const read = await page.waitForFunction(
      () => document.getElementById('check-status').textContent.match(/Read [\d,]+ rows × \d+ columns/)?.[0],
      null,
      { timeout: 30000 },
    );
    assert((await read.jsonValue()) === 'Read 1,000,000 rows × 2 columns', `said: ${await read.jsonValue()}`);
    await checkerIn(page, 'done', 60000, 'million.npy');
    await page.waitForFunction(
      () => document.querySelector('[data-check-plot="difference"]').dataset.painted === 'true',
    );
    const { longestTask, longestGap } = await stopFreezeLog(page);
    // Generous: painting on the main thread took 5 to 13 s here; a loaded machine may stretch a frame.
    assert(
      longestTask < 1000 && longestGap < 1000,
      `longest task ${longestTask} ms, longest frame gap ${longestGap} ms`,
    );
    // The odd row is one of 1,000,000: the pixel row holding it must still be coloured (red: +0.5).
    const found = await page.evaluate(() => {
      const canvas = document.querySelector('[data-check-plot="difference"] canvas');
      const { data, width, height } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      // The plot area of the heatmap: 8 px from the top, 42 from the bottom (device pixels, ratio 1).
      const [top, bottom, x] = [8, height - 42, Math.round(52 + (width - 122) / 2)];
      const red = [];
      for (let y = top; y < bottom; y++) {
        const at = (y * width + x) * 4;
        // Far redder than the near-white of no difference (the top of the scale is dark red, 103, 0, 31).
        if (data[at] - data[at + 1] > 60 && data[at] - data[at + 2] > 40) red.push(y);
      }
      return { red, middle: top + (bottom - top) / 2, note: !document.querySelector('.check-pixel-note').hidden };
    });
    assert(found.red.length >= 1 && found.red.length <= 3, `red pixel rows: ${found.red}`);
    assert(Math.abs(found.red[0] - found.middle) <= 2, `odd row drawn at y ${found.red[0]}, expected ${found.middle}`);
    assert(found.note, 'no note that a pixel shows the largest difference of the cells it covers');
    assert(exceptions(page).length === 0, exceptions(page).join('\n'));
    await context.close();
    return `longest main-thread task ${longestTask.toFixed(0)} ms, longest frame gap ${longestGap.toFixed(0)} ms`;
  });

  await check('a paste over 1 MB is checked without entering the text box (Chinese page)', async () => {
    const { context, page } = await checkerPage('zh-CN');
    const [length, d] = [20000, 4];
    const text = Array.from({ length }, (_, pos) =>
      Array.from({ length: d }, (_, j) => {
        const angle = pos / 10000 ** ((2 * Math.floor(j / 2)) / d);
        return (j % 2 === 0 ? Math.sin(angle) : Math.cos(angle)).toPrecision(17);
      }).join(','),
    ).join('\n');
    assert(text.length > 2 ** 20, `only ${text.length} characters`);
    await page.evaluate((pasted) => {
      const clipboardData = new DataTransfer();
      clipboardData.setData('text/plain', pasted);
      const event = new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true });
      document.getElementById('check-paste').dispatchEvent(event);
    }, text);
    await checkerIn(page, 'done', 30000, '未显示在框中');
    assert((await page.inputValue('#check-paste')) === '', 'the long paste went into the box');
    const source = await page.textContent('.check-source');
    assert(source.includes('20,000 行 × 4 列'), `source: ${source}`);
    assert((await page.textContent('[data-testid="check-verdict"]')).includes('vaswani'), 'not the paper');
    assert(exceptions(page).length === 0, exceptions(page).join('\n'));
    await context.close();
  });
} finally {
  await browser.close();
  await server.close();
  rmSync(folder, { recursive: true, force: true });
}

finish('faults');
