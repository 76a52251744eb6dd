// The search of identify(): the frequency of every column is estimated from
// the data in closed form (a sinusoid x of the position obeys
// x[p-1] + x[p+1] = 2 cos(w) x[p]), which gives each structure (layout x
// exponent x order, angle 'divide') its base by a weighted least-squares fit
// of ln w = -e ln(base); that base and the common ones are fitted on the
// first rows at every start in SHIFTS, the scale by least squares. Only when
// none of these comes close are all structures (angle 'ratio-power' too,
// whose columns are no sinusoids) fitted at every base of a log grid. The
// best few (structure, start) pairs get their base refined (Brent's method on
// ln(base)) and rounded to the fewest digits that fit as well.
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
// A fit of the closed-form or common bases this close (rms residual over rms
// value) makes the full grid needless: a 'ratio-power' table, whose columns
// are no sinusoids, is never this close to any 'divide' one; tables whose
// angles were rounded to float16 or bfloat16 are.
const CLOSE_FIT = 0.05;
// Half-width of the bracket in ln(base) searched around a closed-form base.
const ESTIMATE_BRACKET = 1e-2;
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
 * A reused output of `count` float64 values for the search's many small
 * tables: an array in the module's memory (pe.allocate), which the core fills
 * in place with no copy out, else (memory full) a Float64Array. The caller of
 * the search frees them (freeBuffers).
 */
function bufferOf(search, count) {
  if (!search.buffers.has(count)) {
    let buffer;
    try {
      buffer = search.pe.allocate(count, { dtype: 'float64' });
    } catch {
      buffer = new Float64Array(count);
    }
    search.buffers.set(count, buffer);
  }
  return search.buffers.get(count);
}

/** Gives back the module memory of a search's buffers. */
export function freeBuffers(search) {
  for (const buffer of search.buffers.values()) buffer.free?.();
  search.buffers.clear();
}

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
  const out = bufferOf(search, length * dModel);
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

/**
 * Each column's angular frequency, estimated from the data alone: over rows
 * r-1, r, r+1 of consecutive positions, cos(w) = sum x[r] (x[r-1] + x[r+1]) /
 * (2 sum x[r]^2) for any sinusoid of the position. Each comes with the weight
 * of ln(w) in a least-squares fit: the error of the estimate of cos(w),
 * carried to ln(w), is 1 / (w sin w) times larger.
 * @param {Search} search
 * @param {number[]} rows ascending
 */
export function estimateFrequencies(search, rows) {
  const { data, dModel } = search;
  const next = new Float64Array(dModel);
  const energy = new Float64Array(dModel);
  for (let k = 1; k + 1 < rows.length; k++) {
    const r = rows[k];
    if (rows[k - 1] !== r - 1 || rows[k + 1] !== r + 1) continue;
    for (let j = 0, a = r * dModel; j < dModel; j++, a++) {
      next[j] += data[a] * (data[a - dModel] + data[a + dModel]);
      energy[j] += data[a] * data[a];
    }
  }
  const frequency = new Float64Array(dModel);
  const weight = new Float64Array(dModel);
  for (let j = 0; j < dModel; j++) {
    if (!(energy[j] > 0)) continue;
    const w = Math.acos(Math.min(1, Math.max(-1, next[j] / (2 * energy[j]))));
    if (!(w > 0)) continue;
    frequency[j] = w;
    weight[j] = (w * Math.sin(w)) ** 2 * energy[j];
  }
  return { frequency, weight };
}

/**
 * The base of a 'divide' structure that best gives the estimated
 * frequencies, in closed form: ln w_j = -e_j ln(base), e_j read from the
 * library (its frequencies at base e); null when the estimates cannot tell.
 */
