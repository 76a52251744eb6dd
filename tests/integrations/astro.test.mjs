// posenc in an Astro site with MDX, as docs/integrations/astro.md tells its
// users: astro, @astrojs/mdx and the packed posenc from npm, `posenc/elements`
// imported by the post layout's <script> (Astro bundles it with Vite), an MDX
// post with two <posenc-*> tags. `astro build` builds it; the built site is
// served on 127.0.0.1 and the post opened in headless Chromium, and so is
// `astro dev` (which without optimizeDeps.exclude fetches the .wasm from
// Vite's dependency cache, a 404).
// Astro rather than Docusaurus: on this 2-core machine astro + @astrojs/mdx
// installed in 67 s (162 MB) and built a post in 19 s; Docusaurus 3.10
// (core, preset-classic, React 19) took 216 s (274 MB) to install alone.
// Usage: node tests/integrations/astro.test.mjs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../e2e/chromium.mjs';
import { assert, check, finish } from '../e2e/harness.mjs';
import { serveStatic } from '../e2e/server.mjs';
import { ASTRO } from '../pack/npm-packages.mjs';
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

// No telemetry requests from astro build and astro dev.
process.env.ASTRO_TELEMETRY_DISABLED = '1';
const work = mkdtempSync(join(tmpdir(), 'posenc-astro-'));
const site = join(work, 'blog');
const CONFIG = `import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';

export default defineConfig({
  integrations: [mdx()],
  // The dev server's dependency pre-bundling (Vite 6) moves the code away from its .wasm.
  vite: { optimizeDeps: { exclude: ['posenc'] } },
});
`;
// The layout of docs/integrations/astro.md: one <script> that imports the elements.
const LAYOUT = `---
const { frontmatter } = Astro.props;
---
<html lang="en">
  <head><meta charset="utf-8" /><title>{frontmatter.title}</title><link rel="icon" href="data:," /></head>
  <body>
    <main><h1>{frontmatter.title}</h1><slot /></main>
    <script>
      import 'posenc/elements';
    </script>
  </body>
</html>
`;
const POST = `---
layout: ../../layouts/Post.astro
title: Positional encoding
---
${postBody(elementMarkup)}`;

let browser = null;
let server = null;
let dev = null;
try {
  await check(
    `a new site installs ${ASTRO.join(', ')} and the packed posenc; astro build builds the MDX post`,
    async () => {
      const packed = await tarball(work);
      mkdirSync(site);
      writeFileSync(
        join(site, 'package.json'),
        JSON.stringify({ name: 'blog', private: true, type: 'module' }, null, 2),
      );
      await npmInstall(site, [...ASTRO, packed]);
      writeFileSync(join(site, 'astro.config.mjs'), CONFIG);
      mkdirSync(join(site, 'src/layouts'), { recursive: true });
      writeFileSync(join(site, 'src/layouts/Post.astro'), LAYOUT);
      mkdirSync(join(site, 'src/pages/posts'), { recursive: true });
      writeFileSync(join(site, 'src/pages/posts/encoding.mdx'), POST);
      await run(join(site, 'node_modules/.bin/astro'), ['build'], site);
      assertBundledPost(join(site, 'dist/posts/encoding/index.html'), join(site, 'dist/_astro'));
    },
  );

  await check('the built post in Chromium: the plots render, PE[5, 3] is right, one .wasm fetch', async () => {
    browser = await launchChromium();
    server = await serveStatic(join(site, 'dist'));
    return verifyPost(await inspectPost(browser, `${server.url}posts/encoding/`));
  });

  await check('astro dev: the same post', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/posts/encoding/`;
    dev = await startServer(
      join(site, 'node_modules/.bin/astro'),
      ['dev', '--host', '127.0.0.1', '--port', String(port)],
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
finish('astro');
