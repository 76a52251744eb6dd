// posenc in a Hexo 8 blog, as docs/integrations/hexo.md tells its users: a
// new blog with hexo, its Markdown renderer and server from npm and the
// packed posenc, the tag helper (posenc/integrations/hexo) loaded from
// scripts/, self-hosting on (the package's files written into public/), a
// Markdown post with two {% posenc %} tags. `hexo generate` builds it,
// `hexo server --static` serves it on 127.0.0.1 and the post is opened in
// headless Chromium; a wrong plot or attribute must fail the build.
// Usage: node tests/integrations/hexo.test.mjs
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../e2e/chromium.mjs';
import { assert, check, finish } from '../e2e/harness.mjs';
import { HEXO } from '../pack/npm-packages.mjs';
import { postBody, freePort, inspectPost, npmInstall, run, startServer, tarball, verifyPost } from './site.mjs';

const work = mkdtempSync(join(tmpdir(), 'posenc-hexo-'));
const blog = join(work, 'blog');
const hexo = join(blog, 'node_modules/.bin/hexo');
// The smallest theme: Hexo renders Nunjucks layouts itself.
const LAYOUT = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>{{ page.title }}</title><link rel="icon" href="data:,"></head>
  <body><main><h1>{{ page.title }}</h1>{{ page.content | safe }}</main></body>
</html>
`;
const POST = `---
title: Positional encoding
date: 2026-01-02 03:04:05
---
${postBody(
  (plot, attributes) =>
    `{% posenc ${plot} ${Object.entries(attributes)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ')} %}`,
)}`;

let browser = null;
let server = null;
try {
  await check(
    `a new blog installs ${HEXO.join(', ')} and the packed posenc; hexo generate builds the post`,
    async () => {
      const packed = await tarball(work);
      mkdirSync(blog);
      writeFileSync(join(blog, 'package.json'), JSON.stringify({ name: 'blog', private: true, hexo: {} }, null, 2));
      await npmInstall(blog, [...HEXO, packed]);
      writeFileSync(
        join(blog, '_config.yml'),
        'title: A blog\nurl: http://127.0.0.1\nroot: /\ntheme: plain\nposenc:\n  self_host: true\n',
      );
      mkdirSync(join(blog, 'themes/plain/layout'), { recursive: true });
      writeFileSync(join(blog, 'themes/plain/layout/post.njk'), LAYOUT);
      mkdirSync(join(blog, 'scripts'));
      writeFileSync(join(blog, 'scripts/posenc.js'), "require('posenc/integrations/hexo')(hexo);\n");
      mkdirSync(join(blog, 'source/_posts'), { recursive: true });
      writeFileSync(join(blog, 'source/_posts/encoding.md'), POST);
      await run(hexo, ['generate'], blog);
      const html = readFileSync(join(blog, 'public/2026/01/02/encoding/index.html'), 'utf8');
      assert(
        html.includes('<posenc-heatmap d-model="32" length="64" position="5" dimension="3"></posenc-heatmap>'),
        html,
      );
      assert(html.includes('<script type="module" src="/posenc/dist/elements/posenc-elements.js"></script>'), html);
      const version = JSON.parse(readFileSync(join(blog, 'node_modules/hexo/package.json'), 'utf8')).version;
      return `hexo ${version}`;
    },
  );

  await check('hexo server --static: the plots render, PE[5, 3] is right, one .wasm fetch', async () => {
    browser = await launchChromium();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/2026/01/02/encoding/`;
    server = await startServer(hexo, ['server', '--static', '-i', '127.0.0.1', '-p', String(port)], blog, url);
    return verifyPost(await inspectPost(browser, url));
  });

  await check('the tag escapes values and fails the build on a wrong plot or attribute', async () => {
    const post = join(blog, 'source/_posts/wrong.md');
    writeFileSync(post, `---\ntitle: x\ndate: 2026-01-03\n---\n{% posenc heatmap length="64&quot;><img src=x>" %}\n`);
    await run(hexo, ['generate'], blog);
    const html = readFileSync(join(blog, 'public/2026/01/03/wrong/index.html'), 'utf8');
    assert(html.includes('length="64&amp;quot;&gt;&lt;img'), html);
    assert(!html.includes('<img'), 'markup from a value reached the page');
    for (const [wrong, named] of [
      ['heatmaps', 'plot must be one of'],
      ['heatmap dmodel=32', '"dmodel=32"'],
    ]) {
      writeFileSync(post, `---\ntitle: x\ndate: 2026-01-03\n---\n{% posenc ${wrong} %}\n`);
      let output = '';
      try {
        await run(hexo, ['generate'], blog);
      } catch (error) {
        output = error.message;
      }
      assert(
        output.includes(named) && output.includes('wrong.md'),
        `hexo generate with ${wrong}: ${output || 'built'}`,
      );
    }
    rmSync(post);
  });
} finally {
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
}
finish('hexo');
