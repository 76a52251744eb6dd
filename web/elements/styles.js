// The elements' stylesheet, adopted by every shadow root (one constructable
// CSSStyleSheet per document: no inline style, no <style> element, so a
// Content-Security-Policy without 'unsafe-inline' for styles is fine).
// Themes: the plots read --posenc-* custom properties. Values the embedding
// page sets (on the element or an ancestor) win; otherwise the palette of the
// theme attribute: light, dark, or auto (follows prefers-color-scheme).
const LIGHT = {
  bg: '#ffffff',
  fg: '#1f2328',
  muted: '#59636e',
  grid: '#d0d7de',
  accent: '#bf3989',
  'series-1': '#0969da',
  'series-2': '#bc4c00',
  'series-3': '#1a7f37',
  'series-4': '#8250df',
  error: '#cf222e',
};
const DARK = {
  bg: '#0d1117',
  fg: '#e6edf3',
  muted: '#9198a1',
  grid: '#30363d',
  accent: '#f778ba',
  'series-1': '#58a6ff',
  'series-2': '#f0883e',
  'series-3': '#3fb950',
  'series-4': '#bc8cff',
  error: '#ff7b72',
};

const palette = (colours) =>
  Object.entries(colours)
    .map(([name, value]) => `--_${name}: var(--posenc-${name}, ${value});`)
    .join('\n');

export const CSS = `
:host {
  display: block;
  box-sizing: border-box;
  padding: 0.5rem;
  ${palette(LIGHT)}
  color-scheme: light;
  background: var(--_bg);
  color: var(--_fg);
  font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', 'PingFang SC', sans-serif;
}
:host([hidden]) { display: none; }
:host([theme='dark']) { ${palette(DARK)} color-scheme: dark; }
@media (prefers-color-scheme: dark) {
  :host(:not([theme='light'])) { ${palette(DARK)} color-scheme: dark; }
}
.body {
  ${Object.keys(LIGHT)
    .map((name) => `--posenc-${name}: var(--_${name});`)
    .join('\n')}
  min-width: 0;
  color: var(--_muted);
}
.message { margin: 0; min-height: 1.4em; color: var(--_muted); }
.message.error { color: var(--_error); border-left: 3px solid var(--_error); padding: 0.25rem 0.5rem; }
.message p { margin: 0; overflow-wrap: anywhere; }
[hidden] { display: none !important; }
:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.posenc-plot { color: var(--_fg); }
.posenc-readout, .posenc-caption, .posenc-notes p {
  margin: 0.3rem 0 0;
  min-height: 1.4em;
  font-size: 0.9rem;
  font-variant-numeric: tabular-nums;
}
.posenc-key {
  display: flex;
  flex-wrap: wrap;
  gap: 0.2rem 1rem;
  margin: 0.4rem 0 0;
  padding: 0;
  list-style: none;
  font-size: 0.85rem;
}
.posenc-swatch {
  display: inline-block;
  width: 1.6rem;
  height: 0.7rem;
  margin-right: 0.35rem;
  vertical-align: middle;
}
.posenc-key-solid .posenc-swatch, .posenc-key-dashed .posenc-swatch { height: 0; }
.posenc-compare {
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr));
  gap: 1rem;
}
.posenc-panel-title { margin: 0 0 0.3rem; font-weight: 600; color: var(--_fg); }
`;

const sheets = new WeakMap();

/** Adds the stylesheet to a shadow root: adopted where supported, else a <link>-free <style> fallback. */
export function adoptStyles(root) {
  const doc = root.ownerDocument;
  if ('adoptedStyleSheets' in root && typeof doc.defaultView?.CSSStyleSheet === 'function') {
    let sheet = sheets.get(doc);
    if (!sheet) {
      sheet = new doc.defaultView.CSSStyleSheet();
      sheet.replaceSync(CSS);
      sheets.set(doc, sheet);
    }
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  // Older engines (no constructable stylesheets): a <style> element.
  const style = doc.createElement('style');
  style.textContent = CSS;
  root.append(style);
}
