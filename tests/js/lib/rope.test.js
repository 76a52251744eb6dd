// RoPE against float64 references written here from the formulas of
// transformers' src/transformers/modeling_rope_utils.py (docs/rope.md names
// the commit) and of the RoFormer paper; never from posenc's own results.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSnippet, load } from '../../../web/lib/index.js';
import {
  applyReference,
  cacheReference,
  ladder,
  llama3Reference,
  mscale,
  ulp32,
  yarnReference,
} from '../rope-reference.js';
import { expectClose, FLOAT64_EPSILON, maxAbsDiff } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

// Inverse frequencies against the float64 references: within 1e-14 of each, relatively.
const expectFrequencies = (got, want, relative = 1e-14) => expectClose(got, want, { relative });
// An attention factor (log, sqrt, a division) from the core and from a reference: each operation
// within half an ulp in both, so the two within a few ulps.
const ATTENTION_FACTOR = { relative: 4 * FLOAT64_EPSILON };

// ---- published configs (config.json), written out from the Hugging Face Hub ----

// meta-llama/Llama-2-7b-hf, config.json: no rope_theta (transformers 4.31 assumed 10000).
const LLAMA_2_7B = {
  architectures: ['LlamaForCausalLM'],
  hidden_size: 4096,
  intermediate_size: 11008,
  max_position_embeddings: 4096,
  model_type: 'llama',
  num_attention_heads: 32,
  num_hidden_layers: 32,
  num_key_value_heads: 32,
  rope_scaling: null,
  torch_dtype: 'float16',
  transformers_version: '4.31.0.dev0',
  vocab_size: 32000,
};

// meta-llama/Llama-3.1-8B, config.json.
const LLAMA_3_1_8B = {
  architectures: ['LlamaForCausalLM'],
  hidden_size: 4096,
  max_position_embeddings: 131072,
  model_type: 'llama',
  num_attention_heads: 32,
  num_key_value_heads: 8,
  rope_scaling: {
    factor: 8.0,
    low_freq_factor: 1.0,
    high_freq_factor: 4.0,
    original_max_position_embeddings: 8192,
    rope_type: 'llama3',
  },
  rope_theta: 500000.0,
  vocab_size: 128256,
};

// Qwen/Qwen2.5-7B-Instruct, config.json with the rope_scaling block its model
// card says to add for contexts beyond 32768 tokens (YaRN, factor 4).
const QWEN_2_5_7B_YARN = {
  architectures: ['Qwen2ForCausalLM'],
  hidden_size: 3584,
  max_position_embeddings: 32768,
  model_type: 'qwen2',
  num_attention_heads: 28,
  num_key_value_heads: 4,
  rope_theta: 1000000.0,
  rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' },
  sliding_window: 131072,
  vocab_size: 152064,
};

// deepseek-ai/DeepSeek-V3, config.json (RoPE fields): rotary part of each head
// qk_rope_head_dim = 64, YaRN with mscale and mscale_all_dim. rope_interleave
// is transformers' DeepseekV3Config default (the checkpoint's pairs are interleaved).
const DEEPSEEK_V3 = {
  architectures: ['DeepseekV3ForCausalLM'],
  hidden_size: 7168,
  num_attention_heads: 128,
  kv_lora_rank: 512,
  q_lora_rank: 1536,
  qk_nope_head_dim: 128,
  qk_rope_head_dim: 64,
  v_head_dim: 128,
  max_position_embeddings: 163840,
  model_type: 'deepseek_v3',
  rope_interleave: true,
  rope_scaling: {
    beta_fast: 32,
    beta_slow: 1,
    factor: 40,
    mscale: 1.0,
    mscale_all_dim: 1.0,
    original_max_position_embeddings: 4096,
    type: 'yarn',
  },
  rope_theta: 10000,
};

