// compareRuntimes on real model configs (tests/fixtures/configs), against float64
// references of each runtime's rule written here from the code each module names.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../../web/lib/index.js';
import { compareRuntimes } from '../../../../web/lib/runtimes/index.js';
import { expectClose } from '../../tolerance.js';

const config = (name) => JSON.parse(readFileSync(new URL(`../../../fixtures/configs/${name}.json`, import.meta.url)));
let pe;
beforeAll(async () => {
  pe = await load();
});

const ladder = (base, dim) => Float64Array.from({ length: dim / 2 }, (_, i) => base ** (-(2 * i) / dim));
const mscale = (s, m = 1) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);
const layer = (result, runtime, layerType = 'full_attention') =>
  result.runtimes[runtime].find((l) => l.layerType === layerType);
// Runtimes with a model class for the config (transformers 4.44 has none for Gemma 3, DeepSeek-V3, InternLM2).
const supported = (result) => Object.keys(result.runtimes).filter((k) => result.runtimes[k][0].supported !== false);
const facts = (result, runtime, quantity) =>
  result.differences.filter((d) => d.runtime === runtime && d.quantity === quantity);
// Float32 frequencies (torch, MLX, ggml) against float64: a few ulps.
const FREQ = { relative: 2e-6 };
// ggml's theta_scale = powf(base, -2 / n_rot) is float32 (within 3 · 2^-24 relative: the exponent's and
// powf's roundings), raised to the i-th power by the recurrence: pair i is off by up to 3i · 2^-24.
const GGML = (pairs) => ({ relative: 3 * pairs * 2 ** -24 });
const tolerance = (runtime, pairs) => (runtime === 'llamacpp' ? GGML(pairs) : FREQ);

describe('compareRuntimes: LongRoPE (Phi-3 mini 128k)', () => {
  const phi = config('phi-3-mini-128k-longrope');
  const d = 96;
  const long = ladder(10000, d).map((w, i) => w / phi.rope_scaling.long_factor[i]);
  const short = ladder(10000, d).map((w, i) => w / phi.rope_scaling.short_factor[i]);
  const attention = Math.sqrt(1 + Math.log(131072 / 4096) / Math.log(4096));

  it('at seqLen 4096 transformers 5 takes the short factors, vLLM, llama.cpp and MLX the long ones', () => {
    const r = compareRuntimes(pe, phi, { seqLen: 4096 });
    expectClose(layer(r, 'transformers5').invFreq, short, FREQ);
    for (const runtime of ['vllm', 'llamacpp', 'mlx']) {
      expectClose(layer(r, runtime).invFreq, long, tolerance(runtime, 48), runtime);
      expectClose(layer(r, runtime).attentionFactor, attention, { relative: 1e-6 }, runtime);
      const [cos] = facts(r, runtime, 'cos');
      // Largest |A cos(p w_short) - A cos(p w_long)| over the positions compared, in float64.
      let want = 0;
      for (const p of r.positions)
        for (let i = 0; i < d / 2; i++)
          want = Math.max(want, attention * Math.abs(Math.cos(p * short[i]) - Math.cos(p * long[i])));
      expectClose(cos.maxAbs, want, 1e-3, runtime);
      expect(cos.maxAbs).toBeGreaterThan(2);
      expect(facts(r, runtime, 'invFreq')[0].maxAbs).toBeGreaterThan(0.9);
    }
    expect(facts(r, 'llamacpp', 'cos')[0].issue).toBe('ggml-org/llama.cpp#24823');
  });

  it('vLLM takes the short factors when max_model_len fits the original context, llama.cpp when n_ctx does', () => {
    const r = compareRuntimes(pe, phi, { seqLen: 4096, maxModelLen: 4096, nCtx: 4096 });
    expectClose(layer(r, 'vllm').invFreq, short, FREQ);
    expectClose(layer(r, 'llamacpp').invFreq, short, GGML(48));
    expect(r.differences.filter((f) => f.runtime !== 'mlx' && f.runtime !== 'transformers4')).toEqual([]);
  });

  it('transformers 4.4x takes the long factors at every length once max_position_embeddings exceeds the original', () => {
    const r = compareRuntimes(pe, phi, { seqLen: 16 });
    expectClose(layer(r, 'transformers4').invFreq, long, FREQ);
    expectClose(layer(r, 'transformers4').attentionFactor, attention, { relative: 1e-12 });
    expect(facts(r, 'transformers4', 'invFreq')[0].issue).toMatch(/_compute_longrope_parameters/);
    // A config whose max_position_embeddings is the original one keeps the short factors.
    const r4k = compareRuntimes(pe, { ...phi, max_position_embeddings: 4096 }, { seqLen: 16 });
    expectClose(layer(r4k, 'transformers4').invFreq, short, FREQ);
  });

  it('past the original context every runtime takes the long factors: no difference', () => {
    const r = compareRuntimes(pe, phi, { seqLen: 8192 });
    expectClose(layer(r, 'transformers5').invFreq, long, FREQ);
    expect(r.differences).toEqual([]);
  });
});

