// Finds the convention behind a positional-encoding table computed elsewhere:
// the knobs, base, start, padding row and scale that reproduce it, whether its
// angles were rounded to float32, and which bug (relative to the nearest
// preset) explains a departure.
//
// The search: all-zero rows are taken as padding and left out; an odd width's
// last column is a sinusoid of its own unless it is all zeros; on the first
// rows, every structure (layout x exponent x order x angle) is fitted at every
// start in SHIFTS and every base of a log grid, the scale by least squares;
// the best few (structure, start) pairs get their base refined by golden
// section and rounded to the fewest digits that fit as well. The whole table
// is then compared, in float64 and with float32 angles.
//
// Every candidate table comes from the library; the only trigonometry here is
// the float32-angle emulation, which the core does not offer.
import { ANGLES, EXPONENTS, LAYOUTS, ORDERS, PRESETS, PRESET_NAMES, structuredLikeHuggingFace } from './conventions.js';
import { checkTable } from './export.js';
import { checkWork, MAX_MAGNITUDE } from './options.js';

// Structure and start are searched on the first rows: small positions, where
// float32 angle rounding is still invisible.
const PROBE_ROWS = 16;
// The base is refined on more rows, where a slightly wrong base shows more.
const FIT_ROWS = 128;
// Starts tried, preferred in this order: 0, off by one (positions 1..L), fairseq's 2, ...
const SHIFTS = [0, 1, -1, 2, -2, 3, -3];
// Bases people use, tried first so that ties go to them; then a log grid from 2 to 1e7.
const COMMON_BASES = [10000, 1000, 100, 500000, 100000, 1000000, 10];
const STEPS_PER_DECADE = 6;
const LN_GRID_STEP = Math.LN10 / STEPS_PER_DECADE;
const BASE_GRID = [
  ...new Set([...COMMON_BASES, ...Array.from({ length: 41 }, (_, k) => 10 ** ((k + 2) / STEPS_PER_DECADE))]),
];
// Widest table (dModel) tried as the transpose of an unexplained one: 2048
// covers the usual model widths; wider searches take seconds.
const MAX_TRANSPOSED_WIDTH = 2048;
// Significant digits fewer by which an equivalent later structure's base wins (see preferred).
const ROUNDER_BY = 3;
// (structure, start) pairs whose best grid fit is close enough to deserve a refined base.
const FINALISTS = 5;
// Presets that reproduce known mistakes: a table near one of them also gets
// the mistake itself named (relative to the paper).
const MISTAKEN_PRESETS = ['legacy-column', 'question'];

// 4 float32 ulps of the largest value: float32 data rounded from float64 angles.
const FLOAT32_TOLERANCE = 2 ** -21;
// 2 ulps of values just below 1 in float16 (10 fraction bits) and bfloat16 (7):
// tables stored in half precision (model weights in fp16/bf16).
const HALF_TOLERANCE = { float16: 2 ** -10, bfloat16: 2 ** -7 };
// Rows spread over the whole table on which a rounded base must fit as well as
// the unrounded one: a base error grows with position, the first rows hide it.
const SPREAD_ROWS = 32;
// float64 formulas of different libraries differ by ~1e-12 at position 8192.
const FLOAT64_TOLERANCE = 1e-9;
// Fewer significant digits than this: the values were printed, not computed.
const FULL_DIGITS = 15;

// The work of a search, estimated before it starts (in the units of
// options.js, about a nanosecond each on the test VM): the grid search costs
// per column, the comparisons per value. A call may do IDENTIFY_WORK: a
// 64 x 4096 table fits; the search of a turned table is tried only when it
// fits too.
const IDENTIFY_COST = Object.freeze({ column: 1.5 * 2 ** 20, value: 2 ** 10 });
const IDENTIFY_WORK = 2 ** 33;
const searchWork = (length, dModel) => dModel * IDENTIFY_COST.column + length * dModel * IDENTIFY_COST.value;

/** The one float comparison: a difference within a tolerance. */
const within = (difference, tolerance) => Math.abs(difference) <= tolerance;

// Structural knobs in search order: the presets' first, so ties go to them.
const STRUCTURES = (() => {
  const structureOf = ({ layout, exponent, order, angle }) => ({ layout, exponent, order, angle });
  const all = PRESET_NAMES.map((name) => structureOf(PRESETS[name]));
  for (const layout of LAYOUTS)
    for (const exponent of EXPONENTS)
      for (const order of ORDERS) for (const angle of ANGLES) all.push({ layout, exponent, order, angle });
  const seen = new Set();
  return all.filter((s) => {
    const key = `${s.layout} ${s.exponent} ${s.order} ${s.angle}`;
    return !seen.has(key) && seen.add(key);
  });
})();