// microsoft/Phi-3-vision-128k-instruct, config.json (as reproduced in
// huggingface/diffusers tests/pipelines/omnigen/test_pipeline_omnigen.py):
// LongRoPE under its first name, 'su'; original_max_position_embeddings at the top level.
const PHI_3_LONG_FACTOR = [
  1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547, 1.2299998998641968,
  1.2299998998641968, 1.2999999523162842, 1.4499999284744263, 1.5999999046325684, 1.6499998569488525,
  1.8999998569488525, 2.859999895095825, 3.68999981880188, 5.419999599456787, 5.489999771118164, 5.489999771118164,
  9.09000015258789, 11.579999923706055, 15.65999984741211, 15.769999504089355, 15.789999961853027, 18.360000610351562,
  21.989999771118164, 23.079999923706055, 30.009998321533203, 32.35000228881836, 32.590003967285156, 35.56000518798828,
  39.95000457763672, 53.840003967285156, 56.20000457763672, 57.95000457763672, 59.29000473022461, 59.77000427246094,
  59.920005798339844, 61.190006256103516, 61.96000671386719, 62.50000762939453, 63.3700065612793, 63.48000717163086,
  63.48000717163086, 63.66000747680664, 63.850006103515625, 64.08000946044922, 64.760009765625, 64.80001068115234,
  64.81001281738281, 64.81001281738281,
];
const PHI_3_SHORT_FACTOR = [
  1.05, 1.05, 1.05, 1.1, 1.1, 1.1, 1.2500000000000002, 1.2500000000000002, 1.4000000000000004, 1.4500000000000004,
  1.5500000000000005, 1.8500000000000008, 1.9000000000000008, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.1000000000000005, 2.1000000000000005,
  2.2, 2.3499999999999996, 2.3499999999999996, 2.3499999999999996, 2.3499999999999996, 2.3999999999999995,
  2.3999999999999995, 2.6499999999999986, 2.6999999999999984, 2.8999999999999977, 2.9499999999999975, 3.049999999999997,
  3.049999999999997, 3.049999999999997,
];
const PHI_3_VISION_128K = {
  _name_or_path: 'Phi-3-vision-128k-instruct',
  architectures: ['Phi3ForCausalLM'],
  hidden_size: 3072,
  max_position_embeddings: 131072,
  model_type: 'phi3',
  num_attention_heads: 32,
  num_key_value_heads: 32,
  original_max_position_embeddings: 4096,
  rope_scaling: { long_factor: PHI_3_LONG_FACTOR, short_factor: PHI_3_SHORT_FACTOR, type: 'su' },
  rope_theta: 10000.0,
  transformers_version: '4.38.1',
};

// ---- frequencies ----

