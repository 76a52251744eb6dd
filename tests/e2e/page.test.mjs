// End-to-end checks of the explainer page in headless Chromium, against the
// built site (run `npx vite build --config web/vite.config.js` first).
// Usage: node tests/e2e/page.test.mjs   — screenshots go to test-results/e2e/.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import zh from '../../web/i18n/zh.js';
import { CHAPTERS, fullModuleFirst } from '../../web/model/registry.js';
import { launchChromium } from './chromium.mjs';
import { assert, axeViolations, check, finish, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = `${root}dist/site`;
const artifacts = `${root}test-results/e2e`;

if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync(artifacts, { recursive: true });

const PLOTS = [
  'heatmap',
  'waves',
  'ladder',
  'row',
  'sensitivity',
  'rotation',
  'offset-dots',
  'similarity',
  'compare',
  'mistake-ratio',
  'mistake-column',
  'mistake-order',
  'precision',
];

const server = await serveStatic(site);
const browser = await launchChromium();

/** A chapter's document (the sinusoidal encoding's unless named) that records console errors, uncaught exceptions, CSP violations and requests. */
async function openPage(context, query = '', file = 'sinusoidal.html') {
  const page = await watchedPage(context);
  await page.goto(`${server.url}${file}${query}`);
  await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
  return page;
}

/** The plots of PLOTS the document holds (each chapter holds some). */
const plotsIn = (page) =>
  page.evaluate((names) => names.filter((name) => document.querySelector(`[data-plot="${name}"]`)), PLOTS);

/** Waits until every plot of the document has drawn (off-screen ones update when the page is idle). */
async function waitForPlots(page) {
  await page.waitForFunction(
    (names) =>
      names
        .filter((name) => document.querySelector(`[data-plot="${name}"]`))
        .every((name) => document.querySelector(`[data-plot="${name}"] .posenc-plot`)),
    PLOTS,
    { timeout: 20000 },
  );
}

/**
 * A whole-page screenshot with every plot drawn: the viewport is first grown
 * to the page's height (a fullPage capture resizes it, which clears canvases
 * that are then redrawn after the capture) and every plot scrolled into view.
 */
async function pageScreenshot(page, path) {
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height });
  await page.waitForTimeout(400);
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[data-plot] canvas')].every((canvas) => {
        const context = canvas.getContext('2d', { willReadFrequently: true });
        const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
        for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
        return canvas.width === 0;
      }),
    null,
    { timeout: 20000 },
  );
  // In CSS pixels: at a phone's device scale 2 the whole page is some 60 million device pixels,
  // whose capture outlasted the screenshot's timeout on a loaded machine.
  await page.screenshot({ path, scale: 'css' });
  await page.setViewportSize(viewport);
}

/**
 * The text (or `attribute`) of `selector` once it includes `wanted`, waiting up to 10 s;
 * fails with the last text seen.
 */
async function textOnceIncludes(page, selector, wanted, attribute = null) {
  const read = (element, name) => (name ? element.getAttribute(name) : element.textContent) ?? '';
  try {
    await page.waitForFunction(
      ([sel, want, name]) => {
        const element = document.querySelector(sel);
        return element !== null && (name ? element.getAttribute(name) : element.textContent)?.includes(want);
      },
      [selector, wanted, attribute],
      { timeout: 10000 },
    );
  } catch {
    const seen = await page.$eval(selector, read, attribute).catch(() => '(no element)');
    throw new Error(`${selector} never said "${wanted}": ${seen}`);
  }
  return page.$eval(selector, read, attribute);
}

/**
 * Which of the plots `names` still show what they showed in `before` (plotStates) after
 * up to 10 s: an empty list as soon as all of them have been redrawn.
 */
async function notRedrawn(page, before, names) {
  const deadline = Date.now() + 10000;
  for (;;) {
    const now = await plotStates(page);
    const same = names.filter((name) => before[name].fingerprint === now[name].fingerprint);
    if (same.length === 0 || Date.now() > deadline) return same;
    await page.waitForTimeout(200);
  }
}

