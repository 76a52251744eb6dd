// Link previews for the built site (dist/site): what a chat app, a forum or a
// social site shows for a shared link. Crawlers run no script, and a static
// host serves the same HTML whatever the query, so each view that should
// preview well gets its own file with its own tags:
//   og/page.png, og/<plot>.png   screenshots (1200×630) of the explainer's
//                                default view and of each plot's default, in
//                                headless Chromium
//   index.html, the chapters,    og:image / twitter:image set to og/page.png
//   embed.html                   (the first chapter's default view)
//   embed-<plot>.html            embed.html showing that plot by default, with
//                                its own title, description and og/<plot>.png
// Absolute URLs (as Open Graph asks) when POSENC_SITE_URL names where the site
// will live (e.g. https://example.org/posenc/); relative ones otherwise. The
// title and description tags themselves are in the HTML sources.
// Without Chromium the site keeps no image tags and this says so.
// Usage: node web/scripts/link-previews.mjs [dist/site]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import en from '../i18n/en.js';
import { CHAPTERS, ELEMENTS, PLOTS, START_FILE } from '../model/registry.js';

/**
 * The folder URL POSENC_SITE_URL names (null when unset): http(s) only, and a
 * path without a trailing slash is a folder too (new URL('x', '…/posenc')
 * would resolve beside posenc/, not inside it).
 */
