// Language choice (remembered in localStorage, default from the browser) and
// the rendering of translated text into the page: plain strings as text
// nodes, rich strings as paragraphs with KaTeX-typeset math. Nothing is ever
// parsed as HTML.
import katex from 'katex';
import en from '../i18n/en.js';
import { languageOfLang, stringTables } from '../i18n/translate.js';

// English is built in; other languages are fetched when chosen (most
// visitors never need the ~10 KB of Chinese strings).
const strings = stringTables(en, { zh: () => import('../i18n/zh.js') });
const STORAGE_KEY = 'posenc.language';

export function initialLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage can be disabled; the browser language still applies.
  }
  if (stored && isLanguage(stored)) return stored;
  return languageOfLang(navigator.language);
}

export function rememberLanguage(language) {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Not remembered, but the switch still works for this visit.
  }
}

export const isLanguage = strings.isLanguage;

/** Makes a language's strings available to translator() (idempotent). */
export async function loadLanguage(language) {
  await strings.load(language);
}

/** t(key, ...args): the string, or the result of the function stored under key (after loadLanguage). */
export const translator = strings.translator;

// $$display$$, $inline$, **bold**, *italic*, in that priority.
const TOKENS = /\$\$([\s\S]+?)\$\$|\$([^$]+?)\$|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*/g;

function renderInline(parent, text) {
  let last = 0;
  for (const match of text.matchAll(TOKENS)) {
    if (match.index > last) parent.append(text.slice(last, match.index));
    const [, display, inline, bold, italic] = match;
    if (display !== undefined || inline !== undefined) {
      const node = document.createElement('span');
      node.className = display !== undefined ? 'math-display' : 'math';
      katex.render(display ?? inline, node, { displayMode: display !== undefined, throwOnError: false });
      parent.append(node);
    } else {
      const node = document.createElement(bold !== undefined ? 'strong' : 'em');
      renderInline(node, bold ?? italic);
      parent.append(node);
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

/** Paragraphs (split on blank lines) with math typeset by KaTeX. */
export function renderRich(element, text) {
  element.replaceChildren();
  for (const paragraph of text.split(/\n\s*\n/)) {
    const p = document.createElement('p');
    renderInline(p, paragraph.trim());
    element.append(p);
  }
}

// The text each rich node shows: typesetting is skipped when it is the same
// (the explanations are worded again at every redraw of their plot).
const richShown = new WeakMap();

/**
 * Renders a [data-i18n-rich] node's text in language `t`, worded from `facts`
 * when its string is a function of them. Only the paragraphs that changed are
 * typeset again (a slider drag changes a number in one of them).
 */
export function showRich(node, t, facts) {
  const paragraphs = t(node.dataset.i18nRich, facts)
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim());
  const shown = richShown.get(node);
  richShown.set(node, paragraphs);
  if (shown?.length !== paragraphs.length || node.children.length !== paragraphs.length) {
    renderRich(node, paragraphs.join('\n\n'));
    return;
  }
  paragraphs.forEach((paragraph, index) => {
    if (paragraph === shown[index]) return;
    const p = document.createElement('p');
    renderInline(p, paragraph);
    node.children[index].replaceWith(p);
  });
}

/**
 * Fills [data-i18n] (text), [data-i18n-rich] (rich text, worded from
 * factsOf(node): see web/model/text-facts.js) and [data-i18n-label] (aria-label).
 */
export function applyTranslations(root, t, language, factsOf = () => ({})) {
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-rich]')) showRich(node, t, factsOf(node));
  for (const node of root.querySelectorAll('[data-i18n-label]'))
    node.setAttribute('aria-label', t(node.dataset.i18nLabel));
  document.title = t('page.title');
}
