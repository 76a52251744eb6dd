// English strings of the precision plot (<posenc-precision>, embed plot=precision):
// spread into plots.en.js. A function of the number formatter, so that this
// table imports nothing (plots.zh.js keeps its own copy of the formatter).
export default (n) => ({
  'precision.legend': (unit) => `error / ${n(unit)}`,
  'precision.readout': (position, column, value) => `p = ${position}, j = ${column}: error ${n(value, 4)}`,
  'precision.describe': ({ rows, columns, min, max, format }) =>
    `Error map of the table computed with positions, frequencies and angles in ${format}, minus the exact table: ${rows} positions by ${columns} dimensions, errors from ${n(min)} to ${n(max)}. The error grows with position and is largest in the fast low dimensions.`,
  'precision.factsCaption': (length) =>
    `Each format with position, frequency and angle all in it (the table above, L = ${length})`,
  'precision.col.format': 'format',
  'precision.col.collision': 'first positions that collide',
  'precision.col.overflow': 'overflow',
  'precision.col.largest': 'largest error up to L',
  'precision.collision': (p) => `${p} = ${p + 1}`,
  'precision.overflow': (p) => `from ${p}: ∞ (NaN values)`,
  'precision.noOverflow': 'none',
  'precision.largest': ({ value, position, column }) => `${n(value)} (p = ${position}, j = ${column})`,
  'precision.mapLargest': ({ format, value, position, column, length }) =>
    `Through ${format}, the largest error up to L = ${length} is ${n(value)}, at p = ${position}, j = ${column} (marked).`,
  'precision.neox': ({
    position,
    feature,
    frequency,
    halfFrequency,
    exactAngle,
    halfAngle,
    exactCos,
    halfCos,
    largest,
    float32Largest,
  }) =>
    `gpt-neox #1003 (float16, head dim 32): at position ${position}, feature ${feature}, the angle ${position} × ${n(frequency, 6)} = ${n(exactAngle, 8)} becomes ${position} × ${n(halfFrequency, 6)} → ${n(halfAngle, 8)} in float16, and cos is ${n(halfCos, 4)} instead of ${n(exactCos, 4)}. Largest cos error over the 2048 × 32 cache: ${n(largest.value, 4)} (position ${largest.position}, feature ${largest.feature}); with float32 steps: ${n(float32Largest)}.`,
  'precision.bfloat16': ({ exactDifference, roundedDifference }) =>
    `bfloat16 positions: rows 256 and 257 differ by up to ${n(exactDifference)} when exact, and by ${n(roundedDifference)} when the position is bfloat16 (257 rounds to 256).`,
  'precision.diffusers': ({ length, start, distinct, exactDistinct, largest, float32Largest }) =>
    `diffusers #13920 (bfloat16 under autocast): the ${length} positions from ${start} give ${distinct} distinct cache rows instead of ${exactDistinct}, and cos errs by up to ${n(largest)}. Angles in float32 (the fix, PR #13922): ${n(float32Largest)}.`,
});
