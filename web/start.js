// The start page's only module: it forwards a link of the one-page explainer
// to the chapter that now holds it (page/forward.js), puts the page in the
// reader's language and keeps the language (and any settings) on the links
// to the chapters. No plot code and no compute worker load here.
import 'katex/dist/katex.min.css';
import './styles.css';
import richTables from 'virtual:posenc-rich';
import en from './i18n/en.js';
import { stringTables } from './i18n/translate.js';
import { forwardTarget } from './page/forward.js';
import { initialLanguage, rememberLanguage } from './page/language-choice.js';
import { carryOnClick, carryQuery, withLanguage } from './page/site-links.js';

const target = forwardTarget(location.search, location.hash, (id) => document.getElementById(id) !== null);
if (target) location.replace(target);
else {
  if (document.readyState === 'loading')
    await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
  const strings = stringTables(en, { zh: () => import('./i18n/zh.js') });
  const select = document.getElementById('language');
  carryOnClick(() => location.search);

  /** Words the page in `language` (its strings and the build's HTML of its rich strings loaded first). */
  async function show(language) {
    await strings.load(language);
    const rich = language === 'en' ? null : (await richTables[language]()).default;
    const t = strings.translator(language);
    document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
    for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
    for (const node of document.querySelectorAll('[data-i18n-rich]')) {
      if (node.dataset.i18nRendered === language) continue;
      const html = (rich ?? (await richTables.en()).default)[node.dataset.i18nRich];
      if (html === undefined) continue;
      node.innerHTML = html;
      node.dataset.i18nRendered = language;
    }
    select.value = language;
    const query = withLanguage(location.search, language);
    history.replaceState(null, '', `${location.pathname}${query}${location.hash}`);
    carryQuery(document, query);
  }

  select.addEventListener('change', () => {
    rememberLanguage(select.value);
    show(select.value).catch((error) => console.error(error));
  });
  show(initialLanguage()).catch(() => show('en'));
}
