// The URL follows the page's state and language once the controls have been
// still for URL_MS: a history update can block the main thread for tens of
// milliseconds (it waits on the browser process), and browsers refuse more
// than a few hundred in ten seconds (Firefox throws).

const URL_MS = 250;

/**
 * A function that puts `query` (the state's and the language's, '?…') into the URL a moment
 * after the last call; `written(query)` hears when it is in.
 */
export function createUrlFollower(written = () => {}) {
  let timer = 0;
  let asked = null;
  return (query) => {
    if (query === asked) return;
    asked = query;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (query !== location.search) history.replaceState(null, '', `${location.pathname}${query}${location.hash}`);
      written(query);
    }, URL_MS);
  };
}