function closedFormBase(search, structure, estimates) {
  const { pe, dModel, oddColumn } = search;
  const atE = pe.frequencies({ ...structure, base: Math.E, dModel, oddColumn });
  let num = 0;
  let den = 0;
  for (let j = 0; j < dModel; j++) {
    const [w, weight] = [estimates.frequency[j], estimates.weight[j]];
    if (!(weight > 0) || !(atE[j] > 0)) continue;
    const e = -Math.log(atE[j]);
    num += weight * e * -Math.log(w);
    den += weight * e * e;
  }
  const base = Math.exp(num / den);
  return den > 0 && base > 1 && Number.isFinite(base) ? base : null;
}

/**
 * Minimum of f on [lo, hi] to within `precision` by Brent's method (golden
 * sections, and parabolas through the last three points where f is smooth:
 * a residual near its minimum is a parabola, found in a few steps).
 */
function brentMinimum(f, lo, hi, precision) {
  const golden = (3 - Math.sqrt(5)) / 2;
  let x = lo + golden * (hi - lo);
  let [w, v] = [x, x];
  let fx = f(x);
  let [fw, fv] = [fx, fx];
  let [step, previous] = [0, 0];
  for (let iteration = 0; iteration < 200; iteration++) {
    const middle = (lo + hi) / 2;
    const tol1 = precision / 2;
    if (Math.abs(x - middle) <= 2 * tol1 - (hi - lo) / 2) break;
    let parabolic = false;
    if (Math.abs(previous) > tol1) {
      const r = (x - w) * (fx - fv);
      let q = (x - v) * (fx - fw);
      let p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0) p = -p;
      q = Math.abs(q);
      if (Math.abs(p) < Math.abs(0.5 * q * previous) && p > q * (lo - x) && p < q * (hi - x)) {
        previous = step;
        step = p / q;
        const u = x + step;
        if (u - lo < 2 * tol1 || hi - u < 2 * tol1) step = middle > x ? tol1 : -tol1;
        parabolic = true;
      }
    }
    if (!parabolic) {
      previous = x >= middle ? lo - x : hi - x;
      step = golden * previous;
    }
    const u = Math.abs(step) >= tol1 ? x + step : x + (step > 0 ? tol1 : -tol1);
    const fu = f(u);
    if (fu <= fx) {
      if (u >= x) lo = x;
      else hi = x;
      [v, fv, w, fw, x, fx] = [w, fw, x, fx, u, fu];
    } else {
      if (u < x) lo = u;
      else hi = u;
      if (fu <= fw || w === x) [v, fv, w, fw] = [w, fw, u, fu];
      else if (fu <= fv || v === x || v === w) [v, fv] = [u, fu];
    }
  }
  return x;
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
 * Refines the base of a grid fit by Brent's method on ln(base) (first on the
 * probe rows, then on more rows in a narrower bracket) unless it fits already,
 * and rounds it to the fewest digits that fit as well, judged by the largest
 * error on the fitted rows and on rows spread over the whole table; then
 * rounds the scale.
 */
