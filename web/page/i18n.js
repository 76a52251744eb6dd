// Language choice (remembered in localStorage, default from the browser) and
// the rendering of translated text into the page: plain strings as text
// nodes; rich strings as paragraphs with math, rendered at build time
// (web/build/vite-rich-text.js: English is in the page, the later chapters'
// formulas as MathML until typesetMathmlOnly() puts KaTeX's copy in place;
// each language's in a chunk loaded with its strings), typeset here by KaTeX,
// loaded on demand, only when the build could not render one. Text from
// elsewhere is never parsed as HTML.
import richTables, { later as laterEnglish } from 'virtual:posenc-rich';
import en from '../i18n/en.js';
import { stringTables } from '../i18n/translate.js';
import { defaultState } from '../model/state.js';
import { textFacts } from '../model/text-facts.js';
import { patchNode } from './patch-node.js';
import { lazyFormulas, paragraphNode, rememberTypeset, typesetAlready } from './rich-text.js';

// English is built in; other languages are fetched when chosen (most
// visitors never need the Chinese strings).
const strings = stringTables(en, { zh: () => import('../i18n/zh.js') });
export { initialLanguage, rememberLanguage } from './language-choice.js';

export const isLanguage = strings.isLanguage;

// Per language: the build's HTML of its rich strings, { key: html }, once loaded.
const rendered = {};
const renderedLoads = {};
/** Loads the rendered rich strings of `language` (cached; a failed load is tried again next time). */
function loadRendered(language) {
  if (rendered[language] || !richTables[language]) return Promise.resolve();
  renderedLoads[language] ??= richTables[language]().then(
    (module) => {
      rendered[language] = module.default;
      unreadTables.push(module.default);
    },
    (error) => {
      delete renderedLoads[language];
      throw error;
    },
  );
  return renderedLoads[language];
}

// Tables of the build's HTML whose formulas are not remembered yet: read (parsed) only when a string
// worded at run time needs a formula the page does not show typeset.
const unreadTables = [];
/** Remembers the formulas of the tables loaded since last time; true when there were any. */
function rememberTables() {
  if (unreadTables.length === 0) return false;
  const box = document.createElement('template');
  box.innerHTML = unreadTables
    .splice(0)
    .flatMap((table) => Object.values(table))
    .join('');
  rememberTypeset(box.content);
  return true;
}

// The English HTML, KaTeX's, of the strings the build wrote with MathML-only formulas (once loaded).
let laterLoad = null;
function loadLater() {
  laterLoad ??= laterEnglish().then(
    (module) => {
      unreadTables.push(module.default);
      return module.default;
    },
    (error) => {
      laterLoad = null;
      throw error;
    },
  );
  return laterLoad;
}

/**
 * Gives `node` the formulas of `html` (the build's HTML of the same string): each formula's content
 * is replaced, the text around them left as it is (nothing else to style and lay out again).
 */
function putFormulas(node, html) {
  const box = document.createElement('template');
  box.innerHTML = html;
  const formulas = 'span.math, span.math-display';
  const typeset = box.content.querySelectorAll(formulas);
  const shown = node.querySelectorAll(formulas);
  if (typeset.length !== shown.length) {
    node.replaceChildren(box.content);
    return;
  }
  shown.forEach((span, index) => span.replaceChildren(...typeset[index].childNodes));
}

// Main-thread time one step of typesetMathmlOnly() may take before it lets the browser go on.
const SLICE_MS = 8;
const mathmlOnlyNodes = () => [...document.querySelectorAll('[data-i18n-mathml-only]')];

/**
 * Puts KaTeX's typeset formulas (the build's, from a chunk) in place of the MathML-only ones the
 * page came with below its first sections, a few elements per task. Resolves when none is left;
 * rejects when the chunk could not be fetched (call again to retry).
 */
export async function typesetMathmlOnly() {
  if (mathmlOnlyNodes().length === 0) return;
  const table = await loadLater();
  let start = performance.now();
  for (const node of mathmlOnlyNodes()) {
    // Only what still shows the build's English (a language switch or a new wording replaces it whole).
    const html = table[node.dataset.i18nRich];
    if (node.dataset.i18nMathmlOnly === undefined || node.dataset.i18nRendered !== 'en' || html === undefined) continue;
    putFormulas(node, html);
    delete node.dataset.i18nMathmlOnly;
    if (performance.now() - start > SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve));
      start = performance.now();
    }
  }
}

/** Makes a language's strings available to translator() and applyTranslations() (idempotent). */
export async function loadLanguage(language) {
  // The page comes with its English rich text in place: its HTML is fetched only to switch back to it.
  const needed = [...document.querySelectorAll('[data-i18n-rich]')].some(
    (node) => node.dataset.i18nRendered !== language,
  );
  await Promise.all([strings.load(language), needed ? loadRendered(language) : null]);
}

/** t(key, ...args): the string, or the result of the function stored under key (after loadLanguage). */
export const translator = strings.translator;

