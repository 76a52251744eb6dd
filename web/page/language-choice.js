// Which language a document opens in: the URL's ?lang= (a link says what it
// shows), else the reader's last choice (localStorage), else the browser's.
import { languageOfLang } from '../i18n/translate.js';

const STORAGE_KEY = 'posenc.language';
const LANGUAGES = ['en', 'zh'];

export function initialLanguage() {
  const asked = new URLSearchParams(location.search).get('lang');
  if (LANGUAGES.includes(asked)) return asked;
  let stored = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage can be disabled; the browser language still applies.
  }
  if (LANGUAGES.includes(stored)) return stored;
  return languageOfLang(navigator.language);
}

export function rememberLanguage(language) {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Not remembered, but the switch still works for this visit.
  }
}