function refine(search, probeRows, fitRows, spreadRows, grid, quick) {
  const { dModel, tolerance } = search;
  const fitAt = (base, rows) => exactFit(search, rows, { ...grid.structure, base }, grid.start);
  let base = grid.base;
  let fit = fitAt(base, fitRows);
  // A common base that fits is taken as is; any other (a grid point, or the
  // closed form, which weighs all columns alike) is refined before rounding.
  // `quick`: a common base that beat the closed form on the first rows is
  // kept even where it misfits further on (angles rounded on the way do
  // that); the caller searches again without `quick` when it explains nothing.
  const kept = COMMON_BASES.includes(base) && (within(rms(fit), tolerance) || quick);
  if (!kept) {
    const lnMin = Math.log1p(1e-9); // base must stay > 1
    const coarseAround = (center, width) => {
      const [lo, hi] = [Math.max(lnMin, center - width), center + width];
      const x = brentMinimum((ln) => fitAt(Math.exp(ln), probeRows).ssr, lo, hi, width * 1e-3);
      // At an end of the bracket the minimum may lie beyond it.
      return Math.min(x - lo, hi - x) > width * 1e-2 || lo === lnMin ? x : null;
    };
    // Near the closed-form estimate first, when there is one; else a grid step either side.
    const lnCoarse =
      (grid.estimate && coarseAround(Math.log(grid.estimate), ESTIMATE_BRACKET)) ??
      coarseAround(Math.log(grid.base), LN_GRID_STEP) ??
      Math.log(grid.base);
    const lnFine = brentMinimum(
      (x) => fitAt(Math.exp(x), fitRows).ssr,
      Math.max(lnMin, lnCoarse - 1e-3),
      lnCoarse + 1e-3,
      1e-10,
    );
    base = Math.exp(lnFine);
    fit = fitAt(base, fitRows);
  }
  if (!COMMON_BASES.includes(base)) {
    // A closed-form or refined base has all its digits: keep only those the data tells.
    const fitted = fit;
    const spreadAt = (b) => spreadError(search, spreadRows, { ...grid.structure, base: b }, grid.start);
    const spreadFitted = spreadAt(base);
    base = roundest(
      base,
      (b) =>
        b > 1 && within(rms(fitAt(b, fitRows)) - rms(fitted), tolerance) && spreadAt(b) <= spreadFitted + tolerance,
    );
    fit = fitAt(base, fitRows);
  }
  const niceScales = [1, Math.sqrt(dModel)];
  const scale =
    niceScales.find((s) => within(fit.scale - s, tolerance)) ??
    roundest(fit.scale, (s) => within(fit.scale - s, tolerance));
  return { ...grid, grid, base, scale, ssr: fit.ssr, count: fit.count, quick: kept && !within(rms(fit), tolerance) };
}

/** The best base of `bases` for every start of a structure, fitted on the probe rows. */
function gridFits(search, probeRows, structure, rank, bases, sumSquares, estimate = null, starts = SHIFTS) {
  // (pos / base)^e is no real number at negative positions: no negative start for it.
  const shifts = structure.angle === 'ratio-power' ? starts.filter((start) => start >= 0) : starts;
  const count = probeRows.length * search.dModel;
  const best = shifts.map((start) => ({
    structure,
    start,
    rank: rank * SHIFTS.length + starts.indexOf(start),
    ssr: Infinity,
    count,
    estimate,
  }));
  // A later base must fit clearly better (by the tolerance, in rms): ties go to the earlier, common ones.
  const clearlyBetter = (ssr, than) => Math.sqrt(Math.max(ssr, 0) / count) < Math.sqrt(than / count) - search.tolerance;
  for (const base of bases)
    fitStarts(search, probeRows, { ...structure, base }, shifts, sumSquares).forEach((fit, k) => {
      if (best[k].ssr === Infinity ? fit.ssr < Infinity : clearlyBetter(fit.ssr, best[k].ssr))
        Object.assign(best[k], { base, ssr: Math.max(fit.ssr, 0) });
    });
  return best.filter((grid) => grid.ssr < Infinity);
}

/**
 * The knobs that best explain the data rows, searched as described atop this file.
 * @param {Search} search
 * @param {number[]} probeRows rows for the grid search
 * @param {number[]} fitRows rows for refining the base (and estimating the frequencies)
 * @param {number[]} spreadRows rows over the whole table a rounded base must fit
 * @param {boolean} quick keep a common base that misfits only beyond the first rows (see refine)
 */
