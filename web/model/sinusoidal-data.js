// The numbers each plot of the first sections shows, as a function of the page state:
// every value from the core through the model (data.js), and no text, so that
// the page can compute them in its worker (compute-worker.js) while a slider
// moves. sinusoidal-sections.js turns them into each plot's data and options (labels,
// translated); the custom elements do both at once on the main thread.
import { PRESETS } from '../lib/index.js';
import { amplitude, firstFunction, hasLoneColumn, pairColumns, pairCount, pairOfColumn } from './convention.js';
import { offsetWindow, waveWindow } from './windows.js';

const TWO_PI = 2 * Math.PI;

function columnKind(conv, column) {
  const pair = pairOfColumn(conv, column);
  if (pair < 0) return hasLoneColumn(conv) ? firstFunction(conv) : 'zero';
  return pairColumns(conv, pair).sin === column ? 'sin' : 'cos';
}

/** Columns worth watching: the fastest, a middle and the slowest pair's sin, and the selected one. */
function watchedColumns(conv, dimension) {
  const pairs = pairCount(conv.dModel);
  const reference = [0, Math.floor(pairs / 4), pairs - 1].map((pair) => pairColumns(conv, pair).sin);
  return [...new Set([...reference, dimension])].sort((a, b) => a - b);
}

/** The paper's convention at the state's width and base. */
export const paper = (state) => ({ ...PRESETS.vaswani, preset: 'vaswani', dModel: state.dModel, base: state.base });

/** s(k) from p, p + 100, p + 1000 and (optionally) the per-frequency contributions. */
function offsetNumbers(model, conv, state, withContributions) {
  const window = offsetWindow(state);
  const bands = withContributions ? model.contributions(conv, window) : null;
  return {
    offset: state.offset,
    curves: model.offsetCurves(conv, state.position, window),
    contributions: bands && { first: -window, bands },
  };
}

/**
 * Per plot that reads the model: compute({ model, state, conv }) -> plain
 * objects and typed arrays (what a worker can post back).
 */
export const SINUSOIDAL_COMPUTE = {
  waves: ({ model, state, conv }) => {
    const span = waveWindow(state);
    const from = Math.max(0, state.position - Math.floor(span / 2));
    const frequency = model.frequencies(conv);
    const columns = watchedColumns(conv, state.dimension);
    return {
      from,
      to: from + span,
      marker: state.position,
      panels: model.waves(conv, columns, from, from + span).map(({ column, curve, samples }) => ({
        column,
        kind: columnKind(conv, column),
        wavelength: TWO_PI / frequency[column],
        curve,
        samples,
      })),
    };
  },
  ladder: ({ model, conv }) => ({ wavelengths: model.frequencies(conv).map((w) => TWO_PI / w) }),
  row: ({ model, state, conv }) => ({
    rows: [0, state.position, state.position + state.length].map((position) => model.row(conv, position)),
    // For the text: how far each pair has turned at p.
    frequencies: model.frequencies(conv),
  }),
  sensitivity: ({ model, state, conv }) => {
    // float64 rows: the changes are compared with their bound, float32 rounding would blur small ones.
    const exact = { ...conv, dtype: 'float64' };
    const here = model.row(exact, state.position);
    const next = model.row(exact, state.position + 1);
    // scale·sin(w·p) moves by at most |scale|·w per unit step.
    const largest = amplitude(conv);
    const frequencies = model.frequencies(conv);
    return {
      change: here.map((value, j) => Math.abs(next[j] - value)),
      bound: frequencies.map((w) => largest * w),
      // For the text: whether the slowest column wraps around within the table.
      frequencies,
    };
  },
  rotation: ({ model, state, conv }) => model.rotation(conv, state.position, state.offset, state.dimension),
  'offset-dots': ({ model, state, conv }) => offsetNumbers(model, conv, state, true),
  'mistake-ratio': ({ model, state }) => {
    const right = paper(state);
    const wrong = { ...right, angle: 'ratio-power' };
    const to = Math.min(state.length - 1, 100);
    const columns = [...new Set([state.dimension, pairColumns(right, Math.floor(pairCount(state.dModel) / 2)).sin])];
    return {
      to,
      columns,
      kinds: columns.map((column) => columnKind(right, column)),
      correct: model.waves(right, columns, 0, to),
      attempt: model.waves(wrong, columns, 0, to),
    };
  },
  'mistake-column': ({ model, state }) => offsetNumbers(model, { ...paper(state), exponent: 'column' }, state, false),
  'mistake-order': ({ model, state }) => {
    const right = paper(state);
    const question = { ...PRESETS.question, preset: 'question', dModel: state.dModel, base: state.base };
    return {
      rows: [model.row(right, 0), model.row({ ...right, order: 'cos-sin' }, 0), model.row(question, 0)],
    };
  },
};
