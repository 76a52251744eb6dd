// Turns the page state into the plain data objects the plots draw. Every
// encoding value comes from the core (table, row, frequencies, offsetDots);
// the page only picks columns, subtracts, sums or multiplies 2x2 rotations
// for display. (Whole tables and the similarity matrix are computed in
// compute-worker.js.) Every result is memoised by its arguments: a drag that
// goes back and forth, or moves a slider a plot only partly depends on (the
// length, past the windows shown), computes nothing again, and hands back the
// same arrays, which plots and callers may compare by identity. Results are
// never modified.
import { pairColumns, pairCount, pairOfColumn, sharesFrequency, startingAt } from './convention.js';

/** Starting positions whose s(k) curves are overlaid: p, p + 100, p + 1000. */
const START_STEPS = [0, 100, 1000];
/** Fractional steps per unit position for the continuous curves (25 points per period of the fastest pair). */
const CURVE_STEPS = 4;
const BAND_COUNT = 6;

export { offsetWindow, waveWindow } from './windows.js';

// Per kind of result: enough for every plot of a view and a few steps of a drag.
const MEMO_SIZE = 16;

function cached(memo, key, compute) {
  const text = JSON.stringify(key);
  if (memo.has(text)) {
    const value = memo.get(text);
    // Re-insert: the Map's order is the least recently used first.
    memo.delete(text);
    memo.set(text, value);
    return value;
  }
  const value = compute();
  memo.set(text, value);
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value);
  return value;
}

