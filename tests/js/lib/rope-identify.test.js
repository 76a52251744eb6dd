// pe.ropeIdentify against cos/sin caches built here in float64 from the
// formulas of transformers' modeling_rope_utils.py (rope-reference.js), never
// from posenc's own results: each cache must be named with the layout, kind,
// rope_theta, scaling type and factor, attention factor and dtype it was built with.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { hfCache } from '../hf-fixture.js';
import { frequenciesReference } from '../rope-reference.js';
import { expectClose } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

/** The cos or sin cache of `options` for positions start .. start + rows - 1, rounded by `round`. */
function cache(options, { rows, layout = 'half', kind = 'cos', round = Math.fround, start = 0 }) {
  const { invFreq, attentionFactor, rotaryDim: d } = frequenciesReference(options);
  const values = new Float64Array(rows * d);
  for (let r = 0; r < rows; r++)
    for (let i = 0; i < d / 2; i++) {
      const angle = (start + r) * invFreq[i];
      const value = round(attentionFactor * (kind === 'cos' ? Math.cos(angle) : Math.sin(angle)));
      const [a, b] = layout === 'half' ? [i, i + d / 2] : [2 * i, 2 * i + 1];
      values[r * d + a] = value;
      values[r * d + b] = value;
    }
  return { values, rows, columns: d, attentionFactor };
}

const LLAMA31 = { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 };
const QWEN_YARN = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 };

describe('ropeIdentify names caches built from the Hugging Face formulas', () => {
  const cases = [
    {
      name: 'Llama 2 (plain, base 1e4), cos, half',
      options: { headDim: 128, base: 10000 },
      rows: 512,
      want: { type: 'default', base: 10000, factor: null },
    },
    {
      name: 'plain base 1e4, sin, interleaved',
      options: { headDim: 64, base: 10000 },
      rows: 512,
      layout: 'interleaved',
      kind: 'sin',
      want: { type: 'default', base: 10000, factor: null },
    },
    {
      name: 'linear factor 4',
      options: { headDim: 128, base: 10000, scaling: { type: 'linear', factor: 4 } },
      rows: 2048,
      want: { type: 'linear', base: 10000, factor: 4 },
    },
    {
      name: 'Llama 3.1 llama3 (8, 1, 4, 8192), base 5e5',
      options: { headDim: 128, base: 500000, scaling: LLAMA31 },
      rows: 8192,
      want: { type: 'llama3', base: 500000, factor: 8 },
    },
    {
      name: 'Qwen2.5 yarn (4, 32768), base 1e6',
      options: { headDim: 128, base: 1e6, scaling: QWEN_YARN },
      rows: 4096,
      want: { type: 'yarn', base: 1e6, factor: 4 },
    },
    {
      name: 'Qwen2.5 yarn, float64 sin',
      options: { headDim: 128, base: 1e6, scaling: QWEN_YARN },
      rows: 4096,
      kind: 'sin',
      round: (v) => v,
      want: { type: 'yarn', base: 1e6, factor: 4, dtype: 'float64' },
    },
    {
      name: 'DeepSeek-V3 yarn (40, mscale 1, mscale_all_dim 1), interleaved sin',
      options: {
        headDim: 64,
        base: 10000,
        scaling: { type: 'yarn', factor: 40, originalMaxPositionEmbeddings: 4096, mscale: 1, mscaleAllDim: 1 },
      },
      rows: 4096,
      layout: 'interleaved',
      kind: 'sin',
      want: { type: 'yarn', base: 10000, factor: 40 },
    },
  ];
  for (const { name, options, want, ...build } of cases)
    it(name, () => {
      const input = cache(options, build);
      const found = pe.ropeIdentify(input);
      expect(found.explained).toBe(true);
      expect(found.layout).toBe(build.layout ?? 'half');
      expect(found.kind).toBe(build.kind ?? 'cos');
      expect(found.rotaryDim).toBe(options.headDim);
      expect(found.type).toBe(want.type);
      expect(found.base).toBe(want.base);
      expect(found.factor).toBe(want.factor);
      expect(found.dtype).toBe(want.dtype ?? 'float32');
      expectClose(found.attentionFactor, input.attentionFactor, 1e-6 * input.attentionFactor);
      // The cache it names, rebuilt by posenc, is the given one within float32 (or float64) rounding.
      expect(found.error).toBeLessThanOrEqual(found.dtype === 'float64' ? 1e-9 : 1.2e-7 * input.attentionFactor);
      // Its options rebuild the frequencies of the reference (a yarn one may name its attention factor).
      const rebuilt = pe.ropeFrequencies(found.options).invFreq;
      const reference = frequenciesReference(options).invFreq;
      for (let i = 0; i < reference.length; i++) expectClose(rebuilt[i], reference[i], 1e-12 * reference[i]);
    });

  it('reads the dtype of values exact in bfloat16 or float16', () => {
    const bfloat16 = (v) => {
      const f = new Float32Array([v]);
      const bits = new Uint32Array(f.buffer);
      bits[0] = (bits[0] + 0x8000) & 0xffff0000;
      return f[0];
    };
    expect(pe.ropeIdentify(cache({ headDim: 16 }, { rows: 64, round: bfloat16 })).dtype).toBe('bfloat16');
    // float16: 11 significant bits (values below 1 in magnitude, exponent >= -14).
    const float16 = (v) => {
      if (v === 0) return 0;
      const e = Math.max(Math.floor(Math.log2(Math.abs(v))), -14);
      return Math.round(v * 2 ** (10 - e)) / 2 ** (10 - e);
    };
    expect(pe.ropeIdentify(cache({ headDim: 16 }, { rows: 64, round: float16 })).dtype).toBe('float16');
    expect(pe.ropeIdentify({ ...cache({ headDim: 16 }, { rows: 64 }), dtype: 'float64' }).dtype).toBe('float64');
  });
});

