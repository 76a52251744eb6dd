// The page's rich strings (web/i18n/*.js): paragraphs split on blank lines,
// $$display$$ and $inline$ math typeset by KaTeX, **bold**, *italic*, in that
// priority, {ref:<section id>}, a link to that section (its number, in its
// chapter's document: web/model/registry.js), and {cite:<id>}, a numbered link to the source <id> of the
// chapter's list (web/model/sources.js, #source-<id>). One parser, two outputs: HTML at build time (the Vite plugin
// web/build/vite-rich-text.js puts every language's rich strings into the
// page and its chunks, so the page does no typesetting at load) and DOM nodes
// at run time, for a rich string the build did not render. Only our own
// strings go through here, and their text is escaped: nothing the user gives
// is ever parsed as HTML.
import { SECTION_NUMBERS, sectionHref } from '../model/registry.js';
import { sourceNumber } from '../model/sources.js';

const TOKENS = /\$\$([\s\S]+?)\$\$|\$([^$]+?)\$|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*|\{ref:([\w-]+)\}|\{cite:([\w.-]+)\}/g;
// Chinese punctuation that must not begin a line. Chromium breaks before it after a formula (an
// inline block), so an inline formula and the punctuation right after it are kept on one line.
// A group that long could not break inside itself either, and would stick out of a phone's line:
// a longer formula is split after its last top-level "=" (where KaTeX would break it anyway), and
// only the right-hand side joins the punctuation.
const CLOSING = /^[，。、；：！？）」』》〉]+/;
const UNBROKEN_TEX = 32;

/** [left, right] of a TeX formula split after its last "=" outside braces, or null. */
function splitAfterLastEquals(tex) {
  let depth = 0;
  let at = -1;
  for (let i = 0; i < tex.length; i++) {
    if (tex[i] === '\\') i++;
    else if (tex[i] === '{') depth++;
    else if (tex[i] === '}') depth--;
    else if (tex[i] === '=' && depth === 0) at = i;
  }
  if (at < 0) return null;
  // "{}" after the relation keeps its space on the right, as within one formula.
  return [`${tex.slice(0, at + 1)} {}`, tex.slice(at + 1).trim()];
}

/** A {cite:id} marker as a node: a superscript link "[n]" to the source's entry in the chapter's list. */
function citation(id) {
  const number = sourceNumber(id);
  if (number === undefined) throw new Error(`rich text: {cite:${id}} names no source of web/model/sources.js`);
  return { tag: 'sup', className: 'cite', children: [{ tag: 'a', href: `#source-${id}`, children: [`[${number}]`] }] };
}

/** Inline content of `text`: strings, { math, display } and { tag: 'strong' | 'em' | 'sup' | 'a', className?, href?, children }. */
function parseInline(text) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(TOKENS)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const [, display, inline, bold, italic, ref, cited] = match;
    if (ref !== undefined) nodes.push(reference(ref));
    else if (cited !== undefined) nodes.push(citation(cited));
    else if (display !== undefined || inline !== undefined)
      nodes.push({ math: display ?? inline, display: display !== undefined });
    else nodes.push({ tag: bold !== undefined ? 'strong' : 'em', children: parseInline(bold ?? italic) });
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return keepClosingWithFormula(nodes);
}

/** A link to section `id` from any document of the site: "§1.2" (a RangeError for an unknown id). */
function reference(id) {
  if (!Object.hasOwn(SECTION_NUMBERS, id)) throw new RangeError(`rich text: {ref:${id}} names no section`);
  return { tag: 'a', className: 'ref', href: `./${sectionHref(id)}`, children: [`§${SECTION_NUMBERS[id]}`] };
}

/** An inline formula followed by closing punctuation becomes one unbreakable group of both. */
function keepClosingWithFormula(nodes) {
  const kept = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const next = nodes[i + 1];
    const closing = node.math !== undefined && !node.display && typeof next === 'string' && CLOSING.exec(next);
    if (!closing) {
      kept.push(node);
      continue;
    }
    const split = node.math.length > UNBROKEN_TEX ? splitAfterLastEquals(node.math) : null;
    if (node.math.length > UNBROKEN_TEX && (!split || split[1].length > 2 * UNBROKEN_TEX)) {
      kept.push(node);
      continue;
    }
    if (split) kept.push({ math: split[0], display: false });
    const last = split ? { math: split[1], display: false } : node;
    kept.push({ tag: 'span', className: 'nobr', children: [last, closing[0]] });
    if (next.length > closing[0].length) nodes[i + 1] = next.slice(closing[0].length);
    else i++;
  }
  return kept;
}

/** The paragraphs of a rich string, each a list of inline nodes. */
export const parseRich = (text) => text.split(/\n\s*\n/).map((paragraph) => parseInline(paragraph.trim()));

const KATEX_OPTIONS = (display) => ({ displayMode: display, throwOnError: false });
const mathClass = (display) => (display ? 'math-display' : 'math');

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

function inlineHtml(nodes, katex) {
  return nodes
    .map((node) => {
      if (typeof node === 'string') return escapeHtml(node);
      if (node.math !== undefined)
        return `<span class="${mathClass(node.display)}">${katex.renderToString(node.math, KATEX_OPTIONS(node.display))}</span>`;
      const attributes =
        (node.className ? ` class="${node.className}"` : '') + (node.href ? ` href="${escapeHtml(node.href)}"` : '');
      return `<${node.tag}${attributes}>${inlineHtml(node.children, katex)}</${node.tag}>`;
    })
    .join('');
}

