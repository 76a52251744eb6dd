// The last step of identify(): which round parameter values, computed along
// which precision path, reproduce the whole table. A search fit's base has
// every digit that minimises the float64 residual; a table computed with
// float32 arithmetic is fitted best by a base a few ulps off its own (10000.003
// for tensor2tensor's recipe), so the roundest base is tried first, on every
// path, and the first that explains the data within its tolerance wins.
// Each candidate is checked on sample rows (the last first: precision losses
// and base errors grow with position) before the whole table.
import { compare, compareTable, float32AngleRows } from './compare.js';
import { significantDigits, within } from './storage.js';

// Significant digits fewer by which a base must be rounder to be named with a lost precision.
const ROUNDER_BY = 3;

/** x's values with 1, 2, ... significant digits (those > 1 for a base), then x itself: roundest first. */
export function roundCandidates(x, accepts = () => true) {
  const out = [];
  for (let digits = 1; digits <= 15; digits++) {
    const candidate = Number(x.toPrecision(digits));
    if (!out.includes(candidate) && accepts(candidate)) out.push(candidate);
    if (candidate === x) break;
  }
  if (!out.includes(x)) out.push(x);
  return out;
}

/**
 * A path: how a candidate table is computed and how far data may be from it.
 * 'float64': the library's exact table, within the tolerance. 'float32-angle':
 * the float32 recipe emulated (compare.js), within the tolerance plus the
 * error any float32 evaluation of the angle may have, or the exact table
 * within that same allowance (another float32 recipe).
 * @typedef {{ name: string, float32Angle?: boolean, knobs?: object }} Path
 */
export const FLOAT64_PATH = Object.freeze({ name: 'float64' });
export const FLOAT32_ANGLE_PATH = Object.freeze({ name: 'float32-angle', float32Angle: true });

// The steps a framework's dtype may round (the core's precision knobs), each
// with the formats tried, in the order tried: angles first (the costly bug),
// then positions (float32 holds every position a table here can have), the
// frequencies, and the exponent arithmetic.
const STEP_FORMATS = [
  ['angleDtype', ['float16', 'bfloat16', 'float32']],
  ['positionDtype', ['float16', 'bfloat16']],
  ['frequencyDtype', ['float16', 'bfloat16', 'float32']],
  ['exponentDtype', ['float32', 'float16', 'bfloat16']],
];
const ALL_STEPS = STEP_FORMATS.map(([knob]) => knob);

/**
 * The paths of one rounded step each, then of every step in one format (a
 * model run in float16 throughout), for a table whose largest |position| is `farthest`.
 */
export function dtypePaths(farthest) {
  const paths = [];
  for (const [knob, formats] of STEP_FORMATS)
    for (const format of formats) {
      // float16 holds every integer position below 2048, bfloat16 below 256: no rounding to see.
      if (knob === 'positionDtype' && farthest <= (format === 'float16' ? 2048 : 256)) continue;
      paths.push({ name: `${knob}:${format}`, knobs: { [knob]: format } });
    }
  for (const format of ['float16', 'bfloat16', 'float32'])
    paths.push({ name: `all:${format}`, knobs: Object.fromEntries(ALL_STEPS.map((knob) => [knob, format])) });
  return paths;
}

/**
 * Whether the library's rows of a candidate (row indices into the data, each
 * computed alone, in float64) are within the allowance of the data's rows:
 * row by row, stopping at the first that is not.
 */
function candidateRowsFit(data, options, knobs, allowance) {
  const { pe, values, dModel, sampleRows } = data;
  const row = new Float64Array(dModel);
  for (const r of sampleRows) {
    if (r === options.paddingRow) continue;
    pe.row(options.start + r, { ...options, ...knobs, dModel, paddingRow: null, dtype: 'float64', out: row });
    const a = r * dModel;
    for (let j = 0; j < dModel; j++) if (!within(values[a + j] - row[j], allowance(r, j))) return false;
  }
  return true;
}

/** Whether every value of the given rows is within its allowance of the candidate's: the data's rows picked out. */
function rowsWithin(values, dModel, rows, table, allowance) {
  for (let k = 0; k < rows.length; k++) {
    const a = rows[k] * dModel;
    for (let j = 0; j < dModel; j++)
      if (!within(values[a + j] - table[k * dModel + j], allowance(rows[k], j))) return false;
  }
  return true;
}