describe('ropeFrequencies follows Hugging Face for every rope type', () => {
  it('default: the inverse ladder 1 / base^(2i/d), attention factor 1', () => {
    const f = pe.ropeFrequencies({ headDim: 128, base: 500000 });
    expect(f.rotaryDim).toBe(128);
    expect(f.attentionFactor).toBe(1);
    expect(f.invFreq).toBeInstanceOf(Float64Array);
    expectFrequencies(f.invFreq, ladder(128, 500000));
    // base defaults to 10000; hiddenSize / numHeads gives the head.
    expectFrequencies(pe.ropeFrequencies({ hiddenSize: 4096, numHeads: 32 }).invFreq, ladder(128, 10000));
  });

  it('partial rotary: rotaryDim = floor(headDim * factor) rounded down to even, exponents over rotaryDim', () => {
    const quarter = pe.ropeFrequencies({ headDim: 80, partialRotaryFactor: 0.4 });
    expect(quarter.rotaryDim).toBe(32);
    expectFrequencies(quarter.invFreq, ladder(32, 10000));
    // 50 * 0.5 = 25 dims: the odd one has no partner.
    const odd = pe.ropeFrequencies({ headDim: 50, partialRotaryFactor: 0.5 });
    expect(odd.rotaryDim).toBe(24);
    expectFrequencies(odd.invFreq, ladder(24, 10000));
  });

  it('linear: every frequency divided by factor', () => {
    const f = pe.ropeFrequencies({ headDim: 64, scaling: { type: 'linear', factor: 4 } });
    expectFrequencies(
      f.invFreq,
      ladder(64, 10000).map((w) => w / 4),
    );
  });

  it('dynamic: the base is kept up to maxPositionEmbeddings and grows beyond it', () => {
    const scaling = { type: 'dynamic', factor: 2, maxPositionEmbeddings: 4096 };
    for (const seqLen of [undefined, 1000, 4096])
      expectFrequencies(pe.ropeFrequencies({ headDim: 128, seqLen, scaling }).invFreq, ladder(128, 10000));
    // NTK-aware: base' = base (factor L / L0 - (factor - 1))^(d / (d - 2)).
    const grown = 10000 * ((2 * 8192) / 4096 - 1) ** (128 / 126);
    expectFrequencies(pe.ropeFrequencies({ headDim: 128, seqLen: 8192, scaling }).invFreq, ladder(128, grown), 1e-13);
  });

  it('yarn: interpolation below the ramp, extrapolation above, attention factor 0.1 ln(s) + 1', () => {
    const f = pe.ropeFrequencies({
      headDim: 128,
      base: 1e6,
      scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 },
    });
    const want = yarnReference({ d: 128, base: 1e6, factor: 4, original: 32768 });
    expectFrequencies(f.invFreq, want);
    // The range [23, 40] of this configuration: unscaled up to 23, divided by 4 from 40.
    const w = ladder(128, 1e6);
    expect(f.invFreq[23]).toBe(w[23]);
    expect(f.invFreq[22]).toBe(w[22]);
    // Divided by 4 exactly from the unscaled ladder: the frequencies' bound.
    expectClose(f.invFreq[40], w[40] / 4, { relative: 1e-14 });
    expect(f.invFreq[30]).toBeLessThan(w[30]);
    expect(f.invFreq[30]).toBeGreaterThan(w[30] / 4);
    expectClose(f.attentionFactor, 0.1 * Math.log(4) + 1, ATTENTION_FACTOR);
  });

  it('yarn without truncation ramps over the fractional range', () => {
    const scaling = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768, truncate: false };
    const f = pe.ropeFrequencies({ headDim: 128, base: 1e6, scaling });
    expectFrequencies(f.invFreq, yarnReference({ d: 128, base: 1e6, factor: 4, original: 32768, truncate: false }));
    const truncated = pe.ropeFrequencies({ headDim: 128, base: 1e6, scaling: { ...scaling, truncate: true } });
    expect(f.invFreq[24]).not.toBe(truncated.invFreq[24]);
  });

  it('yarn: mscale and mscaleAllDim set the attention factor; betas move the ramp; a given factor wins', () => {
    const base = { type: 'yarn', factor: 40, originalMaxPositionEmbeddings: 4096 };
    const af = (scaling) => pe.ropeFrequencies({ headDim: 64, scaling }).attentionFactor;
    expectClose(af({ ...base, mscale: 1, mscaleAllDim: 0.707 }), mscale(40, 1) / mscale(40, 0.707), ATTENTION_FACTOR);
    expect(af({ ...base, mscale: 1, mscaleAllDim: 1 })).toBe(1);
    expectClose(af({ ...base, mscale: 1 }), 0.1 * Math.log(40) + 1, ATTENTION_FACTOR);
    expect(af({ ...base, attentionFactor: 0.75 })).toBe(0.75);
    const betas = { ...base, betaFast: 16, betaSlow: 2 };
    expectFrequencies(
      pe.ropeFrequencies({ headDim: 64, scaling: betas }).invFreq,
      yarnReference({ d: 64, base: 10000, factor: 40, original: 4096, betaFast: 16, betaSlow: 2 }),
    );
    // Without factor: maxPositionEmbeddings / originalMaxPositionEmbeddings.
    const implicit = pe.ropeFrequencies({
      headDim: 64,
      scaling: { type: 'yarn', originalMaxPositionEmbeddings: 4096, maxPositionEmbeddings: 163840 },
    });
    expectFrequencies(implicit.invFreq, yarnReference({ d: 64, base: 10000, factor: 40, original: 4096 }));
  });

  it('longrope: short factors up to the original length, long ones from one past it', () => {
    const scaling = {
      type: 'longrope',
      originalMaxPositionEmbeddings: 4096,
      maxPositionEmbeddings: 131072,
      shortFactor: [1, 1.1, 1.5, 2],
      longFactor: [1.2, 3, 9, 30],
    };
    const w = ladder(8, 10000);
    for (const [seqLen, ext] of [
      [undefined, scaling.shortFactor],
      [4096, scaling.shortFactor],
      [4097, scaling.longFactor],
    ]) {
      const f = pe.ropeFrequencies({ headDim: 8, seqLen, scaling });
      expectFrequencies(
        f.invFreq,
        w.map((x, i) => x / ext[i]),
      );
      // factor = 131072 / 4096 = 32: sqrt(1 + ln 32 / ln 4096).
      expectClose(f.attentionFactor, Math.sqrt(1 + Math.log(32) / Math.log(4096)), ATTENTION_FACTOR);
    }
  });

  it('llama3: short wavelengths kept, long ones divided, the band between smoothed', () => {
    const f = pe.ropeFrequencies({
      headDim: 128,
      base: 500000,
      scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 },
    });
    const want = llama3Reference({ d: 128, base: 500000, factor: 8, low: 1, high: 4, original: 8192 });
    expectFrequencies(f.invFreq, want);
    const w = ladder(128, 500000);
    const kept = w.filter((x, i) => f.invFreq[i] === x).length;
    const divided = w.filter((x, i) => Math.abs(f.invFreq[i] - x / 8) <= 1e-16 * x).length;
    expect(kept).toBeGreaterThan(0);
    expect(divided).toBeGreaterThan(0);
    expect(kept + divided).toBeLessThan(64);
  });
});

