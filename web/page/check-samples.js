// Example tables for "Check my implementation", built on the fly so that a
// learner can try the checker without a file. All but one come from posenc
// itself (pe.table with knobs); the PyTorch tutorial's table is emulated here,
// because posenc always forms its angles in float64.

/**
 * The PyTorch "Language modeling" tutorial in its default dtype, float32:
 *   position = torch.arange(max_len).unsqueeze(1)
 *   div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
 *   pe[:, 0::2] = torch.sin(position * div_term)
 *   pe[:, 1::2] = torch.cos(position * div_term)
 * Every tensor operation rounds to float32 (Math.fround), so the angle
 * position * div_term loses ~5e-4 by position 8192; sin and cos are then
 * evaluated in float64 and rounded, as float32 libm does to within an ulp.
 */
function pytorchTutorial(length, dModel) {
  const f = Math.fround;
  const step = f(-Math.log(10000.0) / dModel);
  const table = new Float32Array(length * dModel);
  for (let column = 0; column + 1 < dModel; column += 2) {
    const divTerm = f(Math.exp(f(column * step)));
    for (let position = 0; position < length; position++) {
      const angle = f(position * divTerm);
      table[position * dModel + column] = Math.sin(angle);
      table[position * dModel + column + 1] = Math.cos(angle);
    }
  }
  return table;
}

/**
 * name -> { length, dModel, build(pe) -> Float32Array }. Sizes are picked so
 * that what the checker finds shows in the difference heatmap (the float32
 * error needs long tables) and identify() answers in well under a second.
 */
export const SAMPLES = Object.freeze({
  'pytorch-float32': { length: 2048, dModel: 128, build: () => pytorchTutorial(2048, 128) },
  question: {
    length: 128,
    dModel: 64,
    build: (pe) => pe.table({ preset: 'question', length: 128, dModel: 64 }),
  },
  'sin-cos-swapped': {
    length: 256,
    dModel: 64,
    build: (pe) => pe.table({ preset: 'vaswani', order: 'cos-sin', length: 256, dModel: 64 }),
  },
  fairseq: { length: 256, dModel: 64, build: (pe) => pe.table({ preset: 'fairseq', length: 256, dModel: 64 }) },
  'off-by-one': {
    length: 256,
    dModel: 64,
    build: (pe) => pe.table({ preset: 'vaswani', start: 1, length: 256, dModel: 64 }),
  },
});

export const SAMPLE_NAMES = Object.keys(SAMPLES);
