// The RoPE functions under the library's reliability rules (docs/reliability.md):
// arrays of another realm accepted, Proxies and look-alikes refused, detached
// buffers and views of wasm memory handled or refused before any work, values
// written with the intrinsic set, messages for values with no text, a full
// wasm heap, and work limits. References are float64 formulas (rope-reference.js).
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { applyReference, cacheReference, ladder } from '../rope-reference.js';
import { expectClose, FLOAT64_EPSILON, maxAbsDiff } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const ones = (n, ArrayType = Float32Array) => new ArrayType(n).fill(1);
/** ropeApply's float64 reference for ones(tokens x headDim), default scaling, positions start.. */
const rotatedOnes = (headDim, tokens, start = 0, layout = 'half') =>
  applyReference(
    ones(tokens * headDim, Float64Array),
    ladder(headDim, 10000),
    1,
    layout,
    headDim,
    1,
    Array.from({ length: tokens }, (_, t) => start + t),
  );

describe('RoPE inputs and outputs of another realm, look-alikes, detached buffers', () => {
  it('x, out, out.cos, out.sin and positions of another realm (node:vm) are accepted and written', () => {
    const x = runInNewContext('new Float32Array(32).fill(1)');
    const out = runInNewContext('new Float32Array(32)');
    expect(pe.ropeApply(x, { headDim: 8, start: 3, out })).toBe(out);
    expect(maxAbsDiff(out, rotatedOnes(8, 4, 3))).toBeLessThanOrEqual(4e-7);
    const x64 = runInNewContext('new Float64Array(32).fill(1)');
    const got = pe.ropeApply(x64, { headDim: 8, positions: runInNewContext('new Float64Array([3, 4, 5, 6])') });
    expect(got).toBeInstanceOf(Float64Array);
    expect(maxAbsDiff(got, rotatedOnes(8, 4, 3))).toBeLessThanOrEqual(1e-14);
    const cos = runInNewContext('new Float32Array(40)');
    const sin = runInNewContext('new Float32Array(40)');
    pe.ropeCache({ headDim: 8, length: 5, start: 2, out: { cos, sin } });
    const want = cacheReference(ladder(8, 10000), 1, 'half', 2, 5);
    expect(maxAbsDiff(cos, want.cos)).toBeLessThanOrEqual(1.2e-7);
    expect(maxAbsDiff(sin, want.sin)).toBeLessThanOrEqual(1.2e-7);
    const factors = runInNewContext('new Float64Array([1, 2])');
    const scaling = {
      type: 'longrope',
      factor: 2,
      originalMaxPositionEmbeddings: 8,
      shortFactor: factors,
      longFactor: factors,
    };
    const w = ladder(4, 10000);
    expect(maxAbsDiff(pe.ropeFrequencies({ headDim: 4, scaling }).invFreq, [w[0], w[1] / 2])).toBeLessThanOrEqual(
      1e-18,
    );
  });

  it('Proxies and objects that claim to be typed arrays are refused with posenc.<fn>: <parameter>', () => {
    const fakes = (n) => [
      new Proxy(new Float32Array(n), {}),
      { [Symbol.toStringTag]: 'Float32Array', length: n, set() {} },
      Object.setPrototypeOf({ length: n }, Float32Array.prototype),
    ];
    for (const x of fakes(8))
      expect(() => pe.ropeApply(x, { headDim: 4 })).toThrow(
        /^posenc\.ropeApply: x must be a Float32Array or Float64Array/,
      );
    for (const out of fakes(8))
      expect(() => pe.ropeApply(ones(8), { headDim: 4, out })).toThrow(
        /^posenc\.ropeApply: out must be a Float32Array, like x/,
      );
    for (const cos of fakes(8))
      expect(() => pe.ropeCache({ headDim: 4, length: 2, out: { cos, sin: new Float32Array(8) } })).toThrow(
        /^posenc\.ropeCache: out\.cos must be a Float32Array/,
      );
    for (const positions of [new Proxy(new Float64Array(2), {}), { length: 2, 0: 0, 1: 1 }])
      expect(() => pe.ropeApply(ones(8), { headDim: 4, positions })).toThrow(
        /^posenc\.ropeApply: positions must be an array/,
      );
    const shortFactor = new Proxy(new Float64Array(2).fill(1), {});
    expect(() =>
      pe.ropeFrequencies({
        headDim: 4,
        scaling: { type: 'longrope', factor: 2, originalMaxPositionEmbeddings: 8, shortFactor, longFactor: [1, 1] },
      }),
    ).toThrow(/^posenc\.ropeFrequencies: scaling\.shortFactor must be an array/);
  });

  it('detached buffers get our message naming the parameter', () => {
    const detached = (ArrayType, n) => {
      const a = new ArrayType(n);
      structuredClone(a.buffer, { transfer: [a.buffer] });
      return a;
    };
    expect(() => pe.ropeApply(detached(Float32Array, 8), { headDim: 4 })).toThrow(
      /^posenc\.ropeApply: x is a view of a detached buffer/,
    );
    expect(() => pe.ropeApply(ones(8), { headDim: 4, out: detached(Float32Array, 8) })).toThrow(
      /^posenc\.ropeApply: out is a view of a detached buffer/,
    );
    expect(() => pe.ropeApply(ones(8), { headDim: 4, positions: detached(Float64Array, 2) })).toThrow(
      /^posenc\.ropeApply: positions is a view of a detached buffer/,
    );
    expect(() =>
      pe.ropeCache({ headDim: 4, length: 2, out: { cos: new Float32Array(8), sin: detached(Float32Array, 8) } }),
    ).toThrow(/^posenc\.ropeCache: out\.sin is a view of a detached buffer/);
  });

  it('out.cos and out.sin may not overlap', () => {
    const buffer = new Float32Array(12);
    expect(() =>
      pe.ropeCache({ headDim: 4, length: 2, out: { cos: buffer.subarray(0, 8), sin: buffer.subarray(4, 12) } }),
    ).toThrow(/^posenc\.ropeCache: out\.cos and out\.sin must not overlap/);
  });

  it('values with no text in every RoPE parameter and config field give posenc messages', () => {
    const noText = Object.create(null);
    for (const key of ['headDim', 'base', 'partialRotaryFactor', 'seqLen', 'length', 'start', 'layout', 'dtype'])
      expect(() => pe.ropeCache({ headDim: 8, length: 2, [key]: noText }), key).toThrow(
        new RegExp(`^posenc\\.ropeCache: .*${key}.*\\(got \\[object Object\\]\\)$`),
      );
    for (const key of ['factor', 'originalMaxPositionEmbeddings', 'betaFast', 'truncate', 'type'])
      expect(() =>
        pe.ropeFrequencies({
          headDim: 8,
          scaling: { type: 'yarn', factor: 2, originalMaxPositionEmbeddings: 8, [key]: noText },
        }),
      ).toThrow(new RegExp(`^posenc\\.ropeFrequencies: scaling\\.${key}`));
    expect(() => pe.ropeCache({ headDim: 8, length: 2, out: noText })).toThrow(
      /^posenc\.ropeCache: out\.cos must be a Float32Array \(got undefined\)$/,
    );
    expect(() => pe.ropeApply(noText, { headDim: 4 })).toThrow(/^posenc\.ropeApply: x must be/);
    expect(() => pe.ropeApply(ones(8), { headDim: 4, positions: [0, noText] })).toThrow(
      /^posenc\.ropeApply: positions\[1\]/,
    );
    expect(() => pe.ropeScores({ headDim: 8, maxOffset: noText })).toThrow(/^posenc\.ropeScores: maxOffset/);
    for (const config of [
      noText,
      { head_dim: noText },
      { head_dim: 1n },
      { head_dim: 64, rope_scaling: 1n },
      { hidden_size: noText, num_attention_heads: 2 },
    ])
      expect(() => pe.ropeFromConfig(config)).toThrow(/^posenc\.ropeFromConfig: config/);
    // Warnings name junk values without failing themselves.
    const junkLongrope = { type: 'longrope', original_max_position_embeddings: noText, short_factor: 1n };
    const { warnings } = pe.ropeFromConfig({ head_dim: 8, rope_theta: 1e4, rope_scaling: junkLongrope });
    expect(warnings.map((w) => w.code)).toEqual([
      'longrope-factor-length',
      'longrope-factor-length',
      'longrope-depends-on-length',
    ]);
    expect(
      pe.ropeFromConfig({ head_dim: 8, rope_theta: 1e4, rope_scaling: { rope_type: noText, factor: 2 } }).warnings[0]
        .message,
    ).toContain('[object Object]');
    const llama3 = pe.ropeFromConfig({
      head_dim: 8,
      rope_theta: 1e4,
      rope_scaling: { rope_type: 'llama3', factor: noText },
    });
    expect(llama3.warnings[0].code).toBe('llama3-fields-missing');
  });
});

