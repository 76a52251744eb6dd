// posenc in a Hugo site (Debian's hugo), as docs/integrations/hugo.md tells
// its users: a new site, the package's files (from the packed tarball)
// under static/posenc/, the shortcode from the tarball in
// layouts/shortcodes/, a Markdown post with two shortcodes and one whose
// first shortcode is Hugo's figure (.Ordinal counts every shortcode of a
// page). The built site is served on 127.0.0.1 and the posts opened in
// headless Chromium; a wrong plot or attribute name must fail the build
// naming the post.
// Usage: node tests/integrations/hugo.test.mjs
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../e2e/chromium.mjs';
import { assert, check, finish } from '../e2e/harness.mjs';
import { serveStatic } from '../e2e/server.mjs';
import { postBody, quotedAttributes, inspectPost, run, tarball, verifyPost } from './site.mjs';

const work = mkdtempSync(join(tmpdir(), 'posenc-hugo-'));
const site = join(work, 'blog');
const LAYOUT = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>{{ .Title }}</title><link rel="icon" href="data:,"></head>
  <body><main><h1>{{ .Title }}</h1>{{ .Content }}</main></body>
</html>
`;
const POST = `---
title: "Positional encoding"
---
${postBody((plot, attributes) => `{{< posenc plot="${plot}" ${quotedAttributes(attributes)} >}}`)}`;
const FIGURE_FIRST = `---
title: "A figure, then the encoding"
---
{{< figure src="/dot.svg" alt="A dot" >}}

${POST.split('---\n')[2]}`;
const SCRIPT = /<script type="module" src="[^"]*"><\/script>/g;

let browser = null;
let server = null;
try {
  await check('hugo new site, the package under static/posenc/, the shortcode, a post; hugo builds it', async () => {
    const version = (await run('hugo', ['version'], work)).trim();
    const packed = await tarball(work);
    await run('hugo', ['new', 'site', site], work);
    // The files the script tag needs, in the package's own layout (dist/elements/ imports ../../web/lib/).
    mkdirSync(join(site, 'static/posenc'), { recursive: true });
    await run(
      'tar',
      ['-xzf', packed, '-C', 'static/posenc', '--strip-components=1', 'package/dist/elements', 'package/web/lib'],
      site,
    );
    mkdirSync(join(work, 'package'));
    await run('tar', ['-xzf', packed, '-C', work, 'package/web/integrations/hugo/posenc.html'], work);
    mkdirSync(join(site, 'layouts/shortcodes'), { recursive: true });
    copyFileSync(join(work, 'package/web/integrations/hugo/posenc.html'), join(site, 'layouts/shortcodes/posenc.html'));
    mkdirSync(join(site, 'layouts/_default'), { recursive: true });
    writeFileSync(join(site, 'layouts/_default/single.html'), LAYOUT);
    writeFileSync(
      join(site, 'hugo.toml'),
      `baseURL = "http://127.0.0.1/"\ntitle = "A blog"\n[params.posenc]\nelementsURL = "posenc/dist/elements/posenc-elements.js"\n`,
    );
    rmSync(join(site, 'config.toml'), { force: true });
    mkdirSync(join(site, 'content/posts'), { recursive: true });
    writeFileSync(join(site, 'content/posts/encoding.md'), POST);
    writeFileSync(join(site, 'content/posts/figure-first.md'), FIGURE_FIRST);
    writeFileSync(join(site, 'static/dot.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>');
    await run('hugo', ['--quiet'], site);
    const html = readFileSync(join(site, 'public/posts/encoding/index.html'), 'utf8');
    // Each shortcode writes the script tag (a module script runs once however often it is repeated).
    for (const name of ['encoding', 'figure-first']) {
      const page = readFileSync(join(site, `public/posts/${name}/index.html`), 'utf8');
      const scripts = page.match(SCRIPT) ?? [];
      assert(scripts.length === 2, `${name}: script tags: ${scripts.join(' ') || 'none'}`);
      for (const script of scripts)
        assert(script.includes('src="/posenc/dist/elements/posenc-elements.js"'), `${name}: ${script}`);
      assert(page.search(SCRIPT) < page.indexOf('<posenc-heatmap'), `${name}: the script comes after the plot`);
    }
    assert(
      html.includes('<posenc-heatmap d-model="32" dimension="3" length="64" position="5"></posenc-heatmap>'),
      html,
    );
    return version.split(' ')[0] + ' ' + version.split(' ')[1];
  });

  await check('the built post in Chromium: the plots render, PE[5, 3] is right, one .wasm fetch', async () => {
    browser = await launchChromium();
    server = await serveStatic(join(site, 'public'));
    return verifyPost(await inspectPost(browser, `${server.url}posts/encoding/`));
  });

  await check('a post whose first shortcode is a figure: its plots render too', async () =>
    verifyPost(await inspectPost(browser, `${server.url}posts/figure-first/`)),
  );

  await check('the shortcode escapes values and fails the build on a wrong plot or attribute', async () => {
    const post = join(site, 'content/posts/wrong.md');
    writeFileSync(post, `---\ntitle: "x"\n---\n{{< posenc plot="heatmap" length="64\\"><img src=x>" >}}\n`);
    await run('hugo', ['--quiet'], site);
    const html = readFileSync(join(site, 'public/posts/wrong/index.html'), 'utf8');
    assert(
      html.includes('length="64&#34;&gt;&lt;img src=x&gt;"') || html.includes('length="64&quot;&gt;&lt;img src=x&gt;"'),
      html,
    );
    assert(!html.includes('<img'), 'markup from a value reached the page');
    for (const [wrong, named] of [
      ['plot="heatmaps"', 'plot must be one of'],
      ['plot="heatmap" dmodel="32"', 'unknown attribute "dmodel"'],
    ]) {
      writeFileSync(post, `---\ntitle: "x"\n---\n{{< posenc ${wrong} >}}\n`);
      let output = '';
      try {
        await run('hugo', [], site);
      } catch (error) {
        output = error.message;
      }
      assert(output.includes(named) && output.includes('wrong.md'), `hugo with ${wrong}: ${output || 'built'}`);
    }
    rmSync(post);
  });
} finally {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
}
finish('hugo');
