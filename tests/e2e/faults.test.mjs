// Fault injection in headless Chromium against the built site (run `npx vite
// build --config web/vite.config.js` first): the compute worker's script
// missing or throwing, the .wasm never answering, the network gone after the
// page loaded, an element whose load failed. Each must end in a visible
// message, in the reader's language, within a bounded time, and Retry must
// work where it is offered. Faults are made with Playwright routes on the
// browser context (they also catch the workers' requests).
// Usage: node tests/e2e/faults.test.mjs
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, watchedPage } from './harness.mjs';
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
    await page.goto(server.url);
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
    await page.goto(server.url);
    const text = await statusIn(page, 'error', PROMPTLY_MS);
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
      await page.goto(server.url);
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
} finally {
  await browser.close();
  await server.close();
}

finish('faults');
