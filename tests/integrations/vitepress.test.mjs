// posenc in a VitePress site, as docs/integrations/vitepress.md tells its
// users: vitepress and the packed posenc from npm, `posenc/elements` imported
// in the theme (in the browser only), the tags declared custom elements in
// Vue's compiler options, a Markdown post with two <posenc-*> tags.
// The built site (served on 127.0.0.1) and `vitepress dev` are opened in
// headless Chromium. Without isCustomElement the dev server's Vue warns
// "Failed to resolve component"; without optimizeDeps.exclude the dev
// server's pre-bundled copy fetches the .wasm from .vitepress/cache (a 404).
// Usage: node tests/integrations/vitepress.test.mjs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../e2e/chromium.mjs';
import { assert, check, finish } from '../e2e/harness.mjs';
import { serveStatic } from '../e2e/server.mjs';
import { VITEPRESS } from '../pack/npm-packages.mjs';
import {
  assertBundledPost,
  elementMarkup,
  postBody,
  freePort,
  inspectPost,
  npmInstall,
  run,
  startServer,
  tarball,
  verifyPost,
} from './site.mjs';

const work = mkdtempSync(join(tmpdir(), 'posenc-vitepress-'));
const site = join(work, 'docs');
// The two files of docs/integrations/vitepress.md.
const CONFIG = `import { defineConfig } from 'vitepress';

export default defineConfig({
  title: 'A blog',
  vite: {
    // Vite 5's dependency pre-bundling moves the code away from its .wasm (new URL(…, import.meta.url)).
    optimizeDeps: { exclude: ['posenc'] },
  },
  vue: {
    template: {
      // <posenc-*> are custom elements, not Vue components.
      compilerOptions: { isCustomElement: (tag) => tag.startsWith('posenc-') },
    },
  },
});
`;
const THEME = `import DefaultTheme from 'vitepress/theme';

export default {
  extends: DefaultTheme,
  async enhanceApp() {
    // Custom elements exist in the browser only; the build's server render leaves the tags as they are.
    if (!import.meta.env.SSR) await import('posenc/elements');
  },
};
`;
const POST = `# Positional encoding

${postBody(elementMarkup)}`;

let browser = null;
let server = null;
let dev = null;
try {
  await check(`a new site installs ${VITEPRESS} and the packed posenc; vitepress build builds the post`, async () => {
    const packed = await tarball(work);
    mkdirSync(site);
    writeFileSync(join(site, 'package.json'), JSON.stringify({ name: 'docs', private: true, type: 'module' }, null, 2));
    await npmInstall(site, [VITEPRESS, packed]);
    mkdirSync(join(site, '.vitepress/theme'), { recursive: true });
    writeFileSync(join(site, '.vitepress/config.mjs'), CONFIG);
    writeFileSync(join(site, '.vitepress/theme/index.js'), THEME);
    writeFileSync(join(site, 'index.md'), '# A blog\n\n[Positional encoding](./posts/encoding)\n');
    mkdirSync(join(site, 'posts'));
    writeFileSync(join(site, 'posts/encoding.md'), POST);
    const output = await run(join(site, 'node_modules/.bin/vitepress'), ['build'], site);
    assert(!/warn|error/i.test(output), output);
    assertBundledPost(join(site, '.vitepress/dist/posts/encoding.html'), join(site, '.vitepress/dist/assets'));
  });

  await check('the built post in Chromium: the plots render, PE[5, 3] is right, one .wasm fetch', async () => {
    browser = await launchChromium();
    server = await serveStatic(join(site, '.vitepress/dist'));
    return verifyPost(await inspectPost(browser, `${server.url}posts/encoding.html`));
  });

  await check('vitepress dev: the same post, no Vue warning about the tags', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/posts/encoding.html`;
    dev = await startServer(
      join(site, 'node_modules/.bin/vitepress'),
      ['dev', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
      site,
      url,
      60000,
    );
    return verifyPost(await inspectPost(browser, url));
  });
} finally {
  await browser?.close();
  await server?.close();
  await dev?.stop();
  rmSync(work, { recursive: true, force: true });
}
finish('vitepress');