/**
 * Whether a path explains the data at these options, on sample rows first and
 * then on the whole table; the whole table's comparison (or null).
 * @param {{ pe, values: Float64Array, length: number, dModel: number, tolerance: number, sampleRows: number[],
 *   scratch: Float64Array | import('../wasm-array.js').WasmArray }} data
 */
function explains(data, options, path) {
  const { pe, values, length, dModel, tolerance, sampleRows, scratch } = data;
  if (path === FLOAT32_ANGLE_PATH) {
    // The recipes emulated: PyTorch's and tensor2tensor's exp of a step, and for its structure MLX's.
    const recipes = options.exponent === 'half-minus-one' ? ['exp-step', 'log-interp'] : ['exp-step'];
    const sample = (recipe) => float32AngleRows(pe, options, sampleRows, dModel, null, recipe);
    const samples = recipes.map(sample);
    const allowance = (r, j) => tolerance + samples[0].slack(r, j);
    const fitting = recipes.filter((_, k) => rowsWithin(values, dModel, sampleRows, samples[k].table, allowance));
    if (fitting.length === 0 && !candidateRowsFit(data, options, {}, allowance)) return null;
    // An emulated recipe first (smaller errors when it is the one), then the exact table with the allowance.
    const all = Array.from({ length }, (_, r) => r);
    let full = allowance;
    for (const recipe of fitting) {
      const emulated = float32AngleRows(pe, options, all, dModel, scratch, recipe);
      full = (r, j) => tolerance + emulated.slack(r, j);
      const byRecipe = compare(values, emulated.table, dModel, full);
      if (byRecipe.firstBeyond === null) return byRecipe;
    }
    const byExact = compareTable(pe, scratch, values, options, dModel, full);
    return byExact.firstBeyond === null ? byExact : null;
  }
  if (!candidateRowsFit(data, options, path.knobs, () => tolerance)) return null;
  const comparison = compareTable(pe, scratch, values, { ...options, ...path.knobs }, dModel, tolerance);
  return comparison.firstBeyond === null ? comparison : null;
}

/**
 * The roundest base (and then scale) that some path explains the data with:
 * { options, path, comparison } with the options' base and scale replaced, or
 * null when no candidate explains it.
 * @param {Path[]} paths in order of preference
 */
export function explainRound(data, options, paths) {
  const sampleRows = [...data.sampleRows].sort((a, b) => b - a);
  const bases = roundCandidates(options.base, (b) => b > 1);
  // Scales people use, when the fitted one is within 0.1 % of them.
  const niceScales = [1, Math.sqrt(data.dModel)].filter((s) => within(s - options.scale, 1e-3 * s));
  const scales = [...new Set([...niceScales, options.scale])];
  const digits = significantDigits(options.base);
  for (const base of bases)
    for (const scale of scales)
      for (const path of paths) {
        // A float64 table whose base needs its digits (7777.777) is within
        // float32 error of a base a digit rounder: a lost precision is named
        // only with a base clearly rounder than the fitted one, or the fitted one.
        if (path !== FLOAT64_PATH && base !== options.base && significantDigits(base) + ROUNDER_BY > digits) continue;
        const candidate = { ...options, base, scale };
        const comparison = explains({ ...data, sampleRows }, candidate, path);
        if (comparison)
          return { options: candidate, ...fewestSteps({ ...data, sampleRows }, candidate, path, comparison) };
      }
  return null;
}

/**
 * A path of several rounded steps with each step that changes nothing here
 * (rounded or not, the table is explained) left out: the steps that lost precision.
 */
function fewestSteps(data, options, path, comparison) {
  if (!path.knobs || Object.keys(path.knobs).length < 2) return { path, comparison };
  let knobs = { ...path.knobs };
  for (const knob of Object.keys(path.knobs)) {
    const { [knob]: _, ...without } = knobs;
    if (Object.keys(without).length === 0) continue;
    const fewer = explains(data, options, { knobs: without });
    if (fewer) [knobs, comparison] = [without, fewer];
  }
  return {
    path: {
      name: Object.entries(knobs)
        .map(([k, f]) => `${k}:${f}`)
        .join(' '),
      knobs,
    },
    comparison,
  };
}