describe('ropeIdentify says why it cannot explain a table', () => {
  it('columns that pair up neither way', () => {
    const values = Float64Array.from({ length: 40 * 8 }, (_, k) => Math.sin(k * 1.7) * Math.cos(k * 0.31));
    expect(pe.ropeIdentify({ values, rows: 40, columns: 8 })).toMatchObject({ explained: false, reason: 'pairs' });
  });
  it('a first row that is not position 0', () => {
    const input = cache({ headDim: 32 }, { rows: 64, start: 5 });
    expect(pe.ropeIdentify(input)).toMatchObject({ explained: false, reason: 'start', layout: 'half' });
  });
  it('too few rows or an odd number of columns', () => {
    expect(pe.ropeIdentify({ values: [1, 1, 0.5, 0.5], rows: 2, columns: 2 })).toMatchObject({ reason: 'shape' });
    expect(pe.ropeIdentify({ values: new Float64Array(9), rows: 3, columns: 3 })).toMatchObject({ reason: 'shape' });
  });
  it('refuses bad input with a posenc.ropeIdentify message, and stays usable', () => {
    expect(() => pe.ropeIdentify(null)).toThrow(/^posenc\.ropeIdentify: input must be an object/);
    expect(() => pe.ropeIdentify({ values: [1, 2], rows: 2, columns: 2 })).toThrow(
      /^posenc\.ropeIdentify: values must hold rows x columns = 4/,
    );
    expect(() => pe.ropeIdentify({ values: [1, NaN, 1, 1], rows: 2, columns: 2 })).toThrow(
      /^posenc\.ropeIdentify: values\[1\] must be a finite number/,
    );
    expect(() => pe.ropeIdentify({ values: [1, 1], rows: 1, columns: 2, dtype: 'int8' })).toThrow(
      /^posenc\.ropeIdentify: dtype/,
    );
    expect(() => pe.ropeIdentify({ values: 'text', rows: 1, columns: 4 })).toThrow(
      /^posenc\.ropeIdentify: values must be an array/,
    );
    expect(pe.ropeIdentify(cache({ headDim: 32 }, { rows: 64 })).explained).toBe(true);
  });
  it('a cache beyond its own work limit: its own message, before any work, naming rows and columns it was given', () => {
    const values = new Float32Array(3_000_000 * 4);
    const started = performance.now();
    const call = () => pe.ropeIdentify({ values, rows: 3_000_000, columns: 4 });
    expect(call).toThrow(RangeError);
    expect(call).toThrow(
      /^posenc\.ropeIdentify: a 3000000 x 4 cache = \d+ work units exceeds \d+.*pass its first rows/,
    );
    expect(performance.now() - started).toBeLessThan(1000);
    // The largest it takes is still identified (its frequencies: far angles included).
    expect(pe.ropeIdentify(cache({ headDim: 4 }, { rows: 300_000 })).explained).toBe(true);
  });
});

