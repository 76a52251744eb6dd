// The RoPE functions (ropeFrequencies, ropeCache, ropeApply, ropeScores,
// ropeFromConfig): bad input gets a TypeError or RangeError naming the function
// and the parameter, and the module stays usable.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../../web/lib/index.js';
import { ladder } from '../../rope-reference.js';
import { expectClose } from '../../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const expectFrequencies = (got, want, relative = 1e-14) => expectClose(got, want, { relative });

describe('bad input names the function and parameter; the module stays usable', () => {
  const yarn = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 };
  const cases = [
    [() => pe.ropeFrequencies(), TypeError, /^posenc\.ropeFrequencies: options are required/],
    [() => pe.ropeFrequencies({}), TypeError, /^posenc\.ropeFrequencies: headDim is required/],
    [() => pe.ropeFrequencies({ headDim: 7.5 }), RangeError, /headDim must be an integer/],
    [() => pe.ropeFrequencies({ headDim: 64, hiddenSize: 4096 }), TypeError, /either headDim or hiddenSize/],
    [() => pe.ropeFrequencies({ headDim: 64, base: 1 }), RangeError, /base must be a finite number > 1/],
    [() => pe.ropeFrequencies({ headDim: 64, partialRotaryFactor: 1.5 }), RangeError, /partialRotaryFactor/],
    [() => pe.ropeFrequencies({ headDim: 4, partialRotaryFactor: 0.25 }), RangeError, /fewer than 2/],
    [() => pe.ropeFrequencies({ headDim: 64, scaling: 'yarn' }), TypeError, /scaling must be an object/],
    [() => pe.ropeFrequencies({ headDim: 64, scaling: { type: 'ntk' } }), RangeError, /scaling\.type must be one of/],
    [() => pe.ropeFrequencies({ headDim: 64, scaling: { type: 'linear' } }), TypeError, /scaling\.factor is required/],
    [
      () => pe.ropeCache({ headDim: 64, length: 4, scaling: { ...yarn, betaFast: 0 } }),
      RangeError,
      /^posenc\.ropeCache: scaling\.betaFast must be a finite number > 0 \(got 0\)/,
    ],
    [() => pe.ropeFrequencies({ headDim: 64, scaling: { ...yarn, truncate: 'no' } }), TypeError, /scaling\.truncate/],
    [
      () => pe.ropeFrequencies({ headDim: 64, scaling: { type: 'linear', factor: 2, betaFast: 32 } }),
      TypeError,
      /scaling\.betaFast is not read by type 'linear'/,
    ],
    [
      () => pe.ropeFrequencies({ headDim: 64, scaling: { ...yarn, bogus: 1 } }),
      TypeError,
      /unknown scaling field 'bogus'/,
    ],
    [
      () => pe.ropeFrequencies({ headDim: 64, scaling: { type: 'yarn', factor: 4 } }),
      TypeError,
      /scaling\.originalMaxPositionEmbeddings is required/,
    ],
    [
      () => pe.ropeFrequencies({ headDim: 2, scaling: { type: 'dynamic', factor: 2, maxPositionEmbeddings: 9 } }),
      RangeError,
      /rotaryDim must be >= 4/,
    ],
    [
      () =>
        pe.ropeFrequencies({
          headDim: 64,
          scaling: { type: 'llama3', factor: 8, lowFreqFactor: 4, highFreqFactor: 1, originalMaxPositionEmbeddings: 8 },
        }),
      RangeError,
      /scaling\.highFreqFactor must be a finite number > lowFreqFactor/,
    ],
    [
      () =>
        pe.ropeFrequencies({
          headDim: 8,
          scaling: {
            type: 'longrope',
            factor: 2,
            originalMaxPositionEmbeddings: 8,
            shortFactor: [1, 1, 1, NaN],
            longFactor: [1, 1, 1, 1],
          },
        }),
      RangeError,
      /scaling\.shortFactor\[3\] must be a finite number/,
    ],
    [() => pe.ropeFrequencies({ headDim: 64, seqLen: 0 }), RangeError, /seqLen must be an integer/],
    [() => pe.ropeFrequencies({ headDim: 64, length: 4 }), TypeError, /'length' is an option of ropeCache/],
    [() => pe.ropeCache({ headDim: 64 }), TypeError, /^posenc\.ropeCache: length is required/],
    [() => pe.ropeCache({ headDim: 64, length: 4, layout: 'neox' }), RangeError, /layout must be one of 'half'/],
    [() => pe.ropeCache({ headDim: 64, length: 4, dtype: 'float16' }), RangeError, /dtype must be one of/],
    [() => pe.ropeCache({ headDim: 64, length: 4, start: 2 ** 53 }), RangeError, /start \+ 4 must have magnitude/],
    [() => pe.ropeCache({ headDim: 64, length: 4, out: new Float32Array(256) }), TypeError, /out must be an object/],
    [
      () => pe.ropeCache({ headDim: 64, length: 4, out: { cos: new Float32Array(256), sin: new Float32Array(255) } }),
      RangeError,
      /out\.sin must have length 256/,
    ],
    [() => pe.ropeCache({ headDim: 65536, length: 2 ** 14 }), RangeError, /needs \d+ bytes/],
    [() => pe.ropeApply([1, 2], { headDim: 2 }), TypeError, /^posenc\.ropeApply: x must be a Float32Array/],
    [() => pe.ropeApply(new Float32Array(10), { headDim: 4 }), RangeError, /x must hold tokens x heads x headDim/],
    [
      () => pe.ropeApply(new Float32Array(8), { headDim: 4, positions: [0, 1], start: 2 }),
      TypeError,
      /either positions or start/,
    ],
    [() => pe.ropeApply(new Float32Array(8), { headDim: 4, positions: [0] }), RangeError, /one number per token \(2\)/],
    [() => pe.ropeApply(new Float32Array(8), { headDim: 4, positions: [0, NaN] }), RangeError, /positions\[1\]/],
    [
      () => pe.ropeApply(new Float32Array(8), { headDim: 4, out: new Float64Array(8) }),
      TypeError,
      /out must be a Float32Array/,
    ],
    [() => pe.ropeScores({ headDim: 64 }), TypeError, /^posenc\.ropeScores: maxOffset is required/],
    [() => pe.ropeScores({ headDim: 64, maxOffset: -1 }), RangeError, /maxOffset must be an integer/],
    [
      () => pe.ropeScores({ headDim: 65536, maxOffset: 2 ** 20 }),
      RangeError,
      /work units exceeds 4294967296, the most one call may do/,
    ],
  ];
  for (const [call, ErrorType, message] of cases)
    it(`${message}`, () => {
      expect(call).toThrow(ErrorType);
      expect(call).toThrow(message);
      // Still usable.
      expectFrequencies(pe.ropeFrequencies({ headDim: 8 }).invFreq, ladder(8, 10000));
    });
});

describe('ropeFromConfig', () => {
  it('refuses what is no config', () => {
    expect(() => pe.ropeFromConfig(null)).toThrow(TypeError);
    expect(() => pe.ropeFromConfig('config.json')).toThrow(/posenc\.ropeFromConfig: config must be an object/);
    expect(() => pe.ropeFromConfig({ rope_theta: 10000 })).toThrow(/head_dim, or hidden_size and num_attention_heads/);
    expect(() => pe.ropeFromConfig({ head_dim: 64, rope_scaling: 'yarn' })).toThrow(/config\.rope_scaling must be/);
  });
});
