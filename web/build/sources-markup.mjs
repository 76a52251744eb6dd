// The "Sources" section at the end of a chapter, from web/model/sources.js: a
// heading (its words in web/i18n, key sources.title) and a numbered list whose
// entry <id> is the target of the text's {cite:<id>} markers (#source-<id>).
// Authors and titles are written as they are, in their own language.
import { SOURCE_CHAPTERS, sourcesOf } from '../model/sources.js';

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** One entry of the list: "authors (year). title" with the title linking to the source. */
function entryHtml({ id, href, authors, year, title }) {
  const when = year === null ? '' : ` (${year})`;
  const link = `<a href="${escapeHtml(href)}" rel="noopener"><cite>${escapeHtml(title)}</cite></a>`;
  return `<li id="source-${escapeHtml(id)}">${escapeHtml(authors)}${when}. ${link}</li>`;
}

/** The lines of HTML of the Sources section of `chapter` ('sinusoidal' | 'implementations' | 'rope'). */
export function sourcesSection(chapter) {
  if (typeof chapter !== 'string')
    throw new TypeError(`sourcesSection: chapter must be a string, got ${typeof chapter}`);
  if (!SOURCE_CHAPTERS.includes(chapter))
    throw new RangeError(`sourcesSection: chapter must be one of ${SOURCE_CHAPTERS.join(', ')}, got '${chapter}'`);
  return [
    `<section class="explainer sources" id="sources-${chapter}" aria-labelledby="h-sources-${chapter}">`,
    `  <h2 id="h-sources-${chapter}" data-i18n="sources.title"></h2>`,
    '  <ol class="sources-list">',
    ...sourcesOf(chapter).map((source) => `    ${entryHtml(source)}`),
    '  </ol>',
    '</section>',
  ];
}