/** Significant digits in the shortest decimal text of v. */
const significantDigits = (v) => Math.abs(v).toExponential().split('e')[0].replace('.', '').length;

/** Whether v is a multiple of its binade's `bits`-fraction-bit step (float16: 10 bits, subnormal below 2^-14; bfloat16: 7). */
function fitsHalf(v, bits, minExponent) {
  if (v === 0) return true;
  const exponent = Math.max(Math.floor(Math.log2(Math.abs(v))), minExponent);
  return Number.isInteger(v * 2 ** (bits - exponent));
}

/**
 * The storage the values fit: 'float16', 'bfloat16', 'float32', 'text'
 * (fewer than FULL_DIGITS digits: printed) or 'float64'.
 */
function storageOf(values) {
  let float16 = true;
  let bfloat16 = true;
  for (const v of values) {
    if (Math.fround(v) !== v) return printedDigits(values) >= FULL_DIGITS ? 'float64' : 'text';
    if (float16 && !(Math.abs(v) <= 65504 && fitsHalf(v, 10, -14))) float16 = false;
    if (bfloat16 && !fitsHalf(v, 7, -126)) bfloat16 = false;
  }
  // bfloat16 values (8 significant bits) mostly fit float16 too; float16 ones rarely fit bfloat16.
  return bfloat16 ? 'bfloat16' : float16 ? 'float16' : 'float32';
}

/**
 * How far a value may be from a candidate and still count as equal: data
 * stored in float32 (or half precision) gets that rounding, text printed with
 * few digits its last digit, anything else float64 noise; relative to the
 * largest value.
 * @param {Float64Array} values
 * @param {string} storage from storageOf
 */
function toleranceOf(values, storage) {
  let maxAbs = 0;
  for (const v of values) maxAbs = Math.max(maxAbs, Math.abs(v));
  if (storage === 'float16' || storage === 'bfloat16') return maxAbs * HALF_TOLERANCE[storage];
  if (storage === 'float32') return maxAbs * FLOAT32_TOLERANCE;
  if (storage === 'float64') return maxAbs * FLOAT64_TOLERANCE;
  const digits = printedDigits(values);
  // Ten half-units of the last digit of values near the largest: values just
  // below a power of ten carry one more digit than the largest one shows.
  return maxAbs * Math.max(5 * 10 ** -digits, FLOAT32_TOLERANCE);
}

/** Significant digits of the values: printed text keeps the same number throughout, so a sample tells. */
function printedDigits(values) {
  let digits = 0;
  const step = Math.max(1, Math.floor(values.length / 4096));
  for (let k = 0; k < values.length; k += step) digits = Math.max(digits, significantDigits(values[k]));
  return digits;
}

const rms = (fit) => Math.sqrt(fit.ssr / fit.count);

/**
 * What one identify() call searches: the data as float64, its tolerance, what
 * an odd width's last column holds, and reusable output buffers (by row
 * count) for the many small candidate tables.
 * @typedef {{ pe: import('./index.js').Posenc, data: Float64Array, dModel: number,
 *   tolerance: number, oddColumn: import('./index.js').OddColumn, buffers: Map<number, Float64Array> }} Search
 */

/**
 * Least-squares fits of scale * (library table of `knobs`) to the given data
 * rows, one per start in `starts`: { start, scale, ssr }. The residual sum of
 * squares comes as |data|^2 - dc^2/cc (`sumSquares` is |data|^2 over the
 * rows), which ranks candidates cheaply but cancels when a fit is close;
 * exactFit() recomputes it for one start.
 */
function fitStarts(search, rows, knobs, starts, sumSquares) {
  const { pe, data, dModel, oddColumn } = search;
  const first = Math.min(...starts);
  const length = rows[rows.length - 1] + 1 + Math.max(...starts) - first;
  // The search makes thousands of small tables: reuse one buffer per size.
  if (!search.buffers.has(length)) search.buffers.set(length, new Float64Array(length * dModel));
  const out = search.buffers.get(length);
  const table = pe.table({
    ...knobs,
    dModel,
    length,
    start: first,
    paddingRow: null,
    scale: 1,
    oddColumn,
    dtype: 'float64',
    out,
  });
  return starts.map((start) => {
    const offset = (start - first) * dModel;
    let dc = 0;
    let cc = 0;
    for (const r of rows)
      for (let a = r * dModel, end = a + dModel; a < end; a++) {
        const c = table[a + offset];
        dc += data[a] * c;
        cc += c * c;
      }
    return cc > 0
      ? { start, scale: dc / cc, ssr: sumSquares - (dc * dc) / cc, table, offset }
      : { start, scale: 1, ssr: sumSquares, table, offset };
  });
}