export function siteBase(value) {
  if (value === undefined || value === '') return null;
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(
      `link-previews: POSENC_SITE_URL must be an absolute http(s) URL (got ${JSON.stringify(value)})`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TypeError(
      `link-previews: POSENC_SITE_URL must be an http(s) URL where the site will live (got the ${url.protocol} URL ${JSON.stringify(value.slice(0, 80))})`,
    );
  if (url.search || url.hash)
    throw new TypeError(
      `link-previews: POSENC_SITE_URL must name a folder, without ?query or #fragment (got ${value})`,
    );
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

const site = resolve(process.argv[2] ?? fileURLToPath(new URL('../../dist/site', import.meta.url)));
export const SIZE = { width: 1200, height: 630 };
// The heading key of each plot's section on the page (its title in the preview).
const TITLE_KEY = { 'offset-dots': 'offset', 'rope-scaling': 'ropeLab', 'rope-relative': 'ropeRelative' };
/** The key of a plot's title in the preview (`entry`: its row of PLOTS): its own heading's, else the registry's title of it. */
const titleKey = ({ name, title }) =>
  TITLE_KEY[name] ? `${TITLE_KEY[name]}.title` : en[`${name}.title`] !== undefined ? `${name}.title` : title;
// What a plot of each chapter is a plot of (the first two chapters': the paper's encoding).
const SUBJECT = {
  rope: 'rotary position embedding (RoPE)',
  elsewhere: 'sinusoids of diffusion timesteps, image patches and relative positions',
};
const escapeAttribute = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `html` with the meta tag of `key` (name= or property=) set to `content`, added before </head> if missing. */
function setMeta(html, attribute, key, content) {
  const tag = `<meta ${attribute}="${key}" content="${escapeAttribute(content)}" />`;
  // Also a tag written over several lines (as the sources are formatted).
  const existing = new RegExp(`<meta\\s+${attribute}="${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`);
  return existing.test(html) ? html.replace(existing, tag) : html.replace('</head>', `  ${tag}\n  </head>`);
}

/** `path` under `base` (siteBase's URL), or as it is without one. */
const absolute = (path, base) => (base ? new URL(path, base).href : path);

function withImage(html, image, alt, base) {
  html = setMeta(html, 'property', 'og:image', absolute(image, base));
  html = setMeta(html, 'property', 'og:image:width', String(SIZE.width));
  html = setMeta(html, 'property', 'og:image:height', String(SIZE.height));
  html = setMeta(html, 'property', 'og:image:alt', alt);
  html = setMeta(html, 'name', 'twitter:card', 'summary_large_image');
  return setMeta(html, 'name', 'twitter:image', absolute(image, base));
}

/**
 * embed-<plot>.html from embed.html's `html`: the plot shown by default, its own title,
 * description and image og/<plot>.png, and og:url under `base` when there is one. The same
 * whether `html` already went through this or not.
 */
export function embedPreview(html, plot, base) {
  const entry = PLOTS.find(({ name }) => name === plot);
  // Section numbers ("6.", the RoPE chapter's "R1.") are left out.
  const title = `posenc: ${en[titleKey(entry)].replace(/^R?\d+\.\s*/, '')}`;
  const subject = SUBJECT[entry.chapter] ?? 'sinusoidal positional encoding of “Attention Is All You Need”';
  const description = `${title.slice('posenc: '.length)}: an interactive plot of the ${subject}, computed in your browser by WebAssembly.`;
  html = html
    .replace(/<html lang="en"(?: data-plot="[^"]*")?>/, `<html lang="en" data-plot="${plot}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeAttribute(title)}</title>`);
  html = setMeta(html, 'name', 'description', description);
  html = setMeta(html, 'property', 'og:title', title);
  html = setMeta(html, 'property', 'og:description', description);
  html = withImage(html, `og/${plot}.png`, title, base);
  if (base) html = setMeta(html, 'property', 'og:url', absolute(`embed-${plot}.html`, base));
  return html;
}

/**
 * A document of the site (`file`, titled `title`) with og/page.png as its image, and og:url
 * under `base` when there is one. The same whether `html` already went through this or not.
 */
export function documentPreview(html, file, title, base) {
  html = withImage(html, 'og/page.png', title, base);
  if (base) html = setMeta(html, 'property', 'og:url', absolute(file === START_FILE ? './' : file, base));
  return html;
}

/** Each document of the site that shares the default view's image, with its title. */
export const PREVIEW_TITLES = {
  [START_FILE]: en['page.title'],
  'embed.html': en['page.title'],
  ...Object.fromEntries(CHAPTERS.map((chapter) => [chapter.file, en[`${chapter.title}.page`]])),
};

async function main() {
  // Read before any work, so a bad value fails at once.
  const base = siteBase(process.env.POSENC_SITE_URL);
  if (!existsSync(join(site, 'index.html')) || !existsSync(join(site, 'embed.html')))
    throw new Error(`no built site in ${site}: run vite build first`);
  if (!existsSync('/usr/bin/chromium')) {
    console.log('link-previews: /usr/bin/chromium is missing (apt-get install chromium): no preview images written');
    return;
  }
  const { launchChromium } = await import('../../tests/e2e/chromium.mjs');
  const { serveStatic } = await import('../../tests/e2e/server.mjs');
  const server = await serveStatic(site);
  const browser = await launchChromium();
  mkdirSync(join(site, 'og'), { recursive: true });
  const started = performance.now();
  try {
    const context = await browser.newContext({ viewport: SIZE, deviceScaleFactor: 1, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${server.url}${CHAPTERS[0].file}`);
    await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 30000 });
    await page.screenshot({ path: join(site, 'og/page.png') });

    const embed = readFileSync(join(site, 'embed.html'), 'utf8');
    for (const [tag, plot] of Object.entries(ELEMENTS)) {
      await page.goto(`${server.url}embed.html?plot=${plot}`);
      await page.waitForFunction((tag) => document.querySelector(tag)?.dataset.state === 'ready', tag, {
        timeout: 30000,
      });
      // Two frames: the plot's last layers paint after its render event.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await page.screenshot({ path: join(site, `og/${plot}.png`) });
      writeFileSync(join(site, `embed-${plot}.html`), embedPreview(embed, plot, base));
    }
    // Each document's own title (a chapter's) as the image's alternative text.
    for (const [file, title] of Object.entries(PREVIEW_TITLES))
      writeFileSync(join(site, file), documentPreview(readFileSync(join(site, file), 'utf8'), file, title, base));
  } finally {
    await browser.close();
    await server.close();
  }
  const count = Object.keys(ELEMENTS).length;
  console.log(
    `link-previews: og/page.png and ${count} plot images, ${count} embed-<plot>.html in ${((performance.now() - started) / 1000).toFixed(1)} s` +
      (base ? ` (URLs under ${base.href})` : ' (relative URLs: set POSENC_SITE_URL for absolute ones)'),
  );
}

// Imported by the tests for siteBase and the tags (tests/js/scripts/link-previews.test.js).
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