// Caches made by Hugging Face's own code (tests/fixtures/hf_rope.py: its _compute_llama3_parameters and
// _compute_yarn_parameters, float32 inv_freq @ positions, then the dtype), with the configs models ship.
const LLAMA32_CONFIG = {
  head_dim: 64,
  max_position_embeddings: 131072,
  rope_parameters: {
    rope_type: 'llama3',
    rope_theta: 500000,
    factor: 32,
    low_freq_factor: 1,
    high_freq_factor: 4,
    original_max_position_embeddings: 8192,
  },
};
const QWEN25_CONFIG = {
  head_dim: 128,
  max_position_embeddings: 131072,
  rope_parameters: { rope_type: 'yarn', rope_theta: 1e6, factor: 4, original_max_position_embeddings: 32768 },
};
/** config.json's fields as ropeFromConfig reads them. */
const configJson = ({ head_dim, max_position_embeddings, rope_parameters: { rope_theta, ...rope } }) => ({
  head_dim,
  max_position_embeddings,
  rope_theta,
  rope_scaling: rope,
});
const FAILED_GUESS = ['type', 'factor', 'options'];

describe("ropeIdentify names caches made by Hugging Face's own code from about 1,000 rows", () => {
  const cases = [
    ['Llama 3.2 (llama3 x32), float32 cos, 1,536 rows', LLAMA32_CONFIG, 1536, 'cos', 'float32', 'llama3', 32, 500000],
    ['Qwen2.5 (yarn x4), bfloat16 sin, 1,024 rows', QWEN25_CONFIG, 1024, 'sin', 'bfloat16', 'yarn', 4, 1e6],
    ['Qwen2.5 (yarn x4), bfloat16 sin, 2,048 rows', QWEN25_CONFIG, 2048, 'sin', 'bfloat16', 'yarn', 4, 1e6],
  ];
  it.each(cases)('%s', (name, config, rows, kind, dtype, type, factor, base) => {
    const values = hfCache(config, { rows, kind, dtype });
    const found = pe.ropeIdentify({ values, rows, columns: config.head_dim });
    expect(found).toMatchObject({ explained: true, kind, dtype, layout: 'half', type, factor, base });
    // The options ropeFromConfig reads from the config rebuild the cache within the verdict's tolerance.
    const { options } = pe.ropeFromConfig(configJson(config));
    const rebuilt = pe.ropeCache({ ...options, length: rows, dtype: 'float64' })[kind];
    let error = 0;
    for (let k = 0; k < values.length; k++) error = Math.max(error, Math.abs(rebuilt[k] - values[k]));
    expect(error).toBeLessThanOrEqual(found.tolerance);
    expect(found.attentionFactor).toBe(pe.ropeFrequencies(options).attentionFactor);
  });

  it('says "too few rows to tell" below what it needs, with how many it needs, and no failed guess', () => {
    const found = pe.ropeIdentify({
      values: hfCache(QWEN25_CONFIG, { rows: 512, kind: 'sin', dtype: 'bfloat16' }),
      rows: 512,
      columns: 128,
    });
    expect(found).toMatchObject({ explained: false, reason: 'rows', kind: 'sin', base: 1e6 });
    expect(found.rowsNeeded).toBeGreaterThan(512);
    for (const field of FAILED_GUESS) expect(found).not.toHaveProperty(field);
    // With the rows it asks for, the same model's cache is named.
    const rows = found.rowsNeeded;
    const more = hfCache(QWEN25_CONFIG, { rows, kind: 'sin', dtype: 'bfloat16' });
    expect(pe.ropeIdentify({ values: more, rows, columns: 128 })).toMatchObject({
      explained: true,
      type: 'yarn',
      factor: 4,
    });
  });

  it('a cache it cannot explain keeps what it measured and leaves out the failed guess', () => {
    // A ladder no scaling type makes: every other pair twice as fast.
    const d = 32;
    const rows = 256;
    const values = new Float64Array(rows * d);
    for (let r = 0; r < rows; r++)
      for (let i = 0; i < d / 2; i++) {
        const v = Math.fround(Math.cos(r * 10000 ** ((-2 * i) / d) * (i % 2 ? 2 : 1)));
        values[r * d + i] = v;
        values[r * d + i + d / 2] = v;
      }
    const found = pe.ropeIdentify({ values, rows, columns: d });
    expect(found).toMatchObject({ explained: false, reason: 'fit', kind: 'cos', layout: 'half', rotaryDim: d });
    expect(found.error).toBeGreaterThan(found.tolerance);
    for (const field of FAILED_GUESS) expect(found).not.toHaveProperty(field);
  });
});
