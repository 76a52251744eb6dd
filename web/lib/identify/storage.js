// How a table was stored (float16, bfloat16, float32, printed text, float64),
// and so how far its values may be from a candidate and still count as equal.

// 4 float32 ulps of the largest value: float32 data rounded from float64 angles.
const FLOAT32_TOLERANCE = 2 ** -21;
// 2 ulps of values just below 1 in float16 (10 fraction bits) and bfloat16 (7):
// tables stored in half precision (model weights in fp16/bf16).
const HALF_TOLERANCE = { float16: 2 ** -10, bfloat16: 2 ** -7 };
// float64 formulas of different libraries differ by ~1e-12 at position 8192.
const FLOAT64_TOLERANCE = 1e-9;
// Fewer significant digits than this: the values were printed, not computed.
const FULL_DIGITS = 15;

/** The one float comparison: a difference within a tolerance. */
export const within = (difference, tolerance) => Math.abs(difference) <= tolerance;

/** Significant digits in the shortest decimal text of v. */
export const significantDigits = (v) => Math.abs(v).toExponential().split('e')[0].replace('.', '').length;

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
export function storageOf(values) {
  let float16 = true;
  let bfloat16 = true;
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
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
export function toleranceOf(values, storage) {
  let maxAbs = 0;
  for (let k = 0; k < values.length; k++) maxAbs = Math.max(maxAbs, Math.abs(values[k]));
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
