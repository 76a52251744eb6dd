// web/lib/runtimes against each runtime's own code, on every config in tests/fixtures/configs:
// vLLM's get_rope and rotary embedding classes (tests/fixtures/vllm_rope.py), MLX-LM's rope_utils
// (tests/fixtures/mlx_rope_utils.py, numpy stand-in for mlx.core) run with Debian's python3, and ggml's
// RoPE cache (tests/fixtures/ggml_rope.c) compiled here with the system cc.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../../web/lib/index.js';
import { readModel } from '../../../../web/lib/runtimes/model.js';
import { expectClose } from '../../tolerance.js';

const fixtures = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const configs = readdirSync(join(fixtures, 'configs'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: f.replace(/\.json$/, ''), config: JSON.parse(readFileSync(join(fixtures, 'configs', f))) }));
const python = (script, specs) =>
  JSON.parse(
    execFileSync('/usr/bin/python3', [join(fixtures, script), JSON.stringify(specs)], {
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
const EPS32 = 2 ** -24;

let pe;
let workDir;
let ggml;
beforeAll(async () => {
  pe = await load();
  workDir = mkdtempSync(join(tmpdir(), 'posenc-ggml-'));
  ggml = join(workDir, 'ggml_rope');
  // -ffp-contract=off: no fused multiply-adds, so each float32 operation rounds as the C source reads.
  execFileSync('cc', ['-O2', '-ffp-contract=off', '-o', ggml, join(fixtures, 'ggml_rope.c'), '-lm']);
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Positions compared: the first, a mid one, and the last the runtime's cache holds for the comparison. */
const positionsFor = (seqLen) => [...new Set([1, 1000, 4095, seqLen - 1].filter((p) => p < seqLen))];

/**
 * rope_parameters as vLLM's model files hand them to get_rope (written here from vLLM's conventions, not
 * from web/lib): the layer's dict with rope_type (legacy `type`, 'su' = longrope) and rope_theta; Gemma 3's
 * sliding layers a default dict at rope_local_base_freq; DeepSeek V2/V3 any scaled type as 'deepseek_yarn'
 * (deepseek_v2.py) with is_neox_style False and head size qk_rope_head_dim; Phi-3's top-level
 * original_max_position_embeddings moved into the dict (transformers' standardization).
 */
function vllmSpec(config, layerType, maxModelLen, positions) {
  const model = readModel('test', config);
  const c = model.config;
  const deepseek = /^deepseek_v[23]$/.test(model.modelType);
  let params;
  if (layerType === 'sliding_attention' && c.rope_local_base_freq != null)
    params = { rope_type: 'default', rope_theta: c.rope_local_base_freq };
  else {
    const dict = { ...(c.rope_scaling ?? {}) };
    let type = dict.rope_type ?? dict.type ?? 'default';
    if (type === 'su') type = 'longrope';
    delete dict.type;
    params = { ...dict, rope_type: deepseek && type !== 'default' ? 'deepseek_yarn' : type, rope_theta: c.rope_theta };
    if (type === 'longrope' && params.original_max_position_embeddings === undefined)
      params.original_max_position_embeddings = c.original_max_position_embeddings;
  }
  if (c.partial_rotary_factor !== undefined) params.partial_rotary_factor = c.partial_rotary_factor;
  return {
    head_size: deepseek ? c.qk_rope_head_dim : model.headDim,
    max_position: c.max_position_embeddings,
    is_neox_style: !deepseek,
    rope_parameters: params,
    max_model_len: maxModelLen ?? c.max_position_embeddings,
    positions,
  };
}

// Each runtime's float32 frequencies against web/lib's float64 ones: a float32 pow or division chain of a
// few roundings (the base's power, the factor, the YaRN blend or Llama 3 smoothing), within 8 float32 ulps.
const FREQ = { relative: 2 ** -20 };

describe.each(configs)('vLLM get_rope at its commits on $name', ({ config }) => {
  it('inverse frequencies, attention factor and cos cache rows within float32 rounding', () => {
    const model = readModel('test', config);
    expect(model.config.rope_scaling?.max_trained_positions, "the fixture's DynamicNTK shim").toBeUndefined();
    const seqLen = model.maxPositionEmbeddings;
    const result = pe.compareRuntimes(config, { seqLen });
    const layers = result.runtimes.vllm.filter((l) => l.rope);
    const positions = positionsFor(seqLen);
    const refs = python(
      'vllm_rope.py',
      layers.map((l) => vllmSpec(config, l.layerType, undefined, positions)),
    );
    layers.forEach((layer, k) => {
      const ref = refs[k];
      const where = `${layer.layerType} (${ref.class})`;
      expect(layer.rotaryDim, where).toBe(ref.rotary_dim);
      // Phi-3's class records the short factors' frequencies, then the long ones'.
      const useLong =
        ref.class.startsWith('Phi3') &&
        model.config.max_position_embeddings > model.config.original_max_position_embeddings;
      const invFreq = ref.inv_freqs[useLong ? 1 : ref.inv_freqs.length - 1];
      // vLLM's linear class scales positions (t / factor), not the frequencies.
      const linear = ref.class === 'LinearScalingRotaryEmbedding' ? model.config.rope_scaling.factor : 1;
      expectClose(
        layer.invFreq,
        invFreq.map((w) => w / linear),
        FREQ,
        where,
      );
      // Cos rows: mscale · cos(float32 angle). Both sides' angles are float32 products of float32 values
      // that may differ by an ulp, so they agree within 2·2^-24·p·w each (angles.js), plus cosf's rounding.
      for (const p of positions) {
        const want = ref.cos[p];
        const got = invFreq.map((_, i) => layer.attentionFactor * Math.cos(layer.angle(p, i)));
        const bound = invFreq.map(
          (w, i) => layer.attentionFactor * (4 * EPS32 * p * layer.invFreq[i] + 4 * EPS32) + 1e-7,
        );
        want.forEach((v, i) => expect(Math.abs(got[i] - v), `${where} p=${p} pair ${i}`).toBeLessThanOrEqual(bound[i]));
      }
    });
  }, 600_000);
});

describe.each(configs)('MLX-LM initialize_rope at its commit on $name', ({ config }) => {
  it('frequencies (1 / periods) and the scale on q and k', () => {
    const model = readModel('test', config);
    expect(model.config.rope_scaling?.attention_factor, "the fork's YarnRoPE branch").toBeUndefined();
    const seqLen = model.maxPositionEmbeddings;
    const layers = pe.compareRuntimes(config, { seqLen }).runtimes.mlx.filter((l) => l.rope);
    const deepseek = /^deepseek_v[23]$/.test(model.modelType);
    const refs = python(
      'mlx_rope_utils.py',
      layers.map((l) => {
        const sliding = l.layerType === 'sliding_attention' && model.config.rope_local_base_freq != null;
        return {
          dims: deepseek ? model.config.qk_rope_head_dim : model.headDim,
          base: sliding ? model.config.rope_local_base_freq : model.config.rope_theta,
          traditional: deepseek,
          // gemma3_text.py builds its sliding layers' RoPE without the scaling config; phi3.py passes
          // config.json's top-level original_max_position_embeddings to SuScaledRoPE.
          scaling_config: sliding
            ? null
            : model.config.rope_scaling
              ? {
                  original_max_position_embeddings: model.config.original_max_position_embeddings,
                  ...model.config.rope_scaling,
                }
              : null,
          max_position_embeddings: model.config.max_position_embeddings,
          seq_len: seqLen,
        };
      }),
    );
    layers.forEach((layer, k) => {
      const ref = refs[k];
      const where = `${layer.layerType} (${ref.class})`;
      const want = ref.freqs
        ? ref.freqs.map((period) => 1 / period)
        : Array.from({ length: layer.rotaryDim / 2 }, (_, i) => ref.scale * ref.base ** (-(2 * i) / layer.rotaryDim));
      expectClose(layer.invFreq, want, FREQ, where);
      expectClose(layer.attentionFactor, ref.mscale, { relative: 1e-12 }, where);
    });
  });
});

describe.each(configs)("ggml's RoPE cache (CPU backend) on $name", ({ config }) => {
  it('cos of the float32 recurrence, as llama.cpp runs it on the GGUF the converter writes', () => {
    const seqLen = readModel('test', config).maxPositionEmbeddings;
    const layers = pe.compareRuntimes(config, { seqLen }).runtimes.llamacpp.filter((l) => l.rope);
    const positions = positionsFor(seqLen);
    for (const layer of layers) {
      const k = layer.kernel;
      const out = execFileSync(
        ggml,
        [
          k.nDims,
          k.nCtxOrig,
          k.freqBase,
          k.freqScale,
          k.extFactor,
          k.attnFactor,
          k.betaFast,
          k.betaSlow,
          k.freqFactors ? k.freqFactors.length : 0,
          ...positions,
        ].map(String),
        { input: k.freqFactors ? Array.from(k.freqFactors, (v) => v.toPrecision(9)).join(' ') : '' },
      )
        .toString()
        .trim()
        .split('\n')
        .map((line) =>
          line
            .trim()
            .split(/\s+/)
            .map((v) => Math.fround(Number(v))),
        );
      // powf(freq_base, -2/n_dims): web/lib's float32 theta_scale is ggml's to the bit.
      expect(k.thetaScale, `${layer.layerType} theta_scale`).toBe(out[0][0]);
      positions.forEach((p, row) => {
        const want = out[row + 1];
        expect(want.length).toBe(layer.rotaryDim / 2);
        // Same float32 angle (the recurrence is emulated operation by operation); what is left is cosf
        // against Math.cos and the float32 products with mscale: a few float32 ulps of A.
        want.forEach((v, i) =>
          expectClose(
            layer.attentionFactor * Math.cos(layer.angle(p, i)),
            v,
            4 * EPS32 * layer.attentionFactor,
            `${layer.layerType} p=${p} pair ${i}`,
          ),
        );
      });
    }
  });
});

describe.each(configs)('transformers 4.4x modeling_rope_utils at its commit on $name', ({ config }) => {
  it('inverse frequencies and attention factor from rope_scaling (model types 4.44 has a class for)', () => {
    const model = readModel('test', config);
    const seqLen = model.maxPositionEmbeddings;
    for (const length of [16, seqLen]) {
      const layers = pe.compareRuntimes(config, { seqLen: length }).runtimes.transformers4;
      if (layers[0].supported === false) return;
      const [ref] = python('hf4_rope_utils.py', [{ config: model.config, seq_len: length }]);
      for (const layer of layers.filter((l) => l.rope)) {
        expectClose(layer.invFreq, ref.inv_freq, FREQ, `${layer.layerType} seqLen ${length}`);
        expectClose(layer.attentionFactor, ref.attention_factor, { relative: 1e-12 }, `${layer.layerType}`);
      }
    }
  }, 120_000);
});