/** The fit of one start with its residual summed term by term. */
function exactFit(search, rows, knobs, start) {
  const { data, dModel } = search;
  const { scale, table, offset } = fitStarts(search, rows, knobs, [start], 0)[0];
  let ssr = 0;
  for (const r of rows)
    for (let a = r * dModel, end = a + dModel; a < end; a++) ssr += (data[a] - scale * table[a + offset]) ** 2;
  return { start, scale, ssr: Number.isNaN(ssr) ? Infinity : ssr, count: rows.length * dModel };
}

/** Minimum of a unimodal f on [lo, hi], to within `precision`. */
function goldenMinimum(f, lo, hi, precision) {
  const ratio = (Math.sqrt(5) - 1) / 2;
  let x1 = hi - ratio * (hi - lo);
  let x2 = lo + ratio * (hi - lo);
  let f1 = f(x1);
  let f2 = f(x2);
  while (hi - lo > precision) {
    if (f1 <= f2) {
      [hi, x2, f2] = [x2, x1, f1];
      x1 = hi - ratio * (hi - lo);
      f1 = f(x1);
    } else {
      [lo, x1, f1] = [x1, x2, f2];
      x2 = lo + ratio * (hi - lo);
      f2 = f(x2);
    }
  }
  return (lo + hi) / 2;
}

/** The value with the fewest significant digits near x that `accepts` takes, else x. */
function roundest(x, accepts) {
  for (let digits = 1; digits <= 15; digits++) {
    const candidate = Number(x.toPrecision(digits));
    if (accepts(candidate)) return candidate;
  }
  return x;
}

/**
 * Largest |data - scale * row| over `rows`, each row computed alone (pe.row),
 * the scale fitted by least squares over them: cheap for rows far apart.
 */
function spreadError(search, rows, knobs, start) {
  const { pe, data, dModel, oddColumn } = search;
  const tables = rows.map((r) =>
    pe.row(start + r, { ...knobs, dModel, start, paddingRow: null, scale: 1, oddColumn, dtype: 'float64' }),
  );
  let dc = 0;
  let cc = 0;
  rows.forEach((r, k) => {
    for (let j = 0; j < dModel; j++) {
      dc += data[r * dModel + j] * tables[k][j];
      cc += tables[k][j] ** 2;
    }
  });
  const scale = cc > 0 ? dc / cc : 1;
  let worst = 0;
  rows.forEach((r, k) => {
    for (let j = 0; j < dModel; j++) worst = Math.max(worst, Math.abs(data[r * dModel + j] - scale * tables[k][j]));
  });
  return Number.isNaN(worst) ? Infinity : worst;
}

/**
 * Refines the base of a grid fit by golden-section search on ln(base) (first
 * on the probe rows, then on more rows in a narrower bracket) and rounds it
 * to the fewest digits that fit as well, judged by the largest error on the
 * fitted rows and on rows spread over the whole table; then rounds the scale.
 */
function refine(search, probeRows, fitRows, spreadRows, grid) {
  const { dModel, tolerance } = search;
  const fitAt = (base, rows) => exactFit(search, rows, { ...grid.structure, base }, grid.start);
  let base = grid.base;
  let fit = fitAt(base, fitRows);
  if (!within(rms(fit), tolerance)) {
    const lnMin = Math.log1p(1e-9); // base must stay > 1
    const coarse = Math.log(grid.base);
    const lnCoarse = goldenMinimum(
      (x) => fitAt(Math.exp(x), probeRows).ssr,
      Math.max(lnMin, coarse - LN_GRID_STEP),
      coarse + LN_GRID_STEP,
      LN_GRID_STEP * 1e-3,
    );
    const lnFine = goldenMinimum(
      (x) => fitAt(Math.exp(x), fitRows).ssr,
      Math.max(lnMin, lnCoarse - 1e-3),
      lnCoarse + 1e-3,
      1e-10,
    );
    const fitted = fitAt(Math.exp(lnFine), fitRows);
    const spreadAt = (b) => spreadError(search, spreadRows, { ...grid.structure, base: b }, grid.start);
    const spreadFitted = spreadAt(Math.exp(lnFine));
    base = roundest(
      Math.exp(lnFine),
      (b) =>
        b > 1 && within(rms(fitAt(b, fitRows)) - rms(fitted), tolerance) && spreadAt(b) <= spreadFitted + tolerance,
    );
    fit = fitAt(base, fitRows);
  }
  const niceScales = [1, Math.sqrt(dModel)];
  const scale =
    niceScales.find((s) => within(fit.scale - s, tolerance)) ??
    roundest(fit.scale, (s) => within(fit.scale - s, tolerance));
  return { ...grid, base, scale, ssr: fit.ssr, count: fit.count };
}