/** Per plot: does it show something, and a fingerprint of what it shows. */
function plotStates(page) {
  return page.evaluate((all) => {
    const names = all.filter((name) => document.querySelector(`[data-plot="${name}"]`));
    const hash = (text) => {
      let h = 2166136261;
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
      return (h >>> 0).toString(16);
    };
    return Object.fromEntries(
      names.map((name) => {
        const element = document.querySelector(`[data-plot="${name}"]`);
        let painted = 0;
        let pixelSum = 0;
        for (const canvas of element.querySelectorAll('canvas')) {
          const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
          for (let i = 3; i < data.length; i += 4) {
            if (data[i] > 0) painted++;
            pixelSum = (pixelSum + data[i - 3] * 3 + data[i - 2] * 5 + data[i - 1] * 7) % 1e9;
          }
        }
        const paths = [...element.querySelectorAll('svg path')].filter((p) => (p.getAttribute('d') ?? '').length > 20);
        const svgText = [...element.querySelectorAll('svg')].map((svg) => svg.innerHTML).join('');
        const labels = [...element.querySelectorAll(':is([role="img"], [role="application"])')].map(
          (node) => node.getAttribute('aria-label') ?? '',
        );
        return [name, { painted, paths: paths.length, fingerprint: `${hash(svgText)}:${pixelSum}`, labels }];
      }),
    );
  }, PLOTS);
}

/** float64 reference of the paper's table: sin on even, cos on odd columns. */
function reference(position, column, dModel, base = 10000) {
  const pair = Math.floor(column / 2);
  const angle = position / base ** ((2 * pair) / dModel);
  return column % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
}

