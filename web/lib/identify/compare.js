// Comparing data with a candidate table, and the float32-angle candidate (the
// one formula evaluated outside the core).
import { within } from './storage.js';

/**
 * Compares data with a table: largest difference and where, residual sum of
 * squares, and the first value beyond its allowance (null when none).
 * @param {(row: number, column: number) => number} allowance
 */
export function compare(data, table, dModel, allowance) {
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
export function float32AngleTable(pe, options, length, dModel) {
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