/** The HTML of a rich string (at build time; `katex`: the KaTeX module). */
export const richHtml = (text, katex) =>
  parseRich(text)
    .map((paragraph) => `<p>${inlineHtml(paragraph, katex)}</p>`)
    .join('');

// Formulas the build typeset, by class and TeX source (KaTeX keeps the source in
// its MathML annotation): a rich string worded at run time reuses them, so
// KaTeX itself is loaded only for a formula the build never saw.
const typeset = new Map();
const typesetKey = (display, tex) => `${mathClass(display)}|${tex}`;

// The same formulas parsed once, by key: a paragraph worded again at every step of a drag
// clones its formulas' nodes instead of parsing their HTML again.
const parsed = new Map();

/** A copy of the nodes of the formula typeset under `key`, or null when none was. */
function typesetNodes(key) {
  const html = typeset.get(key);
  if (html === undefined) return null;
  if (parsed.get(key)?.html !== html) {
    const template = document.createElement('template');
    template.innerHTML = html;
    parsed.set(key, { html, nodes: template.content });
  }
  return parsed.get(key).nodes.cloneNode(true);
}

// Which typeset formula a span shows, by key: the page's spans (the build's, and those filled
// here), and the spans of a paragraph worded for a patch, left empty (`lazy` in paragraphNode):
// a drag rewords a paragraph at every step, mostly only a number in it, and its formulas were
// copied (dozens of nodes each) only to be found equal to the page's.
const shownFormula = new WeakMap();
const emptyFormula = new WeakMap();

/** Remembers the formulas typeset in `root` (the build's HTML, never text from elsewhere). */
export function rememberTypeset(root) {
  for (const span of root.querySelectorAll('span.math, span.math-display')) {
    // A formula the build wrote as MathML only (web/build/vite-rich-text.js) is not KaTeX's typeset copy.
    if (!span.querySelector('.katex-html')) continue;
    const tex = span.querySelector('annotation[encoding="application/x-tex"]')?.textContent;
    if (tex === undefined) continue;
    const key = typesetKey(span.className === 'math-display', tex);
    typeset.set(key, span.innerHTML);
    shownFormula.set(span, key);
  }
}

/**
 * What patchNode needs to know of formulas: the key of the formula a page's span shows (or
 * undefined), of an empty span's formula (or undefined), how to fill empty spans under a node,
 * and that a page's node now shows what another showed.
 */
export const lazyFormulas = {
  shown: (node) => shownFormula.get(node),
  empty: (node) => emptyFormula.get(node),
  /** `node` in the page was patched to show what `next` shows: it shows next's formula, if any. */
  patched(node, next) {
    const key = shownFormula.get(next);
    if (key === undefined) shownFormula.delete(node);
    else shownFormula.set(node, key);
  },
  fill(root) {
    const spans = emptyFormula.has(root) ? [root] : [];
    if (root.nodeType === Node.ELEMENT_NODE) spans.push(...root.querySelectorAll('span.math, span.math-display'));
    for (const span of spans) {
      const key = emptyFormula.get(span);
      if (key === undefined) continue;
      emptyFormula.delete(span);
      span.append(typesetNodes(key));
      shownFormula.set(span, key);
    }
  },
};

/** Whether every formula of a paragraph is typeset already (then no KaTeX is needed for it). */
export function typesetAlready(text) {
  const missing = (nodes) =>
    nodes.some((node) =>
      typeof node === 'string'
        ? false
        : node.math !== undefined
          ? !typeset.has(typesetKey(node.display, node.math))
          : missing(node.children),
    );
  return !missing(parseInline(text.trim()));
}

function appendInline(parent, nodes, katex, lazy = false) {
  for (const node of nodes) {
    if (typeof node === 'string') {
      parent.append(node);
    } else if (node.math !== undefined) {
      const span = document.createElement('span');
      span.className = mathClass(node.display);
      const key = typesetKey(node.display, node.math);
      if (lazy && typeset.has(key)) emptyFormula.set(span, key);
      else {
        const known = typesetNodes(key);
        // Our own build output; everything else goes through KaTeX.
        if (known !== null) {
          span.append(known);
          shownFormula.set(span, key);
        } else katex.render(node.math, span, KATEX_OPTIONS(node.display));
      }
      parent.append(span);
    } else {
      const element = document.createElement(node.tag);
      if (node.className) element.className = node.className;
      if (node.href) element.setAttribute('href', node.href);
      appendInline(element, node.children, katex, lazy);
      parent.append(element);
    }
  }
}

/**
 * One paragraph of a rich string (no blank line in it) as a <p> (`katex`: the KaTeX module, or
 * null when typesetAlready). Lazy: its typeset formulas are empty spans, for patchNode with
 * lazyFormulas, which fills those it puts in the page.
 */
export function paragraphNode(text, katex, { lazy = false } = {}) {
  const p = document.createElement('p');
  appendInline(p, parseInline(text.trim()), katex, lazy);
  return p;
}