// ---- caches ----

describe('ropeCache', () => {
  const yarn = { type: 'yarn', factor: 16, originalMaxPositionEmbeddings: 8192 };
  for (const layout of ['half', 'interleaved'])
    it(`float32 ${layout} is the float64 value rounded, up to position 2^20, headDim 512, attention factor > 1`, () => {
      const opts = { headDim: 512, base: 500000, scaling: yarn, layout };
      const { invFreq, attentionFactor } = pe.ropeFrequencies({ headDim: 512, base: 500000, scaling: yarn });
      expect(attentionFactor).toBeGreaterThan(1.2);
      const start = 2 ** 20 - 1100;
      const length = 1101;
      const got = pe.ropeCache({ ...opts, length, start });
      expect(got.cos).toBeInstanceOf(Float32Array);
      expect(got.cos.length).toBe(length * 512);
      const want = cacheReference(invFreq, attentionFactor, layout, start, length);
      expect(maxAbsDiff(got.cos, want.cos)).toBeLessThanOrEqual(1.2e-7 * attentionFactor);
      expect(maxAbsDiff(got.sin, want.sin)).toBeLessThanOrEqual(1.2e-7 * attentionFactor);
      const f64 = pe.ropeCache({ ...opts, length: 50, start, dtype: 'float64' });
      expect(f64.cos).toBeInstanceOf(Float64Array);
      const want64 = cacheReference(invFreq, attentionFactor, layout, start, 50);
      expect(maxAbsDiff(f64.cos, want64.cos)).toBeLessThanOrEqual(1e-15);
      expect(maxAbsDiff(f64.sin, want64.sin)).toBeLessThanOrEqual(1e-15);
    });

  it('half repeats the pairs as [c0..c(n-1), c0..c(n-1)], interleaved as [c0, c0, c1, c1, ...]', () => {
    const w = ladder(8, 10000);
    const half = pe.ropeCache({ headDim: 8, length: 3, start: 5 });
    const inter = pe.ropeCache({ headDim: 8, length: 3, start: 5, layout: 'interleaved' });
    for (let r = 0; r < 3; r++)
      for (let i = 0; i < 4; i++) {
        const c = Math.cos((5 + r) * w[i]);
        const s = Math.sin((5 + r) * w[i]);
        for (const [array, value, index] of [
          [half.cos, c, r * 8 + i],
          [half.cos, c, r * 8 + i + 4],
          [half.sin, s, r * 8 + i],
          [half.sin, s, r * 8 + i + 4],
          [inter.cos, c, r * 8 + 2 * i],
          [inter.cos, c, r * 8 + 2 * i + 1],
          [inter.sin, s, r * 8 + 2 * i],
          [inter.sin, s, r * 8 + 2 * i + 1],
        ])
          expectClose(array[index], value, 6e-8);
      }
  });

  it('fills a given out in chunks (rows across several scratch chunks and reseeds), partial rotary widths', () => {
    const opts = { headDim: 96, partialRotaryFactor: 0.5, length: 3000, start: 7 };
    const out = { cos: new Float32Array(3000 * 48), sin: new Float32Array(3000 * 48) };
    const got = pe.ropeCache({ ...opts, out });
    expect(got.cos).toBe(out.cos);
    expect(got.sin).toBe(out.sin);
    const want = cacheReference(ladder(48, 10000), 1, 'half', 7, 3000);
    expect(maxAbsDiff(out.cos, want.cos)).toBeLessThanOrEqual(1.2e-7);
    expect(maxAbsDiff(out.sin, want.sin)).toBeLessThanOrEqual(1.2e-7);
  });
});

// ---- rotation ----

