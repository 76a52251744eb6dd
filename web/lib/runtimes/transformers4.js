// Hugging Face transformers 4.4x: config.rope_scaling read by modeling_rope_utils
// before rope_parameters existed. The rotary
// dimension is head_dim when config.json has one, else hidden_size //
// num_attention_heads; LongRoPE takes the long factors at every length whenever
// max_position_embeddings exceeds original_max_position_embeddings; YaRN's
// correction range uses max_position_embeddings and reads no mscale.
import { configForLayer, ropeTypeOf } from './model.js';
import { ropeFromConfig } from '../rope-config.js';
import { torchAngle, torchBound } from './angles.js';

export const TRANSFORMERS4 = {
  id: 'transformers4',
  name: 'Hugging Face transformers 4.4x',
  repo: 'huggingface/transformers',
  commit: 'de5886de5bf89196ea99862c77fd75644864b50e',
  paths: ['src/transformers/modeling_rope_utils.py'],
  note: 'read at that commit of the fork tianhua2/huggingface_cgra',
};

// Model types transformers 4.44 has no class for (Gemma 3, Llama 4 and DeepSeek-V3 came later;
// InternLM2 loads as remote code with its own rotary classes).
const UNKNOWN = new Set(['gemma3', 'gemma3_text', 'llama4', 'llama4_text', 'deepseek_v3', 'internlm2']);
const positiveInteger = (v) => (Number.isInteger(v) && v > 0 ? v : undefined);

export function transformers4(model, { seqLen }, frequencies) {
  const c = model.config;
  if (UNKNOWN.has(model.modelType))
    return model.layerTypes.map(({ layerType, layers }) => ({
      layerType,
      layers,
      supported: false,
      rope: null,
      codePath: `transformers 4.44 has no ${model.modelType} model class`,
    }));
  const dict = c.rope_scaling ?? {};
  const type = ropeTypeOf(dict);
  const max = model.maxPositionEmbeddings;
  // getattr(config, "head_dim", hidden_size // num_attention_heads)
  const headDim = positiveInteger(c.head_dim) ?? model.hiddenHeadDim;
  const base = { ...configForLayer(model, 'full_attention'), head_dim: headDim, rope_parameters: undefined };
  delete base.rope_parameters;
  const { options } = ropeFromConfig({ ...base, rope_scaling: type === 'default' ? null : dict });
  let opts = options;
  let rule = 'fixed';
  if (type === 'yarn') {
    const scaling = {
      ...options.scaling,
      originalMaxPositionEmbeddings: max,
      attentionFactor: dict.attention_factor ?? 0.1 * Math.log(dict.factor) + 1,
    };
    delete scaling.mscale;
    delete scaling.mscaleAllDim;
    delete scaling.truncate;
    opts = { ...options, scaling };
  } else if (type === 'longrope') {
    const hasOriginal = positiveInteger(c.original_max_position_embeddings) !== undefined;
    const original = hasOriginal ? c.original_max_position_embeddings : max;
    const factor = hasOriginal ? max / original : dict.factor;
    const expanded = hasOriginal ? max : max * factor;
    const useLong = expanded > original;
    const attention = dict.attention_factor ?? (factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(original)));
    opts = {
      ...options,
      seqLen: useLong ? original + 1 : 1,
      scaling: { ...options.scaling, originalMaxPositionEmbeddings: original, attentionFactor: attention },
    };
    rule = useLong
      ? `long_factor at every position: max_position_embeddings ${expanded} > ${original}`
      : `short_factor at every position: ${expanded} <= ${original}`;
  } else if (type === 'dynamic') {
    opts = { ...options, seqLen };
    rule = seqLen > max ? `base scaled for seqLen ${seqLen} > ${max}` : `base unscaled: seqLen ${seqLen} <= ${max}`;
  }
  const f = frequencies(opts);
  return model.layerTypes.map(({ layerType, layers }) => ({
    layerType,
    layers,
    supported: true,
    rope: true,
    base: options.base,
    type,
    rotaryDim: f.rotaryDim,
    invFreq: f.invFreq,
    attentionFactor: f.attentionFactor,
    attentionFactorAppliedTo: 'cos and sin (so q and k)',
    softmaxFactor: 1,
    layout: 'half',
    weightsPermuted: false,
    rule,
    angle: torchAngle(Float32Array.from(f.invFreq)),
    angleBound: torchBound,
    codePath: `modeling_rope_utils.ROPE_INIT_FUNCTIONS['${type}'] (rope_scaling)`,
  }));
}
