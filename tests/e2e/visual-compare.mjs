// Pixel comparison of the plots between a git revision and the working tree:
// builds both (the revision from `git archive` into a temporary directory,
// sharing this checkout's node_modules; its own wasm core when cpp/ differs),
// screenshots every element of the gallery and every plot in embed.html, in
// English and Chinese, and counts the differing pixels with pixelmatch
// (threshold 0: any change of colour counts). The page itself is not compared:
// since the explainer became chapters with knobs beside their plots (issue
// #48) its sections differ on purpose; a plot is compared where its settings
// and its width are the same in both, as an element and in embed.html.
// Usage: node tests/e2e/visual-compare.mjs [revision=HEAD] [other revision]
// — compares the revision with the working tree (or with the other revision,
// e.g. HEAD HEAD to check that the screenshots are deterministic).
// Screenshots and diff images of the differing ones go to test-results/visual/.
// Takes a few minutes; not part of `npm test`.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { ELEMENTS } from '../../web/model/registry.js';
import { launchChromium } from './chromium.mjs';
import { serveStatic } from './server.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const revision = process.argv[2] ?? 'HEAD';
const otherRevision = process.argv[3] ?? null;
const artifacts = join(root, 'test-results/visual');
mkdirSync(artifacts, { recursive: true });

const VIEWPORT = { width: 1280, height: 900 };
// Every plot of the working tree's registry; one the revision lacks is reported, not compared.
const PLOTS = Object.values(ELEMENTS);

function build(dir) {
  const run = (args) => execFileSync('npx', args, { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  run(['vite', 'build', '--config', 'web/vite.config.js', '--logLevel', 'error']);
  run(['vite', 'build', '--config', 'web/elements/vite.config.js', '--logLevel', 'error']);
}

function checkout(revision) {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-visual-'));
  execFileSync('bash', ['-c', `git -C "${root}" archive "${revision}" | tar -x -C "${dir}"`]);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  // The wasm core is a build output: the working tree's where cpp/ is the same, so that only the web layers differ.
  const cppChanged = execFileSync('git', ['-C', root, 'diff', '--stat', revision, '--', 'cpp'], { encoding: 'utf8' });
  if (cppChanged.trim()) {
    console.warn(`cpp/ differs from ${revision}: building its wasm core`);
    execFileSync('bash', ['web/scripts/build-wasm.sh'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  } else cpSync(join(root, 'web/lib/wasm'), join(dir, 'web/lib/wasm'), { recursive: true });
  return dir;
}

/** Waits for fonts, every canvas painted, and no DOM change for a while (plots settled). */
async function settle(page) {
  // An indeterminate <progress> (the check tool's, while it waits) moves whatever the motion
  // setting: its pixels differ between any two screenshots, so it is left out of them.
  await page.addStyleTag({ content: 'progress:indeterminate { visibility: hidden !important; }' });
  await page.evaluate(() => document.fonts.ready);
  // Every canvas painted (a heatmap's image arrives from the worker after the frame).
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[data-plot] canvas')].every((canvas) => {
        if (canvas.width === 0) return true;
        const { data } = canvas
          .getContext('2d', { willReadFrequently: true })
          .getImageData(0, 0, canvas.width, canvas.height);
        for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
        return false;
      }),
    null,
    { timeout: 20000 },
  );
  // Plots update on idle and heatmaps paint a preview before the exact image: wait for quiet.
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        let timer = setTimeout(done, 800);
        // A plot that keeps changing is screenshot as it is after 10 s (and then differs, if it does).
        const limit = setTimeout(done, 10000);
        const observer = new MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(done, 800);
        });
        function done() {
          clearTimeout(limit);
          observer.disconnect();
          resolve();
        }
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      }),
  );
  await page.waitForTimeout(300);
}