describe('compareRuntimes: dynamic NTK (InternLM2.5 1M)', () => {
  const intern = config('internlm2.5-7b-chat-1m');
  const d = 128;
  it("past max_position_embeddings transformers 5 and MLX scale the base; vLLM keeps one base, llama.cpp's GGUF has no scaling", () => {
    const seqLen = 2 ** 20;
    const r = compareRuntimes(pe, intern, { seqLen });
    const scaledBase = 5e7 * ((2.5 * seqLen) / 262144 - 1.5) ** (d / (d - 2));
    expectClose(layer(r, 'transformers5').invFreq, ladder(scaledBase, d), FREQ);
    expectClose(layer(r, 'mlx').invFreq, ladder(scaledBase, d), FREQ);
    // vLLM: base * (factor * max_position / max_trained_positions - (factor - 1))^(d/(d-2)) with max_trained = max_position.
    expectClose(layer(r, 'vllm').invFreq, ladder(5e7, d), FREQ);
    expectClose(layer(r, 'llamacpp').invFreq, ladder(5e7, d), GGML(64));
    expect(r.gguf.keys['internlm2.rope.scaling.type']).toBeUndefined();
    expect(r.gguf.droppedType).toBe('dynamic');
    for (const runtime of ['vllm', 'llamacpp'])
      expect(facts(r, runtime, 'cos')[0].maxAbs, runtime).toBeGreaterThan(1.5);
    expect(facts(r, 'mlx', 'cos')).toEqual([]);
  });
  it('within max_position_embeddings all four agree', () => {
    expect(compareRuntimes(pe, intern, { seqLen: 65536 }).differences.filter((f) => f.quantity !== 'layout')).toEqual(
      [],
    );
  });
});

describe('compareRuntimes: YaRN', () => {
  it('Qwen2.5 ×4: one ramp and attention factor 0.1 ln 4 + 1 in every runtime', () => {
    const r = compareRuntimes(pe, config('qwen2.5-7b-instruct-yarn'), { seqLen: 131072 });
    for (const runtime of Object.keys(r.runtimes))
      expectClose(layer(r, runtime).attentionFactor, mscale(4), { relative: 1e-6 }, runtime);
    // YaRN's blend (HF _compute_yarn_parameters): pairs below low extrapolate, above high interpolate.
    const d = 128;
    const corr = (rot) => (d * Math.log(32768 / (rot * 2 * Math.PI))) / (2 * Math.log(1e6));
    const [low, high] = [Math.max(Math.floor(corr(32)), 0), Math.min(Math.ceil(corr(1)), d - 1)];
    const want = ladder(1e6, d).map((w, i) => {
      const extrapolation = 1 - Math.min(1, Math.max(0, (i - low) / (high - low)));
      return (w / 4) * (1 - extrapolation) + w * extrapolation;
    });
    for (const runtime of Object.keys(r.runtimes))
      expectClose(layer(r, runtime).invFreq, want, tolerance(runtime, 64), runtime);
    expect(r.differences).toEqual([]);
  });

  it("DeepSeek-V3: rotation unscaled (mscale / mscale_all_dim = 1), softmax × mscale(40)^2, interleaved; llama.cpp's kernel factor cancelled", () => {
    const r = compareRuntimes(pe, config('deepseek-v3'), { seqLen: 163840 });
    expect(supported(r)).toEqual(['transformers5', 'vllm', 'llamacpp', 'mlx']);
    for (const runtime of supported(r)) {
      const l = layer(r, runtime);
      expect(l.rotaryDim, runtime).toBe(64);
      expectClose(l.attentionFactor, 1, { relative: 1e-6 }, runtime);
      expect(l.layout, runtime).toBe('interleaved');
      if (l.softmaxFactor !== null) expectClose(l.softmaxFactor, mscale(40) ** 2, 1e-12, runtime);
    }
    expect(layer(r, 'llamacpp').weightsPermuted).toBe(false);
    expectClose(r.gguf.keys['deepseek2.rope.scaling.yarn_log_multiplier'], 0.1, 1e-8);
    expect(r.differences).toEqual([]);
  });

  it('an explicit attention_factor: transformers 5 and vLLM take it, MLX and llama.cpp derive 0.1 ln s + 1', () => {
    const qwen = config('qwen2.5-7b-instruct-yarn');
    const r = compareRuntimes(
      pe,
      { ...qwen, rope_scaling: { ...qwen.rope_scaling, attention_factor: 1 } },
      { seqLen: 4096 },
    );
    expectClose(layer(r, 'transformers5').attentionFactor, 1, 1e-12);
    expectClose(layer(r, 'vllm').attentionFactor, 1, 1e-12);
    for (const runtime of ['mlx', 'llamacpp']) {
      const [fact] = facts(r, runtime, 'attentionFactor');
      expectClose(fact.value, mscale(4), { relative: 1e-6 }, runtime);
      expectClose(fact.maxAbs, mscale(4) - 1, { relative: 1e-5 }, runtime);
    }
  });
});

