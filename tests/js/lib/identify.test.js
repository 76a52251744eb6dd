import { describe, it, expect, beforeAll } from 'vitest';
import { load, PRESETS } from '../../../web/lib/index.js';
import { identify } from '../../../web/lib/identify.js';
import { structuredLikeHuggingFace } from '../../../web/lib/conventions.js';
import { parseTable } from '../../../web/lib/export.js';
import { expectClose, FLOAT64_EPSILON } from '../tolerance.js';

// A value of a float64 table and its expected value: one evaluation (sin, cos, sqrt) each, so an
// ulp or two of values up to sqrt(dModel).
const FIRST_VALUE = { absolute: FLOAT64_EPSILON, relative: 2 * FLOAT64_EPSILON };

// Every table below is written from the framework's own code, literally and
// in float64 unless it says float32 — never from the library — so identify()
// is checked against what people actually compute.

/** A row-major [length x d] table of value(pos, j); value may return undefined for 0. */
function build(length, d, value, ArrayType = Float64Array) {
  const out = new ArrayType(length * d);
  for (let pos = 0; pos < length; pos++) for (let j = 0; j < d; j++) out[pos * d + j] = value(pos, j) ?? 0;
  return out;
}

// PyTorch "Language modeling" tutorial (the paper, §3.5):
//   div_term = exp(arange(0, d, 2) * (-log(10000.0) / d))
//   pe[:, 0::2] = sin(position * div_term); pe[:, 1::2] = cos(position * div_term)
// `first`/`second` are the functions of the even/odd columns, `position` the row's position.
function pytorchTutorial(length, d, { first = Math.sin, second = Math.cos, position = (row) => row } = {}) {
  const divTerm = (k) => Math.exp(k * (-Math.log(10000.0) / d));
  return build(length, d, (row, j) => {
    const angle = position(row) * divTerm(2 * Math.floor(j / 2));
    return j % 2 === 0 ? first(angle) : second(angle);
  });
}

// The same tutorial in PyTorch's default dtype: every tensor op rounds to float32.
function pytorchTutorialFloat32(length, d) {
  const f = Math.fround;
  const c = f(-Math.log(10000.0) / d);
  const divTerm = (k) => f(Math.exp(f(k * c)));
  return build(
    length,
    d,
    (pos, j) => {
      const angle = f(pos * divTerm(2 * Math.floor(j / 2)));
      return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    },
    Float32Array,
  );
}

// Hugging Face transformers create_sinusoidal_embeddings(n_pos, dim, out): numpy float64,
// then torch.FloatTensor (float32):
//   position_enc = [[pos / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] for pos in range(n_pos)]
//   out[:, 0::2] = FloatTensor(sin(position_enc[:, 0::2])); out[:, 1::2] = FloatTensor(cos(position_enc[:, 1::2]))
// At odd dim the last column (even j) is a sine whose cosine is missing.
function huggingFace(nPos, dim) {
  return build(
    nPos,
    dim,
    (pos, j) => {
      const angle = pos / Math.pow(10000, (2 * Math.floor(j / 2)) / dim);
      return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    },
    Float32Array,
  );
}

// tensor2tensor common_attention.get_timing_signal_1d:
//   log_timescale_increment = log(max / min) / max(num_timescales - 1, 1)
//   inv_timescales = min * exp(arange(num_timescales) * -log_timescale_increment)
//   signal = concat([sin(scaled_time), cos(scaled_time)], axis=1); pad [0, channels % 2]
function tensor2tensor(length, channels, { minTimescale = 1.0, maxTimescale = 1.0e4 } = {}) {
  const numTimescales = Math.floor(channels / 2);
  const logTimescaleIncrement = Math.log(maxTimescale / minTimescale) / Math.max(numTimescales - 1, 1);
  const invTimescale = (i) => minTimescale * Math.exp(i * -logTimescaleIncrement);
  return build(length, channels, (pos, j) => {
    if (j >= 2 * numTimescales) return 0;
    const i = j % numTimescales;
    return j < numTimescales ? Math.sin(pos * invTimescale(i)) : Math.cos(pos * invTimescale(i));
  });
}

// TensorFlow tutorial positional_encoding(length, depth), numpy float64 then tf.cast to float32:
//   depth = depth / 2; depths = arange(depth) / depth; angle_rates = 1 / (10000 ** depths)
//   concatenate([sin(angle_rads), cos(angle_rads)], axis=-1)
function tfTutorial(length, depth) {
  const half = depth / 2;
  const angleRate = (i) => 1 / 10000 ** (i / half);
  return build(
    length,
    depth,
    (pos, j) => (j < half ? Math.sin(pos * angleRate(j)) : Math.cos(pos * angleRate(j - half))),
    Float32Array,
  );
}

