// The rounding steps of positionDtype, frequencyDtype, exponentDtype and
// angleDtype in Python snippets (code-snippet.js, rope-snippet.js): one helper,
// round_to, spelled the same in NumPy, PyTorch and JAX, that rounds float64
// values exactly as the core does (docs/precision.md).
import { PRECISION_DTYPES } from './conventions.js';

// Significant bits, smallest normal exponent and largest finite value of each format.
const FORMATS = Object.freeze({
  float32: { bits: 24, minExponent: -126, largest: '3.4028234663852886e+38' },
  float16: { bits: 11, minExponent: -14, largest: '65504.0' },
  bfloat16: { bits: 8, minExponent: -126, largest: '3.3895313892515355e+38' },
});

/** True when any step rounds (a helper is then needed). */
export const rounds = (precision) => Object.values(precision).some((index) => index !== 0);

/**
 * The helper's definition in the library `xp` (np, torch, jnp): x rounded to
 * nearest, ties to even, to `bits` significant bits with no exponent below
 * min_exp (subnormals) and +-inf beyond `largest`. Scaling by powers of two
 * is exact and round() ties to even in all three, so this is the cast's one
 * rounding from float64 (for float32 and float16 the same as
 * x.astype(np.float32 / np.float16) in NumPy).
 */
export function roundToHelper(xp) {
  return [
    'def round_to(x, bits, min_exp, largest):',
    '    # a cast from float64 to float32, float16 or bfloat16: to nearest, ties to even',
    `    _, e = ${xp}.frexp(x)`,
    '    spacing = 2.0 ** ((e - 1).clip(min_exp) - (bits - 1))',
    `    r = ${xp}.round(x / spacing) * spacing`,
    `    return r * ${xp}.where(${xp}.abs(r) > largest, ${xp}.inf, 1.0)  # overflow: +-inf`,
  ];
}

/** `expr` rounded to the format of PRECISION_DTYPES[index] ('float64': unchanged). */
export function rounded(expr, index) {
  const name = PRECISION_DTYPES[index];
  if (name === 'float64') return expr;
  const f = FORMATS[name];
  return `round_to(${expr}, ${f.bits}, ${f.minExponent}, ${f.largest})`;
}

/** A comment naming the format a line rounds to. */
export const roundedNote = (index, what) => (index === 0 ? '' : `  # ${what} in ${PRECISION_DTYPES[index]}`);