describe('ropeApply', () => {
  function randomX(count, ArrayType, seed = 1) {
    let state = seed;
    const x = new ArrayType(count);
    for (let k = 0; k < count; k++) {
      state = (state * 1103515245 + 12345) % 2147483648;
      x[k] = (state / 2147483648 - 0.5) * 8;
    }
    return x;
  }

  for (const layout of ['half', 'interleaved'])
    for (const ArrayType of [Float32Array, Float64Array])
      it(`${layout}, ${ArrayType.name}: the float64 rotation within 2 float32 ulps of |x|, other dims passed through`, () => {
        const headDim = 96;
        const heads = 3;
        const tokens = 40;
        const scaling = { type: 'yarn', factor: 8, originalMaxPositionEmbeddings: 4096 };
        const opts = { headDim, partialRotaryFactor: 0.75, scaling, heads, layout };
        const { invFreq, attentionFactor } = pe.ropeFrequencies({ headDim, partialRotaryFactor: 0.75, scaling });
        const x = randomX(tokens * heads * headDim, ArrayType);
        for (const positions of [null, Array.from({ length: tokens }, (_, t) => 3 * t * t + 50000)]) {
          const got = positions ? pe.ropeApply(x, { ...opts, positions }) : pe.ropeApply(x, { ...opts, start: 11 });
          expect(got).toBeInstanceOf(ArrayType);
          expect(got).not.toBe(x);
          const want = applyReference(
            x,
            invFreq,
            attentionFactor,
            layout,
            headDim,
            heads,
            positions ?? Array.from({ length: tokens }, (_, t) => 11 + t),
          );
          for (let head = 0; head < tokens * heads; head++) {
            let norm = 0;
            for (let j = 0; j < headDim; j++) norm = Math.max(norm, Math.abs(x[head * headDim + j]));
            const tolerance =
              ArrayType === Float32Array ? 2 * ulp32(norm) * attentionFactor : 1e-13 * norm * attentionFactor;
            for (let j = 0; j < headDim; j++) {
              const k = head * headDim + j;
              if (j >= 72) expect(got[k]).toBe(x[k]);
              else if (!(Math.abs(got[k] - want[k]) <= tolerance))
                throw new Error(`value ${k}: got ${got[k]}, want ${want[k]}`);
            }
          }
        }
      });

  it('writes into out, which may be x itself', () => {
    const x = randomX(64, Float32Array, 7);
    const expected = pe.ropeApply(x, { headDim: 16, start: 3 });
    const out = new Float32Array(64);
    expect(pe.ropeApply(x, { headDim: 16, start: 3, out })).toBe(out);
    expect(out).toEqual(expected);
    const copy = Float32Array.from(x);
    pe.ropeApply(copy, { headDim: 16, start: 3, out: copy });
    expect(copy).toEqual(expected);
  });
});

// ---- relative scores ----

describe('ropeScores', () => {
  it('depends on the offset only and matches the float64 sum; the bound is RoFormer §3.4.3', () => {
    const headDim = 160;
    const opts = { headDim, partialRotaryFactor: 0.8, scaling: { type: 'linear', factor: 2 } };
    const w = ladder(128, 10000).map((x) => x / 2);
    const maxOffset = 3000;
    const at0 = pe.ropeScores({ ...opts, maxOffset });
    const far = pe.ropeScores({ ...opts, maxOffset, from: 123456 });
    expect(at0.scores.length).toBe(maxOffset + 1);
    expect(at0.bound.length).toBe(maxOffset + 1);
    for (let k = 0; k <= maxOffset; k += 11) {
      let cosines = 0;
      let re = 0;
      let im = 0;
      let sum = 0;
      for (const x of w) {
        cosines += Math.cos(k * x);
        re += Math.cos(k * x);
        im += Math.sin(k * x);
        sum += Math.hypot(re, im);
      }
      // q = k = ones / sqrt(160): 64 pairs give (2 / 160) cos(k w) each, the 32 unrotated dims 1/160 each.
      const want = (2 / headDim) * cosines + 32 / headDim;
      expectClose(at0.scores[k], want, 1e-10);
      expectClose(far.scores[k], want, 1e-9);
      expectClose(at0.bound[k], sum / 64, 1e-10);
    }
    // Offset 0: 64 pairs' cos^2 + sin^2 summed, a rounding per term.
    expectClose(at0.scores[0], 1, { relative: 64 * FLOAT64_EPSILON });
    expectClose(at0.bound[0], (64 * 65) / 2 / 64, { relative: 64 * FLOAT64_EPSILON });
  });

  it('scales the rotated part by the attention factor squared, as the cache does', () => {
    const scaling = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 2048 };
    const { attentionFactor } = pe.ropeFrequencies({ headDim: 64, scaling });
    expectClose(pe.ropeScores({ headDim: 64, scaling, maxOffset: 0 }).scores[0], attentionFactor ** 2, {
      relative: 64 * FLOAT64_EPSILON,
    });
  });
});