// fairseq SinusoidalPositionalEmbedding.get_embedding(num_embeddings, embedding_dim, padding_idx):
//   emb = log(10000) / (half_dim - 1); emb = exp(arange(half_dim) * -emb)
//   emb = arange(num_embeddings)[:, None] * emb[None, :]; cat([sin, cos], dim=1)
//   zero column if embedding_dim is odd; emb[padding_idx, :] = 0
// `interleave` is the bug: stack([sin, cos], dim=2).view(num_embeddings, -1).
function fairseq(numEmbeddings, embeddingDim, paddingIdx, { interleave = false } = {}) {
  const halfDim = Math.floor(embeddingDim / 2);
  const emb = Math.log(10000) / (halfDim - 1);
  const frequency = (i) => Math.exp(i * -emb);
  return build(numEmbeddings, embeddingDim, (pos, j) => {
    if (pos === paddingIdx || j >= 2 * halfDim) return 0;
    const [i, isCos] = interleave ? [Math.floor(j / 2), j % 2 === 1] : [j % halfDim, j >= halfDim];
    return isCos ? Math.cos(pos * frequency(i)) : Math.sin(pos * frequency(i));
  });
}

// The early PyTorch port (attention-is-all-you-need-pytorch, 2017):
//   position_enc = [[pos / np.power(10000, 2 * j / d) for j in range(d)] if pos != 0 else np.zeros(d) ...]
//   position_enc[1:, 0::2] = sin(...); position_enc[1:, 1::2] = cos(...)
// `zeroRow: false` drops the `if pos != 0` branch.
function legacyColumnPort(nPosition, d, { zeroRow = true } = {}) {
  return build(nPosition, d, (pos, j) => {
    if (zeroRow && pos === 0) return 0;
    const angle = pos / Math.pow(10000, (2 * j) / d);
    return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
  });
}

// The well-known Q&A attempt: PE(pos, j) = cos((pos / 10000)^(2j/d)) for even j, sin(...) for odd j.
function questionAttempt(length, d) {
  return build(length, d, (pos, j) => {
    const angle = Math.pow(pos / 10000, (2 * j) / d);
    return j % 2 === 0 ? Math.cos(angle) : Math.sin(angle);
  });
}

// The paper with the power misplaced: (pos / 10000)^(2i/d) instead of pos / 10000^(2i/d).
function ratioPowerPaper(length, d) {
  return build(length, d, (pos, j) => {
    const angle = Math.pow(pos / 10000, (2 * Math.floor(j / 2)) / d);
    return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
  });
}

// Keras-NLP SinePositionEncoding in float32: a different float32 recipe (pow, not exp):
//   timescales = pow(1 / max_wavelength, 2 * (arange(hidden) // 2) / hidden); angles = position * timescales
function kerasSinePositionEncodingFloat32(length, hidden) {
  const f = Math.fround;
  const minFrequency = f(1 / 10000);
  const timescale = (j) => f(Math.pow(minFrequency, f(f(2 * Math.floor(j / 2)) / hidden)));
  return build(
    length,
    hidden,
    (pos, j) => {
      const angle = f(pos * timescale(j));
      return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    },
    Float32Array,
  );
}

const codes = (result) => result.diagnosis.map((d) => d.code);