/**
 * The knobs that best explain the data rows, searched as described atop this file.
 * @param {Search} search
 * @param {number[]} probeRows rows for the grid search
 * @param {number[]} fitRows rows for refining the base
 */
function searchConvention(search, probeRows, fitRows, spreadRows) {
  const { data, dModel, tolerance } = search;
  let sumSquares = 0;
  for (const r of probeRows) for (let a = r * dModel; a < (r + 1) * dModel; a++) sumSquares += data[a] ** 2;
  // The best grid base of every (structure, start).
  const grids = [];
  STRUCTURES.forEach((structure, rank) => {
    // (pos / base)^e is no real number at negative positions: no negative start for it.
    const shifts = structure.angle === 'ratio-power' ? SHIFTS.filter((start) => start >= 0) : SHIFTS;
    const best = shifts.map((start) => ({
      structure,
      start,
      rank: rank * SHIFTS.length + SHIFTS.indexOf(start),
      ssr: Infinity,
    }));
    for (const base of BASE_GRID)
      fitStarts(search, probeRows, { ...structure, base }, shifts, sumSquares).forEach((fit, k) => {
        if (fit.ssr < best[k].ssr) Object.assign(best[k], { base, ssr: fit.ssr });
      });
    grids.push(...best.filter((grid) => grid.ssr < Infinity));
  });
  const finalists = grids
    .sort((a, b) => a.ssr - b.ssr || a.rank - b.rank)
    .slice(0, FINALISTS)
    .sort((a, b) => a.rank - b.rank);
  let best = null;
  for (const grid of finalists) {
    const fit = refine(search, probeRows, fitRows, spreadRows, grid);
    if (best === null || preferred(fit, best, tolerance)) best = fit;
  }
  return best;
}

/**
 * Whether fit a beats fit b (which comes earlier in search order): by a clearly
 * smaller residual, else by a rounder base. Exponents 'pair' and
 * 'half-minus-one' describe the same tables with different bases (tf-tutorial
 * is 'half-minus-one' with base 10000^((d-2)/d)): the round base names it.
 */
function preferred(a, b, tolerance) {
  if (!within(rms(a) - rms(b), tolerance)) return rms(a) < rms(b);
  // Clearly rounder (10000 against 8659.64…), not by a digit or two: a base
  // like 12345.6789 is 9197.1895 under the other exponent.
  return significantDigits(a.base) + ROUNDER_BY <= significantDigits(b.base);
}

/**
 * Compares data with a table: largest difference and where, residual sum of
 * squares, and the first value beyond its allowance (null when none).
 * @param {(row: number, column: number) => number} allowance
 */
function compare(data, table, dModel, allowance) {
  let maxAbsError = 0;
  let worst = 0;
  let ssr = 0;
  let firstBeyond = null;
  for (let k = 0; k < data.length; k++) {
    const difference = data[k] - table[k];
    ssr += difference * difference;
    if (Math.abs(difference) > maxAbsError) [maxAbsError, worst] = [Math.abs(difference), k];
    if (firstBeyond === null) {
      const row = Math.floor(k / dModel);
      if (!within(difference, allowance(row, k - row * dModel))) firstBeyond = k;
    }
  }
  const at = (k) => ({ row: Math.floor(k / dModel), column: k % dModel });
  return { maxAbsError, worst: at(worst), ssr, firstBeyond: firstBeyond === null ? null : at(firstBeyond) };
}

/**
 * The table as PyTorch's tutorial, tensor2tensor and fairseq compute it in
 * float32: w = exp(k * (-ln(base) / D)) with exponent e = k / D (D = d, or
 * d/2 - 1 for 'half-minus-one'), angle = pos * w and sin/cos, each step
 * rounded to float32. The core only computes in float64, so this is the one
 * formula evaluated here; exponents (read back from pe.frequencies) and which
 * columns hold cos (pe.row at 0) come from the library. Also returns, per
 * value, the error any float32 evaluation of the angle may have (rounding of
 * w, an exp of a rounded argument, and of pos * w: (|ln w| + 2) float32 ulps
 * of the angle), for float32 recipes other than this one.
 */
