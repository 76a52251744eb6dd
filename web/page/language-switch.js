// The page's language menu: a switch takes effect once the language's strings
// are loaded, and the last switch asked for wins.
import { isLanguage, loadLanguage, rememberLanguage } from './i18n.js';

/** `select`: the menu; `current()`: the language shown; `apply(language)`: rewords the page. */
export function createLanguageSwitch(select, { current, apply }) {
  let wanted = null;
  async function switchTo(next) {
    wanted = next;
    await loadLanguage(next);
    if (next !== wanted) return;
    select.value = next;
    apply(next);
  }
  select.addEventListener('change', () => {
    if (!isLanguage(select.value)) return;
    rememberLanguage(select.value);
    switchTo(select.value).catch((error) => {
      // Its strings could not be fetched (offline): stay in the current language.
      select.value = current();
      console.error(error);
    });
  });
  return switchTo;
}