/** Screenshots of the gallery's elements and each embed plot: { name: PNG buffer }. */
async function screenshots(browser, server) {
  const shots = {};
  for (const language of ['en', 'zh']) {
    // (bypassCSP: settle() adds a style tag, which embed.html's policy would refuse.)
    const context = await browser.newContext({
      viewport: VIEWPORT,
      deviceScaleFactor: 1,
      reducedMotion: 'reduce',
      bypassCSP: true,
    });
    await context.addInitScript((lang) => localStorage.setItem('posenc.language', lang), language);
    const page = await context.newPage();
    console.log(`  ${language}: the gallery`);
    await page.goto(`${server.url}tests/e2e/fixtures/all-elements.html`);
    if (language === 'zh')
      await page.evaluate(() => {
        document.documentElement.lang = 'zh-CN';
        for (const element of document.querySelectorAll('.gallery > *')) element.render?.();
      });
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.gallery > *')].every(
          (e) => !e.localName.startsWith('posenc-') || e.dataset.state === 'ready',
        ),
      null,
      { timeout: 20000 },
    );
    await settle(page);
    for (const tag of PLOTS.map((plot) => `posenc-${plot}`))
      if ((await page.locator(tag).count()) > 0)
        shots[`element-${language}-${tag}`] = await page.locator(tag).first().screenshot();

    for (const plot of PLOTS) {
      console.log(`  ${language}: embed.html?plot=${plot}`);
      await page.goto(
        `${server.url}dist/site/embed.html?plot=${plot}&dModel=64&length=128&p=12&k=5&j=9&lang=${language}`,
      );
      // An error (a plot the revision did not have): left out.
      const shown = await page
        .waitForFunction(
          () => {
            const state = document.querySelector('#embed > *')?.dataset.state;
            return state === 'ready' || state === 'error' ? state : null;
          },
          null,
          { timeout: 20000 },
        )
        .then((handle) => handle.jsonValue())
        .then((state) => state === 'ready')
        .catch(() => false);
      if (!shown) continue;
      await settle(page);
      shots[`embed-${language}-${plot}`] = await page.screenshot();
    }
    await context.close();
  }
  return shots;
}

const before = checkout(revision);
const after = otherRevision ? checkout(otherRevision) : root;
try {
  console.log(`building ${revision} in ${before}`);
  build(before);
  console.log(`building ${otherRevision ?? 'the working tree'} in ${after}`);
  build(after);
  const browser = await launchChromium();
  const servers = [await serveStatic(before), await serveStatic(after)];
  const [old, now] = [await screenshots(browser, servers[0]), await screenshots(browser, servers[1])];
  await browser.close();
  await Promise.all(servers.map((server) => server.close()));
  let differing = 0;
  for (const name of Object.keys({ ...old, ...now })) {
    if (!now[name]) {
      console.log(`${name}: missing in ${otherRevision ?? 'the working tree'}`);
      differing++;
      continue;
    }
    // A plot the revision did not have yet (a later chapter's): nothing to compare with.
    if (!old[name]) {
      console.log(`${name}: new since ${revision}`);
      continue;
    }
    const a = PNG.sync.read(old[name]);
    const b = PNG.sync.read(now[name]);
    writeFileSync(join(artifacts, `${name}.png`), now[name]);
    if (a.width !== b.width || a.height !== b.height) {
      console.log(`${name}: size ${a.width}x${a.height} -> ${b.width}x${b.height}`);
      writeFileSync(join(artifacts, `${name}.before.png`), old[name]);
      differing++;
      continue;
    }
    const diff = new PNG({ width: a.width, height: a.height });
    const pixels = pixelmatch(a.data, b.data, diff.data, a.width, a.height, { threshold: 0 });
    console.log(`${name} (${a.width}x${a.height}): ${pixels} differing pixels`);
    if (pixels > 0) {
      differing++;
      writeFileSync(join(artifacts, `${name}.before.png`), old[name]);
      writeFileSync(join(artifacts, `${name}.diff.png`), PNG.sync.write(diff));
    }
  }
  console.log(`${Object.keys(now).length} screenshots, ${differing} differ`);
  process.exitCode = differing === 0 ? 0 : 1;
} finally {
  rmSync(before, { recursive: true, force: true });
  if (after !== root) rmSync(after, { recursive: true, force: true });
}
