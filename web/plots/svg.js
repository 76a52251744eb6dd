// The plots' svg, redrawn in place: svgElement and svgText reuse the nodes of
// the last redraw in drawing order (see clear()), setText changes a text node
// instead of replacing it.

export const SVG_NS = 'http://www.w3.org/2000/svg';

// Plots redraw their svg whole at every render (clear(), then draw everything
// again), but its nodes are kept: clear() marks a node's children for reuse,
// and svgElement, svgText and drawAxis take its next child in drawing order
// when it is of the same kind, setting only the attributes that differ. A
// redraw that moves a marker then changes one attribute, and the browser
// restyles, lays out and repaints that alone (a slider drag redraws the plots
// on screen at every step). Children left over are removed once the render's
// task is done (a microtask).
// Parent -> index of its next child to reuse.
const reuse = new Map();
let trimQueued = false;
// Nodes whose children are drawn by svgElement (so they may be reused in order).
const CONTAINERS = new Set(['g', 'defs', 'marker']);

function trim() {
  trimQueued = false;
  for (const [parent, at] of reuse) while (parent.childNodes.length > at) parent.lastChild.remove();
  reuse.clear();
}

/** Starts a redraw of `node`'s children: they are reused in order, the rest removed afterwards. */
export function clear(node) {
  reuse.set(node, 0);
  if (!trimQueued) {
    trimQueued = true;
    queueMicrotask(trim);
  }
  return node;
}

/** The child of `parent` a redraw may reuse next, if it is a `name` (and passes `accept`), else null. */
export function reusable(parent, name, accept = () => true) {
  const at = reuse.get(parent);
  if (at === undefined) return null;
  const candidate = parent.childNodes[at];
  return candidate?.localName === name && accept(candidate) ? candidate : null;
}

/** Puts `node` at the reuse position of `parent` (or last) and moves that position past it. */
export function place(parent, node) {
  const at = reuse.get(parent);
  if (at === undefined) {
    if (node.parentNode !== parent) parent.append(node);
    return;
  }
  const current = parent.childNodes[at] ?? null;
  if (current !== node) parent.insertBefore(node, current);
  reuse.set(parent, at + 1);
}

// Per node: the attributes and styles svgElement set last ('attr:x', 'style:fill').
const applied = new WeakMap();

function setAttributes(node, attributes) {
  const before = applied.get(node);
  const after = new Map();
  for (const [key, value] of Object.entries(attributes)) {
    // var() is certain to resolve in a style, not in every browser's presentation attributes.
    const style = typeof value === 'string' && value.startsWith('var(');
    const text = String(value);
    const slot = `${style ? 'style' : 'attr'}:${key}`;
    after.set(slot, text);
    if (before?.get(slot) === text) continue;
    if (style) node.style.setProperty(key, text);
    else node.setAttribute(key, text);
  }
  for (const key of before?.keys() ?? []) {
    if (after.has(key)) continue;
    const [kind, name] = key.split(/:(.*)/);
    if (kind === 'style') node.style.removeProperty(name);
    else node.removeAttribute(name);
  }
  applied.set(node, after);
}

/**
 * The next child of `parent` in drawing order (see clear()). A container kept from the last redraw
 * starts a redraw of its own children, unless `keepChildren`: a part of the plot not redrawn this
 * time keeps what it shows.
 */
export function svgElement(name, attributes = {}, parent = null, { keepChildren = false } = {}) {
  const kept = parent && reusable(parent, name, (node) => node.dataset.axis === undefined);
  const node = kept ?? document.createElementNS(SVG_NS, name);
  setAttributes(node, attributes);
  if (parent) place(parent, node);
  if (kept && CONTAINERS.has(name) && !keepChildren) clear(node);
  return node;
}

export function htmlElement(name, className, parent = null) {
  const node = document.createElement(name);
  if (className) node.className = className;
  if (parent) parent.append(node);
  return node;
}

/**
 * Sets an element's text. Where it holds a single text node, that node's data
 * changes: `textContent =` replaces it, and Chromium lays a new text node out
 * anew (a drag sets labels and notes at every step).
 */
export function setText(element, text) {
  const only = element.firstChild;
  if (only !== null && only === element.lastChild && only.nodeType === Node.TEXT_NODE) {
    if (only.data !== text) only.data = text;
  } else if (element.textContent !== text) element.textContent = text;
}

/**
 * The container of a plot's notes (class `className`), appended to `parent`. When
 * `options.notesSummary` is given (the page gives it; the elements and the embed do not), the
 * notes sit in a closed <details> under that summary: the numbers take one line until opened, and
 * stay in the document for screen readers and find-in-page. The summary's data-i18n lets the
 * page's language switch reword it.
 */
export function notesContainer(parent, options, className = 'posenc-notes') {
  const notes = htmlElement('div', className);
  if (!options.notesSummary) {
    parent.append(notes);
    return notes;
  }
  const folded = htmlElement('details', 'plot-numbers', parent);
  const summary = htmlElement('summary', null, folded);
  summary.dataset.i18n = 'notes.summary';
  summary.textContent = options.notesSummary;
  folded.append(notes);
  return notes;
}

/**
 * Shows `notes` ([{ text, testId? }]) as the paragraphs of `container`, in
 * place: a drag rewords them at every step, and new paragraphs would be laid
 * out anew.
 */
export function showNotes(container, notes) {
  while (container.children.length > notes.length) container.lastChild.remove();
  notes.forEach(({ text, testId }, index) => {
    const line = container.children[index] ?? htmlElement('p', null, container);
    setText(line, text);
    if (testId && line.dataset.testid !== testId) line.dataset.testid = testId;
    else if (!testId && line.dataset.testid !== undefined) delete line.dataset.testid;
  });
}

/** Text in an svg, coloured from the theme (or by a fill attribute). */
export function svgText(parent, content, attributes = {}) {
  const node = svgElement('text', { fill: 'currentColor', ...attributes }, parent);
  setText(node, content);
  return node;
}
