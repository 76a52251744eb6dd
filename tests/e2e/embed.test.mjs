// End-to-end checks of the embeds in headless Chromium: the <posenc-*>
// elements on a static page with no build step (tests/e2e/fixtures/, served
// from the repository root so the script path is the package's own layout)
// under a strict CSP header, the iframe page (dist/site/embed.html) and the
// page's copy-embed tools. Builds the elements bundle first; needs the built
// site (`npx vite build --config web/vite.config.js`).
// Usage: node tests/e2e/embed.test.mjs   — screenshots go to test-results/embed/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ELEMENTS } from '../../web/model/registry.js';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, injected, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = join(root, 'dist/site');
const bundle = join(root, 'dist/elements/posenc-elements.js');
const artifacts = join(root, 'test-results/embed');
const fixture = 'tests/e2e/fixtures/two-embeds.html';
const galleryFixture = 'tests/e2e/fixtures/all-elements.html';
const require = createRequire(import.meta.url);

// A blog that allows only its own scripts and styles (and wasm compilation).
const STRICT_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";
// Bundle budget: the elements (d3, plots, page data code, English strings), minified. Raised from
// 160 KB / 50 KB gzip when the attention, precision and RoPE plots joined (182 KB / 63 KB): one chunk
// per element would bring it back down.
const BUNDLE_BUDGET = { bytes: 190 * 1024, gzip: 66 * 1024 };
// Every plot with an element, each on the gallery page (fixtures/all-elements.html) but those of
// fixtures/attention-elements.html (explainer-attention.test.mjs renders them).
const ATTENTION_FIXTURE = readFileSync(new URL('./fixtures/attention-elements.html', import.meta.url), 'utf8');
const PLOTS = Object.values(ELEMENTS).filter((plot) => !ATTENTION_FIXTURE.includes(`<posenc-${plot} `));

