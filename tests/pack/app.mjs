// What the app tests (tests/pack/*-app.test.mjs) share: the app that uses
// posenc as an npm user would (a table value and a <posenc-heatmap>), and
// what its page must show in headless Chromium once a bundler has built it.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { assert } from '../e2e/harness.mjs';
import { INSTALL_FLAGS } from './npm-packages.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const exec = promisify(execFile);
/** A command's stdout (large outputs allowed). */
export const run = async (cmd, args, cwd) =>
  (await exec(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 })).stdout;

/**
 * npm pack of this repository into `dir`: npm's description of the tarball, and its path. When
 * tests/run.sh has packed it once for all the package tests, POSENC_PACKED names npm's description,
 * written beside that tarball.
 */
export async function pack(dir) {
  const packed = process.env.POSENC_PACKED;
  const json = packed
    ? readFileSync(packed, 'utf8')
    : await run('npm', ['pack', '--json', '--pack-destination', dir], repo);
  const [info] = JSON.parse(json);
  return { info, tarball: join(packed ? dirname(packed) : dir, info.filename) };
}

/**
 * A fresh project in `app` (named `name`) with the app's main.js and `files`
 * ({ name: text }), and the tarball and `packages` installed from npm.
 */
export async function createApp(app, name, tarball, packages, files = {}) {
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }, null, 2));
  writeFileSync(join(app, 'main.js'), MAIN_JS);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(app, file), text);
  await run('npm', [...INSTALL_FLAGS, tarball, ...packages], app);
}

/** The app's page; `script` is the tag that loads its code (as the bundler expects it). */
export const indexHtml = (script) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>posenc in an app</title>
    <link rel="icon" href="data:," />
    ${script}
  </head>
  <body>
    <p>PE[5, 3] = <output id="value">…</output></p>
    <posenc-heatmap id="plot" d-model="32" length="64" position="5" dimension="3"></posenc-heatmap>
  </body>
</html>
`;

const MAIN_JS = `import { load } from 'posenc';
import 'posenc/elements';

const pe = await load();
const table = pe.table({ length: 64, dModel: 32 });
document.getElementById('value').textContent = String(table[5 * 32 + 3]);
// The elements must have used this very instance (one module, one load()).
window.sameInstance = (await load()) === pe;
`;

/** Opens url, waits for the heatmap and the value; returns what the page showed. */
export async function inspect(browser, url) {
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  const problems = [];
  const wasm = [];
  const origin = new URL(url).origin;
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:'))
      problems.push(`request outside the app: ${request.url()}`);
    if (new URL(request.url()).pathname.endsWith('.wasm')) wasm.push(request.url());
  });
  try {
    await page.goto(url);
    try {
      await page.waitForFunction(
        () => document.getElementById('plot')?.dataset.state === 'ready' && window.sameInstance !== undefined,
        null,
        { timeout: 15000 },
      );
    } catch (error) {
      const defined = await page.evaluate(() => Boolean(customElements.get('posenc-heatmap')));
      if (!defined)
        throw new Error(
          problems.length > 0
            ? `<posenc-heatmap> was never defined: ${problems.join('; ')}`
            : "<posenc-heatmap> was never defined: the bundle dropped `import 'posenc/elements'` " +
                '(package.json "sideEffects" must list ./dist/elements/*.js)',
        );
      throw error;
    }
    return await page
      .evaluate(() => {
        const plot = document.getElementById('plot');
        const canvas = plot.shadowRoot.querySelector('canvas');
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let painted = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
        return {
          value: Number(document.getElementById('value').textContent),
          painted,
          label:
            plot.shadowRoot.querySelector(':is([role="img"], [role="application"])')?.getAttribute('aria-label') ?? '',
          sameInstance: window.sameInstance,
        };
      })
      .then((result) => ({ ...result, problems, wasm }));
  } finally {
    await page.close();
  }
}

export function verify(result) {
  const expected = Math.cos(5 / 10000 ** (2 / 32));
  assert(Math.abs(result.value - expected) <= 1.2e-7, `PE[5, 3] = ${result.value}, expected ${expected}`);
  assert(result.painted > 1000, `heatmap painted only ${result.painted} pixels`);
  assert(result.label.includes('64 positions'), `text alternative: ${result.label}`);
  assert(result.sameInstance === true, 'posenc and posenc/elements loaded two instances');
  assert(result.wasm.length === 1, `.wasm fetched ${result.wasm.length} times: ${result.wasm.join(' ')}`);
  assert(result.problems.length === 0, result.problems.join('\n'));
  return `PE[5, 3] = ${result.value}, ${result.painted} pixels painted, wasm ${new URL(result.wasm[0]).pathname}`;
}