try {
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });

  const page = await openPage(desktop);
  await check('page has the CSP meta tag', async () => {
    const policy = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    const scriptSrc = policy?.match(/script-src ([^;]*)/)?.[1].split(/\s+/) ?? [];
    // 'self', the wasm compiler, and the hash of each inline script the page has (nothing else inline runs).
    const inline = await page.evaluate(() =>
      [...document.querySelectorAll('script:not([src])')].map((script) => script.textContent),
    );
    const hashes = inline.map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
    const others = scriptSrc.filter((token) => !/^'sha256-/.test(token)).sort();
    assert(others.join(' ') === "'self' 'wasm-unsafe-eval'", `policy: ${policy}`);
    assert(
      scriptSrc
        .filter((token) => /^'sha256-/.test(token))
        .sort()
        .join(' ') === hashes.sort().join(' '),
      `script-src hashes ${scriptSrc.join(' ')} against the inline scripts' ${hashes.join(' ')}`,
    );
  });

  await check('every plot renders something (the two chapters that hold them)', async () => {
    await waitForPlots(page);
    await page.waitForFunction(() => document.querySelector('[data-plot="similarity"] canvas'), null, {
      timeout: 15000,
    });
    const implementations = await openPage(desktop, '', 'implementations.html');
    await implementations.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await waitForPlots(implementations);
    const states = { ...(await plotStates(page)), ...(await plotStates(implementations)) };
    await implementations.close();
    const canvasPlots = ['heatmap', 'similarity', 'compare', 'precision'];
    for (const name of PLOTS) {
      const state = states[name];
      assert(state, `${name}: in no chapter`);
      if (canvasPlots.includes(name)) assert(state.painted > 1000, `${name}: only ${state.painted} painted pixels`);
      else assert(state.paths > 0, `${name}: no drawn paths`);
      assert(
        state.labels.every((label) => label.length > 20),
        `${name}: missing text alternative`,
      );
    }
  });

  await check(
    "each explanation beside a plot is a stacking context of its own (a plot's redraw leaves its paint)",
    async () => {
      // Chromium reuses a stacking context's recorded paint while nothing in it changed; without one, every
      // frame of a drag walked the paint of each formula beside the plot again (docs/performance.md).
      const { loose, count } = await page.evaluate(() => {
        const texts = [...document.querySelectorAll('[data-i18n-rich]')].filter((node) =>
          node.closest('section, .mistake')?.querySelector('[data-plot]'),
        );
        const isolated = (node) => {
          for (let at = node; at && !at.matches('section, .mistake'); at = at.parentElement)
            if (getComputedStyle(at).isolation === 'isolate') return true;
          return false;
        };
        return {
          loose: texts.filter((node) => !isolated(node)).map((node) => node.dataset.i18nRich),
          count: texts.length,
        };
      });
      // (The first chapter holds about half of the site's.)
      assert(count >= 15, `only ${count} explanations beside a plot`);
      assert(loose.length === 0, `explanations without a stacking context: ${loose.join(', ')}`);
      return `${count} explanations`;
    },
  );

  await check('the relative property holds for the paper and fails for the column exponent', async () => {
    const residual = await page.textContent('[data-testid="rotation-residual"]');
    const value = Number(residual.match(/= ([\d.e+-]+)/)[1]);
    assert(value < 1e-5, `rotation residual ${value}`);
    const states = await plotStates(page);
    assert(states['offset-dots'].labels[0].includes('they coincide'), states['offset-dots'].labels[0]);
    const implementations = await openPage(desktop, '', 'implementations.html');
    await implementations.locator('[data-plot="mistake-column"]').scrollIntoViewIfNeeded();
    await waitForPlots(implementations);
    const mistakes = await plotStates(implementations);
    await implementations.close();
    assert(mistakes['mistake-column'].labels[0].includes('do not coincide'), mistakes['mistake-column'].labels[0]);
  });

  await check('a slider moved with the keyboard updates the URL and the plots', async () => {
    const before = await plotStates(page);
    await page.focus('#c-heatmap-position');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('p') === '13');
    // Off-screen plots follow once the controls are still (and the worker has answered).
    const dependent = ['heatmap', 'waves', 'row', 'sensitivity', 'rotation', 'offset-dots', 'similarity'];
    const unchanged = await notRedrawn(page, before, dependent);
    assert(unchanged.length === 0, `not redrawn: ${unchanged.join(', ')}`);
    assert((await page.textContent('#o-heatmap-position')) === '13', 'output not updated');
  });

  await check('a slider set by fill updates the URL and the heatmap', async () => {
    const before = await plotStates(page);
    await page.fill('#c-dModel', '64');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('dModel') === '64');
    assert((await notRedrawn(page, before, ['heatmap'])).length === 0, 'heatmap unchanged');
  });

  await check('the heatmap hover readout shows the stored value', async () => {
    const probe = await openPage(desktop, '?dModel=96&length=300&p=5');
    const surface = probe.locator('[data-plot="heatmap"] :is([role="img"], [role="application"])');
    await surface.scrollIntoViewIfNeeded();
    const box = await surface.boundingBox();
    const seen = [];
    for (const [fx, fy] of [
      [0.15, 0.1],
      [0.25, 0.5],
      [0.4, 0.8],
      [0.5, 0.3],
      [0.65, 0.6],
      [0.8, 0.05],
    ]) {
      await probe.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
      const text = await probe.textContent('[data-testid="heatmap-readout"]');
      const match = text.match(/^PE\[(\d+), (\d+)\] = (-?[\d.]+(?:e[+-]?\d+)?)$/);
      assert(match, `readout "${text}"`);
      const [position, column, shown] = [Number(match[1]), Number(match[2]), Number(match[3])];
      const expected = reference(position, column, 96);
      // float32 storage and core error, plus rounding to 8 significant digits.
      const rounding = 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(shown) || 1e-300)) - 7);
      assert(
        Math.abs(shown - expected) <= 1.2e-7 + rounding,
        `PE[${position}, ${column}] = ${shown}, expected ${expected}`,
      );
      seen.push(`${position},${column}`);
    }
    assert(new Set(seen).size === seen.length, `hover hit the same cell twice: ${seen}`);
    assert(probe.problems.length === 0, probe.problems.join('\n'));
    await probe.close();
  });

  await check(
    'screen readers: sliders say what they mean, the heatmap is an application that drops its cursor',
    async () => {
      const probe = await openPage(desktop, '?base=500&p=300&length=256');
      const valueText = (id) => probe.getAttribute(id, 'aria-valuetext');
      assert((await valueText('#c-base')) === '500', `base slider says ${await valueText('#c-base')}`);
      const position = await probe.$$eval('form[data-knobs] [name="position"]', (inputs) =>
        inputs.map((input) => input.getAttribute('aria-valuetext')),
      );
      assert(position.length > 1 && position.every((text) => text === '300 (beyond L)'), `position says ${position}`);
      const live = await probe.$$eval('form[data-knobs] output', (outputs) =>
        outputs.map((o) => o.getAttribute('aria-live')),
      );
      assert(live.length > 0 && live.every((v) => v === 'off'), `outputs aria-live: ${live}`);
      const surface = probe.locator('[data-plot="heatmap"] [role="application"]');
      const describedBy = await surface.getAttribute('aria-describedby');
      const readout = probe.locator('[data-testid="heatmap-readout"]');
      assert(describedBy && (await readout.getAttribute('id')) === describedBy, `aria-describedby ${describedBy}`);
      const hint = await readout.textContent();
      await surface.focus();
      await probe.keyboard.press('ArrowDown');
      const moved = await readout.textContent();
      assert(/^PE\[/.test(moved), `after ArrowDown: ${moved}`);
      await probe.keyboard.press('Escape');
      assert((await readout.textContent()) === hint, 'Escape left the cursor');
      await probe.keyboard.press('ArrowDown');
      await probe.locator('#c-dModel').focus();
      assert((await readout.textContent()) === hint, 'leaving the plot left the cursor');
      assert(probe.problems.length === 0, probe.problems.join('\n'));
      await probe.close();
      return `base "500", position "300 (beyond L)", readout ${describedBy}`;
    },
  );

  await check('invalid URL values fall back to the defaults', async () => {
    const probe = await openPage(
      desktop,
      '?dModel=abc&length=99999&base=-3&preset=%3Cimg%20src%3Dx%3E&p=1e9&j=-1&layout=zigzag',
    );
    const values = await probe.evaluate(() =>
      ['dModel', 'length', 'preset', 'position', 'dimension', 'layout'].map(
        (name) => document.querySelector(`form[data-knobs] [name="${name}"]`).value,
      ),
    );
    assert(
      JSON.stringify(values) === JSON.stringify(['128', '256', 'vaswani', '10', '6', 'interleaved']),
      `controls: ${values}`,
    );
    assert((await probe.locator('img[src="x"]').count()) === 0, 'URL text reached the DOM');
    assert(probe.problems.length === 0, probe.problems.join('\n'));
    await probe.close();
  });

  await check('axe-core finds no serious or critical violations', async () => {
    // Settled: every plot of the chapter drawn and described (the later groups' too).
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-plot]')].every((plot) =>
          plot.querySelector('[role="img"][aria-label], [role="application"][aria-label]'),
        ),
      null,
      { timeout: 30000 },
    );
    const violations = await axeViolations(page);
    assert(violations.length === 0, violations.join('\n'));
  });

  await page.goto(`${server.url}sinusoidal.html`);
  await page.waitForSelector('#status[hidden]', { state: 'attached' });
  await waitForPlots(page);
  await pageScreenshot(page, `${artifacts}/desktop-en.png`);

  await check('the language switch changes the text to Chinese and back, and is remembered', async () => {
    const english = await page.textContent('h1');
    await page.selectOption('#language', 'zh');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    const chinese = await page.textContent('h1');
    assert(/[\u4e00-\u9fff]/.test(chinese) && chinese !== english, `h1 after switch: ${chinese}`);
    assert(/[\u4e00-\u9fff]/.test(await page.textContent('#h-rotation')), 'section titles not translated');
    // The line above a plot and the summary its numbers fold under (put there by the plot) switch too.
    const notice = await page.textContent('[data-i18n="rotation.notice"]');
    assert(notice === zh['rotation.notice'], `rotation notice after switch: ${notice}`);
    const summary = await page.textContent('[data-plot="rotation"] details.plot-numbers > summary');
    assert(summary === zh['notes.summary'], `rotation notes' summary after switch: ${summary}`);
    // Option labels in Chinese, values still the code names.
    const layout = await page.$eval('#c-heatmap-layout option[value="interleaved"]', (option) => option.textContent);
    assert(layout === '交错（interleaved）', `layout option: ${layout}`);
    for (const language of ['zh', 'en']) {
      if (language === 'en') await page.selectOption('#language', 'en');
      const clipped = await page.evaluate(() =>
        [...document.querySelectorAll('form[data-knobs] select')].flatMap((select) => {
          const context = document.createElement('canvas').getContext('2d');
          context.font = getComputedStyle(select).font;
          // Room for the text: the box less its padding and the arrow (about 24 px).
          const room = select.clientWidth - 24;
          return [...select.options]
            .filter((option) => context.measureText(option.textContent).width > room)
            .map((option) => `${select.id}: ${option.textContent}`);
        }),
      );
      assert(clipped.length === 0, `${language}: options wider than their select: ${clipped.join(', ')}`);
    }
    await page.selectOption('#language', 'zh');
    await page.reload();
    await page.waitForSelector('#status[hidden]', { state: 'attached' });
    assert((await page.textContent('h1')) === chinese, 'Chinese not remembered after reload');
    assert((await page.inputValue('#language')) === 'zh', 'switch does not show the remembered language');
    await waitForPlots(page);
    await pageScreenshot(page, `${artifacts}/desktop-zh.png`);
    await page.selectOption('#language', 'en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    assert((await page.textContent('h1')) === english, 'English not restored');
  });

  await check('the explanations follow the settings: row 0, the slow pairs, the halves (en and zh)', async () => {
    const textOf = (name) =>
      document.querySelector(`[data-plot="${name}"]`).closest('.mistake, section').querySelector('.text').innerText;
    const text = (section) => page.evaluate(textOf, section);
    const shows = async (section, words) => {
      await page.locator(`[data-plot="${section}"]`).scrollIntoViewIfNeeded();
      await page
        .waitForFunction(
          ([name, expected]) =>
            document
              .querySelector(`[data-plot="${name}"]`)
              .closest('.mistake, section')
              .querySelector('.text')
              .innerText.includes(expected),
          [section, words],
          { timeout: 10000 },
        )
        .catch(async () => assert(false, `${section}: no “${words}” in ${await text(section)}`));
    };
    await shows('heatmap', 'thin stripes at the top');
    // p = 10, d = 128, base 10000: pairs 33..63 have turned by less than 0.1 rad (10 · 10000^(-2i/128) < 0.1).
    await shows('row', 'the slowest 31 of the 64 pairs');
    await page.selectOption('#c-heatmap-preset', 'legacy-column');
    await shows('heatmap', 'Row 0 is all zeros');
    await shows('row', 'all zeros');
    await shows('offset-dots', 'here they part');
    // The dashed offset marks are named (k = 8 and its mirror).
    const marks = await page.$$eval('[data-plot="offset-dots"] svg text', (nodes) => nodes.map((n) => n.textContent));
    assert(marks.includes('k = 8') && marks.includes('k = −8'), `offset marks: ${marks.join(', ')}`);
    await page.selectOption('#c-heatmap-preset', 'vaswani');
    await page.selectOption('#c-heatmap-layout', 'concat');
    await shows('heatmap', 'in its first half');
    await page.selectOption('#language', 'zh');
    await shows('heatmap', '前一半');
    await page.selectOption('#language', 'en');
    await page.selectOption('#c-heatmap-layout', 'interleaved');
    await shows('heatmap', 'thin stripes at the top');
  });

  await check('every preset, and an odd width, renders every plot', async () => {
    await page.fill('#c-dModel', '33');
    for (const preset of ['vaswani', 'tensor2tensor', 'tf-tutorial', 'fairseq', 'legacy-column', 'question']) {
      await page.selectOption('#c-heatmap-preset', preset);
      await page.waitForFunction(
        (name) => new URLSearchParams(location.search).get('preset') === (name === 'vaswani' ? null : name),
        preset,
      );
      await page.waitForTimeout(700);
      // Under 'question' no column has a frequency: the ladder says so instead of drawing.
      if (preset === 'question') await textOnceIncludes(page, '[data-plot="ladder"] svg', 'fixed frequency');
      const states = await plotStates(page);
      const expectEmpty = preset === 'question' ? ['ladder'] : [];
      const empty = Object.keys(states).filter((name) => states[name].painted === 0 && states[name].paths === 0);
      assert(JSON.stringify(empty) === JSON.stringify(expectEmpty), `${preset}: empty ${empty.join(', ')}`);
      // The paper's formula leaves column 32 a sine alone, which the rotation check
      // leaves out and which makes s(k) depend on p; tensor2tensor zeroes it.
      if (preset === 'vaswani' || preset === 'tensor2tensor') {
        const lone = preset === 'vaswani';
        // Sections off screen are redrawn once the controls are still and the worker has
        // answered: wait for this width's text (a test before may have left another).
        const residual = await textOnceIncludes(
          page,
          '[data-testid="rotation-residual"]',
          lone ? 'over the 32 paired dimensions' : 'over all 33 dimensions',
        );
        assert(residual.includes('without its partner') === lone, residual);
        await textOnceIncludes(
          page,
          '[data-plot="offset-dots"] [role="img"]',
          lone ? 'do not coincide' : 'they coincide',
          'aria-label',
        );
      }
    }
    // The column exponent breaks the identity: a residual far above rounding.
    await page
      .waitForFunction(
        (least) => {
          const text = document.querySelector('[data-testid="rotation-residual"]')?.textContent ?? '';
          return Number(text.match(/= ([\d.e+-]+)/)?.[1]) > least;
        },
        1e-3,
        { timeout: 10000 },
      )
      .catch(async () => {
        throw new Error(`question preset: residual ${await page.textContent('[data-testid="rotation-residual"]')}`);
      });
  });

  await check('no console errors, exceptions or CSP violations on the desktop page', async () => {
    assert(page.problems.length === 0, page.problems.join('\n'));
  });

  await check("no network requests beyond the page's own files", async () => {
    const foreign = page.requests.filter((url) => !url.startsWith(server.url) && !/^(data|blob):/.test(url));
    assert(
      page.requests.some((url) => url.endsWith('.wasm')),
      'the wasm was not fetched by the page',
    );
    assert(foreign.length === 0, `requests to other origins: ${foreign.join(', ')}`);
  });

  await check(
    'Chinese strings load only for Chinese: a zh-CN browser gets them at once, an English one never',
    async () => {
      const chinese = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
      try {
        const page = await openPage(chinese);
        assert((await page.getAttribute('html', 'lang')) === 'zh-CN', 'html lang');
        const title = await page.textContent('h1');
        assert(/[\u4e00-\u9fff]/.test(title), `title: ${title}`);
        assert(page.problems.length === 0, page.problems.join('\n'));
      } finally {
        await chinese.close();
      }
      const english = await watchedPage(desktop);
      const scripts = [];
      english.on('request', (request) => scripts.push(request.url()));
      await english.goto(`${server.url}sinusoidal.html`);
      await english.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
      assert(!scripts.some((url) => /\/zh-[^/]*\.js$/.test(url)), 'the Chinese strings were fetched');
      await english.close();
    },
  );

  await check(
    'the first view fetches one .wasm, without RoPE (in the compute worker), the full one only after it (the RoPE chapter: the full one alone); without it the page says why',
    async () => {
      const fresh = await watchedPage(desktop);
      const wasm = [];
      fresh.on(
        'request',
        (request) => request.url().endsWith('.wasm') && wasm.push({ url: request.url(), at: Date.now() }),
      );
      await fresh.goto(`${server.url}sinusoidal.html`);
      await fresh.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
      await waitForPlots(fresh);
      const firstPlot = await fresh.evaluate(
        () => performance.timeOrigin + performance.getEntriesByName('posenc:first-plot')[0].startTime,
      );
      const list = wasm.map(({ url }) => url).join(' ');
      const core = wasm.filter(({ url }) => /posenc-core-(simd|scalar)-[^/]*\.wasm$/.test(url));
      const full = wasm.filter(({ url }) => /posenc-(simd|scalar)-[^/]*\.wasm$/.test(url));
      assert(core.length === 1 && core[0].at <= firstPlot, `the core .wasm, once before the first plot: ${list}`);
      // The later chapters' (RoPE) module: never ahead of the first view.
      assert(core.length + full.length === wasm.length, `.wasm requests: ${list}`);
      assert(
        full.every(({ at }) => at >= firstPlot),
        `the full .wasm was asked for before the first plot: ${list}`,
      );
      await fresh.close();
      // The chapters that compute RoPE (or chapter 4's grids) from their first view: their worker loads the
      // full module alone, and once (the worker's code evaluated twice fetched and compiled it again).
      for (const { file } of CHAPTERS.filter((chapter) => fullModuleFirst(chapter.name))) {
        const page = await watchedPage(desktop);
        const wasm = [];
        page.on('request', (request) => request.url().endsWith('.wasm') && wasm.push(request.url()));
        await page.goto(`${server.url}${file}`);
        await page.waitForFunction(() => performance.getEntriesByName('posenc:first-plot').length > 0, null, {
          timeout: 20000,
        });
        await page.waitForTimeout(1500);
        assert(
          wasm.length === 1 && /posenc-(simd|scalar)-[^/]*\.wasm$/.test(wasm[0]),
          `${file}'s first view: ${wasm.join(' ')}`,
        );
        await page.close();
      }
      const offline = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        await offline.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
        const broken = await offline.newPage();
        await broken.goto(`${server.url}sinusoidal.html`);
        await broken.waitForFunction(() => document.getElementById('status').textContent.includes('could not'), null, {
          timeout: 15000,
        });
        const text = await broken.textContent('#status');
        // What it means and what to do, then the library's reason.
        assert(text.startsWith('The WebAssembly core could not be loaded: the connection may be down'), text);
        assert(text.includes('Details: could not instantiate the WebAssembly module from http'), text);
        assert(await broken.isVisible('#retry'), 'no Retry button');
      } finally {
        await offline.close();
      }
    },
  );
} finally {
  await browser.close();
  await server.close();
}

finish();