// ---- config.json ----

describe('ropeFromConfig', () => {
  it('Llama 2: no rope_theta, 10000 assumed with a warning', () => {
    const { options, warnings } = pe.ropeFromConfig(LLAMA_2_7B);
    expect(options).toEqual({ headDim: 128, base: 10000 });
    expect(warnings.map((w) => w.code)).toEqual(['rope-theta-missing']);
    expect(warnings[0].message).toMatch(/10000/);
  });

  it('Llama 3.1: llama3 scaling, no warnings, the llama3 frequencies', () => {
    const { options, warnings } = pe.ropeFromConfig(LLAMA_3_1_8B);
    expect(warnings).toEqual([]);
    expect(options.scaling).toMatchObject({ type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4 });
    expectFrequencies(
      pe.ropeFrequencies(options).invFreq,
      llama3Reference({ d: 128, base: 500000, factor: 8, low: 1, high: 4, original: 8192 }),
    );
  });

  it('Qwen2.5 with YaRN: head_dim from hidden_size / heads, factor 4, attention factor 0.1 ln 4 + 1', () => {
    const { options, warnings } = pe.ropeFromConfig(QWEN_2_5_7B_YARN);
    expect(warnings).toEqual([]);
    expect(options.headDim).toBe(128);
    const f = pe.ropeFrequencies(options);
    expectFrequencies(f.invFreq, yarnReference({ d: 128, base: 1e6, factor: 4, original: 32768 }));
    expectClose(f.attentionFactor, 0.1 * Math.log(4) + 1, ATTENTION_FACTOR);
  });

  it('DeepSeek-V3: qk_rope_head_dim, mscale = mscale_all_dim (attention factor 1), interleaved pairs', () => {
    const { options, warnings } = pe.ropeFromConfig(DEEPSEEK_V3);
    expect(options.headDim).toBe(64);
    expect(warnings.map((w) => w.code)).toEqual(['interleaved-layout']);
    const f = pe.ropeFrequencies(options);
    expect(f.attentionFactor).toBe(1);
    expectFrequencies(f.invFreq, yarnReference({ d: 64, base: 10000, factor: 40, original: 4096 }));
    // With mscale_all_dim 0.707 the ratio of the two mscales.
    const other = pe.ropeFromConfig({
      ...DEEPSEEK_V3,
      rope_scaling: { ...DEEPSEEK_V3.rope_scaling, mscale_all_dim: 0.707 },
    });
    expectClose(pe.ropeFrequencies(other.options).attentionFactor, mscale(40, 1) / mscale(40, 0.707), ATTENTION_FACTOR);
  });

  it("Phi-3 (type 'su'): longrope with factor max / original = 32 and the switch at 4096", () => {
    const { options, warnings } = pe.ropeFromConfig(PHI_3_VISION_128K);
    expect(warnings.map((w) => w.code)).toEqual(['legacy-type', 'longrope-depends-on-length']);
    expect(options.headDim).toBe(96);
    const w = ladder(96, 10000);
    const short = pe.ropeFrequencies({ ...options, seqLen: 4096 });
    const long = pe.ropeFrequencies({ ...options, seqLen: 4097 });
    expectFrequencies(
      short.invFreq,
      w.map((x, i) => x / PHI_3_SHORT_FACTOR[i]),
    );
    expectFrequencies(
      long.invFreq,
      w.map((x, i) => x / PHI_3_LONG_FACTOR[i]),
    );
    expectClose(long.attentionFactor, Math.sqrt(1 + Math.log(32) / Math.log(4096)), ATTENTION_FACTOR);
  });

  it('reads the newer rope_parameters (rope_theta inside) and per-layer-type dicts', () => {
    const v5 = { head_dim: 64, rope_parameters: { rope_type: 'linear', factor: 2, rope_theta: 50000 } };
    expect(pe.ropeFromConfig(v5)).toEqual({
      options: { headDim: 64, base: 50000, scaling: { type: 'linear', factor: 2 } },
      warnings: [],
    });
    const layered = {
      head_dim: 64,
      layer_types: ['sliding_attention', 'full_attention'],
      rope_parameters: {
        sliding_attention: { rope_type: 'default', rope_theta: 10000 },
        full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1000000 },
      },
    };
    const { options, warnings } = pe.ropeFromConfig(layered);
    expect(options).toEqual({ headDim: 64, base: 1000000, scaling: { type: 'linear', factor: 8 } });
    expect(warnings.map((w) => w.code)).toEqual(['per-layer-rope']);
  });

  it('warns about each mistake', () => {
    const codes = (config) => pe.ropeFromConfig(config).warnings.map((w) => w.code);
    const llama = { hidden_size: 4096, num_attention_heads: 32, rope_theta: 500000, max_position_embeddings: 131072 };
    const unknown = pe.ropeFromConfig({ ...llama, rope_scaling: { rope_type: 'fancy', factor: 2 } });
    expect(unknown.warnings.map((w) => w.code)).toEqual(['unknown-scaling-type']);
    expect(unknown.warnings[0].message).toContain("'fancy'");
    expect(unknown.options.scaling).toBeUndefined();

    const mismatch = { type: 'yarn', factor: 4, original_max_position_embeddings: 8192 };
    expect(codes({ ...llama, rope_scaling: mismatch })).toEqual(['yarn-factor-mismatch']);

    const missing = pe.ropeFromConfig({ ...llama, rope_scaling: { rope_type: 'llama3', factor: 8 } });
    expect(missing.warnings.map((w) => w.code)).toEqual(['llama3-fields-missing']);
    expect(missing.warnings[0].message).toMatch(/low_freq_factor.*high_freq_factor.*original_max_position_embeddings/);
    expect(missing.options.scaling).toEqual({
      type: 'llama3',
      factor: 8,
      lowFreqFactor: 1,
      highFreqFactor: 4,
      originalMaxPositionEmbeddings: 131072,
    });

    const wrongLength = { type: 'longrope', short_factor: [1, 2], long_factor: Array(64).fill(2) };
    const longrope = pe.ropeFromConfig({ ...llama, rope_scaling: wrongLength });
    expect(longrope.warnings.map((w) => w.code)).toEqual(['longrope-factor-length', 'longrope-depends-on-length']);
    expect(() => pe.ropeFrequencies(longrope.options)).toThrow(
      /posenc\.ropeFrequencies: scaling\.shortFactor must hold/,
    );

    expect(codes({ ...llama, rope_scaling: { type: 'dynamic', factor: 2 } })).toEqual(['dynamic-depends-on-length']);
    expect(codes({ ...llama, partial_rotary_factor: 0.4 })).toEqual(['odd-rotary-dim']);
    expect(codes({ ...llama, partial_rotary_factor: 0.5 })).toEqual([]);
  });
});