describe('compareRuntimes: per-layer bases and layouts', () => {
  it('Gemma 3: 29 sliding layers at rope_local_base_freq unscaled, 5 full at 1e6 / 8, in every runtime', () => {
    const r = compareRuntimes(pe, config('gemma-3-4b-it'), { seqLen: 32768 });
    for (const runtime of supported(r)) {
      expect(layer(r, runtime, 'sliding_attention').layers.length, runtime).toBe(29);
      expect(layer(r, runtime, 'full_attention').layers).toEqual([5, 11, 17, 23, 29]);
      expectClose(layer(r, runtime, 'sliding_attention').invFreq, ladder(1e4, 256), tolerance(runtime, 128), runtime);
      expectClose(
        layer(r, runtime, 'full_attention').invFreq,
        ladder(1e6, 256).map((w) => w / 8),
        tolerance(runtime, 128),
        runtime,
      );
    }
    expect(r.gguf.keys['gemma3.rope.freq_base_swa']).toBe(1e4);
    expect(r.differences).toEqual([]);
  });

  it('Llama 3.1: llama.cpp rotates interleaved pairs of permuted rows, which is rotate-half on the checkpoint: no layout difference', () => {
    const r = compareRuntimes(pe, config('llama-3.1-8b'), { seqLen: 131072 });
    expect(layer(r, 'llamacpp').layout).toBe('interleaved');
    expect(layer(r, 'llamacpp').weightsPermuted).toBe(true);
    expect(r.differences).toEqual([]);
    // Command-R's converter does not permute: its NORM rotation is interleaved on the checkpoint's rows.
    const cohere = { ...config('llama-3.1-8b'), model_type: 'cohere', rope_scaling: null };
    const [fact] = facts(compareRuntimes(pe, cohere, { seqLen: 4096 }), 'llamacpp', 'layout');
    expect(fact.value).toBe('interleaved');
  });

  it('Llama 4: every 4th layer has no RoPE, in every runtime', () => {
    const llama4 = {
      model_type: 'llama4_text',
      head_dim: 128,
      hidden_size: 5120,
      num_attention_heads: 40,
      num_hidden_layers: 8,
      max_position_embeddings: 8192,
      rope_theta: 5e5,
    };
    const r = compareRuntimes(pe, llama4, { seqLen: 4096 });
    for (const runtime of Object.keys(r.runtimes)) expect(layer(r, runtime, 'no_rope').layers, runtime).toEqual([3, 7]);
  });
});

describe('compareRuntimes: float32 angle formation', () => {
  it("ggml's theta *= theta_scale stays within its stated bound of p × theta_scale^i and exceeds PyTorch's one-product error", () => {
    const r = compareRuntimes(pe, config('llama-3.1-8b'), { seqLen: 131072 });
    const ggml = layer(r, 'llamacpp');
    const torch = layer(r, 'transformers5');
    const p = 131071;
    let ggmlWorst = 0;
    let torchWorst = 0;
    for (let i = 0; i < 64; i++) {
      const exact = p * ggml.invFreq[i];
      const error = Math.abs(ggml.angle(p, i) - exact);
      expect(error, `pair ${i}`).toBeLessThanOrEqual((2 * i + 2) * 2 ** -24 * exact + 1e-30);
      ggmlWorst = Math.max(ggmlWorst, error);
      torchWorst = Math.max(torchWorst, Math.abs(torch.angle(p, i) - p * torch.invFreq[i]));
    }
    expect(ggmlWorst).toBeGreaterThan(torchWorst);
    expect(ggml.angleError.position).toBe(p);
  });
});

describe('compareRuntimes: bad input', () => {
  it('names the function and the parameter', () => {
    expect(() => compareRuntimes(pe, null)).toThrow(/posenc\.compareRuntimes: config must be an object/);
    expect(() => compareRuntimes(pe, { hidden_size: 64 })).toThrow(TypeError);
    expect(() => compareRuntimes(pe, config('llama-3.1-8b'), { seqLen: 0 })).toThrow(
      /compareRuntimes: seqLen must be an integer/,
    );
    expect(() => compareRuntimes(pe, config('llama-3.1-8b'), { seqLen: 1.5 })).toThrow(RangeError);
    expect(() => compareRuntimes(pe, config('llama-3.1-8b'), { seqlen: 4 })).toThrow(/unknown option 'seqlen'/);
    expect(() => compareRuntimes(pe, config('llama-3.1-8b'), 5)).toThrow(/opts must be an object/);
  });
});
