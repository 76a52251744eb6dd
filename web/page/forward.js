// Links written when the explainer was one page (index.html#h-rope-lab,
// index.html#precision, index.html?ropePreset=llama3&lang=zh#h-rope-lab,
// index.html?dModel=64) reach the start page: it sends them on to the
// chapter that holds that id, or, without one, to the chapter whose sections
// use most of the link's state parameters (the first of those in reading
// order). The query and the fragment go along. The table is generated
// (site-map.js) from the chapter documents and the registry.
import { ANCHORS, PARAM_CHAPTERS } from './site-map.js';

/**
 * The URL (relative to the start page) a link to the start page with `search` and `hash` should
 * go on to, or null to stay (`hereHas(id)`: whether the start page itself has an element of that id).
 */
export function forwardTarget(search, hash, hereHas = () => false) {
  const id = decodeURIComponent(hash.replace(/^#/, ''));
  if (id) {
    if (hereHas(id) || !Object.hasOwn(ANCHORS, id)) return null;
    return `./${ANCHORS[id]}${search}${hash}`;
  }
  const params = [...new URLSearchParams(search).keys()].filter((param) => Object.hasOwn(PARAM_CHAPTERS, param));
  if (params.length === 0) return null;
  const count = new Map();
  for (const param of params) for (const file of PARAM_CHAPTERS[param]) count.set(file, (count.get(file) ?? 0) + 1);
  // Map order is reading order (the first chapter of the first parameter first): a tie goes to the earlier one.
  const files = [...new Set(Object.values(PARAM_CHAPTERS).flat())];
  const best = files.filter((file) => count.has(file)).sort((a, b) => count.get(b) - count.get(a))[0];
  return `./${best}${search}${hash}`;
}