function float32AngleTable(pe, options, length, dModel) {
  const { base, start, scale, paddingRow } = options;
  const w = pe.frequencies({ ...options, dModel });
  // cos(0) = 1 and sin(0) = 0: row 0 without padding tells which columns hold cos.
  const atZero = pe.row(0, { ...options, dModel, start: 0, paddingRow: null, scale: 1, dtype: 'float64' });
  const denominator = options.exponent === 'half-minus-one' ? Math.max(Math.floor(dModel / 2) - 1, 1) : dModel;
  const step = Math.fround(-Math.log(base) / denominator);
  const w32 = Array.from(w, (wj) => {
    if (wj === 0) return 0;
    const k = Math.round((-Math.log(wj) / Math.log(base)) * denominator);
    return Math.fround(Math.exp(Math.fround(k * step)));
  });
  const table = new Float64Array(length * dModel);
  for (let r = 0; r < length; r++) {
    if (r === paddingRow) continue;
    const position = Math.fround(start + r);
    for (let j = 0; j < dModel; j++) {
      const angle = Math.fround(position * w32[j]);
      const value = Math.fround(atZero[j] === 1 ? Math.cos(angle) : Math.sin(angle));
      table[r * dModel + j] = Math.fround(scale * value);
    }
  }
  const slack = (row, column) => {
    const wj = w[column];
    return wj === 0 ? 0 : Math.abs(scale * (start + row) * wj) * (Math.abs(Math.log(wj)) + 2) * 2 ** -23;
  };
  return { table, slack };
}

const STRUCTURAL_KNOBS = ['layout', 'exponent', 'order', 'angle'];
const KNOB_WEIGHTS = { structure: 2, value: 1, paddingIndex: 0.5 };

/** A padding row beyond the table is no padding row. */
const paddingIn = (paddingRow, length) => (paddingRow !== null && paddingRow < length ? paddingRow : null);

/**
 * How far found knobs are from a preset: structural knobs count double; an
 * undefined oddColumn (even width, or a last column both explain) counts nothing.
 */
function presetDistance(found, preset, length) {
  let distance = 0;
  for (const knob of STRUCTURAL_KNOBS) if (found[knob] !== preset[knob]) distance += KNOB_WEIGHTS.structure;
  for (const knob of ['base', 'start', 'scale']) if (found[knob] !== preset[knob]) distance += KNOB_WEIGHTS.value;
  if (found.oddColumn !== undefined && found.oddColumn !== preset.oddColumn) distance += KNOB_WEIGHTS.value;
  const [a, b] = [paddingIn(found.paddingRow, length), paddingIn(preset.paddingRow, length)];
  if (a !== b) distance += a === null || b === null ? KNOB_WEIGHTS.value : KNOB_WEIGHTS.paddingIndex;
  return distance;
}

const show = (x) => String(Number(x.toPrecision(6)));
const EXPONENT_TEXT = { pair: '2i/d (pair index i)', 'half-minus-one': 'i/(d/2 − 1)', column: '2j/d (column index j)' };
const ANGLE_TEXT = { divide: 'pos / base^e', 'ratio-power': '(pos / base)^e' };

function describeOptions(o) {
  const padding = o.paddingRow === null ? 'no padding row' : `padding row ${o.paddingRow}`;
  return `${o.layout}, exponent ${o.exponent}, ${o.order}, angle ${o.angle}, base ${show(o.base)}, start ${o.start}, ${padding}, scale ${show(o.scale)}`;
}

