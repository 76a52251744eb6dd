// The page's rich strings (web/i18n/*.js): paragraphs split on blank lines,
// $$display$$ and $inline$ math typeset by KaTeX, **bold**, *italic*, in that
// priority. One parser, two outputs: HTML at build time (the Vite plugin
// web/vite-rich-text.js puts every language's rich strings into the
// page and its chunks, so the page does no typesetting at load) and DOM nodes
// at run time, for a rich string the build did not render. Only our own
// strings go through here, and their text is escaped: nothing the user gives
// is ever parsed as HTML.

const TOKENS = /\$\$([\s\S]+?)\$\$|\$([^$]+?)\$|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*/g;

/** Inline content of `text`: strings, { math, display } and { tag: 'strong' | 'em', children }. */
function parseInline(text) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(TOKENS)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const [, display, inline, bold, italic] = match;
    if (display !== undefined || inline !== undefined)
      nodes.push({ math: display ?? inline, display: display !== undefined });
    else nodes.push({ tag: bold !== undefined ? 'strong' : 'em', children: parseInline(bold ?? italic) });
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
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
      return `<${node.tag}>${inlineHtml(node.children, katex)}</${node.tag}>`;
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

/** Remembers the formulas typeset in `root` (the build's HTML, never text from elsewhere). */
export function rememberTypeset(root) {
  for (const span of root.querySelectorAll('span.math, span.math-display')) {
    // A formula the build wrote as MathML only (web/vite-rich-text.js) is not KaTeX's typeset copy.
    if (!span.querySelector('.katex-html')) continue;
    const tex = span.querySelector('annotation[encoding="application/x-tex"]')?.textContent;
    if (tex !== undefined) typeset.set(typesetKey(span.className === 'math-display', tex), span.innerHTML);
  }
}

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

function appendInline(parent, nodes, katex) {
  for (const node of nodes) {
    if (typeof node === 'string') {
      parent.append(node);
    } else if (node.math !== undefined) {
      const span = document.createElement('span');
      span.className = mathClass(node.display);
      const known = typesetNodes(typesetKey(node.display, node.math));
      // Our own build output; everything else goes through KaTeX.
      if (known !== null) span.append(known);
      else katex.render(node.math, span, KATEX_OPTIONS(node.display));
      parent.append(span);
    } else {
      const element = document.createElement(node.tag);
      appendInline(element, node.children, katex);
      parent.append(element);
    }
  }
}

/** One paragraph of a rich string (no blank line in it) as a <p> (`katex`: the KaTeX module, or null when typesetAlready). */
export function paragraphNode(text, katex) {
  const p = document.createElement('p');
  appendInline(p, parseInline(text.trim()), katex);
  return p;
}

/** Fills `element` with the paragraphs of a rich string as DOM nodes (`katex`: the KaTeX module). */
export function renderRich(element, text, katex) {
  element.replaceChildren(
    ...parseRich(text).map((paragraph) => {
      const p = document.createElement('p');
      appendInline(p, paragraph, katex);
      return p;
    }),
  );
}
