// Rewording a paragraph in the page without rebuilding it. A drag rewords the
// explanations at every step, usually only a number in them: a new paragraph
// would be styled and laid out again whole, formulas and all (a formula is
// dozens of nodes).

/** Whether two elements have the same tag and attributes. */
function sameElement(a, b) {
  if (a.nodeName !== b.nodeName || a.attributes.length !== b.attributes.length) return false;
  for (const { name, value } of b.attributes) if (a.getAttribute(name) !== value) return false;
  return true;
}

// No formulas left empty (see `formulas` below).
const NO_LAZY = { shown: () => undefined, empty: () => undefined, fill: () => {}, patched: () => {} };

/**
 * Makes `node` (in the page) show the same as `next` (a new node, not in the
 * page), changing only what differs: a text node's data, or the smallest node
 * that differs otherwise, replaced by its counterpart. Where `next` has more or
 * fewer children (a sentence gains a formula at even d: "= 256 = d/2"), the
 * children equal at either end are kept, and of the run between them only
 * what is not text at its ends is replaced, not the whole paragraph.
 * `formulas` (rich-text.js's lazyFormulas): `next` may hold formulas as empty
 * spans; one where the page shows the same formula stays as it is, the others
 * are filled before they go into the page.
 */
export function patchNode(node, next, formulas = NO_LAZY) {
  const wanted = formulas.empty(next);
  if (wanted !== undefined) {
    if (formulas.shown(node) === wanted) return;
    formulas.fill(next);
  }
  // The browser's own comparison first: a formula's hundreds of nodes are compared in no time.
  if (node.isEqualNode(next)) return;
  if (node.nodeType === Node.TEXT_NODE && next.nodeType === Node.TEXT_NODE) {
    node.data = next.data;
    return;
  }
  if (node.nodeType !== Node.ELEMENT_NODE || next.nodeType !== Node.ELEMENT_NODE || !sameElement(node, next)) {
    formulas.fill(next);
    node.replaceWith(next);
    return;
  }
  // Patched in place: the page's node shows what `next` does (a formula span, another formula).
  formulas.patched(node, next);
  const old = [...node.childNodes];
  const fresh = [...next.childNodes];
  if (old.length === fresh.length) {
    // Their children in step: each of `next`'s is either patched into the page's or moved into it.
    old.forEach((child, index) => patchNode(child, fresh[index], formulas));
    return;
  }
  // (An empty formula is equal to the page's span that shows it.)
  const equal = (a, b) =>
    formulas.empty(b) !== undefined ? formulas.shown(a) === formulas.empty(b) : a.isEqualNode(b);
  let first = 0;
  while (first < old.length && first < fresh.length && equal(old[first], fresh[first])) first++;
  let oldEnd = old.length;
  let freshEnd = fresh.length;
  while (oldEnd > first && freshEnd > first && equal(old[oldEnd - 1], fresh[freshEnd - 1])) {
    oldEnd--;
    freshEnd--;
  }
  // The run that differs: texts at its ends change their data (a new text node is laid out anew),
  // the rest of the new run goes where the old one was.
  const isText = (child) => child.nodeType === Node.TEXT_NODE;
  while (first < oldEnd && first < freshEnd && isText(old[first]) && isText(fresh[first])) {
    patchNode(old[first], fresh[first], formulas);
    first++;
  }
  while (oldEnd > first && freshEnd > first && isText(old[oldEnd - 1]) && isText(fresh[freshEnd - 1])) {
    patchNode(old[--oldEnd], fresh[--freshEnd], formulas);
  }
  const after = old[oldEnd] ?? null;
  for (let i = first; i < oldEnd; i++) old[i].remove();
  for (let i = first; i < freshEnd; i++) {
    formulas.fill(fresh[i]);
    node.insertBefore(fresh[i], after);
  }
}
