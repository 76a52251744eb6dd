// Vite plugin: the page's translated text rendered at build time, so that the
// page typesets nothing at load (KaTeX stays the typesetter, in Node).
// - Every HTML page of the build gets its English text in place: an element
//   with data-i18n="key" and no content gets the string, one with
//   data-i18n-rich="key" and no content gets the rich string as HTML (math
//   typeset) and data-i18n-rendered="en", which tells the page it is done.
// - Below the marker MATHML_ONLY_BELOW in a page (its later chapters), each
//   formula is written as MathML only (KaTeX's output: 'mathml') and the
//   element gets data-i18n-mathml-only: a reader without scripts, a screen
//   reader and a search engine get every formula, and the document the browser
//   parses before the first plot is smaller (KaTeX's HTML markup is most
//   of it). The page puts KaTeX's typeset copy in place from the chunk
//   `virtual:posenc-rich/later` before those sections near the screen.
// - `virtual:posenc-rich` maps each language of web/i18n/<xx>.js to a lazily
//   loaded chunk `{ key: html }` of its rich strings, for the keys any HTML
//   page uses in data-i18n-rich: the language switch puts them in place.
// Any key and language added later is picked up as it is (nothing lists the
// sections). A rich string that is a function (worded from the facts of the
// settings: web/model/text-facts.js) is rendered as at the default settings;
// the page words it again at run time, reusing the formulas typeset here.
import { readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import katex from 'katex';
import { richHtml } from '../page/rich-text.js';
import { subsetKatexCss } from './katex-font-subset.js';
import { dropUnlessNamed } from './vite-inline-styles.js';

const VIRTUAL = 'virtual:posenc-rich';
const RESOLVED = `\0${VIRTUAL}`;
const LATER = 'later';
const MATHML_ONLY_BELOW = '<!-- posenc: formulas below as MathML until the page typesets them -->';
// KaTeX writing MathML alone (no HTML markup to lay out; browsers render MathML Core themselves).
// A one-letter identifier is marked (class "letter"): the page's styles keep its letter plain (a
// math-italic code point needs a fallback font and reads badly) and set it in italic; a longer one
// (sin) stays upright, as MathML has it.
const katexMathml = {
  renderToString: (tex, options) =>
    katex
      .renderToString(tex, { ...options, output: 'mathml' })
      .replace(/<mi>([^<]|[\uD800-\uDBFF][\uDC00-\uDFFF])<\/mi>/g, '<mi class="letter">$1</mi>'),
};
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
// An element with the attribute and no content (the page's convention for translated text).
const EMPTY_ELEMENT = (attribute) =>
  new RegExp(`(<([a-z][\\w-]*)\\b[^>]*?\\s${attribute}="([^"]+)"[^>]*?)>\\s*</\\2>`, 'g');

/**
 * i18nDir: web/i18n; htmlTexts(): (a promise of) the text of each page whose data-i18n-rich keys
 * are rendered for every language; watchFiles: the files those texts come from.
 */
export function richTextPlugin({ i18nDir, htmlTexts, watchFiles }) {
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
  // A string's text as the page first shows it: a function of the facts at the default settings.
  let defaultFacts = null;
  async function textOf(entry) {
    if (typeof entry === 'string') return entry;
    if (typeof entry !== 'function') return undefined;
    if (!defaultFacts) {
      const model = (name) => pathToFileURL(join(i18nDir, '..', 'model', name)).href;
      const { textFacts } = await import(model('text-facts.js'));
      const { defaultState } = await import(model('state.js'));
      defaultFacts = textFacts(defaultState());
    }
    return entry(defaultFacts);
  }
  const keysIn = (html) => [...html.matchAll(/data-i18n-rich="([^"]+)"/g)].map((m) => m[1]);
  const richKeys = async () => new Set((await htmlTexts()).flatMap(keysIn));
  // The keys written as MathML only (below the marker) in some page.
  const laterKeys = async () =>
    new Set((await htmlTexts()).flatMap((html) => keysIn(html.split(MATHML_ONLY_BELOW)[1] ?? '')));

  /** The HTML of each formula of every rich string the build renders, in every language. */
  async function formulas() {
    const found = [];
    const recording = {
      renderToString(tex, options) {
        const html = katex.renderToString(tex, options);
        found.push(html);
        return html;
      },
    };
    for (const language of languages()) {
      const table = await strings(language);
      for (const key of await richKeys()) {
        const text = await textOf(table[key]);
        if (text !== undefined) richHtml(text, recording);
      }
    }
    return found;
  }

  return {
    name: 'posenc-rich-text',
    // For katexFontsPlugin: the characters its font subsets must hold.
    api: { formulas },
    configureServer(devServer) {
      server = devServer;
    },
    resolveId(id) {
      if (id === VIRTUAL || id.startsWith(`${VIRTUAL}/`)) return `\0${id}`;
    },
    async load(id) {
      if (!id.startsWith(RESOLVED)) return;
      for (const file of watchFiles) this.addWatchFile(file);
      if (id === RESOLVED)
        return `export default {${languages()
          .map((language) => `${language}: () => import('${VIRTUAL}/${language}')`)
          .join(', ')}};\nexport const later = () => import('${VIRTUAL}/${LATER}');`;
      const name = id.slice(RESOLVED.length + 1);
      // The English HTML of the strings the pages hold as MathML only (the page's language at load).
      const language = name === LATER ? 'en' : name;
      const table = await strings(language);
      const rendered = {};
      for (const key of await (name === LATER ? laterKeys() : richKeys())) {
        const text = await textOf(table[key]);
        if (text !== undefined) rendered[key] = richHtml(text, katex);
      }
      return `export default ${JSON.stringify(rendered)};`;
    },
    transformIndexHtml: {
      order: 'pre',
      async handler(html) {
        const english = await strings('en');
        const richTexts = {};
        for (const key of await richKeys()) richTexts[key] = await textOf(english[key]);
        const fill = (part, mathmlOnly) =>
          part
            .replace(EMPTY_ELEMENT('data-i18n'), (whole, open, tag, key) =>
              typeof english[key] === 'string' ? `${open}>${escapeHtml(english[key])}</${tag}>` : whole,
            )
            .replace(EMPTY_ELEMENT('data-i18n-rich'), (whole, open, tag, key) =>
              richTexts[key] === undefined
                ? whole
                : mathmlOnly
                  ? `${open} data-i18n-rendered="en" data-i18n-mathml-only>${richHtml(richTexts[key], katexMathml)}</${tag}>`
                  : `${open} data-i18n-rendered="en">${richHtml(richTexts[key], katex)}</${tag}>`,
            );
        const [first, later] = html.split(MATHML_ONLY_BELOW);
        return later === undefined ? fill(first, false) : fill(first, false) + fill(later, true);
      },
    },
  };
}

// KaTeX's fonts: woff2 only (every browser that runs the page reads it; the
// woff and ttf copies were built and never fetched) and shown with a fallback
// font until they arrive (font-display: swap, KaTeX's own is block: no text).
// In a build, each font is cut down to the characters of `formulas()` (the
// HTML of every formula the build typeset: richTextPlugin's api), with the
// full font kept for any other character (web/build/katex-font-subset.js); the
// subsets of the two every formula uses are written into the stylesheet as
// data: URLs: a preloaded font still on its way when parsing ends makes
// Chromium lay the page out in a long task, which inline fonts avoid, for the
// same first view's bytes (docs/performance.md).
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const KATEX_CSS = /[\\/]katex[\\/]dist[\\/]katex(\.min)?\.css$/;
const INLINED_FONTS = [/KaTeX_Main-Regular\.subset-[\w-]+\.woff2$/, /KaTeX_Math-Italic\.subset-[\w-]+\.woff2$/];

export function katexFontsPlugin({ formulas } = {}) {
  let subsetDir = null;
  return {
    name: 'posenc-katex-fonts',
    enforce: 'pre',
    // The subsets are files of their own, not inlined into the CSS by Vite (it inlines small
    // assets): a face is fetched only when its characters appear. (INLINED_FONTS, which every page
    // shows, go in below.)
    config(user) {
      const limit = user.build?.assetsInlineLimit;
      return {
        build: {
          assetsInlineLimit: (file, content) =>
            /KaTeX_[\w-]+(\.subset)?\.woff2$/.test(file)
              ? false
              : typeof limit === 'function'
                ? limit(file, content)
                : undefined,
        },
      };
    },
    configResolved(config) {
      if (config.command === 'build' && formulas) subsetDir = join(config.cacheDir, 'katex-subset');
    },
    async transform(code, id) {
      const file = id.split('?')[0];
      if (!KATEX_CSS.test(file)) return;
      const css = code
        .replace(/font-display:\s*block/g, 'font-display:swap')
        .replace(/,\s*url\([^)]*\.woff\)\s*format\(["']woff["']\)/g, '')
        .replace(/,\s*url\([^)]*\.ttf\)\s*format\(["']truetype["']\)/g, '');
      if (!subsetDir) return css;
      return subsetKatexCss(css, {
        cssFile: file,
        formulas: await formulas(),
        outDir: subsetDir,
        // Every digit: a formula worded at run time from other settings brings other numbers.
        extra: { 'KaTeX_Main-Regular.woff2': '0123456789' },
      });
    },
    // Before the stylesheet goes into the page (inlineStylesPlugin, later in the same hook).
    generateBundle: {
      order: 'post',
      handler(_, bundle) {
        const fonts = Object.values(bundle).filter(
          (asset) => asset.type === 'asset' && INLINED_FONTS.some((pattern) => pattern.test(asset.fileName)),
        );
        for (const font of fonts) {
          const name = posix.basename(font.fileName);
          const dataUrl = `data:font/woff2;base64,${Buffer.from(font.source).toString('base64')}`;
          let found = false;
          for (const css of Object.values(bundle)) {
            if (css.type !== 'asset' || !css.fileName.endsWith('.css')) continue;
            const source = String(css.source);
            const replaced = source.replace(new RegExp(`url\\((["']?)[^)"']*${escapeRegExp(name)}\\1\\)`, 'g'), () => {
              found = true;
              return `url(${dataUrl})`;
            });
            if (replaced !== source) css.source = replaced;
          }
          if (!found) this.error(`posenc-katex-fonts: no stylesheet names ${name}`);
          // Shipped still where a chunk or another file names it (none does today).
          dropUnlessNamed(bundle, font.fileName);
        }
      },
    },
  };
}
