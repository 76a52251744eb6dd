// Independent references for the precision knobs, shared by the Vitest and
// browser tests: IEEE binary16 by bit-level rounding of the double, bfloat16
// by round-to-nearest-even on the top 16 bits of the float32 (never the code
// under test).
const bits = new BigUint64Array(1);
const asDouble = new Float64Array(bits.buffer);

/** x rounded to IEEE binary16 (nearest, ties to even), from the bits of the double. */
export function float16(x) {
  if (Number.isNaN(x) || x === 0 || !Number.isFinite(x)) return x;
  asDouble[0] = x;
  const b = bits[0];
  const sign = b >> 63n ? -1 : 1;
  let exponent = Number((b >> 52n) & 0x7ffn) - 1023;
  const significand = (b & ((1n << 52n) - 1n)) | (1n << 52n);
  const shift = 42n + BigInt(exponent < -14 ? -14 - exponent : 0);
  if (shift > 54n) return sign * 0;
  let q = significand >> shift;
  const rest = significand & ((1n << shift) - 1n);
  const half = 1n << (shift - 1n);
  if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  if (exponent < -14) return sign * Number(q) * 2 ** -24;
  if (q === 2048n) ((q = 1024n), exponent++);
  if (exponent > 15) return sign * Infinity;
  return sign * Number(q) * 2 ** (exponent - 10);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** A float32 value rounded to bfloat16 as frameworks do: nearest even on the top 16 bits. */
export function bfloat16(x) {
  f32[0] = x;
  u32[0] = ((u32[0] + 0x7fff + ((u32[0] >>> 16) & 1)) & 0xffff0000) >>> 0;
  return f32[0];
}

/** Each format's rounding of a double. */
export const ROUND = { float64: (x) => x, float32: Math.fround, float16, bfloat16 };