// The facts the build worded the page's explanations from (web/build/vite-rich-text.js).
let builtFacts = null;

/**
 * Puts the rich string of `node` in `language` into it: the build's HTML of
 * it (our own strings, rendered from web/i18n at build time), or, for a
 * string worded from the facts of the current settings (a function: see
 * web/model/text-facts.js), the paragraphs that changed, typeset with the
 * formulas the build typeset already (a slider drag changes a number in one
 * of them); KaTeX is loaded only for a formula the build never saw.
 */
export function showRich(node, t, facts, language) {
  const key = node.dataset.i18nRich;
  const live = typeof strings.table(language)?.[key] === 'function';
  // The build worded it at the default settings: worded alike now, it needs nothing (at load this
  // skips taking apart and comparing every such explanation of the page, most of them off screen).
  if (
    live &&
    node.dataset.i18nRendered === language &&
    t(key, facts) === t(key, (builtFacts ??= textFacts(defaultState())))
  )
    return;
  if (!live) {
    if (node.dataset.i18nRendered === language) return;
    const html = rendered[language]?.[key];
    if (html !== undefined) {
      node.innerHTML = html;
      node.dataset.i18nRendered = language;
      delete node.dataset.i18nMathmlOnly;
      rememberTypeset(node);
      return;
    }
  }
  if (node.dataset.i18nRendered) {
    // The build's wording of it (at the default settings): its formulas are reused, its paragraphs compared.
    rememberTypeset(node);
    richShown.set(
      node,
      [...node.children].map(() => null),
    );
    delete node.dataset.i18nRendered;
  }
  const paragraphs = t(key, facts)
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim());
  const show = (katex) => {
    const shown = richShown.get(node);
    richShown.set(node, paragraphs);
    // Every formula now comes from KaTeX's typeset copies (one written as MathML differs, so it is replaced).
    delete node.dataset.i18nMathmlOnly;
    if (shown?.length !== paragraphs.length || node.children.length !== paragraphs.length) {
      node.replaceChildren(...paragraphs.map((paragraph) => paragraphNode(paragraph, katex)));
      return;
    }
    paragraphs.forEach((paragraph, index) => {
      if (paragraph === shown[index]) return;
      // Its formulas empty: those the page shows already are not copied (see lazyFormulas).
      const next = paragraphNode(paragraph, katex, { lazy: true });
      next.normalize();
      // Only what differs changes in the page (a number's text, mostly): the formulas and
      // the rest of the paragraph keep their nodes, which the browser need not style again.
      // The build's paragraph (its source unknown, shown null) often says the same already.
      patchNode(node.children[index], next, lazyFormulas);
    });
  };
  lateRich.delete(node);
  const typeset = () => paragraphs.every(typesetAlready);
  if (typeset() || (rememberPage() && typeset()) || (rememberTables() && typeset())) {
    show(null);
    return;
  }
  lateRich.set(node, paragraphs);
  // A formula the page holds as MathML only is in the build's later chunk: KaTeX only for one it lacks.
  const built = mathmlOnlyNodes().length > 0 ? loadLater().catch(() => null) : Promise.resolve();
  built
    .then(() =>
      typeset() || (rememberTables() && typeset()) ? null : import('katex').then((module) => module.default),
    )
    .then(
      (katex) => {
        // Only the latest text asked for (a language switch or a redraw may have come meanwhile).
        if (lateRich.get(node) !== paragraphs) return;
        lateRich.delete(node);
        show(katex);
      },
      (error) => console.error(error),
    );
}
const lateRich = new WeakMap();

// The formulas of every explanation in the page, remembered the first time a paragraph needs one not
// remembered yet (a wording may use a formula another explanation shows): read back at load, they
// cost the first view tens of milliseconds. True when it remembered them now.
let pageRemembered = false;
function rememberPage() {
  if (pageRemembered) return false;
  pageRemembered = true;
  for (const node of document.querySelectorAll('[data-i18n-rich]')) rememberTypeset(node);
  return true;
}

// The paragraphs each live rich node shows.
const richShown = new WeakMap();

/**
 * Fills [data-i18n] (text), [data-i18n-rich] (rich text, worded from
 * factsOf(node) when its string is a function of them) and [data-i18n-label] (aria-label).
 */
export function applyTranslations(root, t, language, factsOf = () => ({})) {
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  // Text the build put in the page already is left alone (no new text nodes to style and lay out at load).
  for (const node of root.querySelectorAll('[data-i18n]')) {
    const text = t(node.dataset.i18n);
    if (node.textContent !== text) node.textContent = text;
  }
  for (const node of root.querySelectorAll('[data-i18n-rich]')) showRich(node, t, factsOf(node), language);
  for (const node of root.querySelectorAll('[data-i18n-label]'))
    node.setAttribute('aria-label', t(node.dataset.i18nLabel));
  // The document's own title (a chapter's) is one of the [data-i18n] elements above.
  if (!document.querySelector('title[data-i18n]')) document.title = t('page.title');
}
