// The site's documents link to each other (tables of contents, previous and
// next chapter, cross references): every such link carries the query of the
// document it is in (its state parameters and ?lang=), so a reader keeps
// their settings from chapter to chapter. Hrefs are rewritten when the query
// changes; a click on a link written since (a reworded explanation) gets it
// at the click.
import { CHAPTERS, START_FILE } from '../model/registry.js';

const FILES = new Set([START_FILE, ...CHAPTERS.map((chapter) => chapter.file)]);

/** The document and fragment a link of the site points to ({ file, hash }), or null for any other link. */
export function siteTarget(href) {
  const match = /^(?:\.\/)?([\w-]+\.html)(?:\?[^#]*)?(#.*)?$/.exec(href ?? '');
  return match && FILES.has(match[1]) ? { file: match[1], hash: match[2] ?? '' } : null;
}

/** Gives `link` (an <a> of the site) the query `search` ('' or '?…'). */
function carry(link, search) {
  const target = siteTarget(link.getAttribute('href'));
  if (!target) return;
  const href = `./${target.file}${search}${target.hash}`;
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
}

/** Gives every link of the site under `root` the query `search`. */
export function carryQuery(root, search) {
  for (const link of root.querySelectorAll('a[href]')) carry(link, search);
}

/** Links clicked carry the query of the moment (`search()`), also those written after the last carryQuery. */
export function carryOnClick(search) {
  document.addEventListener(
    'click',
    (event) => {
      const link = event.target.closest?.('a[href]');
      if (link) carry(link, search());
    },
    true,
  );
}

/** `query` ('' or '?…', the state's) with the language added as ?lang= (English too: a link says what it shows). */
export function withLanguage(query, language) {
  const params = new URLSearchParams(query);
  params.delete('lang');
  params.set('lang', language);
  return `?${params}`;
}
