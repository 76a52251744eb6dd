// What the site-generator tests (tests/integrations/*.test.mjs) share: the
// packed posenc (packed here, or the tarball run.mjs packed once for all of
// them), npm installs through a cache under build/, a free port, and the check
// of a built post in headless Chromium: the heatmap painted, the value its
// keyboard readout shows against a float64 reference, one .wasm fetch, no
// console error, no request outside the site.
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { assert } from '../e2e/harness.mjs';
import { pack } from '../pack/app.mjs';
import { INSTALL_FLAGS, INTEGRATIONS_NPM_CACHE } from '../pack/npm-packages.mjs';

const exec = promisify(execFile);

/**
 * Runs a command with a deadline (every wait ends); resolves to stdout + stderr.
 * A failure's message carries the output.
 */
export async function run(cmd, args, cwd, { timeout = 180000, env = {} } = {}) {
  try {
    const { stdout, stderr } = await exec(cmd, args, {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      timeout,
      env: { ...process.env, ...env },
    });
    return `${stdout}\n${stderr}`;
  } catch (error) {
    throw new Error(`${cmd} ${args.join(' ')} failed: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  }
}

/** The packed package: POSENC_TARBALL when run.mjs packed it already, else packed into `dir`. */
export async function tarball(dir) {
  if (process.env.POSENC_TARBALL) return process.env.POSENC_TARBALL;
  return (await pack(dir)).tarball;
}

/** npm install of `packages` into the project at `dir`, as its users would (through the cache under build/). */
export const npmInstall = (dir, packages) =>
  run('npm', [...INSTALL_FLAGS, '--cache', INTEGRATIONS_NPM_CACHE, ...packages], dir, { timeout: 300000 });

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The post every test writes, in the generator's syntax: these two plots. */
export const PLOTS = {
  heatmap: { 'd-model': 32, length: 64, position: 5, dimension: 3 },
  'offset-dots': { 'd-model': 32, length: 64, position: 5, offset: 8, theme: 'dark' },
};
/**
 * The post's text after its front matter: the two plots, each written by
 * `plotMarkup(plot, attributes)` in the generator's own syntax.
 */
export const postBody = (plotMarkup) => `Each row is a position, each column a dimension.

${plotMarkup('heatmap', PLOTS.heatmap)}

The dot product of two rows depends on their distance:

${plotMarkup('offset-dots', PLOTS['offset-dots'])}
`;
/** `name="value" …` of a plot's attributes. */
export const quotedAttributes = (attributes) =>
  Object.entries(attributes)
    .map(([name, value]) => `${name}="${value}"`)
    .join(' ');
/** The plot as its element (Markdown with HTML: VitePress, Astro MDX). */
export const elementMarkup = (plot, attributes) => `<posenc-${plot} ${quotedAttributes(attributes)}></posenc-${plot}>`;

/**
 * A bundler's build of the post (VitePress, Astro): the page at `htmlPath`
 * holds the heatmap element as written, and the .wasm was emitted among the
 * files in `assetsDir`.
 */
export function assertBundledPost(htmlPath, assetsDir) {
  const html = readFileSync(htmlPath, 'utf8');
  assert(html.includes('<posenc-heatmap d-model="32" length="64" position="5" dimension="3">'), html);
  const assets = readdirSync(assetsDir);
  assert(
    assets.some((name) => /^posenc-simd\..*\.wasm$/.test(name)),
    `no .wasm emitted: ${assets.join(' ')}`,
  );
}

/** PE[5, 3] of the paper's encoding at d-model 32, in float64: cos(5 / 10000^(2/32)). */
const EXPECTED = Math.cos(5 / Math.pow(10000, (2 * Math.floor(3 / 2)) / 32));

/**
 * Opens the built post at `url` in `browser` and reads what it shows; every
 * <posenc-*> on it must reach data-state="ready".
 */
export async function inspectPost(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
  const problems = [];
  const wasm = [];
  const origin = new URL(url).origin;
  page.on('console', (message) => {
    // The browser's own request for /favicon.ico (a site without one) is no error of the post.
    if (message.type() === 'error' && !message.location().url?.endsWith('/favicon.ico'))
      problems.push(`console: ${message.text()}`);
    // E.g. Vue's "Failed to resolve component: posenc-heatmap" (a dev server without isCustomElement).
    if (message.type() === 'warning' && message.text().includes('posenc')) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  // What the post fetched for posenc: the size an integration adds.
  const fetched = [];
  page.on('response', async (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
      problems.push(`HTTP ${response.status()}: ${response.url()}`);
    const path = new URL(response.url()).pathname;
    if (!/\.(js|mjs|wasm)$/.test(path) || response.status() !== 200) return;
    // posenc's files: those named for it, and a generator's chunk that bundled the elements (Astro's script).
    fetched.push(
      response
        .body()
        .then((body) =>
          path.includes('posenc') || (body.includes('posenc-heatmap') && body.includes('customElements'))
            ? { url: response.url(), raw: body.length, gzip: gzipSync(body).length }
            : null,
        )
        // A response still arriving when the page closes has no body to count.
        .catch(() => null),
    );
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:'))
      problems.push(`request outside the site: ${request.url()}`);
    if (new URL(request.url()).pathname.endsWith('.wasm')) wasm.push(request.url());
  });
  try {
    await page.goto(url);
    try {
      await page.waitForFunction(
        () => {
          const plots = document.querySelectorAll('posenc-heatmap, posenc-offset-dots');
          return plots.length === 2 && [...plots].every((plot) => plot.dataset.state === 'ready');
        },
        null,
        { timeout: 20000 },
      );
    } catch {
      const seen = await page.evaluate(() =>
        [...document.querySelectorAll('*')]
          .filter((node) => node.localName.startsWith('posenc-'))
          .map(
            (node) =>
              `<${node.localName}> defined=${Boolean(customElements.get(node.localName))} state=${node.dataset.state}`,
          ),
      );
      throw new Error(
        `the plots did not become ready: ${seen.join(', ') || 'no <posenc-*> in the page'}\n${problems.join('\n')}`,
      );
    }
    // The keyboard cursor starts at the marked cell (position 5, dimension 3): down and back up reads it.
    await page.evaluate(() =>
      document.querySelector('posenc-heatmap').shadowRoot.querySelector('.posenc-surface').focus(),
    );
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    const shown = await page.evaluate(() => {
      const plot = document.querySelector('posenc-heatmap');
      const canvas = plot.shadowRoot.querySelector('canvas');
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
      const dots = document.querySelector('posenc-offset-dots').shadowRoot;
      return {
        painted,
        readout: plot.shadowRoot.querySelector('[data-testid="heatmap-readout"]')?.textContent ?? '',
        dotPaths: [...dots.querySelectorAll('svg path')].filter((path) => (path.getAttribute('d') ?? '').length > 20)
          .length,
      };
    });
    const files = (await Promise.all(fetched)).filter(Boolean);
    const size = files.reduce((sum, file) => ({ raw: sum.raw + file.raw, gzip: sum.gzip + file.gzip }), {
      raw: 0,
      gzip: 0,
    });
    return { ...shown, problems, wasm, size: { ...size, files: files.map((file) => new URL(file.url).pathname) } };
  } finally {
    await page.close();
  }
}

/** Asserts what inspectPost read; returns a line for the test's output. */
export function verifyPost(result) {
  const match = /^PE\[5, 3\] = (-?[\d.e+-]+)$/.exec(result.readout);
  assert(match, `heatmap readout: "${result.readout}"`);
  const value = Number(match[1]);
  // float32 storage (1.2e-7 at |value| ≤ 1) plus the readout's 8 significant digits.
  assert(Math.abs(value - EXPECTED) <= 1.2e-7 + 5e-9, `PE[5, 3] read ${value}, expected ${EXPECTED}`);
  assert(result.painted > 1000, `heatmap painted only ${result.painted} pixels`);
  assert(result.dotPaths > 3, `offset-dots drew ${result.dotPaths} curves`);
  assert(result.wasm.length === 1, `.wasm fetched ${result.wasm.length} times: ${result.wasm.join(' ')}`);
  assert(result.problems.length === 0, result.problems.join('\n'));
  const { raw, gzip, files } = result.size;
  return (
    `${result.readout}, ${result.painted} pixels painted, wasm ${new URL(result.wasm[0]).pathname}; ` +
    `posenc's files fetched: ${files.length}, ${(raw / 1024).toFixed(0)} KB, ${(gzip / 1024).toFixed(0)} KB gzip`
  );
}

/**
 * Starts a generator's own server (`cmd args` in `cwd`) and waits until `url`
 * answers (at most `timeout` ms); resolves to { url, stop() }.
 */
export async function startServer(cmd, args, cwd, url, timeout = 30000) {
  // Its own process group, so that stop() also ends what the server started (esbuild, workers).
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // Already gone.
    }
  };
  // Even if the test dies, the server does not outlive it.
  const onExit = () => signal('SIGKILL');
  process.once('exit', onExit);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const stop = async () => {
    process.removeListener('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      signal('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
    }
    // The rest of the group, whether or not the server itself has gone.
    signal('SIGKILL');
  };
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return { url, stop };
    } catch {
      // Not listening yet.
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${cmd} ${args.join(' ')} did not serve ${url}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
