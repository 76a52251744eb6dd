// Vite plugin: the page's translated text rendered at build time, so that the
// page typesets nothing at load (KaTeX stays the typesetter, in Node).
// - Every HTML page of the build gets its English text in place: an element
//   with data-i18n="key" and no content gets the string, one with
//   data-i18n-rich="key" and no content gets the rich string as HTML (math
//   typeset) and data-i18n-rendered="en", which tells the page it is done.
// - `virtual:posenc-rich` maps each language of web/i18n/<xx>.js to a lazily
//   loaded chunk `{ key: html }` of its rich strings, for the keys any HTML
//   page uses in data-i18n-rich: the language switch puts them in place.
// Any key and language added later is picked up as it is (nothing lists the
// sections). A rich string that is a function (live values) is not rendered
// here: the page typesets it at run time, with KaTeX loaded on demand.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import katex from 'katex';
import { richHtml } from './page/rich-text.js';

const VIRTUAL = 'virtual:posenc-rich';
const RESOLVED = `\0${VIRTUAL}`;
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
// An element with the attribute and no content (the page's convention for translated text).
const EMPTY_ELEMENT = (attribute) =>
  new RegExp(`(<([a-z][\\w-]*)\\b[^>]*?\\s${attribute}="([^"]+)"[^>]*?)>\\s*</\\2>`, 'g');

/** i18nDir: web/i18n; htmlFiles: the pages whose data-i18n-rich keys are rendered for every language. */
export function richTextPlugin({ i18nDir, htmlFiles }) {
  let server = null;
  const languages = () =>
    readdirSync(i18nDir)
      .filter((file) => /^[a-z]{2}\.js$/.test(file))
      .map((file) => file.slice(0, 2));
  /** The page's strings of `language`, English where it has none (as the page's translator does). */
  async function strings(language) {
    const load = async (name) => {
      const file = join(i18nDir, `${name}.js`);
      // In the dev server through Vite (it reloads what changed); in a build straight from Node.
      const module = server ? await server.ssrLoadModule(file) : await import(pathToFileURL(file).href);
      return module.default;
    };
    const english = await load('en');
    return language === 'en' ? english : { ...english, ...(await load(language)) };
  }
  const richKeys = () =>
    new Set(
      htmlFiles.flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/data-i18n-rich="([^"]+)"/g)].map((m) => m[1]),
      ),
    );

  return {
    name: 'posenc-rich-text',
    configureServer(devServer) {
      server = devServer;
    },
    resolveId(id) {
      if (id === VIRTUAL || id.startsWith(`${VIRTUAL}/`)) return `\0${id}`;
    },
    async load(id) {
      if (!id.startsWith(RESOLVED)) return;
      for (const file of htmlFiles) this.addWatchFile(file);
      if (id === RESOLVED)
        return `export default {${languages()
          .map((language) => `${language}: () => import('${VIRTUAL}/${language}')`)
          .join(', ')}};`;
      const language = id.slice(RESOLVED.length + 1);
      const table = await strings(language);
      const rendered = {};
      for (const key of richKeys()) if (typeof table[key] === 'string') rendered[key] = richHtml(table[key], katex);
      return `export default ${JSON.stringify(rendered)};`;
    },
    transformIndexHtml: {
      order: 'pre',
      async handler(html) {
        const english = await strings('en');
        return html
          .replace(EMPTY_ELEMENT('data-i18n'), (whole, open, tag, key) =>
            typeof english[key] === 'string' ? `${open}>${escapeHtml(english[key])}</${tag}>` : whole,
          )
          .replace(EMPTY_ELEMENT('data-i18n-rich'), (whole, open, tag, key) =>
            typeof english[key] === 'string'
              ? `${open} data-i18n-rendered="en">${richHtml(english[key], katex)}</${tag}>`
              : whole,
          );
      },
    },
  };
}

// KaTeX's fonts: woff2 only (every browser that runs the page reads it; the
// woff and ttf copies were built and never fetched) and shown with a fallback
// font until they arrive (font-display: swap, KaTeX's own is block: no text);
// the two every formula uses are preloaded with the page.
const KATEX_CSS = /[\\/]katex[\\/]dist[\\/]katex(\.min)?\.css$/;
const PRELOADED_FONTS = [/KaTeX_Main-Regular-[\w-]+\.woff2$/, /KaTeX_Math-Italic-[\w-]+\.woff2$/];

export function katexFontsPlugin() {
  return {
    name: 'posenc-katex-fonts',
    enforce: 'pre',
    transform(code, id) {
      if (!KATEX_CSS.test(id.split('?')[0])) return;
      return code
        .replace(/font-display:\s*block/g, 'font-display:swap')
        .replace(/,\s*url\([^)]*\.woff\)\s*format\(["']woff["']\)/g, '')
        .replace(/,\s*url\([^)]*\.ttf\)\s*format\(["']truetype["']\)/g, '');
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle || !/class="katex"/.test(html)) return;
        const fonts = Object.keys(bundle).filter((name) => PRELOADED_FONTS.some((pattern) => pattern.test(name)));
        return fonts.map((name) => ({
          tag: 'link',
          attrs: { rel: 'preload', as: 'font', type: 'font/woff2', crossorigin: '', href: `./${name}` },
          injectTo: 'head',
        }));
      },
    },
  };
}