// ---- memory ----

it('leaves nothing allocated in the wasm heap', () => {
  const yarn = { headDim: 64, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 2048 } };
  const calls = () => {
    pe.ropeFrequencies(yarn);
    pe.ropeCache({ ...yarn, length: 3000 });
    pe.ropeCache({ ...yarn, length: 100, dtype: 'float64', layout: 'interleaved' });
    pe.ropeApply(new Float32Array(64 * 10), { ...yarn, positions: Array.from({ length: 10 }, (_, t) => t * 7) });
    pe.ropeApply(new Float64Array(64 * 10), { ...yarn, start: 5 });
    pe.ropeScores({ ...yarn, maxOffset: 2000 });
    expect(() => pe.ropeCache({ ...yarn, length: 4, layout: 'neox' })).toThrow(RangeError);
  };
  calls();
  const before = pe.heapBytes();
  calls();
  expect(pe.heapBytes()).toBe(before);
});

// ---- the NumPy snippet ----

// The same snippets in both languages: Debian's python3 has NumPy (python3-numpy) and PyTorch (python3-torch).
for (const language of ['numpy', 'pytorch'])
  describe(`codeSnippet('${language}', ropeOptions), run by Debian's python3`, () => {
    const optionSets = [
      { headDim: 80, partialRotaryFactor: 0.5, length: 40 },
      {
        headDim: 64,
        base: 500000,
        length: 30,
        start: 1000,
        layout: 'interleaved',
        scaling: { type: 'linear', factor: 4 },
      },
      { headDim: 64, length: 20, seqLen: 9000, scaling: { type: 'dynamic', factor: 2, maxPositionEmbeddings: 4096 } },
      {
        headDim: 128,
        base: 1e6,
        length: 64,
        start: 100000,
        scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 },
      },
      {
        headDim: 64,
        length: 16,
        dtype: 'float64',
        scaling: {
          type: 'yarn',
          originalMaxPositionEmbeddings: 4096,
          maxPositionEmbeddings: 163840,
          mscale: 1,
          mscaleAllDim: 0.707,
          truncate: false,
        },
      },
      ...[4096, 4097].map((seqLen) => ({
        headDim: 96,
        length: 8,
        seqLen,
        scaling: {
          type: 'longrope',
          originalMaxPositionEmbeddings: 4096,
          maxPositionEmbeddings: 131072,
          shortFactor: PHI_3_SHORT_FACTOR,
          longFactor: PHI_3_LONG_FACTOR,
        },
      })),
      {
        headDim: 128,
        base: 500000,
        length: 50,
        start: 8000,
        layout: 'interleaved',
        dtype: 'float64',
        scaling: {
          type: 'llama3',
          factor: 8,
          lowFreqFactor: 1,
          highFreqFactor: 4,
          originalMaxPositionEmbeddings: 8192,
        },
      },
    ];
    let dir;
    let results;
    let setupError;
    beforeAll(() => {
      try {
        dir = mkdtempSync(join(tmpdir(), 'posenc-rope-snippet-'));
        const scripts = optionSets.map((options, k) => {
          const script = join(dir, `rope${k}.py`);
          const save = `import json\njson.dump({'inv_freq': inv_freq.tolist(), 'attention_factor': float(attention_factor), 'cos': cos.ravel().tolist(), 'sin': sin.ravel().tolist(), 'dtype': str(cos.dtype).replace('torch.', '')}, open(${JSON.stringify(join(dir, `rope${k}.json`))}, 'w'))`;
          writeFileSync(script, `${codeSnippet(language, options)}${save}\n`);
          return script;
        });
        execFileSync('/usr/bin/python3', [
          '-c',
          'import runpy, sys\nfor path in sys.argv[1:]: runpy.run_path(path)',
          ...scripts,
        ]);
        results = optionSets.map((_, k) => JSON.parse(readFileSync(join(dir, `rope${k}.json`), 'utf8')));
      } catch (error) {
        // Reported by every snippet test below: they fail, they do not skip.
        setupError = error;
      }
      // Importing PyTorch takes seconds on a loaded machine.
    }, 120_000);
    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    for (const [k, options] of optionSets.entries())
      it(`rebuilds invFreq, the attention factor and the cache of ${JSON.stringify(options).slice(0, 150)}`, () => {
        if (setupError) throw setupError;
        const got = results[k];
        const { length, start, layout, dtype, ...rope } = options;
        const f = pe.ropeFrequencies(rope);
        expectFrequencies(got.inv_freq, f.invFreq, 1e-15);
        expectClose(got.attention_factor, f.attentionFactor, ATTENTION_FACTOR);
        const cache = pe.ropeCache(options);
        expect(got.dtype).toBe(dtype === 'float64' ? 'float64' : 'float32');
        // float32: one float32 ulp of a value up to attentionFactor. float64: pow may differ by an ulp
        // between libms (NumPy's and the module's), which moves the angle by position * 2^-52 at w <= 1.
        const lastPosition = Math.abs(start ?? 0) + length;
        const tolerance = (dtype === 'float64' ? 1e-15 + 2 ** -51 * lastPosition : 1.2e-7) * f.attentionFactor;
        expect(maxAbsDiff(got.cos, cache.cos)).toBeLessThanOrEqual(tolerance);
        expect(maxAbsDiff(got.sin, cache.sin)).toBeLessThanOrEqual(tolerance);
      });

    it('refuses other languages for RoPE options', () => {
      expect(() => codeSnippet('jax', { headDim: 64, length: 4 })).toThrow(
        /posenc\.codeSnippet: RoPE options have NumPy and PyTorch snippets: language must be 'numpy' or 'pytorch'/,
      );
      expect(() => codeSnippet('numpy', { headDim: 64 })).toThrow(/posenc\.codeSnippet: length is required/);
    });
  });