if (!existsSync(join(site, 'embed.html'))) {
  console.error('dist/site/embed.html is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync(artifacts, { recursive: true });

await check('the elements bundle builds, within its size budget', async () => {
  execFileSync('npx', ['vite', 'build', '--config', 'web/elements/vite.config.js', '--logLevel', 'warn'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const bytes = statSync(bundle).size;
  const gzip = gzipSync(readFileSync(bundle), { level: 9 }).length;
  const text = readFileSync(bundle, 'utf8');
  assert(text.includes('from"../../web/lib/index.js"'), 'the core is not imported from ../../web/lib/index.js');
  assert(!/\bnew Function\b|\beval\(/.test(text), 'the bundle uses eval or new Function');
  assert(bytes <= BUNDLE_BUDGET.bytes && gzip <= BUNDLE_BUDGET.gzip, `${bytes} bytes, ${gzip} gzip: over budget`);
  return `dist/elements/posenc-elements.js ${bytes} bytes, ${gzip} bytes gzip`;
});

// The static page (and the "CDN" copy of the package) is the repository root; the
// built site is a second origin; pasted snippets live on a third.
const blog = await serveStatic(root, { headers: { 'content-security-policy': STRICT_CSP } });
const siteServer = await serveStatic(site, {
  headers: (file) => (file.endsWith('embed.html') ? { 'content-security-policy': STRICT_CSP } : {}),
});
const pasteDir = mkdtempSync(join(tmpdir(), 'posenc-paste-'));
let pasteServer = null;
const origins = new Set([new URL(blog.url).origin, new URL(siteServer.url).origin]);
// Script URLs of copied snippets (a CDN) are answered from the package files by the test.
const routedPrefixes = [];
const outsideRequests = [];

const browser = await launchChromium();

// Screenshots are of the viewport, made tall enough: a fullPage capture resizes the
// viewport, which clears canvases without a resize the plots could see.

/** Records console errors, exceptions, CSP violations and requests outside the served origins. */
async function openPage(context, url, { wait = true } = {}) {
  const page = await watchedPage(context);
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || origins.has(new URL(url).origin)) return;
    if (routedPrefixes.some((prefix) => url.startsWith(prefix))) return;
    outsideRequests.push(url);
  });
  await page.goto(url);
  if (wait) await waitReady(page);
  return page;
}

/** Waits until every <posenc-*> element of the page (or of a frame) has left the loading state. */
function waitReady(target, timeout = 20000) {
  return target.waitForFunction(
    () => {
      const elements = [...document.querySelectorAll('*')].filter((node) => node.localName.startsWith('posenc-'));
      return elements.length > 0 && elements.every((node) => ['ready', 'error'].includes(node.dataset.state));
    },
    null,
    { timeout },
  );
}

/** What one element shows: state, painted pixels, drawn paths, text alternative, message, fingerprint. */
function inspect(target, selector) {
  return target.evaluate((selector) => {
    const element = document.querySelector(selector);
    const shadow = element.shadowRoot;
    let painted = 0;
    let pixelSum = 0;
    for (const canvas of shadow.querySelectorAll('canvas')) {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 3; i < data.length; i += 4) {
        if (data[i] > 0) painted++;
        pixelSum = (pixelSum + data[i - 3] * 3 + data[i - 2] * 5 + data[i - 1] * 7 + (i % 9973)) % 1e9;
      }
    }
    const svg = [...shadow.querySelectorAll('svg')].map((node) => node.innerHTML).join('');
    let hash = 2166136261;
    for (let i = 0; i < svg.length; i++) hash = Math.imul(hash ^ svg.charCodeAt(i), 16777619);
    const paths = [...shadow.querySelectorAll('svg path')].filter((p) => (p.getAttribute('d') ?? '').length > 20);
    return {
      state: element.dataset.state,
      painted,
      pixels: pixelSum,
      paths: paths.length,
      labels: [...shadow.querySelectorAll(':is([role="img"], [role="application"])')].map(
        (node) => node.getAttribute('aria-label') ?? '',
      ),
      message: shadow.querySelector('.message')?.textContent ?? '',
      plotNodes: shadow.querySelectorAll('.posenc-plot').length,
      canvasWidth: shadow.querySelector('canvas')?.width ?? 0,
      fingerprint: `${(hash >>> 0).toString(16)}:${pixelSum}`,
    };
  }, selector);
}

/**
 * Reads capture() until it gives the same pixels three times 300 ms apart: the
 * heatmaps paint a quick preview while their input changes, refined later.
 */
async function settled(capture) {
  let last = await capture();
  let same = 0;
  for (let tries = 0; tries < 30 && same < 2; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await capture();
    same = next.pixels === last.pixels ? same + 1 : 0;
    last = next;
  }
  return last;
}

/** Answers requests under the directory of a snippet's script URL from the package files. */
async function routePackage(context, scriptUrl) {
  const prefix = scriptUrl.replace(/dist\/elements\/posenc-elements\.js$/, '');
  assert(prefix !== scriptUrl, `unexpected script URL ${scriptUrl}`);
  routedPrefixes.push(prefix);
  const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
  await context.route(`${prefix}**`, async (route) => {
    const path = normalize(join(root, new URL(route.request().url()).pathname.slice(new URL(prefix).pathname.length)));
    const inPackage = ['dist/elements/', 'web/lib/'].some((dir) => path.startsWith(join(root, dir)));
    if (!inPackage || !path.startsWith(root + (root.endsWith(sep) ? '' : sep)) || !existsSync(path)) {
      await route.fulfill({ status: 404, body: 'not found' });
      return;
    }
    await route.fulfill({
      status: 200,
      body: readFileSync(path),
      headers: {
        'content-type': types[extname(path)] ?? 'application/octet-stream',
        'access-control-allow-origin': '*',
      },
    });
  });
  return new URL(prefix).origin;
}

try {
  const light = await browser.newContext({ viewport: { width: 900, height: 1600 }, colorScheme: 'light' });
  const page = await openPage(light, `${blog.url}${fixture}`);

  await check('two embeds on a static page render under a strict CSP header', async () => {
    const policy = (await page.request.get(`${blog.url}${fixture}`)).headers()['content-security-policy'];
    assert(policy === STRICT_CSP, `CSP header: ${policy}`);
    const heatmap = await inspect(page, '#first');
    const dots = await inspect(page, '#second');
    assert(heatmap.state === 'ready' && dots.state === 'ready', `states ${heatmap.state}, ${dots.state}`);
    assert(heatmap.painted > 1000, `heatmap: ${heatmap.painted} painted pixels`);
    assert(dots.paths > 3, `offset dots: ${dots.paths} paths`);
    for (const { labels } of [heatmap, dots])
      assert(labels.length > 0 && labels.every((label) => label.length > 20), `text alternative: ${labels}`);
    assert(heatmap.labels[0].includes('128 positions') && heatmap.labels[0].includes('64 dimensions'), heatmap.labels);
    await page.screenshot({ path: `${artifacts}/two-embeds-light.png` });
    assert(page.problems.length === 0, page.problems.join('\n'));
  });

  await check('the two embeds share one wasm instance: one .wasm fetch', async () => {
    const wasm = blog.requests.filter((path) => path.endsWith('.wasm'));
    const core = blog.requests.filter((path) => path === '/web/lib/index.js');
    assert(wasm.length === 1, `.wasm requests: ${wasm.join(', ')}`);
    assert(core.length === 1, `web/lib/index.js requested ${core.length} times`);
    return wasm[0];
  });

  await check('an attribute change re-renders, several changes in one frame redraw once', async () => {
    const before = await inspect(page, '#first');
    const renders = await page.evaluate(async () => {
      const element = document.getElementById('first');
      let count = 0;
      element.addEventListener('posenc-render', () => count++);
      element.setAttribute('d-model', '32');
      element.setAttribute('length', '64');
      element.setAttribute('position', '3');
      element.setAttribute('preset', 'tensor2tensor');
      for (let i = 0; i < 4; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
      return count;
    });
    const after = await inspect(page, '#first');
    assert(renders === 1, `${renders} redraws for four attribute changes`);
    assert(after.fingerprint !== before.fingerprint, 'the heatmap did not change');
    assert(after.labels[0].includes('64 positions') && after.labels[0].includes('32 dimensions'), after.labels[0]);
  });

  await check('the plot follows the width of its container', async () => {
    const wide = (await inspect(page, '#first')).canvasWidth;
    await page.evaluate(() => document.querySelector('article').style.setProperty('max-width', '420px'));
    await page.waitForFunction(
      (width) => document.getElementById('first').shadowRoot.querySelector('canvas').width < width,
      wide,
    );
    const narrow = (await inspect(page, '#first')).canvasWidth;
    await page.evaluate(() => document.querySelector('article').style.removeProperty('max-width'));
    // A height attribute fixes the drawing's height instead.
    const surfaceHeight = () =>
      page.evaluate(() =>
        Math.round(document.getElementById('first').shadowRoot.querySelector('.posenc-surface').offsetHeight),
      );
    await page.evaluate(() => document.getElementById('first').setAttribute('height', '300'));
    await page.waitForFunction(
      () => document.getElementById('first').shadowRoot.querySelector('canvas').height === 300,
    );
    const fixed = await surfaceHeight();
    assert(fixed === 300, `height="300" gave ${fixed} px`);
    await page.evaluate(() => document.getElementById('first').removeAttribute('height'));
    await page.waitForFunction(
      () => document.getElementById('first').shadowRoot.querySelector('canvas').height !== 300,
    );
    return `canvas ${wide} → ${narrow} px wide; height="300" → ${fixed} px`;
  });

  await check(
    'where the width comes from the content (flex row, auto grid column, table cell) a plot still gets one',
    async () => {
      const widths = await page.evaluate(async () => {
        const host = document.createElement('div');
        document.body.append(host);
        const place = (container, count = 1) => {
          host.append(container);
          return Array.from({ length: count }, () => container.appendChild(document.createElement('posenc-ladder')));
        };
        const flex = document.createElement('div');
        flex.style.setProperty('display', 'flex');
        const grid = document.createElement('div');
        grid.style.setProperty('display', 'grid');
        grid.style.setProperty('grid-template-columns', 'auto 1fr');
        const table = document.createElement('table');
        const cell = table.insertRow().insertCell();
        host.append(table);
        const narrow = document.createElement('div');
        narrow.style.setProperty('display', 'flex');
        narrow.style.setProperty('width', '300px');
        const elements = {
          flex: place(flex, 2),
          grid: place(grid),
          cell: [cell.appendChild(document.createElement('posenc-ladder'))],
          narrow: place(narrow, 2),
        };
        const all = Object.values(elements).flat();
        await new Promise((resolve) => {
          const ready = () =>
            all.every((e) => e.dataset.state === 'ready' && e.shadowRoot.querySelector('canvas, svg'));
          const poll = () => (ready() ? resolve() : setTimeout(poll, 50));
          poll();
        });
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        const result = Object.fromEntries(
          Object.entries(elements).map(([name, list]) => [
            name,
            list.map((e) => Math.round(e.getBoundingClientRect().width)),
          ]),
        );
        host.remove();
        return result;
      });
      const rem = 16;
      for (const name of ['flex', 'grid', 'cell'])
        assert(
          widths[name].every((w) => w >= 20 * rem),
          `${name}: ${widths[name]} px wide`,
        );
      // Two in a 300 px flex row share it instead of overflowing or collapsing.
      assert(
        widths.narrow.every((w) => w > 100 && w <= 150),
        `narrow flex row: ${widths.narrow} px`,
      );
      return Object.entries(widths)
        .map(([name, list]) => `${name} ${list.join(' + ')} px`)
        .join(', ');
    },
  );

  await check('themes: light, dark and auto (following prefers-color-scheme)', async () => {
    const background = () =>
      page.evaluate(() =>
        ['first', 'second'].map((id) => getComputedStyle(document.getElementById(id)).backgroundColor),
      );
    const [autoLight, dark] = await background();
    assert(autoLight === 'rgb(255, 255, 255)' && dark === 'rgb(13, 17, 23)', `light/dark: ${autoLight}, ${dark}`);
    await page.emulateMedia({ colorScheme: 'dark' });
    const [autoDark] = await background();
    assert(autoDark === 'rgb(13, 17, 23)', `auto under a dark preference: ${autoDark}`);
    await page.evaluate(() => document.getElementById('first').setAttribute('theme', 'light'));
    const [forcedLight] = await background();
    assert(forcedLight === 'rgb(255, 255, 255)', `theme="light" under a dark preference: ${forcedLight}`);
    // Colours set by the embedding page win over the theme's.
    await page.evaluate(() => document.getElementById('first').style.setProperty('--posenc-bg', 'rgb(1, 2, 3)'));
    const [custom] = await background();
    assert(custom === 'rgb(1, 2, 3)', `--posenc-bg from the page: ${custom}`);
    await page.evaluate(() => document.getElementById('first').style.removeProperty('--posenc-bg'));
    await page.screenshot({ path: `${artifacts}/two-embeds-dark-preference.png` });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  await check('invalid attributes show an inline error naming the attribute; a valid value recovers', async () => {
    const cases = [
      ['d-model', 'abc'],
      ['d-model', 'NaN'],
      ['d-model', '-4'],
      ['d-model', '12.5'],
      ['d-model', '100000000'],
      ['length', '99999999'],
      ['length', ''],
      ['base', 'Infinity'],
      ['preset', 'nope'],
      ['layout', 'zigzag'],
      ['exponent', 'PAIR'],
      ['position', '1e9'],
      ['dimension', '-1'],
      ['scale', '0'],
      ['padding-row', '2.5'],
      ['theme', 'blue'],
      ['height', '5'],
    ];
    const wrong = [];
    for (const [attribute, value] of cases) {
      await page.evaluate(([a, v]) => document.getElementById('first').setAttribute(a, v), [attribute, value]);
      await page.waitForFunction(() => document.getElementById('first').dataset.state === 'error');
      const shown = await inspect(page, '#first');
      if (!shown.message.includes(attribute) || shown.plotNodes !== 0)
        wrong.push(`${attribute}="${value}": ${shown.message}`);
      await page.evaluate((a) => document.getElementById('first').removeAttribute(a), attribute);
      await page.waitForFunction(() => document.getElementById('first').dataset.state === 'ready');
    }
    assert(wrong.length === 0, wrong.join('\n'));
    await page.evaluate(() => document.getElementById('first').setAttribute('d-model', 'abc'));
    await page.waitForFunction(() => document.getElementById('first').dataset.state === 'error');
    await page.locator('#first').screenshot({ path: `${artifacts}/error-state.png` });
    const message = (await inspect(page, '#first')).message;
    await page.evaluate(() => document.getElementById('first').setAttribute('d-model', '48'));
    await page.waitForFunction(() => document.getElementById('first').dataset.state === 'ready');
    const recovered = await inspect(page, '#first');
    assert(recovered.painted > 1000 && recovered.labels[0].includes('48 dimensions'), 'did not recover');
    assert(page.problems.length === 0, page.problems.join('\n'));
    return message;
  });

  await check('an invalid attribute is explained in the element’s language (Chinese: no English left)', async () => {
    await page.evaluate(() => {
      const element = document.getElementById('first');
      element.setAttribute('lang', 'zh-CN');
      element.setAttribute('d-model', '5000');
    });
    await page.waitForFunction(() => document.getElementById('first').dataset.state === 'error');
    await page.waitForFunction(() => /应为/.test(document.getElementById('first').shadowRoot.textContent), null, {
      timeout: 10000,
    });
    const { message } = await inspect(page, '#first');
    await page.evaluate(() => {
      const element = document.getElementById('first');
      element.removeAttribute('d-model');
      element.removeAttribute('lang');
    });
    await page.waitForFunction(() => document.getElementById('first').dataset.state === 'ready');
    assert(message.includes('应为 2 到 1024 之间的整数，实际为 “5000”'), message);
    assert(!/expected|integer|from \d/.test(message), `English left in: ${message}`);
    return message;
  });

  await check('script and HTML payloads in attributes stay text: no element created, no script run', async () => {
    const payloads = {
      'd-model': '"><img src=x onerror="window.__pwned=1">',
      preset: '<script>window.__pwned=2</script>',
      layout: '<svg onload="window.__pwned=3"></svg>',
      compare: "javascript:window.__pwned=4//'",
    };
    await page.evaluate((pairs) => {
      const element = document.getElementById('second');
      for (const [name, value] of Object.entries(pairs)) element.setAttribute(name, value);
    }, payloads);
    await page.waitForFunction(() => document.getElementById('second').dataset.state === 'error');
    await page.waitForTimeout(300);
    const { message } = await inspect(page, '#second');
    for (const [name, value] of Object.entries(payloads)) {
      assert(message.includes(name), `${name} not named: ${message}`);
      assert(message.includes(value.slice(0, 30)), `${name}: payload not shown as text: ${message}`);
    }
    const { found, pwned } = await injected(page);
    assert(found.length === 0 && pwned === null, `injected: ${found.join(', ')} pwned=${pwned}`);
    assert(page.problems.length === 0, page.problems.join('\n'));
  });

  await check('axe-core finds no serious or critical violations on the static page', async () => {
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    assert(violations.length === 0, violations.join('\n'));
  });
  await page.close();

  await check('every element renders on one static page, from one wasm fetch', async () => {
    const before = blog.requests.filter((path) => path.endsWith('.wasm')).length;
    const gallery = await openPage(light, `${blog.url}${galleryFixture}`);
    const summary = [];
    for (const plot of PLOTS) {
      const shown = await inspect(gallery, `posenc-${plot}`);
      assert(shown.state === 'ready', `${plot}: ${shown.state} ${shown.message}`);
      assert(shown.painted > 1000 || shown.paths > 0, `${plot}: nothing drawn`);
      assert(
        shown.labels.length > 0 && shown.labels.every((label) => label.length > 20),
        `${plot}: text alternative ${shown.labels}`,
      );
      summary.push(plot);
    }
    const wasm = blog.requests.filter((path) => path.endsWith('.wasm')).length - before;
    assert(wasm === 1, `${wasm} .wasm fetches for ${PLOTS.length} elements`);
    await gallery.setViewportSize({ width: 1100, height: await gallery.evaluate(() => document.body.scrollHeight) });
    await gallery.waitForTimeout(300);
    await gallery.screenshot({ path: `${artifacts}/all-elements.png` });
    assert(gallery.problems.length === 0, gallery.problems.join('\n'));
    await gallery.close();
    return summary.join(', ');
  });

  await check(
    'embed.html renders its plot full width under a strict CSP header (heatmap, offset-dots, compare)',
    async () => {
      const frame = await browser.newContext({ viewport: { width: 720, height: 900 }, colorScheme: 'light' });
      const summary = [];
      for (const plot of ['heatmap', 'offset-dots', 'compare']) {
        const probe = await openPage(
          frame,
          `${siteServer.url}embed.html?plot=${plot}&dModel=64&length=128&p=12&k=5&j=9`,
        );
        const tag = `posenc-${plot}`;
        const shown = await inspect(probe, tag);
        assert(shown.state === 'ready', `${plot}: ${shown.state} ${shown.message}`);
        assert(shown.painted > 1000 || shown.paths > 0, `${plot}: nothing drawn`);
        assert(
          shown.labels.every((label) => label.length > 20),
          `${plot}: text alternative ${shown.labels}`,
        );
        const width = await probe.evaluate((t) => document.querySelector(t).getBoundingClientRect().width, tag);
        assert(width >= 700, `${plot}: ${width} px wide in a 720 px frame`);
        await probe.screenshot({ path: `${artifacts}/embed-${plot}.png` });
        assert(probe.problems.length === 0, `${plot}: ${probe.problems.join('\n')}`);
        summary.push(plot);
        await probe.close();
      }
      await frame.close();
      return summary.join(', ');
    },
  );

  await check('payloads in embed.html URL parameters create no element and run no script', async () => {
    const context = await browser.newContext({ viewport: { width: 720, height: 600 } });
    const queries = [
      `plot=heatmap&dModel=${encodeURIComponent('"><img src=x onerror="window.__pwned=1">')}&preset=${encodeURIComponent('<script>window.__pwned=2</script>')}`,
      `plot=${encodeURIComponent('<img src=x onerror="window.__pwned=3">')}`,
      `plot=${encodeURIComponent('heatmap" onload="window.__pwned=4')}&theme=${encodeURIComponent('<b>dark</b>')}`,
      `plot=rotation&j=${encodeURIComponent('</script><script>window.__pwned=5</script>')}`,
    ];
    for (const query of queries) {
      const probe = await openPage(context, `${siteServer.url}embed.html?${query}`, { wait: false });
      await probe.waitForFunction(
        () =>
          document.querySelector('.embed-error') ||
          [...document.querySelectorAll('main > *')].some((node) => node.dataset.state === 'error'),
      );
      await probe.waitForTimeout(200);
      const { found, pwned } = await injected(probe);
      assert(found.length === 0 && pwned === null, `${query}: injected ${found.join(', ')} pwned=${pwned}`);
      const text = await probe.evaluate(() => {
        const element = document.querySelector('main > *');
        return (element.shadowRoot ?? element).textContent;
      });
      assert(/invalid|Unknown plot/.test(text), `${query}: no error shown: ${text}`);
      const link = await probe.evaluate(() => document.getElementById('explainer').href);
      assert(link.startsWith(siteServer.url), `link back: ${link}`);
      assert(probe.problems.length === 0, probe.problems.join('\n'));
      await probe.close();
    }
    await context.close();
  });

  // The page's copy-embed tools: the snippets for the current settings, pasted into fresh pages.
  const pageUrl = `${siteServer.url}?dModel=96&length=200&p=20&k=7&j=9&preset=tf-tutorial`;
  const copyContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  await copyContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(siteServer.url).origin });
  const explainer = await openPage(copyContext, pageUrl, { wait: false });
  await explainer.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
  let scriptSnippet = null;
  let iframeSnippet = null;
  let original = null;

  await check('the copy-embed button copies the script snippet for the current settings', async () => {
    const heatmap = explainer.locator('[data-plot="heatmap"]');
    await heatmap.scrollIntoViewIfNeeded();
    await explainer.waitForFunction(() => document.querySelector('[data-plot="heatmap"] canvas'));
    await explainer.click('[data-testid="embed-button-heatmap"]');
    await explainer.click('#embed-heatmap [data-testid="embed-copy-script"]');
    await explainer.waitForFunction(
      () => document.querySelector('#embed-heatmap [data-testid="embed-status"]').dataset.result,
    );
    const result = await explainer.getAttribute('#embed-heatmap [data-testid="embed-status"]', 'data-result');
    assert(result === 'copied', `copy result: ${result}`);
    scriptSnippet = await explainer.evaluate(() => navigator.clipboard.readText());
    assert(
      scriptSnippet === (await explainer.inputValue('#embed-heatmap [data-testid="embed-script"]')),
      'clipboard and field differ',
    );
    for (const part of ['<posenc-heatmap', 'd-model="96"', 'length="200"', 'preset="tf-tutorial"', 'position="20"'])
      assert(scriptSnippet.includes(part), `snippet lacks ${part}: ${scriptSnippet}`);
    await explainer.click('#embed-heatmap [data-testid="embed-copy-iframe"]');
    iframeSnippet = await explainer.evaluate(() => navigator.clipboard.readText());
    assert(iframeSnippet.startsWith('<iframe src="') && iframeSnippet.includes('plot=heatmap'), iframeSnippet);
    // The page paints the table off the main thread, a preview first: wait until the image settles.
    const capture = () =>
      explainer.evaluate(() => {
        const element = document.querySelector('[data-plot="heatmap"]');
        const canvas = element.querySelector('canvas');
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let pixels = 0;
        for (let i = 3; i < data.length; i += 4)
          pixels = (pixels + data[i - 3] * 3 + data[i - 2] * 5 + data[i - 1] * 7 + (i % 9973)) % 1e9;
        return {
          label: element.querySelector(':is([role="img"], [role="application"])').getAttribute('aria-label'),
          pixels,
          canvasWidth: canvas.width,
          width: element.getBoundingClientRect().width,
        };
      });
    original = await settled(capture);
    await explainer.locator('#embed-heatmap').screenshot({ path: `${artifacts}/copy-panel.png` });
    assert(explainer.problems.length === 0, explainer.problems.join('\n'));
    return scriptSnippet.split('\n')[1];
  });

  await check('the script snippet, pasted into a fresh static page, renders the same plot', async () => {
    assert(scriptSnippet && original, 'no snippet');
    const scriptUrl = scriptSnippet.match(/<script type="module" src="([^"]+)"><\/script>/)?.[1];
    assert(scriptUrl, `no script tag in ${scriptSnippet}`);
    const paste = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const cdn = await routePackage(paste, scriptUrl);
    pasteServer ??= await serveStatic(pasteDir, {
      headers: {
        'content-security-policy':
          `default-src 'self'; script-src 'self' ${cdn} 'wasm-unsafe-eval'; connect-src 'self' ${cdn}; ` +
          `style-src 'self'; img-src 'self' data:; frame-src ${new URL(siteServer.url).origin}; object-src 'none'; base-uri 'none'`,
      },
    });
    origins.add(new URL(pasteServer.url).origin);
    // The plot's container as wide as on the page (the element adds 0.5rem padding each side).
    writeFileSync(
      join(pasteDir, 'post.css'),
      `.post { width: ${original.width + 16}px; margin: 0; }\nbody { margin: 0; }\n`,
    );
    const html = (body) =>
      `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>pasted</title><link rel="icon" href="data:,"><link rel="stylesheet" href="post.css"></head>\n<body><div class="post">\n${body}\n</div></body>\n</html>\n`;
    writeFileSync(join(pasteDir, 'script.html'), html(scriptSnippet));
    const pasted = await openPage(paste, `${pasteServer.url}script.html`);
    const shown = await settled(() => inspect(pasted, 'posenc-heatmap'));
    assert(shown.state === 'ready', `${shown.state}: ${shown.message}`);
    assert(shown.labels[0] === original.label, `text alternative differs:\n${shown.labels[0]}\n${original.label}`);
    assert(shown.canvasWidth === original.canvasWidth, `canvas ${shown.canvasWidth} vs ${original.canvasWidth} px`);
    assert(shown.pixels === original.pixels, 'the painted table differs from the page');
    await pasted.screenshot({ path: `${artifacts}/pasted-script.png` });
    assert(pasted.problems.length === 0, pasted.problems.join('\n'));
    await paste.close();
    return `same text alternative and pixels; script from ${scriptUrl} (answered locally)`;
  });

  await check('the iframe snippet, pasted into a fresh static page, renders the same plot', async () => {
    assert(iframeSnippet && pasteServer, 'no snippet');
    writeFileSync(
      join(pasteDir, 'iframe.html'),
      `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>pasted iframe</title><link rel="icon" href="data:,"></head>\n<body>\n${iframeSnippet}\n</body></html>\n`,
    );
    const paste = await browser.newContext({ viewport: { width: 1000, height: 900 }, colorScheme: 'light' });
    const pasted = await openPage(paste, `${pasteServer.url}iframe.html`, { wait: false });
    const frameHandle = await pasted.waitForSelector('iframe');
    const frame = await frameHandle.contentFrame();
    await frame.waitForSelector('posenc-heatmap');
    await waitReady(frame);
    const shown = await inspect(frame, 'posenc-heatmap');
    assert(shown.state === 'ready' && shown.painted > 1000, `${shown.state}: ${shown.message}`);
    assert(shown.labels[0] === original.label, `text alternative differs:\n${shown.labels[0]}\n${original.label}`);
    // The plot fills the frame's height (the snippet's height attribute) without scrolling.
    await frame.waitForTimeout(300);
    const fit = await frame.evaluate(() => [document.body.getBoundingClientRect().height, window.innerHeight]);
    assert(fit[0] <= fit[1] + 1 && fit[0] >= fit[1] - 40, `content ${fit[0]} px in a ${fit[1]} px frame`);
    await pasted.screenshot({ path: `${artifacts}/pasted-iframe.png` });
    assert(pasted.problems.length === 0, pasted.problems.join('\n'));
    await paste.close();
  });
  await explainer.close();
  await copyContext.close();

  await check('where the clipboard is refused, the snippet is selected in a visible read-only field', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('refused', 'NotAllowedError')) },
      });
    });
    const probe = await openPage(context, pageUrl, { wait: false });
    await probe.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
    await probe.click('[data-testid="embed-button-rotation"]');
    await probe.click('#embed-rotation [data-testid="embed-copy-script"]');
    await probe.waitForFunction(
      () => document.querySelector('#embed-rotation [data-testid="embed-status"]').dataset.result,
    );
    const state = await probe.evaluate(() => {
      const field = document.querySelector('#embed-rotation [data-testid="embed-script"]');
      const status = document.querySelector('#embed-rotation [data-testid="embed-status"]');
      const box = field.getBoundingClientRect();
      return {
        result: status.dataset.result,
        message: status.textContent,
        focused: document.activeElement === field,
        readOnly: field.readOnly,
        selected: field.selectionStart === 0 && field.selectionEnd === field.value.length && field.value.length > 0,
        visible: box.width > 100 && box.height > 20,
        snippet: field.value,
      };
    });
    assert(state.result === 'manual' && /Ctrl\+C/.test(state.message), `status: ${state.result} ${state.message}`);
    assert(state.focused && state.readOnly && state.selected && state.visible, JSON.stringify(state));
    assert(state.snippet.includes('<posenc-rotation') && state.snippet.includes('offset="7"'), state.snippet);
    assert(probe.problems.length === 0, probe.problems.join('\n'));
    await context.close();
  });

  await check('no request left the served origins', async () => {
    assert(outsideRequests.length === 0, outsideRequests.join('\n'));
    return `origins: ${[...origins].join(', ')}; routed locally: ${routedPrefixes.join(', ') || 'none'}`;
  });
} finally {
  await browser.close();
  await blog.close();
  await siteServer.close();
  await pasteServer?.close();
  rmSync(pasteDir, { recursive: true, force: true });
}

finish();
