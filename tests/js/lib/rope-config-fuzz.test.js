// Property-based fuzzing of ropeFromConfig over config.json shapes (fast-check):
// random nesting (text_config, one dict per layer type), wrong types and unusual
// numbers in every RoPE field. Every config either throws posenc's own
// TypeError/RangeError, or gives options (with warnings) whose frequencies are
// refused with posenc's own error, or equal the float64 reference of Hugging
// Face's formulas (rope-reference.js) and are finite and positive.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { frequenciesReference } from '../rope-reference.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

function expectOwnError(error, where) {
  expect([TypeError, RangeError], String(error?.stack ?? error)).toContain(error?.constructor);
  expect(error.message).toMatch(new RegExp(`^posenc\\.${where}: `));
}

// Each field mostly a value a config could hold (so that whole dicts get through to the
// frequencies), else an unusual number (tiny, huge, NaN, negative) or junk of another type.
const tiny = fc.constantFrom(1e-320, 5e-324, 1e-300);
const huge = fc.constantFrom(1e308, 1.7e308, 1e200);
const unusual = fc.oneof(
  tiny,
  huge,
  fc.constantFrom(0, -0, -1, 1, 0.5, NaN, Infinity, -Infinity, 2 ** 53, 127, 1e-9),
  fc.double(),
);
const junk = fc.oneof(fc.constantFrom(null, '4', '', true, [], [4], {}), fc.anything({ maxDepth: 1 }));
const mostly = (valid) =>
  fc.oneof({ weight: 12, arbitrary: valid }, { weight: 2, arbitrary: unusual }, { weight: 1, arbitrary: junk });
const maybe = (arbitrary) => fc.option(arbitrary, { nil: undefined, freq: 3 });
const context = fc.constantFrom(2048, 4096, 8192, 32768, 131072);
const ropeType = fc.constantFrom('default', 'linear', 'dynamic', 'yarn', 'longrope', 'llama3', 'su', 'proportional', 7);
const factors = mostly(fc.array(fc.double({ min: 0.5, max: 64, noNaN: true }), { minLength: 32, maxLength: 32 }));
const ropeDict = fc.record(
  {
    rope_type: ropeType,
    type: maybe(ropeType),
    rope_theta: maybe(mostly(fc.constantFrom(10000, 500000, 1e6))),
    factor: maybe(mostly(fc.constantFrom(2, 4, 8, 32, 40))),
    original_max_position_embeddings: maybe(mostly(context)),
    low_freq_factor: maybe(mostly(fc.constantFrom(1, 2))),
    high_freq_factor: maybe(mostly(fc.constantFrom(4, 8))),
    beta_fast: maybe(mostly(fc.constantFrom(32, 16))),
    beta_slow: maybe(mostly(fc.constantFrom(1, 2))),
    mscale: maybe(mostly(fc.constantFrom(1, 0.707))),
    mscale_all_dim: maybe(mostly(fc.constantFrom(1, 0.707))),
    attention_factor: maybe(mostly(fc.double({ min: 0.5, max: 2, noNaN: true }))),
    truncate: maybe(mostly(fc.boolean())),
    short_factor: maybe(factors),
    long_factor: maybe(factors),
  },
  { requiredKeys: ['rope_type'] },
);
const flat = fc.record(
  {
    head_dim: maybe(mostly(fc.constantFrom(64, 128))),
    hidden_size: mostly(fc.constantFrom(4096, 2048)),
    num_attention_heads: mostly(fc.constantFrom(32, 64)),
    rope_theta: maybe(mostly(fc.constantFrom(10000, 500000, 1e6))),
    rotary_emb_base: maybe(mostly(fc.constantFrom(10000, 1e6))),
    rotary_pct: maybe(mostly(fc.constantFrom(0.25, 0.5, 1))),
    partial_rotary_factor: maybe(mostly(fc.constantFrom(0.5, 1))),
    max_position_embeddings: mostly(context),
    model_type: fc.constantFrom('llama', 'gpt_neox', 'gemma3_text'),
    rope_local_base_freq: maybe(mostly(fc.constantFrom(10000))),
    num_hidden_layers: maybe(mostly(fc.constantFrom(26, 34))),
    layer_types: maybe(mostly(fc.array(fc.constantFrom('sliding_attention', 'full_attention'), { maxLength: 8 }))),
    rope_interleave: maybe(mostly(fc.boolean())),
    rope_scaling: maybe(ropeDict),
  },
  { requiredKeys: ['hidden_size', 'num_attention_heads', 'max_position_embeddings', 'model_type'] },
);
const config = fc.oneof(
  { weight: 6, arbitrary: flat },
  {
    weight: 1,
    arbitrary: fc.tuple(flat, ropeDict).map(([c, d]) => ({ ...c, rope_scaling: undefined, rope_parameters: d })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(flat, ropeDict, ropeDict)
      .map(([c, full, sliding]) => ({ ...c, rope_parameters: { full_attention: full, sliding_attention: sliding } })),
  },
  { weight: 1, arbitrary: flat.map((c) => ({ text_config: { ...c, vision: 1 }, vision_config: {} })) },
);

describe('ropeFromConfig over random config.json shapes', () => {
  it('a clean error, or warnings and options whose frequencies are a clean error or equal the float64 reference', () => {
    const reached = { options: 0, frequencies: 0 };
    fc.assert(
      fc.property(config, (cfg) => {
        let result;
        try {
          result = pe.ropeFromConfig(cfg);
        } catch (error) {
          expectOwnError(error, 'ropeFromConfig');
          return;
        }
        reached.options++;
        for (const w of result.warnings) expect(typeof w.code === 'string' && typeof w.message === 'string').toBe(true);
        let f;
        try {
          f = pe.ropeFrequencies(result.options);
        } catch (error) {
          expectOwnError(error, 'ropeFrequencies');
          return;
        }
        reached.frequencies++;
        const want = frequenciesReference(result.options);
        expect(f.invFreq.length).toBe(want.invFreq.length);
        for (let i = 0; i < f.invFreq.length; i++) {
          expect(f.invFreq[i] > 0 && Number.isFinite(f.invFreq[i])).toBe(true);
          expect(Math.abs(f.invFreq[i] - want.invFreq[i])).toBeLessThanOrEqual(1e-12 * want.invFreq[i]);
        }
        expect(Number.isFinite(f.attentionFactor) && f.attentionFactor > 0).toBe(true);
        expect(Math.abs(f.attentionFactor - want.attentionFactor)).toBeLessThanOrEqual(1e-12 * want.attentionFactor);
      }),
      { numRuns: 3000, seed: 44 },
    );
    // The shapes get through: a fuzzer refused at the door would test nothing.
    expect(reached.frequencies).toBeGreaterThan(300);
  });
});