describe('views of the module memory and re-entrant set()', () => {
  it('x a WasmArray.array: rotated right although the call grows (and detaches) the memory', () => {
    // 128 MiB in wasm memory; ropeApply's 128 MiB of scratch must grow the memory.
    const heads = 64;
    const a = pe.allocate(2 ** 25);
    try {
      a.array.fill(1);
      const x = a.array;
      const before = pe.heapBytes();
      const got = pe.ropeApply(x, { headDim: 64, heads, start: 5 });
      expect(x.length).toBe(0); // detached: the memory grew during the call
      expect(pe.heapBytes()).toBe(before);
      const tokens = 2 ** 25 / (64 * heads);
      for (const t of [0, 1, tokens - 1]) {
        const want = rotatedOnes(64, 1, 5 + t);
        for (const h of [0, heads - 1])
          expect(maxAbsDiff(got.subarray((t * heads + h) * 64, (t * heads + h + 1) * 64), want)).toBeLessThanOrEqual(
            4e-7,
          );
      }
      // out a view of wasm memory: refused before any work (the call may detach it).
      expect(() => pe.ropeApply(ones(64 * 8), { headDim: 64, out: a.array.subarray(0, 64 * 8) })).toThrow(
        /^posenc\.ropeApply: out is a view of the module's own memory/,
      );
      expect(() =>
        pe.ropeCache({
          headDim: 64,
          length: 512,
          out: { cos: a.array.subarray(0, 64 * 512), sin: new Float32Array(64 * 512) },
        }),
      ).toThrow(/^posenc\.ropeCache: out\.cos is a view of the module's own memory/);
    } finally {
      a.free();
    }
  });

  it('a subclass whose set() calls posenc: ropeCache and ropeApply never call it, values correct', () => {
    let calls = 0;
    class Reentrant extends Float32Array {
      set(values, offset) {
        calls++;
        pe.ropeCache({ headDim: 64, length: 3000 });
        const grow = pe.allocate(2 ** 25);
        grow.free();
        return super.set(values, offset);
      }
    }
    const d = 64;
    const length = 3000;
    const out = { cos: new Reentrant(length * d), sin: new Reentrant(length * d) };
    pe.ropeCache({ headDim: d, length, start: 9, out });
    const want = cacheReference(ladder(d, 10000), 1, 'half', 9, length);
    expect(maxAbsDiff(out.cos, want.cos)).toBeLessThanOrEqual(1.2e-7);
    expect(maxAbsDiff(out.sin, want.sin)).toBeLessThanOrEqual(1.2e-7);
    const rotated = new Reentrant(8 * 16);
    pe.ropeApply(ones(8 * 16), { headDim: 8, start: 2, out: rotated });
    expect(maxAbsDiff(rotated, rotatedOnes(8, 16, 2))).toBeLessThanOrEqual(4e-7);
    expect(calls).toBe(0);
  });
});

describe('work limits of the RoPE functions (COST units, 2^32 a call)', () => {
  const refused = (where, advice) => new RegExp(`^posenc\\.${where}: .* work units exceeds 4294967296.*${advice}`);

  it('ropeScores: (maxOffset + 1) x rotaryDim / 2 pairs at 32 units each', () => {
    // Beyond 2^27 pair-offsets (2^32 units): refused (2^32 of them were allowed: a minute or more).
    expect(() => pe.ropeScores({ headDim: 2 ** 16, maxOffset: 2 ** 13 })).toThrow(
      refused('ropeScores', 'reduce maxOffset or headDim'),
    );
    expect(() => pe.ropeScores({ headDim: 128, maxOffset: 2 ** 21 })).toThrow(refused('ropeScores', ''));
    const s = pe.ropeScores({ headDim: 8, maxOffset: 3 });
    const w = ladder(8, 10000);
    for (let k = 0; k <= 3; k++)
      // 4 pairs' terms of at most 1/4 after 3 steps of the float64 recurrence: a few ulps of 1.
      expectClose(
        s.scores[k],
        w.reduce((sum, x) => sum + (2 / 8) * Math.cos(k * x), 0),
        12,
        8 * FLOAT64_EPSILON,
      );
  });

  it('ropeCache float64: sin and cos of every angle; far positions cost the slow argument reduction', () => {
    expect(() => pe.ropeCache({ headDim: 512, length: 2 ** 18, dtype: 'float64' })).toThrow(
      refused('ropeCache', 'reduce length or headDim'),
    );
    // The same size near position 2^40: every angle takes musl's slow path.
    expect(() => pe.ropeCache({ headDim: 128, length: 2 ** 17, start: 2 ** 40, dtype: 'float64' })).toThrow(
      refused('ropeCache', ''),
    );
    expect(pe.ropeCache({ headDim: 128, length: 2 ** 10, start: 2 ** 40, dtype: 'float64' }).cos).toHaveLength(2 ** 17);
  });

  it('ropeApply: tokens x pairs angles and the values copied in, rotated, copied out', () => {
    expect(() => pe.ropeApply(new Float32Array(2 ** 27), { headDim: 2, start: 2 ** 30 })).toThrow(
      refused('ropeApply', 'rotate fewer tokens per call'),
    );
    expect(() =>
      pe.ropeApply(new Float32Array(2 ** 24), { headDim: 2, positions: new Float64Array(2 ** 23).fill(2 ** 40) }),
    ).toThrow(refused('ropeApply', ''));
  });

  it('ropeFromConfig reads a bounded RoPE dict, and its messages stay short', () => {
    const huge = Object.fromEntries(Array.from({ length: 100000 }, (_, k) => [`layer_${k}`, { rope_type: 'default' }]));
    expect(() => pe.ropeFromConfig({ head_dim: 64, rope_parameters: huge })).toThrow(
      /^posenc\.ropeFromConfig: config\.rope_parameters has 100000 keys, more than 256/,
    );
    let deep = {};
    for (let k = 0; k < 20000; k++) deep = { a: deep };
    const error = (() => {
      try {
        pe.ropeFromConfig({ head_dim: deep });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(
      'posenc.ropeFromConfig: config.head_dim must be a positive integer (got [object Object])',
    );
    const long = pe.ropeFromConfig({ head_dim: 8, rope_theta: 1e4, rope_scaling: { rope_type: 'x'.repeat(1e6) } });
    expect(long.warnings[0].message.length).toBeLessThan(400);
  });
});

describe('options that pass their own checks but resolve to non-finite frequencies or attention factors', () => {
  const yarn = (extra) => ({ type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096, ...extra });
  const cases = [
    ['scaling.factor', { type: 'linear', factor: 5e-324 }],
    ['scaling.betaFast', yarn({ betaFast: 1e-320 })],
    ['scaling.mscale', yarn({ mscale: 1e308, mscaleAllDim: 1 })],
    ['scaling.mscaleAllDim', yarn({ mscale: 1, mscaleAllDim: 1e308 })],
    ['scaling.attentionFactor', yarn({ attentionFactor: 1e200 })],
    ['scaling.factor', yarn({ factor: 1e-320 })],
    [
      'scaling.originalMaxPositionEmbeddings',
      {
        type: 'longrope',
        factor: 4,
        originalMaxPositionEmbeddings: 1,
        shortFactor: [1, 1, 1, 1],
        longFactor: [1, 1, 1, 1],
      },
    ],
    [
      'scaling.shortFactor',
      {
        type: 'longrope',
        factor: 4,
        originalMaxPositionEmbeddings: 8,
        shortFactor: [1e-320, 1, 1, 1],
        longFactor: [1, 1, 1, 1],
      },
    ],
    [
      'scaling.factor',
      { type: 'llama3', factor: 1e-320, originalMaxPositionEmbeddings: 8192, lowFreqFactor: 1, highFreqFactor: 4 },
    ],
    ['scaling.factor', { type: 'dynamic', factor: 1e308, maxPositionEmbeddings: 16 }],
  ];
  it.each(cases)('a RangeError naming %s, from every RoPE call', (name, scaling) => {
    const options = { headDim: 8, scaling };
    for (const call of [
      () => pe.ropeFrequencies(options),
      () => pe.ropeCache({ ...options, length: 4 }),
      () => pe.ropeScores({ ...options, maxOffset: 3 }),
      () => pe.ropeApply(new Float32Array(8).fill(1), options),
    ]) {
      expect(call).toThrow(RangeError);
      expect(call).toThrow(new RegExp(`^posenc\\.rope\\w+: ${name.replace('.', '\\.')} `));
    }
  });

  it('options near the bounds still give finite, positive frequencies and finite caches and scores', () => {
    const near = [
      { type: 'linear', factor: 1e-250 },
      { type: 'linear', factor: 1e250 },
      yarn({ attentionFactor: 2 ** 64 }),
      yarn({ betaFast: 1e-300, betaSlow: 1e-300 }),
      { type: 'llama3', factor: 1e-250, originalMaxPositionEmbeddings: 8192, lowFreqFactor: 1, highFreqFactor: 4 },
    ];
    for (const scaling of near) {
      const f = pe.ropeFrequencies({ headDim: 8, scaling });
      for (const w of f.invFreq) expect(w > 0 && Number.isFinite(w), JSON.stringify(scaling)).toBe(true);
      const { cos, sin } = pe.ropeCache({ headDim: 8, scaling, length: 3, dtype: 'float64' });
      for (const v of [...cos, ...sin]) expect(Number.isFinite(v)).toBe(true);
      for (const v of pe.ropeScores({ headDim: 8, scaling, maxOffset: 2 }).scores)
        expect(Number.isFinite(v)).toBe(true);
    }
  });
});
