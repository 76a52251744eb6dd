// The plots' labels and descriptions come from the page's string tables.
// English is bundled; Chinese is loaded on first use (a separate chunk), for
// elements whose language (own lang attribute, else the nearest ancestor's)
// starts with "zh". The page's own translator lives in page/i18n.js, which
// also pulls in KaTeX for its rich texts; the elements need only this part.
import en from '../i18n/en.js';

const tables = { en };
const pending = {};

/** 'zh' or 'en' for an element, from the closest lang attribute. */
export function languageOf(element) {
  const lang = element.closest('[lang]')?.getAttribute('lang') ?? '';
  return lang.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** The table of a language, or null while it loads (then `ready` resolves). */
export function strings(language) {
  if (tables[language]) return { table: tables[language], ready: null };
  pending[language] ??= import('../i18n/zh.js').then(
    (module) => (tables[language] = module.default),
    () => (tables[language] = en),
  );
  return { table: null, ready: pending[language] };
}

/** t(key, ...args): the string, or the result of the function stored under key (English when missing). */
export function translator(table) {
  return (key, ...args) => {
    const entry = table[key] ?? en[key];
    if (entry === undefined) throw new Error(`missing string ${key}`);
    return typeof entry === 'function' ? entry(...args) : entry;
  };
}