/** One diagnosis per knob where `found` departs from preset `name`. */
function differences(found, name, length, dModel) {
  const ref = PRESETS[name];
  const out = [];
  const add = (code, message) => out.push({ code, message });
  if (found.layout !== ref.layout)
    add(
      'concat-vs-interleaved',
      found.layout === 'concat'
        ? `The pairs are concatenated as [first block | second block]; ${name} interleaves them in even and odd columns.`
        : `The pairs are interleaved in even and odd columns; ${name} concatenates them as [first block | second block].`,
    );
  if (found.exponent !== ref.exponent) {
    const consequence = found.exponent === 'column' ? ', so the two members of a pair get different frequencies' : '';
    add(
      `exponent-uses-${found.exponent}`,
      `The frequency exponent is ${EXPONENT_TEXT[found.exponent]}; ${name} uses ${EXPONENT_TEXT[ref.exponent]}${consequence}.`,
    );
  }
  if (found.order !== ref.order)
    add(
      'sin-cos-swapped',
      `Sine and cosine are swapped: each pair is (${found.order.replace('-', ', ')}) where ${name} has (${ref.order.replace('-', ', ')}).`,
    );
  if (found.angle !== ref.angle) {
    const ratio = found.angle === 'ratio-power';
    add(
      ratio ? 'ratio-power' : 'angle-divide',
      `The angle is ${ANGLE_TEXT[found.angle]} where ${name} uses ${ANGLE_TEXT[ref.angle]}` +
        (ratio ? ': the power applies to the ratio, so the columns are not sinusoids of the position.' : '.'),
    );
  }
  if (found.base !== ref.base) add('base', `The base is ${show(found.base)}, not ${ref.base}.`);
  if (found.start !== ref.start) {
    const byOne = Math.abs(found.start - ref.start) === 1;
    add(
      byOne ? 'start-off-by-one' : 'start-offset',
      `Row 0 is position ${found.start}, not ${ref.start}${byOne ? ': the positions are off by one' : ''}.`,
    );
  }
  const [padding, refPadding] = [paddingIn(found.paddingRow, length), paddingIn(ref.paddingRow, length)];
  if (padding !== refPadding) {
    if (padding === null)
      add('missing-padding-row', `Row ${refPadding} is not zero: ${name} zeroes it as the padding row.`);
    else if (refPadding === null)
      add('unexpected-padding-row', `Row ${padding} is all zeros (a padding row); ${name} has no padding row.`);
    else add('padding-row-moved', `Row ${padding} is the zero padding row; ${name} zeroes row ${refPadding}.`);
  }
  if (found.scale !== ref.scale) {
    const sqrtD = found.scale === Math.sqrt(dModel) ? ' (√dModel)' : '';
    add('scaled', `Every value is multiplied by ${show(found.scale)}${sqrtD}; ${name} uses scale ${ref.scale}.`);
  }
  if (found.oddColumn !== undefined && found.oddColumn !== ref.oddColumn) {
    // PE(pos, 2i) continued to 2i = d - 1: the first function of pair (d - 1) / 2, alone.
    const lone = (order) => {
      const [first, second] = order === 'sin-cos' ? ['sin', 'cos'] : ['cos', 'sin'];
      return `a ${first} at pair index i = ${(dModel - 1) / 2} without its ${second}`;
    };
    add(
      `odd-column-${found.oddColumn}`,
      found.oddColumn === 'zero'
        ? `The last column (odd width ${dModel}) is all zeros, a padding column; ${name} continues the formula there: ${lone(ref.order)}.`
        : `The last column (odd width ${dModel}) continues the formula: ${lone(found.order)}${structuredLikeHuggingFace(found) ? ' (as Hugging Face and Keras-NLP compute it)' : ''}; ${name} leaves it zero.`,
    );
  }
  return out;
}

/**
 * Identifies the convention of a row-major [length x dModel] table.
 * @param {import('./index.js').Posenc} pe the loaded library
 * @param {Float32Array | Float64Array | number[]} data
 * @param {number} length
 * @param {number} dModel
 * @returns {import('./index.js').Identification}
 */
export function identify(pe, data, length, dModel) {
  if (pe === null || typeof pe !== 'object' || typeof pe.table !== 'function')
    throw new TypeError('posenc.identify: pe must be the loaded library (await load())');
  checkTable('identify', 'data', data, length, dModel);
  checkWork(
    'identify',
    `searching a ${length} x ${dModel} table (dModel × ${IDENTIFY_COST.column} + length × dModel × ${IDENTIFY_COST.value})`,
    searchWork(length, dModel),
    'the convention shows in the first rows: pass fewer rows (e.g. the first 1024); at most about 5000 columns can be searched',
    IDENTIFY_WORK,
  );
  const values = Float64Array.from(data);
  let maxAbs = 0;
  for (const v of values) maxAbs = Math.max(maxAbs, Math.abs(v));
  // |value| <= |scale| <= 2^53 in every table the library computes: larger
  // values are no positional encoding it can reproduce (and their squares,
  // which the fits sum, could overflow).
  if (maxAbs > MAX_MAGNITUDE) return tooLarge(maxAbs);
  if (values.every((v) => v === 0)) {
    // Nothing to search for: scale 0 reproduces it under any convention; the
    // answer names the paper's, and where the paper's table first differs.
    const paper = pe.table({ length, dModel, dtype: 'float64' });
    const first = compare(values, paper, dModel, () => 0).firstBeyond;
    return {
      match: false,
      options: { ...PRESETS.vaswani, scale: 0 },
      preset: null,
      nearestPreset: 'vaswani',
      float32Angle: false,
      maxAbsError: 0,
      tolerance: 0,
      firstDifference: first && { ...first, expected: paper[first.row * dModel + first.column], actual: 0 },
      transposed: false,
      diagnosis: [{ code: 'all-zero', message: 'Every value is zero: there is no encoding to identify.' }],
    };
  }
  const result = identifyRows(pe, values, length, dModel);
  // (The search grows with the width: a turned table wider than this, or one
  // whose search would take the call past its work limit, is not tried.)
  if (
    result.match ||
    length < 2 ||
    dModel < 2 ||
    length > MAX_TRANSPOSED_WIDTH ||
    searchWork(length, dModel) + searchWork(dModel, length) > IDENTIFY_WORK
  )
    return { ...result, transposed: false };
  // Positions in columns, dimensions in rows (a d x L table): explained once turned back.
  const turned = new Float64Array(values.length);
  for (let r = 0; r < length; r++) for (let j = 0; j < dModel; j++) turned[j * length + r] = values[r * dModel + j];
  const back = identifyRows(pe, turned, dModel, length);
  if (!back.match) return { ...result, transposed: false };
  const explained = back.preset ?? `${back.nearestPreset} with ${back.diagnosis.map((d) => d.code).join(', ')}`;
  const diagnosis = [
    {
      code: 'transposed',
      message: `The table is transposed: its rows are dimensions and its columns positions. As ${dModel} positions × ${length} dimensions it is ${explained}; transpose it (pe.T).`,
    },
  ];
  return { ...back, match: false, preset: null, transposed: true, firstDifference: null, diagnosis };
}

