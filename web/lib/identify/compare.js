// Comparing data with a candidate table, and the float32-angle candidate (the
// one formula evaluated outside the core).
import { within } from './storage.js';

/**
 * Compares data with a table: largest difference and where, residual sum of
 * squares, the first value beyond its allowance (null when none) and the
 * table's value there.
 * @param {number | ((row: number, column: number) => number)} allowance one for all values, or per value
 */
export function compare(data, table, dModel, allowance) {
  const fixed = typeof allowance === 'number';
  let maxAbsError = 0;
  let worst = 0;
  let ssr = 0;
  let firstBeyond = -1;
  for (let k = 0, row = 0; k < data.length; row++)
    for (let column = 0; column < dModel; column++, k++) {
      const difference = data[k] - table[k];
      const size = Math.abs(difference);
      ssr += difference * difference;
      if (size > maxAbsError) [maxAbsError, worst] = [size, k];
      if (firstBeyond < 0 && !within(difference, fixed ? allowance : allowance(row, column))) firstBeyond = k;
    }
  const at = (k) => ({ row: Math.floor(k / dModel), column: k % dModel });
  return {
    maxAbsError,
    worst: at(worst),
    ssr,
    firstBeyond: firstBeyond < 0 ? null : at(firstBeyond),
    expectedThere: firstBeyond < 0 ? null : table[firstBeyond],
  };
}

/**
 * Room for whole candidate tables, reused by one identify() call: an array in
 * the module's memory, which the core fills in place (a fresh array per table
 * cost more than computing it), else (memory full) a Float64Array. Free it.
 */
export function tableScratch(pe, count) {
  try {
    return pe.allocate(count, { dtype: 'float64' });
  } catch {
    return new Float64Array(count);
  }
}

/** The values of a scratch: a WasmArray's view of module memory (taken afresh), or the Float64Array. */
const viewOf = (scratch) => (ArrayBuffer.isView(scratch) ? scratch : scratch.array);

/** compare() of the data with the library's float64 table of `options` (as many rows as the data), made in `scratch`. */
export function compareTable(pe, scratch, data, options, dModel, allowance) {
  const table = pe.table({ ...options, dModel, length: data.length / dModel, dtype: 'float64', out: scratch });
  return compare(data, table, dModel, allowance);
}

/**
 * The table as PyTorch's tutorial, tensor2tensor and fairseq compute it in
 * float32: w = exp(k * (-ln(base) / D)) with exponent e = k / D (D = d, or
 * d/2 - 1 for 'half-minus-one'), angle = pos * w and sin/cos, each step
 * rounded to float32. The core's float32 steps round the exponent e, not the
 * product k * (-ln(base) / D), so this recipe is the one formula evaluated
 * here; exponents (read back from pe.frequencies) and which
 * columns hold cos (pe.row at 0) come from the library. Also returns, per
 * value, the error any float32 evaluation of the angle may have (rounding of
 * w, an exp of a rounded argument, and of pos * w: (|ln w| + 2) float32 ulps
 * of the angle), for float32 recipes other than this one. Only the given
 * rows (indices into the table), one after another, into `out` (a scratch
 * from tableScratch) when given.
 *
 * recipe 'log-interp' is MLX's nn.SinusoidalPositionalEncoding instead (exponent
 * 'half-minus-one'): w = exp(one_zero * (ln max_freq - ln min_freq) + ln min_freq)
 * in float32, one_zero = 1 - i / (d/2 - 1), max_freq 1 and min_freq 1 / base.
 */
export function float32AngleRows(pe, options, rows, dModel, out = null, recipe = 'exp-step') {
  const { base, start, scale, paddingRow } = options;
  const w = pe.frequencies({ ...options, dModel });
  // cos(0) = 1 and sin(0) = 0: row 0 without padding tells which columns hold cos.
  const atZero = pe.row(0, { ...options, dModel, start: 0, paddingRow: null, scale: 1, dtype: 'float64' });
  const denominator = options.exponent === 'half-minus-one' ? Math.max(Math.floor(dModel / 2) - 1, 1) : dModel;
  const step = Math.fround(-Math.log(base) / denominator);
  // MLX's constants: ln max_freq - ln min_freq and ln min_freq, each rounded where it meets a float32 array.
  const span = Math.fround(0 - Math.log(1 / base));
  const lnMin = Math.fround(Math.log(1 / base));
  const w32 = Float64Array.from(w, (wj) => {
    if (wj === 0) return 0;
    const k = Math.round((-Math.log(wj) / Math.log(base)) * denominator);
    if (recipe === 'log-interp') {
      const oneZero = Math.fround(1 - Math.fround(k / denominator));
      return Math.fround(Math.exp(Math.fround(Math.fround(oneZero * span) + lnMin)));
    }
    return Math.fround(Math.exp(Math.fround(k * step)));
  });
  const usesCos = Array.from(atZero, (v) => v === 1);
  // (out, when given, is taken after the calls above: they may move the module's memory.)
  const table = out === null ? new Float64Array(rows.length * dModel) : viewOf(out);
  rows.forEach((r, k) => {
    if (r === paddingRow) return table.fill(0, k * dModel, (k + 1) * dModel);
    const position = Math.fround(start + r);
    for (let j = 0, a = k * dModel; j < dModel; j++, a++) {
      const angle = Math.fround(position * w32[j]);
      table[a] = Math.fround(scale * Math.fround(usesCos[j] ? Math.cos(angle) : Math.sin(angle)));
    }
  });
  // Per column, the slack at position 1 (it grows in proportion to the position).
  const perPosition = Float64Array.from(w, (wj) =>
    wj === 0 ? 0 : Math.abs(scale * wj) * (Math.abs(Math.log(wj)) + 2) * 2 ** -23,
  );
  const slack = (row, column) => Math.abs(start + row) * perPosition[column];
  return { table, slack };
}
