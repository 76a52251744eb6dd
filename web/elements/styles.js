// The elements' stylesheet, adopted by every shadow root (one constructable
// CSSStyleSheet per document: no inline style, no <style> element, so a
// Content-Security-Policy without 'unsafe-inline' for styles is fine).
// The palettes and the plot parts' rules are the explainer page's own
// (web/plots/*.css, imported as strings), so page and elements cannot drift
// apart; only what an element alone needs is written here.
// Themes: the plots read --posenc-* custom properties. Values the embedding
// page sets (on the element or an ancestor) win; otherwise the palette of the
// theme attribute: light, dark, or auto (follows prefers-color-scheme). For
// that, each palette value becomes the fallback of a private --_name variable
// on :host, and .body hands --_name on to the plots as --posenc-name: setting
// --posenc-name on :host directly would hide the page's value. Hence the
// palettes are read out of palette.css rather than used as written.
import PALETTE_CSS from '../plots/palette.css?inline';
import PLOT_CSS from '../plots/plots.css?inline';

/** Each `:root { --posenc-name: value; … }` block of the css (light, then dark) as { name: value }. */
const readPalettes = (css) =>
  [...css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/:root\s*\{([^}]*)\}/g)].map(([, block]) =>
    Object.fromEntries(
      [...block.matchAll(/--posenc-([\w-]+)\s*:\s*([^;]+)/g)].map(([, name, value]) => [name, value.trim()]),
    ),
  );
const [LIGHT, DARK] = readPalettes(PALETTE_CSS);

const palette = (colours) =>
  Object.entries(colours)
    .map(([name, value]) => `--_${name}: var(--posenc-${name}, ${value});`)
    .join('\n');

export const CSS = `
:host {
  display: block;
  box-sizing: border-box;
  /* A flex or grid item may shrink below its content's width (see .body::after). */
  min-inline-size: 0;
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
/* The plots take the width they are given and have none of their own: where the
   element's width comes from its content (a flex row, an auto grid column, a table
   cell) it would collapse to nothing. This empty line asks for 20rem there, and
   never more than the width the element has. */
.body::after {
  content: '';
  display: block;
  inline-size: 20rem;
  max-inline-size: 100%;
}
.message { margin: 0; min-height: 1.4em; color: var(--_muted); }
.message.error { color: var(--_error); border-left: 3px solid var(--_error); padding: 0.25rem 0.5rem; }
.message p { margin: 0; overflow-wrap: anywhere; }
.message .retry { margin-top: 0.35rem; font: inherit; }
[hidden] { display: none !important; }
:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
${PLOT_CSS}
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
