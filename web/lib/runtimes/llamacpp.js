// llama.cpp: what convert_hf_to_gguf.py writes into a GGUF's keys (and its
// rope_freqs / rope_factors_long / rope_factors_short tensors), and how
// llama.cpp's context and ggml's CPU rope use them, as read at the commits
// below. Angles are formed as ggml does: theta = p, theta *= theta_scale in
// float32 pair after pair, divided by the frequency factor, mixed by rope_yarn.
import { ropeTypeOf } from './model.js';
import { ggmlBound, ggmlThetaExtrap } from './angles.js';

const f32 = Math.fround;
export const LLAMACPP_SOURCE = {
  id: 'llamacpp',
  name: 'llama.cpp',
  repo: 'ggml-org/llama.cpp',
  commit: '001d906a6d86e2490e394361e7cc6f478b100088',
  paths: [
    'convert_hf_to_gguf.py @ 0024aa7417efd50a7c2a79e049dfbbbceb0beaaf (TextModel.set_gguf_parameters, LlamaModel.generate_extra_tensors, Phi3MiniModel)',
    'src/llama-context.cpp @ 001d906a6d86e2490e394361e7cc6f478b100088 (yarn_ext_factor, yarn_attn_factor)',
    'src/llama-model.cpp @ a5410f046c01d01330c8a42f13b64a211fedf2c3 (llama_model_rope_type, get_rope_factors, rope_yarn_log_mul /= 0.1)',
    'ggml/src/ggml-cpu/ops.cpp @ 0049e3cb202d8a8cebcfdbb137059e7e46627171 (ggml_rope_cache_init, rope_yarn, rope_yarn_ramp)',
    'ggml/src/ggml.c @ 00bdaa105cb03380daf899b4fc9f026555745269 (ggml_rope_yarn_corr_dims)',
  ],
};

// llama_model_rope_type: pairs of consecutive values (NORM) or offset by n_rot / 2 (NEOX).
const NORM = new Set([
  'llama',
  'llama4',
  'deci',
  'baichuan',
  'starcoder',
  'internlm2',
  'minicpm',
  'xverse',
  'command-r',
  'cohere2',
  'olmo',
  'arctic',
  'deepseek',
  'deepseek2',
  'chatglm',
  'granite',
  'granitemoe',
  'chameleon',
  'plm',
  'bailingmoe',
  'smollm3',
  'arcee',
  'ernie4_5',
  'mistral3',
]);
// Converters that permute q/k rows (LlamaModel.permute, undo_permute) so NORM on them rotates
// what rotate_half rotates on Hugging Face's rows; the others keep Hugging Face's order.
const PERMUTED = new Set([
  'llama',
  'internlm2',
  'granite',
  'granitemoe',
  'minicpm',
  'baichuan',
  'arcee',
  'smollm3',
  'deci',
]);
// Hugging Face model_type → GGUF general.architecture (the converter's model classes).
const ARCH = {
  llama: 'llama',
  mistral: 'llama',
  llama4: 'llama4',
  llama4_text: 'llama4',
  qwen2: 'qwen2',
  qwen3: 'qwen3',
  qwen2_moe: 'qwen2moe',
  qwen3_moe: 'qwen3moe',
  phi3: 'phi3',
  phimoe: 'phimoe',
  gemma: 'gemma',
  gemma2: 'gemma2',
  gemma3: 'gemma3',
  gemma3_text: 'gemma3',
  deepseek_v2: 'deepseek2',
  deepseek_v3: 'deepseek2',
  internlm2: 'internlm2',
  gpt_neox: 'gptneox',
  olmo2: 'olmo2',
  starcoder2: 'starcoder2',
  cohere: 'command-r',
  cohere2: 'cohere2',
  minicpm: 'minicpm',
  granite: 'granite',
  falcon: 'falcon',
};

const mscale = (scale, m) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);