/** The answer for values no convention of the library reaches (|value| > 2^53, or a fitted scale beyond it). */
function tooLarge(maxAbs) {
  return {
    match: false,
    options: { ...PRESETS.vaswani },
    preset: null,
    nearestPreset: 'vaswani',
    float32Angle: false,
    maxAbsError: maxAbs,
    tolerance: 0,
    firstDifference: null,
    transposed: false,
    diagnosis: [
      {
        code: 'too-large',
        message: `The values reach ${show(maxAbs)}: too large to be a positional encoding (|value| ≤ scale ≤ 2^53).`,
      },
    ],
  };
}

/** The preset's table and its comparison when it equals the data within tolerance (its first rows tried first), else null. */
function presetReproduces(pe, values, name, length, dModel, tolerance) {
  const head = Math.min(length, FIT_ROWS);
  const first = pe.table({ preset: name, length: head, dModel, dtype: 'float64' });
  if (compare(values.subarray(0, head * dModel), first, dModel, () => tolerance).firstBeyond !== null) return null;
  const table = head === length ? first : pe.table({ preset: name, length, dModel, dtype: 'float64' });
  const comparison = compare(values, table, dModel, () => tolerance);
  return comparison.firstBeyond === null ? { table, comparison } : null;
}

/** Whether the fitted convention's last column, continued by the formula, is zero on these rows too. */
function formulaColumnIsZero(search, options, rows) {
  const { pe, dModel, tolerance } = search;
  const length = rows[rows.length - 1] + 1;
  const table = pe.table({ ...options, oddColumn: 'formula', paddingRow: null, dModel, length, dtype: 'float64' });
  return rows.every((r) => within(table[r * dModel + dModel - 1], tolerance));
}

