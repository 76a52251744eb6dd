// Owns the one translator of the page, the elements and the embed, and the
// loading of string tables: English is bundled, another language is fetched
// when chosen (a separate chunk). Two sets of tables: 'plots' (plots.*.js,
// what the plots, the elements and embed.html show) and 'page' (*.js, the
// explainer page's prose as well; it includes the plots' strings). The
// elements bundle imports only the plots' set.

/** 'zh' or 'en' for a lang attribute or navigator.language. */
export const languageOfLang = (lang) => ((lang ?? '').toLowerCase().startsWith('zh') ? 'zh' : 'en');

/**
 * A set of string tables: english (bundled) and load(language) -> Promise of
 * the module of another language. Returns { isLanguage, load, table, translator }:
 * load(language) resolves with the table once loaded (cached; a failed load
 * rejects and is tried again next time), table(language) is the table or null
 * while not loaded, translator(language) is t(key, ...args).
 */
export function stringTables(english, loaders) {
  const tables = { en: english };
  const pending = {};
  const isLanguage = (language) => language === 'en' || Object.hasOwn(loaders, language);
  return {
    isLanguage,
    table: (language) => tables[language] ?? null,
    load(language) {
      if (tables[language]) return Promise.resolve(tables[language]);
      if (!isLanguage(language)) return Promise.reject(new Error(`no language ${language}`));
      pending[language] ??= loaders[language]().then(
        (module) => (tables[language] = module.default),
        (error) => {
          delete pending[language];
          throw error;
        },
      );
      return pending[language];
    },
    /** t(key, ...args): the string, or the result of the function stored under key (English when missing). */
    translator(language) {
      const table = tables[language];
      if (!table) throw new Error(`language ${language} is not loaded`);
      return (key, ...args) => {
        const entry = table[key] ?? english[key];
        if (entry === undefined) throw new Error(`missing string ${key}`);
        return typeof entry === 'function' ? entry(...args) : entry;
      };
    },
  };
}
