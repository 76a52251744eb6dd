// Packs posenc as npm would publish it, installs the tarball and vite into a
// fresh project, and uses both entry points as an app would: `posenc` (a table
// value checked against the formula) and `posenc/elements` (a <posenc-heatmap>
// on the page). The app is built with `vite build` and served statically, and
// run by the vite dev server; both are opened in headless Chromium, where the
// plot must render, the value must be right and the .wasm must be fetched
// once, with no extra vite configuration. Temp dirs and processes are removed.
// Usage: node tests/pack/vite-app.test.mjs
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { launchChromium } from '../e2e/chromium.mjs';
import { assert, check, finish } from '../e2e/harness.mjs';
import { serveStatic } from '../e2e/server.mjs';
import { createApp, indexHtml, inspect, pack, run, verify } from './app.mjs';
import { VITE_VERSION } from './npm-packages.mjs';
import { ELEMENTS as ELEMENT_TAGS } from '../../web/model/registry.js';

const INDEX_HTML = indexHtml('<script type="module" src="/main.js"></script>');

const work = mkdtempSync(join(tmpdir(), 'posenc-vite-app-'));
const app = join(work, 'app');
const exec = promisify(execFile);
/** A vite build, failing on any warning about the package (e.g. a node: import it would have to externalize). */
async function viteBuild(app, args) {
  const { stdout, stderr } = await exec(join(app, 'node_modules/.bin/vite'), ['build', ...args, '--logLevel', 'warn'], {
    cwd: app,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const warnings = `${stdout}\n${stderr}`.split('\n').filter((line) => /externalized|\[plugin/i.test(line));
  assert(warnings.length === 0, `vite build warns: ${warnings.join(' | ')}`);
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

let browser = null;
let dev = null;
let site = null;
try {
  let tarball = null;
  await check('npm pack includes the elements bundle', async () => {
    let info;
    ({ info, tarball } = await pack(work));
    const files = info.files.map((f) => f.path);
    for (const file of ['dist/elements/posenc-elements.js', 'web/elements/index.d.ts', 'web/lib/index.js'])
      assert(files.includes(file), `${file} missing from the tarball`);
    return `${info.filename}: ${statSync(tarball).size} bytes packed, ${info.unpackedSize} unpacked, ${files.length} files`;
  });

  await check(`a fresh project installs the tarball and vite@${VITE_VERSION}`, async () => {
    await createApp(app, 'posenc-vite-app', tarball, [`vite@${VITE_VERSION}`], { 'index.html': INDEX_HTML });
  });

  await check('in plain Node, posenc computes and posenc/elements imports without a DOM', async () => {
    const script = `
      import { load } from 'posenc';
      import { ELEMENTS, defineElements } from 'posenc/elements';
      defineElements();
      const row = (await load()).row(0, { dModel: 4 });
      console.log(JSON.stringify({ row: [...row], elements: Object.keys(ELEMENTS).length }));
    `;
    writeFileSync(join(app, 'node-use.mjs'), script);
    const result = JSON.parse((await run('node', ['node-use.mjs'], app)).trim());
    assert(
      result.row.join(',') === '0,1,0,1' && result.elements === Object.keys(ELEMENT_TAGS).length,
      JSON.stringify(result),
    );
  });

  await check('an app importing only posenc bundles no plotting code', async () => {
    mkdirSync(join(app, 'core'));
    writeFileSync(
      join(app, 'core/index.html'),
      INDEX_HTML.replace('<posenc-heatmap', '<div').replace('</posenc-heatmap>', '</div>'),
    );
    writeFileSync(
      join(app, 'core/main.js'),
      "import { load } from 'posenc';\nconst pe = await load();\ndocument.getElementById('value').textContent = String(pe.row(5, { dModel: 32 })[3]);\n",
    );
    await viteBuild(app, ['core', '--outDir', '../dist-core']);
    const dir = join(app, 'dist-core/assets');
    const scripts = readdirSync(dir).filter((name) => name.endsWith('.js'));
    const text = scripts.map((name) => readFileSync(join(dir, name), 'utf8')).join('\n');
    for (const marker of ['posenc-heatmap', 'customElements', 'attachShadow', 'd3-'])
      assert(!text.includes(marker), `the core-only build contains ${marker}`);
    const entry = scripts.filter((name) => !/posenc-(simd|scalar)/.test(name));
    const size = entry.reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
    return `${size} bytes of JS besides the wasm glue`;
  });

  browser = await launchChromium();

  await check('vite build: the built app renders the heatmap and computes the right value', async () => {
    await viteBuild(app, []);
    const assets = readdirSync(join(app, 'dist/assets'));
    assert(
      assets.some((name) => name.endsWith('.wasm')),
      `no .wasm emitted: ${assets.join(' ')}`,
    );
    site = await serveStatic(join(app, 'dist'));
    return verify(await inspect(browser, site.url));
  });

  await check('vite dev server: the same page works there', async () => {
    const port = await freePort();
    dev = spawn(
      join(app, 'node_modules/.bin/vite'),
      ['--host', '127.0.0.1', '--port', String(port), '--strictPort', '--clearScreen', 'false'],
      { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    dev.stdout.on('data', (chunk) => (output += chunk));
    dev.stderr.on('data', (chunk) => (output += chunk));
    const url = `http://127.0.0.1:${port}/`;
    const deadline = Date.now() + 20000;
    for (;;) {
      try {
        if ((await fetch(url)).ok) break;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`dev server did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    try {
      return verify(await inspect(browser, url));
    } catch (error) {
      throw new Error(`${error.message}\n${output}`);
    }
  });
} finally {
  await browser?.close();
  await site?.close();
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    dev.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
    if (dev.exitCode === null) dev.kill('SIGKILL');
  }
  rmSync(work, { recursive: true, force: true });
}

finish('vite-app');