/** identify() of data taken as [length x dModel], as given. */
function identifyRows(pe, values, length, dModel) {
  const storage = storageOf(values);
  const tolerance = toleranceOf(values, storage);

  // All-zero rows are padding; they are left out of the search.
  const zeroRows = [];
  const nonZeroRows = [];
  for (let r = 0; r < length; r++) {
    const row = values.subarray(r * dModel, (r + 1) * dModel);
    (row.every((v) => within(v, tolerance)) ? zeroRows : nonZeroRows).push(r);
  }
  const searchRows = nonZeroRows.length > 0 ? nonZeroRows : zeroRows;
  // An odd width's last column: zeros, or a sinusoid of its own (never all zero over rows).
  const lastColumnZero =
    dModel % 2 === 1 && searchRows.every((r) => within(values[r * dModel + dModel - 1], tolerance));
  const search = {
    pe,
    data: values,
    dModel,
    tolerance,
    oddColumn: lastColumnZero ? 'zero' : 'formula',
    buffers: new Map(),
  };
  const spreadRows = Array.from(
    new Set(
      Array.from(
        { length: SPREAD_ROWS },
        (_, k) => searchRows[Math.round((k * (searchRows.length - 1)) / (SPREAD_ROWS - 1))],
      ),
    ),
  );
  const fit = searchConvention(search, searchRows.slice(0, PROBE_ROWS), searchRows.slice(0, FIT_ROWS), spreadRows);
  // No fit at all, or one whose scale no table may have: values near 2^53.
  if (fit === null || !(Math.abs(fit.scale) <= MAX_MAGNITUDE)) {
    let maxAbs = 0;
    for (const v of values) maxAbs = Math.max(maxAbs, Math.abs(v));
    return tooLarge(maxAbs);
  }
  /** @type {import('./index.js').Convention} */
  const options = {
    ...fit.structure,
    base: fit.base,
    start: fit.start,
    paddingRow: nonZeroRows.length > 0 && zeroRows.length > 0 ? zeroRows[0] : null,
    scale: fit.scale,
    oddColumn: search.oddColumn,
  };
  // Where the formula's last column would be zero too (a few rows near position
  // 0), both explain it, and the nearest preset's choice is taken below.
  if (dModel % 2 === 0 || (lastColumnZero && formulaColumnIsZero(search, options, searchRows)))
    options.oddColumn = undefined;

  let table64 = pe.table({ ...options, length, dModel, dtype: 'float64' });
  const byFloat64 = compare(values, table64, dModel, () => tolerance);
  let explanation = byFloat64;
  let float32Angle = false;
  // Angles rounded to float32 leave float32 values (or fewer, or printed ones):
  // never claimed for values with all of float64's digits.
  if (byFloat64.firstBeyond !== null && options.angle === 'divide' && storage !== 'float64') {
    // Float32 angles explain the data when the emulated recipe does, or when
    // the data stays within float32 angle error of the float64 table (another
    // float32 recipe); the recipe, when it fits, has the smaller errors.
    const emulated = float32AngleTable(pe, options, length, dModel);
    const allowance = (r, j) => tolerance + emulated.slack(r, j);
    const byFloat32 = [
      compare(values, emulated.table, dModel, allowance),
      compare(values, table64, dModel, allowance),
    ].find((candidate) => candidate.firstBeyond === null);
    if (byFloat32) [explanation, float32Angle] = [byFloat32, true];
  }
  const match = explanation.firstBeyond === null;

  const distances = PRESET_NAMES.map((name) => presetDistance(options, PRESETS[name], length));
  const byDistance = PRESET_NAMES.map((name, k) => [distances[k], name])
    .sort((a, b) => a[0] - b[0])
    .map(([, name]) => name);
  let nearest = byDistance[0];
  let exact = distances[PRESET_NAMES.indexOf(nearest)] === 0;
  // Knobs can differ where they make no difference (one pair: layout and
  // exponent; d = 1: the paper's row 0 is zero, like a padding row): a preset
  // whose own table this is, is the answer.
  if (match && !exact && !float32Angle) {
    for (const name of byDistance) {
      const reproduced = presetReproduces(pe, values, name, length, dModel, tolerance);
      if (!reproduced) continue;
      [nearest, exact, table64, explanation] = [name, true, reproduced.table, reproduced.comparison];
      Object.assign(options, PRESETS[name]);
      break;
    }
  }
  options.oddColumn ??= PRESETS[nearest].oddColumn;

  const diagnosis = [];
  if (!match) {
    // Knob differences of a fit that does not fit would only mislead.
    const { row, column } = explanation.worst;
    diagnosis.push({
      code: 'unexplained',
      message: `No convention explains this table: the closest (${describeOptions(options)}) is off by up to ${show(explanation.maxAbsError)} at row ${row}, column ${column}.`,
    });
  } else diagnosis.push(...differences(options, nearest, length, dModel));
  if (match && MISTAKEN_PRESETS.includes(nearest)) {
    // The preset's own mistakes that the table shares, named relative to the paper.
    const shared = STRUCTURAL_KNOBS.filter((knob) => options[knob] === PRESETS[nearest][knob]);
    const mistakes = { ...PRESETS.vaswani, ...Object.fromEntries(shared.map((knob) => [knob, options[knob]])) };
    for (const d of differences(mistakes, 'vaswani', length, dModel))
      if (!diagnosis.some((known) => known.code === d.code)) diagnosis.push(d);
  }
  if (float32Angle) {
    const { row } = byFloat64.worst;
    diagnosis.push({
      code: 'float32-angle',
      message: `The angles were computed in float32 (position × frequency rounded to 24 bits): the error grows with position, up to ${show(byFloat64.maxAbsError)} at row ${row}. Compute the angles in float64 and cast the table afterwards.`,
    });
  }

  const expectedTable = exact ? table64 : pe.table({ preset: nearest, length, dModel, dtype: 'float64' });
  const difference = compare(values, expectedTable, dModel, () => tolerance).firstBeyond;
  const firstDifference =
    difference === null
      ? null
      : {
          ...difference,
          expected: expectedTable[difference.row * dModel + difference.column],
          actual: values[difference.row * dModel + difference.column],
        };

  return {
    match,
    options,
    preset: match && exact ? nearest : null,
    nearestPreset: nearest,
    float32Angle,
    maxAbsError: explanation.maxAbsError,
    tolerance,
    firstDifference,
    diagnosis,
  };
}