export function searchConvention(search, probeRows, fitRows, spreadRows, quick = false) {
  const { data, dModel, tolerance } = search;
  let sumSquares = 0;
  for (const r of probeRows) for (let a = r * dModel; a < (r + 1) * dModel; a++) sumSquares += data[a] ** 2;
  const dataRms = Math.sqrt(sumSquares / (probeRows.length * dModel));
  // The closed-form base of every 'divide' structure, and the common bases.
  const estimates = estimateFrequencies(search, fitRows);
  const grids = [];
  STRUCTURES.forEach((structure, rank) => {
    if (structure.angle !== 'divide') return;
    const estimated = closedFormBase(search, structure, estimates);
    // The common bases near the estimate (a grid step either side), and the estimate.
    const bases =
      estimated === null
        ? COMMON_BASES
        : [...COMMON_BASES.filter((b) => Math.abs(Math.log(b / estimated)) <= LN_GRID_STEP), estimated];
    // Any start (search.anyStart): the one the phases of the first row tell, at the estimated base.
    const starts = search.anyStart ? phaseStarts(search, structure, estimated, probeRows[0]) : SHIFTS;
    if (starts.length > 0)
      grids.push(...gridFits(search, probeRows, structure, rank, bases, sumSquares, estimated, starts));
  });
  if (grids.length === 0) return null;
  const closest = Math.min(...grids.map(rms));
  // Nothing close: every structure at every base of the grid (not for any start: too slow, and its starts come from a base).
  if (!search.anyStart && !(closest <= Math.max(tolerance, CLOSE_FIT * dataRms)))
    STRUCTURES.forEach((structure, rank) => {
      grids.push(...gridFits(search, probeRows, structure, rank, BASE_GRID, sumSquares));
    });
  grids.sort((a, b) => a.ssr - b.ssr || a.rank - b.rank);
  // Fits far behind the best cannot catch up by refining their base.
  const reach = 4 * Math.max(rms(grids[0]), tolerance);
  const finalists = [];
  for (const grid of grids) {
    if (finalists.length === FINALISTS || rms(grid) > reach) break;
    if (!finalists.some((f) => f.rank === grid.rank)) finalists.push(grid);
  }
  finalists.sort((a, b) => a.rank - b.rank);
  let best = null;
  for (const grid of finalists) {
    // Nothing later can be preferred to a fit within tolerance whose base has at most ROUNDER_BY digits.
    if (best !== null && within(rms(best), tolerance) && significantDigits(best.base) <= ROUNDER_BY) break;
    const fit = refine(search, probeRows, fitRows, spreadRows, grid, quick);
    // A common base kept unrefined competes with refined ones only once refined too.
    if (best?.quick && preferred(fit, best, tolerance))
      best = refine(search, probeRows, fitRows, spreadRows, best.grid);
    if (best === null || preferred(fit, best, tolerance)) best = fit;
  }
  return best;
}

/**
 * The start of a 'divide' structure at `base` that row `row` of the data tells:
 * the angle of its lowest-frequency (sin, cos) pair, atan2(sin, cos) = w (start
 * + row), unambiguous for |angle| < π (|start| below ~30000 at base 10000),
 * rounded to an integer; with its neighbours. None for structures without
 * such pairs (exponent 'column') or without a base.
 * @returns {number[]}
 */
function phaseStarts(search, structure, base, row) {
  const { pe, data, dModel, oddColumn } = search;
  if (base === null || structure.angle !== 'divide' || structure.exponent === 'column') return [];
  const w = pe.frequencies({ ...structure, base, dModel, oddColumn });
  // cos(0) = 1 and sin(0) = 0: row 0 tells which columns hold cos.
  const atZero = pe.row(0, {
    ...structure,
    base,
    dModel,
    start: 0,
    paddingRow: null,
    scale: 1,
    oddColumn,
    dtype: 'float64',
  });
  // The lowest frequency held by both a sin and a cos column (an odd width's lone last column has no partner).
  const sinOf = new Map();
  for (let j = 0; j < dModel; j++) if (w[j] > 0 && atZero[j] !== 1) sinOf.set(w[j], j);
  let [sin, cos] = [-1, -1];
  for (let j = 0; j < dModel; j++)
    if (atZero[j] === 1 && sinOf.has(w[j]) && (cos < 0 || w[j] < w[cos])) [sin, cos] = [sinOf.get(w[j]), j];
  if (cos < 0) return [];
  const at = row * dModel;
  const start = Math.round(Math.atan2(data[at + sin], data[at + cos]) / w[sin] - row);
  // (Beyond 2^30 the angle of the lowest pair has wrapped: no start to read.)
  return Math.abs(start) <= 2 ** 30 ? [start, start + 1, start - 1] : [];
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
