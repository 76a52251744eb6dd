// Owns which convention the state describes, and where a (sin, cos) pair
// sits in a row: the plots need this to pick columns for the rotation and
// contribution plots (the values themselves always come from the core).
import { PRESETS } from '../lib/index.js';

/** The state keys encoding() reads: every API call of the plots depends on them. */
export const ENCODING_KEYS = Object.freeze(['dModel', 'base', 'preset', 'layout', 'exponent']);

/** The options every API call of the page shares. */
export function encoding(state) {
  const options = { dModel: state.dModel, preset: state.preset, base: state.base };
  if (state.layout) options.layout = state.layout;
  if (state.exponent) options.exponent = state.exponent;
  return options;
}

/** The full set of knobs in force (preset values with the overrides applied). */
export function knobs(state) {
  return { ...PRESETS[state.preset], ...encoding(state) };
}

/** Every value of the convention is scale·sin or scale·cos: the largest magnitude is |scale|. */
export const amplitude = (conv) => Math.abs(conv.scale ?? 1);

/** Only when sin and cos of a pair share one frequency is s(k) a function of k alone. */
export const sharesFrequency = (conv) => conv.exponent !== 'column' && conv.angle === 'divide';

export const pairCount = (dModel) => Math.floor(dModel / 2);

/** An odd d's last column holds a sinusoid without its partner (the paper's formula), not zeros. */
export const hasLoneColumn = (conv) => conv.dModel % 2 === 1 && conv.oddColumn === 'formula';

/** The function of a pair's first member (and of a lone last column). */
export const firstFunction = (conv) => (conv.order === 'sin-cos' ? 'sin' : 'cos');

/** The pair a column belongs to, or -1 for the last column of an odd dModel (zero, or alone). */
export function pairOfColumn(conv, column) {
  const pairs = pairCount(conv.dModel);
  if (conv.layout === 'interleaved') return column < 2 * pairs ? Math.floor(column / 2) : -1;
  return column < 2 * pairs ? column % pairs : -1;
}

/** Columns holding the sin and the cos of pair i. */
export function pairColumns(conv, pair) {
  const pairs = pairCount(conv.dModel);
  const [first, second] = conv.layout === 'interleaved' ? [2 * pair, 2 * pair + 1] : [pair, pair + pairs];
  return conv.order === 'sin-cos' ? { sin: first, cos: second } : { sin: second, cos: first };
}

/**
 * The same convention moved so that table row 0 is position `start`; the
 * padding row stays at the same absolute position (or goes, if outside).
 */
export function startingAt(conv, start) {
  const shifted = { ...conv, start };
  if (conv.paddingRow !== null && conv.paddingRow !== undefined) {
    const row = conv.paddingRow + (conv.start ?? 0) - start;
    shifted.paddingRow = Number.isInteger(row) && row >= 0 ? row : null;
  }
  return shifted;
}
