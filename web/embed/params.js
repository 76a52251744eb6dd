// The iframe page's URL parameters: the explainer page's own names (see
// page/state.js) for what the page has controls for, the JS option names for
// the other knobs, and plot, theme, lang. Each maps to an element attribute.
export const PARAMS = Object.freeze({
  dModel: 'd-model',
  length: 'length',
  base: 'base',
  preset: 'preset',
  layout: 'layout',
  exponent: 'exponent',
  p: 'position',
  k: 'offset',
  j: 'dimension',
  compare: 'compare',
  order: 'order',
  angle: 'angle',
  start: 'start',
  paddingRow: 'padding-row',
  scale: 'scale',
  oddColumn: 'odd-column',
  theme: 'theme',
  height: 'height',
});

/** Attribute -> URL parameter. */
export const PARAM_OF = Object.freeze(Object.fromEntries(Object.entries(PARAMS).map(([param, a]) => [a, param])));

/** Parameters the explainer page reads as well. */
export const PAGE_PARAMS = Object.freeze([
  'dModel',
  'length',
  'base',
  'preset',
  'layout',
  'exponent',
  'p',
  'k',
  'j',
  'compare',
]);
