// Link previews of the built site (web/scripts/link-previews.mjs, run by
// `npm run build`), on a copy of dist/site: the screenshots of the default
// view and of each plot's default are valid 1200×630 PNGs with a drawing on
// them; index.html, embed.html and each embed-<plot>.html carry one title,
// description, og:title, og:description and og:image each, the right image,
// and embed-<plot>.html the plot it shows by default; two of them show their
// plot under the page's CSP without a console error (each is embed.html but
// for data-plot, and the script itself waits for every plot in embed.html).
// The tags with POSENC_SITE_URL and on a second run:
// tests/js/scripts/link-previews.test.js.
// Usage: node tests/e2e/link-preview.test.mjs (after vite build of the page)
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import en from '../../web/i18n/en.js';
import { CHAPTERS } from '../../web/model/registry.js';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const site = mkdtempSync(join(tmpdir(), 'posenc-link-preview-'));
cpSync(join(root, 'dist/site'), site, { recursive: true });
const exec = promisify(execFile);
const script = join(root, 'web/scripts/link-previews.mjs');
// Plot -> the words its preview's title must hold (its section's heading).
const PLOTS = {
  heatmap: 'The table',
  waves: 'Every column is a sinusoid of position',
  ladder: 'Frequencies fall geometrically',
  row: 'One row encodes one position',
  sensitivity: 'How much each dimension moves per step',
  rotation: 'A shift in position is a rotation',
  'offset-dots': 'Dot products depend only on the offset',
  similarity: 'The similarity matrix',
  compare: 'Implementations disagree',
  precision: 'Half precision: what float16 and bfloat16 do to the angles',
  'rope-scaling': 'The context-extension lab',
  attention: 'Attention: a head that looks k tokens back',
  'attention-rows': 'Attention scores of one query',
  'sine-only': 'Sines only: s(k) depends on p',
  'sine-fit': 'Sines only: no matrix shifts position',
  extrapolation: 'Beyond the training length',
  'token-scale': 'Sizes of the encoding and of a token embedding',
  'rope-relative': 'From adding to rotating',
  'timestep-embedding': 'The embedding against t',
  'timestep-similarity': 'Similarity to t = 0: 0 … 1000 against 0 … 1',
  'grid-column': 'One column as an image',
  'grid-dots': 'Dot products from the chosen patch',
  'grid-swapped': 'The same, height and width swapped',
  'relative-table': 'Relative tables and streaming chunks',
};

/** The content of every <meta> named `key` (name= or property=), and the <title>s. */
function tags(html, key) {
  if (key === 'title') return [...html.matchAll(/<title\b[^>]*>([^<]*)<\/title>/g)].map((m) => m[1]);
  return [...html.matchAll(new RegExp(`<meta\\s+(?:name|property)="${key}"\\s+content="([^"]*)"`, 'g'))].map(
    (m) => m[1],
  );
}

/** The file's preview tags, each present exactly once. */
function preview(file) {
  const html = readFileSync(join(site, file), 'utf8');
  const found = {};
  for (const key of ['title', 'description', 'og:title', 'og:description', 'og:image', 'twitter:card']) {
    const values = tags(html, key);
    assert(values.length === 1, `${file}: ${values.length} ${key} tags`);
    found[key] = values[0];
  }
  return found;
}

const server = await serveStatic(site);
const browser = await launchChromium();
try {
  await check('the script writes the images and pages', async () => {
    const { stdout } = await exec('node', [script, site], { encoding: 'utf8', timeout: 180000 });
    assert(stdout.includes(`og/page.png and ${Object.keys(PLOTS).length} plot images`), stdout);
    return stdout.trim();
  });

  await check(
    'each image: a PNG of 1200×630 with a drawing on it (over 1% of it: the ladder, lines only, inks 1.6%)',
    async () => {
      const page = await browser.newPage();
      await page.goto(`${server.url}og/page.png`);
      for (const name of ['page', ...Object.keys(PLOTS)]) {
        const measured = await page.evaluate(async (url) => {
          const bitmap = await createImageBitmap(await (await fetch(url)).blob());
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
          const context = canvas.getContext('2d');
          context.drawImage(bitmap, 0, 0);
          const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
          let inked = 0;
          for (let i = 0; i < data.length; i += 4)
            if (Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]) > 60)
              inked++;
          return { width: bitmap.width, height: bitmap.height, inked: inked / (bitmap.width * bitmap.height) };
        }, `${server.url}og/${name}.png`);
        assert(measured.width === 1200 && measured.height === 630, `${name}: ${measured.width}×${measured.height}`);
        assert(measured.inked > 0.01, `${name}: ${(measured.inked * 100).toFixed(1)}% of the pixels drawn`);
      }
      await page.close();
    },
  );

  await check(
    'index.html, each chapter and embed.html: one set of preview tags, the default view as image',
    async () => {
      for (const file of ['index.html', 'embed.html']) {
        const tagsFound = preview(file);
        assert(tagsFound['og:image'] === 'og/page.png', `${file}: ${tagsFound['og:image']}`);
        assert(tagsFound.description.includes('Attention Is All You Need'), tagsFound.description);
      }
      // Each chapter: its own title and description (in its document, in English) and the image.
      for (const chapter of CHAPTERS) {
        const tagsFound = preview(chapter.file);
        assert(tagsFound['og:image'] === 'og/page.png', `${chapter.file}: ${tagsFound['og:image']}`);
        assert(tagsFound['og:title'] === en[`${chapter.title}.page`], `${chapter.file}: ${tagsFound['og:title']}`);
        assert(
          tagsFound.description.replaceAll('&amp;', '&') === en[`${chapter.title}.description`],
          `${chapter.file}: ${tagsFound.description}`,
        );
      }
    },
  );

  await check('embed-<plot>.html: its title, description, image and plot; two of them show it', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
    for (const [plot, heading] of Object.entries(PLOTS)) {
      const found = preview(`embed-${plot}.html`);
      assert(found.title === `posenc: ${heading}` && found['og:title'] === found.title, `${plot}: ${found.title}`);
      assert(found.description.startsWith(heading), `${plot}: ${found.description}`);
      assert(found['og:image'] === `og/${plot}.png`, `${plot}: ${found['og:image']}`);
      const html = readFileSync(join(site, `embed-${plot}.html`), 'utf8');
      assert(html.includes(`<html lang="en" data-plot="${plot}">`), `${plot}: not its plot by default`);
    }
    // A plot of the first view's module and one of the full module's (RoPE).
    for (const plot of ['offset-dots', 'rope-scaling']) {
      const page = await watchedPage(context);
      await page.goto(`${server.url}embed-${plot}.html`);
      await page.waitForFunction((tag) => document.querySelector(tag)?.dataset.state === 'ready', `posenc-${plot}`, {
        timeout: 20000,
      });
      assert(page.problems.length === 0, `${plot}: ${page.problems.join('\n')}`);
      await page.close();
    }
    await context.close();
  });
} finally {
  await browser.close();
  await server.close();
  rmSync(site, { recursive: true, force: true });
}
finish('link-preview');