export function createModel(pe) {
  const memos = new Map();
  /** compute(...args), memoised under `kind` by its arguments. */
  const memoised =
    (kind, compute) =>
    (...args) => {
      if (!memos.has(kind)) memos.set(kind, new Map());
      return cached(memos.get(kind), args, () => compute(...args));
    };
  // Tables read once and dropped are computed into one reused buffer: a fresh
  // multi-megabyte array costs more (first touch of its pages) than the core.
  let scratchBuffer = new Float32Array(0);
  function scratchTable(conv, length) {
    const size = length * conv.dModel;
    // Grown by powers of two, so that a drag through widths does not allocate at every step.
    if (scratchBuffer.length < size) scratchBuffer = new Float32Array(2 ** Math.ceil(Math.log2(size)));
    return pe.table({ ...conv, length, out: scratchBuffer.subarray(0, size) });
  }

  const frequencies = memoised('frequencies', (conv) => pe.frequencies(conv));

  /** Sample columns of the encoding along [from, to]: continuous curves and the integer rows. */
  function waves(conv, columns, from, to) {
    const count = to - from + 1;
    const d = conv.dModel;
    const atFrom = startingAt(conv, from);
    const clean = { ...atFrom, paddingRow: null };
    const points = (count - 1) * CURVE_STEPS + 1;
    const curves = columns.map(() => ({ positions: new Float64Array(points), values: new Float32Array(points) }));
    const samples = columns.map(() => ({ positions: new Float64Array(count), values: new Float32Array(count) }));
    const readSamples = (rows) =>
      columns.forEach((column, c) => {
        for (let n = 0; n < count; n++) {
          samples[c].positions[n] = from + n;
          samples[c].values[n] = rows[n * d + column];
        }
      });
    for (let step = 0; step < CURVE_STEPS; step++) {
      // The integer rows (step 0) are the samples too, which keep the convention's padding row
      // (a zeroed row shows off the curve): one table for both.
      const rows = scratchTable(step === 0 ? atFrom : { ...clean, start: from + step / CURVE_STEPS }, count);
      if (step === 0) readSamples(rows);
      columns.forEach((column, c) => {
        const { positions, values } = curves[c];
        for (let n = 0, at = step; n < count && at < points; n++, at += CURVE_STEPS) {
          positions[at] = from + at / CURVE_STEPS;
          values[at] = rows[n * d + column];
        }
      });
    }
    // The curve itself goes through the padding row's position: one row of the convention without it.
    const padding = atFrom.paddingRow;
    if (Number.isInteger(padding) && padding < count) {
      const row = pe.row(from + padding, clean);
      columns.forEach((column, c) => (curves[c].values[padding * CURVE_STEPS] = row[column]));
    }
    return columns.map((column, c) => ({ column, curve: curves[c], samples: samples[c] }));
  }

  /** s(k) = PE(start)·PE(start + k) for k in [-min(K, start), K], all from the core's closed forms. */
  function offsetCurve(conv, start, window) {
    const back = Math.min(window, start);
    const values = pe.offsetDots({ ...conv, from: start, minOffset: -back, maxOffset: window });
    return { first: -back, values };
  }

  // Per starting position: a drag of p by 100 finds most curves computed already.
  const memoisedCurve = memoised('offsetCurve', offsetCurve);
  function offsetCurves(conv, position, window) {
    return START_STEPS.map((step) => ({ start: position + step, ...memoisedCurve(conv, position + step, window) }));
  }

  /**
   * cos(w_i k) for k in [-K, K], summed over bands of neighbouring pairs: the
   * cos columns of the same frequencies laid out as (sin, cos) pairs, read at
   * positions -K..K (row k of that table holds sin(w_i k), cos(w_i k)).
   */
  const contributions = memoised('contributions', (conv, window) => {
    if (!sharesFrequency(conv)) return null;
    const pairs = pairCount(conv.dModel);
    const laidOut = { ...conv, layout: 'interleaved', order: 'sin-cos', paddingRow: null, scale: 1, start: -window };
    const rows = scratchTable(laidOut, 2 * window + 1);
    const frequency = frequencies(laidOut);
    const bands = Math.min(BAND_COUNT, pairs);
    return Array.from({ length: bands }, (_, band) => {
      const first = Math.floor((band * pairs) / bands);
      const last = Math.floor(((band + 1) * pairs) / bands) - 1;
      const values = new Float64Array(2 * window + 1);
      const d = conv.dModel;
      for (let k = 0, at = 2 * first + 1; k < values.length; k++, at += d) {
        let sum = 0;
        for (let column = at, end = at + 2 * (last - first); column <= end; column += 2) sum += rows[column];
        values[k] = sum;
      }
      const longest = (2 * Math.PI) / frequency[2 * last];
      const shortest = (2 * Math.PI) / frequency[2 * first];
      return { first, last, shortest, longest, values };
    });
  });

  /**
   * One pair as a point on the circle, and the check PE(p+k) = M_k·PE(p) over
   * all pairs. The pair is that of column `dimension`, or the last one for the
   * zero column of an odd d (`column` then says which column is shown).
   */
  function rotation(conv, position, offset, dimension) {
    const owner = pairOfColumn(conv, dimension);
    const pair = owner >= 0 ? owner : pairCount(conv.dModel) - 1;
    const at = pe.row(position, { ...conv, dtype: 'float64' });
    const later = pe.row(position + offset, { ...conv, dtype: 'float64' });
    // Row k of the convention without a padding row or scale holds sin(w_i k), cos(w_i k): M_k itself.
    const turn = pe.row(offset, { ...conv, paddingRow: null, scale: 1, dtype: 'float64' });
    let residual = 0;
    for (let i = 0; i < pairCount(conv.dModel); i++) {
      const { sin, cos } = pairColumns(conv, i);
      const predictedSin = at[sin] * turn[cos] + at[cos] * turn[sin];
      const predictedCos = at[cos] * turn[cos] - at[sin] * turn[sin];
      residual = Math.max(residual, Math.abs(later[sin] - predictedSin), Math.abs(later[cos] - predictedCos));
    }
    const { sin, cos } = pairColumns(conv, pair);
    const trailLength = Math.min(offset, 720) + 1;
    const trailRows = scratchTable(startingAt(conv, position), trailLength);
    const trail = { cos: new Float32Array(trailLength), sin: new Float32Array(trailLength) };
    for (let n = 0; n < trailLength; n++) {
      trail.cos[n] = trailRows[n * conv.dModel + cos];
      trail.sin[n] = trailRows[n * conv.dModel + sin];
    }
    const frequency = frequencies(conv)[sin];
    return {
      pair,
      column: owner >= 0 ? dimension : sin,
      columns: { sin, cos },
      start: [at[cos], at[sin]],
      end: [later[cos], later[sin]],
      turn: [turn[cos], turn[sin]],
      trail,
      frequency,
      angle: sharesFrequency(conv) ? frequency * offset : NaN,
      residual,
    };
  }

  return {
    frequencies,
    row: memoised('row', (conv, position) => pe.row(position, conv)),
    waves: memoised('waves', waves),
    offsetCurves,
    contributions,
    rotation: memoised('rotation', rotation),
    // The core itself, for the sections that call it directly (the RoPE chapter, rope-data.js).
    core: pe,
    /**
     * compute(pe, ...args), memoised under `kind` by its arguments: for the
     * later chapters' numbers (rope-lab-data.js, precision-data.js), whose code
     * loads with their chapter, not with the model.
     */
    remember: (kind, compute, ...args) => memoised(kind, (...values) => compute(pe, ...values))(...args),
    // The rows start … start + length − 1 and s(k) for k in [low, high] from `from`, as the core gives them.
    table: memoised('table', (conv, start, length) => pe.table({ ...conv, start, length })),
    offsetDots: memoised('offsetDots', (conv, from, low, high) =>
      pe.offsetDots({ ...conv, from, minOffset: low, maxOffset: high }),
    ),
  };
}