describe('identify', () => {
  let pe;
  beforeAll(async () => {
    pe = await load();
  });

  describe('recognises each preset from its framework code', () => {
    const cases = [
      ['vaswani', () => pytorchTutorial(96, 64), 96, 64],
      ['tensor2tensor', () => tensor2tensor(80, 48), 80, 48],
      ['tensor2tensor', () => tensor2tensor(40, 33), 40, 33],
      ['vaswani', () => huggingFace(50, 33), 50, 33],
      ['fairseq', () => fairseq(70, 33, 1), 70, 33],
      ['legacy-column', () => legacyColumnPort(60, 33), 60, 33],
      ['question', () => questionAttempt(64, 33), 64, 33],
      // One row at position 0: the last column is 0 = sin(0) either way.
      ['vaswani', () => huggingFace(1, 33), 1, 33],
      ['tensor2tensor', () => tensor2tensor(1, 33), 1, 33],
      ['tf-tutorial', () => tfTutorial(100, 128), 100, 128],
      ['fairseq', () => fairseq(70, 64, 1), 70, 64],
      ['legacy-column', () => legacyColumnPort(60, 32), 60, 32],
      ['question', () => questionAttempt(64, 32), 64, 32],
    ];
    for (const [preset, make, length, dModel] of cases)
      it(`${preset} (${length} x ${dModel})`, () => {
        const result = identify(pe, make(), length, dModel);
        expect(result.match).toBe(true);
        expect(result.preset).toBe(preset);
        expect(result.options).toEqual({ ...PRESETS[preset] });
        expect(result.firstDifference).toBeNull();
        expect(result.float32Angle).toBe(false);
        expect(result.maxAbsError).toBeLessThanOrEqual(result.tolerance);
      });

    it('names the mistakes the legacy and question presets carry', () => {
      // Answer 1's code: the exponent on the column index, and row 0 all zeros (its padding row).
      const legacy = identify(pe, legacyColumnPort(60, 32), 60, 32);
      expect(codes(legacy)).toEqual(['exponent-uses-column', 'unexpected-padding-row']);
      expect(legacy.diagnosis[1]).toMatchObject({ preset: 'vaswani', found: 0, expected: null, where: { row: 0 } });
      expect(codes(identify(pe, questionAttempt(64, 32), 64, 32)).sort()).toEqual(
        ['exponent-uses-column', 'ratio-power', 'sin-cos-swapped'].sort(),
      );
    });

    it('names only the mistakes a variant of them still has', () => {
      // The Q&A attempt with the power fixed: pos / 10000^(2j/d), cos on even columns.
      const fixed = build(64, 32, (pos, j) => {
        const angle = pos / Math.pow(10000, (2 * j) / 32);
        return j % 2 === 0 ? Math.cos(angle) : Math.sin(angle);
      });
      const result = identify(pe, fixed, 64, 32);
      expect(result.nearestPreset).toBe('question');
      expect(codes(result)).toEqual(['angle-divide', 'exponent-uses-column', 'sin-cos-swapped']);
    });

    it('names an odd last column that departs from the preset', () => {
      // The tutorial's assignment, guarded for odd d (pe[:, 1::2] = cos(... div_term[:d // 2])),
      // but with the sines cut to the pairs: the last column stays zero.
      const zeroed = build(40, 33, (pos, j) => (j === 32 ? 0 : pytorchTutorial(1, 33, { position: () => pos })[j]));
      const result = identify(pe, zeroed, 40, 33);
      expect(result).toEqual(expect.objectContaining({ match: true, preset: null, nearestPreset: 'vaswani' }));
      expect(result.options).toEqual({ ...PRESETS.vaswani, oddColumn: 'zero' });
      expect(codes(result)).toEqual(['odd-column-zero']);
      expect(result.firstDifference).toEqual(expect.objectContaining({ row: 1, column: 32, actual: 0 }));
      // tensor2tensor's blocks with a sine of a 17th timescale in place of the padding.
      const lone = tensor2tensor(40, 33);
      for (let pos = 0; pos < 40; pos++) lone[pos * 33 + 32] = Math.sin(pos * Math.exp(16 * (-Math.log(1e4) / 15)));
      const t2t = identify(pe, lone, 40, 33);
      expect(t2t).toEqual(expect.objectContaining({ match: true, nearestPreset: 'tensor2tensor' }));
      expect(codes(t2t)).toEqual(['odd-column-formula']);
      // Not the paper's structure: not what Hugging Face computes either.
      expect(t2t.diagnosis[0].message).not.toContain('Hugging Face');
    });

    it("the paper's structure, which Hugging Face computes: layout, exponent, order and angle", () => {
      // Hugging Face and Keras-NLP: interleaved, exponent 2i/d, sin first, pos / base^e.
      expect(structuredLikeHuggingFace(PRESETS.vaswani)).toBe(true);
      // Base, start, padding, scale and the odd column are no part of the structure.
      const knobs = { base: 500, start: 3, paddingRow: 1, scale: Math.sqrt(32), oddColumn: 'zero' };
      expect(structuredLikeHuggingFace({ ...PRESETS.vaswani, ...knobs })).toBe(true);
      for (const name of ['tensor2tensor', 'tf-tutorial', 'fairseq', 'legacy-column', 'question'])
        expect(structuredLikeHuggingFace(PRESETS[name]), name).toBe(false);
      for (const change of [
        { layout: 'concat' },
        { exponent: 'half-minus-one' },
        { order: 'cos-sin' },
        { angle: 'ratio-power' },
      ])
        expect(structuredLikeHuggingFace({ ...PRESETS.vaswani, ...change }), JSON.stringify(change)).toBe(false);
    });

    it('names the preset whose own table it is where knobs make no difference (d = 1, 3)', () => {
      // d = 1: one column, sin(pos); row 0 is zero without being a padding row.
      const one = build(50, 1, (pos) => Math.sin(pos));
      expect(identify(pe, one, 50, 1)).toEqual(
        expect.objectContaining({ match: true, preset: 'vaswani', diagnosis: [] }),
      );
      // d = 3: one pair (layout and exponent moot) and tensor2tensor's zero column:
      // the TF tutorial's table is the same one.
      const three = identify(pe, tensor2tensor(40, 3), 40, 3);
      expect(three).toEqual(expect.objectContaining({ match: true, diagnosis: [] }));
      expect(['tensor2tensor', 'tf-tutorial']).toContain(three.preset);
      expect(three.options).toEqual({ ...PRESETS[three.preset] });
      // ... and the paper's at d = 3, with its lone sine.
      const paper = build(40, 3, (pos, j) =>
        j === 1 ? Math.cos(pos) : Math.sin(pos / 10000 ** ((2 * Math.floor(j / 2)) / 3)),
      );
      expect(identify(pe, paper, 40, 3)).toEqual(expect.objectContaining({ match: true, preset: 'vaswani' }));
    });

    it('accepts number[] data', () => {
      const result = identify(pe, Array.from(pytorchTutorial(20, 16)), 20, 16);
      expect(result.preset).toBe('vaswani');
    });
  });

  describe('diagnoses each bug', () => {
    const d = 64;
    const bugs = [
      {
        code: 'sin-cos-swapped',
        nearest: 'vaswani',
        table: () => pytorchTutorial(80, d, { first: Math.cos, second: Math.sin }),
        options: { order: 'cos-sin' },
        first: { row: 0, column: 0, expected: 0, actual: 1 },
      },
      {
        // The paper's formula with the column index j where the pair index i belongs:
        // without a padding row this is also the legacy port missing its zero row.
        code: 'exponent-uses-column',
        nearest: 'legacy-column',
        table: () =>
          build(80, d, (pos, j) => {
            const angle = pos / Math.pow(10000, (2 * j) / d);
            return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
          }),
        options: { exponent: 'column', paddingRow: null },
      },
      {
        code: 'ratio-power',
        nearest: 'vaswani',
        table: () => ratioPowerPaper(80, d),
        options: { angle: 'ratio-power', exponent: 'pair' },
      },
      {
        // position = arange(1, max_len + 1)
        code: 'start-off-by-one',
        nearest: 'vaswani',
        table: () => pytorchTutorial(80, d, { position: (row) => row + 1 }),
        options: { start: 1 },
        first: { row: 0, column: 0, expected: 0, actual: Math.sin(1) },
      },
      {
        code: 'missing-padding-row',
        nearest: 'legacy-column',
        table: () => legacyColumnPort(80, d, { zeroRow: false }),
        options: { exponent: 'column', paddingRow: null },
        first: { row: 0, column: 1, expected: 0, actual: 1 },
      },
      {
        // pe[padding_idx] = 0 with padding_idx = 0 on the tutorial's table
        code: 'unexpected-padding-row',
        nearest: 'vaswani',
        table: () => {
          const t = pytorchTutorial(80, d);
          t.fill(0, 0, d);
          return t;
        },
        options: { paddingRow: 0 },
        first: { row: 0, column: 1, expected: 1, actual: 0 },
      },
      {
        code: 'concat-vs-interleaved',
        nearest: 'fairseq',
        table: () => fairseq(80, d, 1, { interleave: true }),
        options: { layout: 'interleaved', exponent: 'half-minus-one', paddingRow: 1 },
      },
      {
        // x + pe * sqrt(d_model), a common confusion with the embedding scale
        code: 'scaled',
        nearest: 'vaswani',
        table: () => pytorchTutorial(80, d).map((v) => v * Math.sqrt(d)),
        options: { scale: Math.sqrt(d) },
        first: { row: 0, column: 1, expected: 1, actual: Math.sqrt(d) },
      },
      {
        code: 'base',
        nearest: 'tensor2tensor',
        table: () => tensor2tensor(80, d, { maxTimescale: 1000 }),
        options: { base: 1000 },
      },
    ];
    for (const bug of bugs)
      it(bug.code, () => {
        const result = identify(pe, bug.table(), 80, d);
        expect(result.match).toBe(true);
        expect(result.preset).toBeNull();
        expect(result.nearestPreset).toBe(bug.nearest);
        expect(codes(result)).toContain(bug.code);
        expect(result.options).toEqual(expect.objectContaining(bug.options));
        expect(result.maxAbsError).toBeLessThanOrEqual(result.tolerance);
        for (const { message } of result.diagnosis) expect(message).toMatch(/^[A-Z].*\.$/);
        if (bug.first) {
          const { expected, actual, ...at } = result.firstDifference;
          expect(at).toEqual({ row: bug.first.row, column: bug.first.column });
          expectClose(expected, bug.first.expected, FIRST_VALUE);
          expectClose(actual, bug.first.actual, FIRST_VALUE);
        }
      });

    it('float32-angle: the PyTorch tutorial in float32 at 8192 positions', () => {
      const data = pytorchTutorialFloat32(8192, d);
      const result = identify(pe, data, 8192, d);
      expect(result.match).toBe(true);
      expect(result.preset).toBe('vaswani');
      expect(result.float32Angle).toBe(true);
      expect(codes(result)).toEqual(['float32-angle']);
      // The float32 error is invisible at small positions and ~1e-4 at the end.
      expect(result.firstDifference.row).toBeGreaterThan(8);
      const float64 = pytorchTutorial(8192, d);
      const worst = data.reduce((max, v, k) => Math.max(max, Math.abs(v - float64[k])), 0);
      expect(worst).toBeGreaterThan(1e-4);
    });

    it('float32-angle: the same table saved as text (np.savetxt fmt="%.6f")', () => {
      const data = pytorchTutorialFloat32(8192, d);
      const text = Array.from({ length: 8192 }, (_, row) =>
        Array.from(data.subarray(row * d, (row + 1) * d), (v) => v.toFixed(6)).join(' '),
      ).join('\n');
      const parsed = parseTable(text);
      const result = identify(pe, parsed.data, parsed.length, parsed.dModel);
      expect(result).toEqual(expect.objectContaining({ match: true, preset: 'vaswani', float32Angle: true }));
    });

    it('float32-angle: fairseq as it runs (float32 arange), with its padding row', () => {
      const f = Math.fround;
      const halfDim = d / 2;
      const emb = f(-(Math.log(10000) / (halfDim - 1)));
      const frequency = (i) => f(Math.exp(f(i * emb)));
      const data = build(
        2048,
        d,
        (pos, j) => {
          if (pos === 1) return 0;
          const angle = f(pos * frequency(j % halfDim));
          return j < halfDim ? Math.sin(angle) : Math.cos(angle);
        },
        Float32Array,
      );
      const result = identify(pe, data, 2048, d);
      expect(result).toEqual(expect.objectContaining({ match: true, preset: 'fairseq', float32Angle: true }));
      expect(codes(result)).toEqual(['float32-angle']);
    });

    it('float32-angle: another float32 recipe (Keras-NLP, pow instead of exp) stays within float32 error', () => {
      const result = identify(pe, kerasSinePositionEncodingFloat32(4096, d), 4096, d);
      expect(result).toEqual(expect.objectContaining({ match: true, preset: 'vaswani', float32Angle: true }));
    });

    it('float32-angle: Keras-NLP at an odd width, its last column a sine alone', () => {
      const result = identify(pe, kerasSinePositionEncodingFloat32(4096, 33), 4096, 33);
      expect(result).toEqual(expect.objectContaining({ match: true, preset: 'vaswani', float32Angle: true }));
    });

    it('float64 angles are not float32-angle, even at 8192 positions', () => {
      const result = identify(pe, Float32Array.from(pytorchTutorial(8192, d)), 8192, d);
      expect(result).toEqual(expect.objectContaining({ match: true, preset: 'vaswani', float32Angle: false }));
    });
  });

  it('fits a base that is not on the grid', () => {
    const base = 12345.678;
    const data = build(100, 64, (pos, j) => {
      const angle = pos / Math.pow(base, (2 * Math.floor(j / 2)) / 64);
      return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    });
    const result = identify(pe, data, 100, 64);
    expect(result.match).toBe(true);
    // Read back from the fitted frequencies of a float64 table: a ratio of logarithms.
    expectClose(result.options.base, base, { relative: 1e-10 });
    expect(codes(result)).toEqual(['base']);
  });

  it('keeps every digit a non-round base needs over the whole table, and claims no float32 angles for it', () => {
    // float64 angles cast to float32 (as Hugging Face stores them), 4096 positions: a base
    // rounded to fit the first rows is off by 6e-5 at the last, which looked like float32 angles.
    for (const base of [7777.777, 12345.6789]) {
      const data = build(
        4096,
        64,
        (pos, j) => {
          const angle = pos / Math.pow(base, (2 * Math.floor(j / 2)) / 64);
          return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
        },
        Float32Array,
      );
      const result = identify(pe, data, 4096, 64);
      expect(result).toEqual(expect.objectContaining({ match: true, float32Angle: false }));
      expect(result.options).toEqual(expect.objectContaining({ exponent: 'pair', base }));
      expect(codes(result)).toEqual(['base']);
    }
  });

  it('reads tables stored in float16 and bfloat16', () => {
    // Round to `bits` fraction bits (float16: 10, down to 2^-14; bfloat16: 7).
    const rounder = (bits, minExponent) => (v) => {
      if (v === 0) return 0;
      const unit = 2 ** (Math.max(Math.floor(Math.log2(Math.abs(v))), minExponent) - bits);
      return Math.round(v / unit) * unit;
    };
    for (const round of [rounder(10, -14), rounder(7, -126)]) {
      const data = pytorchTutorial(512, 128).map(round);
      expect(identify(pe, data, 512, 128)).toEqual(expect.objectContaining({ match: true, preset: 'vaswani' }));
    }
  });

  it('says when the table is transposed (dimensions in rows), and when it is all zeros', () => {
    const table = pytorchTutorial(256, 32);
    const turned = new Float64Array(table.length);
    for (let r = 0; r < 256; r++) for (let j = 0; j < 32; j++) turned[j * 256 + r] = table[r * 32 + j];
    const result = identify(pe, turned, 32, 256);
    expect(result).toEqual(expect.objectContaining({ match: false, transposed: true, nearestPreset: 'vaswani' }));
    expect(codes(result)).toEqual(['transposed']);
    expect(result.diagnosis[0].message).toContain('As 256 positions × 32 dimensions it is vaswani');
    expect(identify(pe, table, 256, 32).transposed).toBe(false);

    const zeros = identify(pe, new Float32Array(40), 5, 8);
    expect(zeros).toEqual(expect.objectContaining({ match: false, preset: null, transposed: false }));
    expect(codes(zeros)).toEqual(['all-zero']);
    // Scale 0 reproduces it; the paper's table first differs at cos(0) = 1.
    expect(zeros.options).toEqual({ ...PRESETS.vaswani, scale: 0 });
    expect(zeros.firstDifference).toEqual({ row: 0, column: 1, expected: 1, actual: 0 });
    // One column, one row: sin(0) = 0 is the paper's table too.
    expect(identify(pe, [0], 1, 1).firstDifference).toBeNull();
  });

  it('reads a table printed with 6 decimals (np.savetxt fmt="%.6f")', () => {
    const text = Array.from({ length: 50 }, (_, row) =>
      Array.from(tensor2tensor(50, 32).subarray(row * 32, (row + 1) * 32), (v) => v.toFixed(6)).join(' '),
    ).join('\n');
    const { data, length, dModel } = parseTable(text);
    const result = identify(pe, data, length, dModel);
    expect(result).toEqual(expect.objectContaining({ match: true, preset: 'tensor2tensor' }));
    expect(result.tolerance).toBeLessThan(1e-4);
  });

  it('says so when nothing explains the table', () => {
    const data = pytorchTutorial(40, 16);
    data[5 * 16 + 3] += 0.01; // one corrupted value
    const result = identify(pe, data, 40, 16);
    expect(result.match).toBe(false);
    expect(result.preset).toBeNull();
    expect(result.nearestPreset).toBe('vaswani');
    expect(codes(result)).toEqual(['unexplained']);
    expect(result.diagnosis[0].message).toContain('row 5, column 3');
    expect(result.firstDifference).toEqual(expect.objectContaining({ row: 5, column: 3 }));
    // 0.01 added to one of 640 values whose squares sum to 320: the scale fitted by least squares
    // takes up to 0.01 / 320 of it.
    expectClose(result.maxAbsError, 0.01, 0.01 / 320);
  });
});
