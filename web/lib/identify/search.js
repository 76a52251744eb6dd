// The search of identify(): on the first rows, every structure (layout x
// exponent x order x angle) is fitted at every start in SHIFTS and every base
// of a log grid, the scale by least squares; the best few (structure, start)
// pairs get their base refined by golden section and rounded to the fewest
// digits that fit as well.
import { ANGLES, EXPONENTS, LAYOUTS, ORDERS, PRESETS, PRESET_NAMES } from '../conventions.js';
import { significantDigits, within } from './storage.js';

// Structure and start are searched on the first rows: small positions, where
// float32 angle rounding is still invisible.
export const PROBE_ROWS = 16;
// The base is refined on more rows, where a slightly wrong base shows more.
export const FIT_ROWS = 128;
// Starts tried, preferred in this order: 0, off by one (positions 1..L), fairseq's 2, ...
const SHIFTS = [0, 1, -1, 2, -2, 3, -3];
// Bases people use, tried first so that ties go to them; then a log grid from 2 to 1e7.
const COMMON_BASES = [10000, 1000, 100, 500000, 100000, 1000000, 10];
const STEPS_PER_DECADE = 6;
const LN_GRID_STEP = Math.LN10 / STEPS_PER_DECADE;
const BASE_GRID = [
  ...new Set([...COMMON_BASES, ...Array.from({ length: 41 }, (_, k) => 10 ** ((k + 2) / STEPS_PER_DECADE))]),
];
// Significant digits fewer by which an equivalent later structure's base wins (see preferred).
const ROUNDER_BY = 3;
// (structure, start) pairs whose best grid fit is close enough to deserve a refined base.
const FINALISTS = 5;
// Rows spread over the whole table on which a rounded base must fit as well as
// the unrounded one: a base error grows with position, the first rows hide it.
export const SPREAD_ROWS = 32;

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

const rms = (fit) => Math.sqrt(fit.ssr / fit.count);

/**
 * What one identify() call searches: the data as float64, its tolerance, what
 * an odd width's last column holds, and reusable output buffers (by row
 * count) for the many small candidate tables.
 * @typedef {{ pe: import('../index.js').Posenc, data: Float64Array, dModel: number,
 *   tolerance: number, oddColumn: import('../index.js').OddColumn, buffers: Map<number, Float64Array> }} Search
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
export function searchConvention(search, probeRows, fitRows, spreadRows) {
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
