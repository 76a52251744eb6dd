// The URL follows the page's state once the controls have been still for
// URL_MS: a history update can block the main thread for tens of milliseconds
// (it waits on the browser process), and browsers refuse more than a few
// hundred in ten seconds (Firefox throws).
import { toQuery } from '../model/state.js';

const URL_MS = 250;

/** A function that puts `state` into the URL (its query) a moment after the last call. */
export function createUrlFollower() {
  let timer = 0;
  let written = null;
  return (state) => {
    const query = toQuery(state);
    if (query === written) return;
    written = query;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (query !== location.search) history.replaceState(null, '', `${location.pathname}${query}${location.hash}`);
    }, URL_MS);
  };
}