/**
 * The GGUF metadata and RoPE tensors convert_hf_to_gguf.py writes for a config:
 * { arch, keys: { 'arch.rope.freq_base': …, … }, tensors: { rope_freqs?, rope_factors_long?, rope_factors_short? } }.
 */
export function ggufFromConfig(model) {
  const c = model.config;
  const arch = ARCH[model.modelType] ?? (model.modelType || 'llama');
  const dict = model.dict('full_attention');
  const type = ropeTypeOf(dict);
  const keys = {};
  const k = (name, value) => {
    if (value !== undefined && value !== null) keys[`${arch}.${name}`] = value;
  };
  k('context_length', model.maxPositionEmbeddings);
  const theta = dict.rope_theta ?? c.rope_theta ?? c.rotary_emb_base;
  k('rope.freq_base', theta);
  if (c.rope_local_base_freq != null) k('rope.freq_base_swa', c.rope_local_base_freq);
  else if (model.dict('sliding_attention') !== dict && model.dict('sliding_attention').rope_theta != null)
    k('rope.freq_base_swa', model.dict('sliding_attention').rope_theta);
  const partial =
    c.partial_rotary_factor ?? dict.partial_rotary_factor ?? c.rotary_pct ?? (arch === 'gptneox' ? 0.25 : 1);
  // Phi3MiniModel: int(partial_rotary_factor * n_embd) // n_head; DeepSeek2: qk_rope_head_dim; others head_dim × partial.
  let nRot = Math.floor(model.headDim * partial);
  if (arch === 'phi3' && model.hiddenHeadDim !== undefined)
    nRot = Math.floor((partial * c.hidden_size) / c.num_attention_heads) | 0;
  k('rope.dimension_count', nRot);
  if (c.head_dim !== undefined && arch !== 'deepseek2') k('attention.key_length', c.head_dim);
  k('embedding_length', c.hidden_size);
  k('attention.head_count', c.num_attention_heads);
  const tensors = {};
  const max = model.maxPositionEmbeddings;
  if (type === 'linear' && dict.factor != null) {
    k('rope.scaling.type', 'linear');
    k('rope.scaling.factor', dict.factor);
  } else if (type === 'yarn' && dict.factor != null) {
    k('rope.scaling.type', 'yarn');
    k('rope.scaling.factor', dict.factor);
    k('rope.scaling.original_context_length', dict.original_max_position_embeddings);
    k('rope.scaling.yarn_ext_factor', dict.extrapolation_factor);
    k('rope.scaling.yarn_attn_factor', dict.attention_factor ?? dict.attn_factor);
    k('rope.scaling.yarn_beta_fast', dict.beta_fast);
    k('rope.scaling.yarn_beta_slow', dict.beta_slow);
    // DeepseekV2Model: the legacy ×0.1 encoding of mscale_all_dim.
    if (arch === 'deepseek2' && dict.mscale_all_dim != null)
      k('rope.scaling.yarn_log_multiplier', f32(0.1 * dict.mscale_all_dim));
  } else if (type === 'longrope') {
    k('rope.scaling.type', 'longrope');
    const original = c.original_max_position_embeddings ?? dict.original_max_position_embeddings;
    k('rope.scaling.original_context_length', original);
    const scale = max / original;
    k('rope.scaling.attn_factor', scale > 1 ? Math.sqrt(1 + Math.log(scale) / Math.log(original)) : 1);
    tensors.rope_factors_long = Float32Array.from(dict.long_factor);
    tensors.rope_factors_short = Float32Array.from(dict.short_factor);
  } else if (type === 'llama3') {
    // LlamaModel.generate_extra_tensors: float32 inverse frequencies, float64 factors stored as float32.
    const dim = model.headDim;
    const factor = dict.factor ?? 8;
    const low = dict.low_freq_factor ?? 1;
    const high = dict.high_freq_factor ?? 4;
    const old = c.original_max_position_embeddings ?? dict.original_max_position_embeddings ?? 8192;
    const factors = new Float32Array(dim / 2);
    for (let i = 0; i < dim / 2; i++) {
      const freq = f32(1 / f32(theta ** f32((2 * i) / dim)));
      const wavelen = (2 * Math.PI) / freq;
      if (wavelen < old / high) factors[i] = 1;
      else if (wavelen > old / low) factors[i] = factor;
      else {
        const smooth = (old / wavelen - low) / (high - low);
        factors[i] = 1 / ((1 - smooth) / factor + smooth);
      }
    }
    tensors.rope_freqs = factors;
  }
  // 'dynamic' and other types: nothing is written (TextModel.set_gguf_parameters).
  return { arch, keys, tensors, droppedType: type === 'dynamic' ? 'dynamic' : undefined };
}

