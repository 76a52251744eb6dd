// pe.ropeIdentify against cos/sin caches built here in float64 from the
// formulas of transformers' modeling_rope_utils.py (rope-reference.js), never
// from posenc's own results: each cache must be named with the layout, kind,
// rope_theta, scaling type and factor, attention factor and dtype it was built with.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../web/lib/index.js';
import { frequenciesReference } from './rope-reference.js';

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
      expect(Math.abs(found.attentionFactor - input.attentionFactor)).toBeLessThanOrEqual(1e-6 * input.attentionFactor);
      // The cache it names, rebuilt by posenc, is the given one within float32 (or float64) rounding.
      expect(found.error).toBeLessThanOrEqual(found.dtype === 'float64' ? 1e-9 : 1.2e-7 * input.attentionFactor);
      // Its options rebuild the frequencies of the reference (a yarn one may name its attention factor).
      const rebuilt = pe.ropeFrequencies(found.options).invFreq;
      const reference = frequenciesReference(options).invFreq;
      for (let i = 0; i < reference.length; i++)
        expect(Math.abs(rebuilt[i] - reference[i])).toBeLessThanOrEqual(1e-12 * reference[i]);
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