/**
 * llama.cpp from GGUF metadata (and the RoPE tensors when known).
 * @param {{ arch: string, keys: object, tensors?: object }} gguf
 * @param {{ nCtx?: number, layerTypes?: { layerType: string, layers: number[] }[] }} opts nCtx: the context
 *   allocated per sequence (llama.cpp's n_ctx / n_seq_max; 0 or missing: the model's context_length)
 */
export function llamacpp(gguf, { nCtx, layerTypes }) {
  const { arch, keys } = gguf;
  const tensors = gguf.tensors ?? {};
  const get = (name, fallback) => keys[`${arch}.${name}`] ?? fallback;
  const nCtxTrain = get('context_length', 4096);
  const headDim = get('attention.key_length', Math.floor(get('embedding_length', 0) / get('attention.head_count', 1)));
  const nRot = get('rope.dimension_count', headDim);
  const scalingType = get('rope.scaling.type', 'none');
  const factor = get('rope.scaling.factor', 0);
  const freqScale = scalingType === 'none' || !factor ? 1 : f32(1 / factor);
  const extFactor = scalingType === 'yarn' ? 1 : 0;
  const logMul = get('rope.scaling.yarn_log_multiplier', 0) / f32(0.1);
  const ropeAttnFactor = get('rope.scaling.attn_factor', 1);
  // llama_context: the derived yarn_attn_factor replaces any rope.scaling.yarn_attn_factor when ext_factor != 0.
  let yarnAttnFactor = get('rope.scaling.yarn_attn_factor', 1);
  if (extFactor !== 0) {
    const f = 1 / freqScale;
    if (logMul !== 0) {
      const m = arch === 'deepseek2' && logMul !== 1 ? logMul : 1;
      yarnAttnFactor = mscale(f, m) / mscale(f, logMul);
    } else yarnAttnFactor = mscale(f, 1);
    yarnAttnFactor *= 1 / (1 + 0.1 * Math.log(f));
  }
  yarnAttnFactor *= ropeAttnFactor;
  const nCtxOrig = get('rope.scaling.original_context_length', nCtxTrain);
  const nCtxSeq = nCtx || nCtxTrain;
  const betaFast = get('rope.scaling.yarn_beta_fast', 32);
  const betaSlow = get('rope.scaling.yarn_beta_slow', 1);
  const norm = NORM.has(arch);
  const permuted = norm && PERMUTED.has(arch);
  const types = layerTypes ?? [{ layerType: 'full_attention', layers: [0] }];
  return types.map(({ layerType, layers }) => {
    if (layerType === 'no_rope') return { layerType, layers, rope: false, codePath: 'llama4: n_no_rope_layer_step' };
    const swa = layerType === 'sliding_attention';
    const base = swa ? get('rope.freq_base_swa', get('rope.freq_base', 10000)) : get('rope.freq_base', 10000);
    // Sliding-window layers: rope_freq_scale_train_swa (1 for Gemma 3), and no YaRN.
    const scale = swa ? 1 : freqScale;
    const ext = swa ? 0 : extFactor;
    const pairs = nRot / 2;
    const thetaScale = f32(base ** f32(-2 / nRot));
    let ff = null;
    let rule = 'fixed';
    if (!swa && tensors.rope_freqs) {
      ff = tensors.rope_freqs;
      rule = 'rope_freqs (llama3 factors from the converter) at every position';
    } else if (!swa && scalingType === 'longrope') {
      const long = nCtxSeq > nCtxOrig;
      ff = long ? tensors.rope_factors_long : tensors.rope_factors_short;
      rule = long
        ? `rope_factors_long at every position: n_ctx_per_seq ${nCtxSeq} > ${nCtxOrig}`
        : `rope_factors_short at every position: n_ctx_per_seq ${nCtxSeq} <= ${nCtxOrig}`;
      if (!ff) rule += ' (factor tensors not in the metadata: unknown)';
    }
    // ggml_rope_yarn_corr_dims
    const corr = (rot) =>
      (nRot * Math.fround(Math.log(nCtxOrig / (rot * 2 * Math.PI)))) / (2 * Math.fround(Math.log(base)));
    const low = Math.max(0, Math.floor(corr(betaFast)));
    const high = Math.min(nRot - 1, Math.ceil(corr(betaSlow)));
    const mix = new Float64Array(pairs);
    // rope_yarn_ramp in float32, as ggml evaluates it.
    for (let i = 0; i < pairs; i++) {
      const y = f32(f32(i - low) / f32(Math.max(0.001, high - low)));
      mix[i] = f32(f32(1 - Math.min(1, Math.max(0, y))) * ext);
    }
    const attention = ext !== 0 ? f32(yarnAttnFactor * (1 + 0.1 * Math.log(1 / scale))) : swa ? 1 : f32(yarnAttnFactor);
    const invFreq = new Float64Array(pairs);
    for (let i = 0; i < pairs; i++) {
      const extrap = thetaScale ** i / (ff ? ff[i] : 1);
      invFreq[i] = ext !== 0 ? scale * extrap * (1 - mix[i]) + extrap * mix[i] : scale * extrap;
    }
    const angles = (p) => {
      const extrap = ggmlThetaExtrap(p, thetaScale, pairs);
      const out = new Float64Array(pairs);
      for (let i = 0; i < pairs; i++) {
        const te = ff ? f32(extrap[i] / ff[i]) : extrap[i];
        const interp = f32(scale * te);
        out[i] = ext !== 0 ? f32(f32(interp * f32(1 - mix[i])) + f32(te * mix[i])) : interp;
      }
      return out;
    };
    let lastP = NaN;
    let lastAngles = null;
    return {
      layerType,
      layers,
      rope: true,
      base,
      type: scalingType,
      rotaryDim: nRot,
      invFreq,
      attentionFactor: attention,
      attentionFactorAppliedTo: 'cos and sin (so q and k)',
      softmaxFactor: null,
      layout: norm ? 'interleaved' : 'half',
      weightsPermuted: permuted,
      rule,
      angle: (p, i) => {
        if (p !== lastP) {
          lastAngles = angles(p);
          lastP = p;
        }
        return lastAngles[i];
      },
      angleBound: ggmlBound,
      // The ggml_rope_ext parameters llama.cpp passes for this layer (what ggml's kernel is run with).
      kernel: {
        nDims: nRot,
        nCtxOrig,
        freqBase: base,
        freqScale: scale,
        extFactor: ext,
        attnFactor: f32(swa ? 1 : yarnAttnFactor),
        betaFast,
        betaSlow,
        freqFactors: ff,
        thetaScale,
      },
      codePath: `${norm ? 'LLAMA_ROPE_TYPE_NORM' : 'LLAMA_ROPE_TYPE_NEOX'} → ggml_rope_ext → ggml_rope_cache_init (freq_scale ${scale}, ext_factor ${ext}, attn_factor ${f32(swa ? 1 : yarnAttnFactor)})`,
    };
  });
}
