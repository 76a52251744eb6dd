// Hugging Face transformers 5.x: config.rope_parameters (or rope_scaling,
// standardized) read by modeling_rope_utils, the rule posenc's core computes
// (ropeFrequencies), with the sequence-length rules of the rotary embedding's
// dynamic update (dynamic NTK, LongRoPE short/long).
import { configForLayer, ropeTypeOf } from './model.js';
import { ropeFromConfig } from '../rope-config.js';
import { torchAngle, torchBound } from './angles.js';

export const TRANSFORMERS5 = {
  id: 'transformers5',
  name: 'Hugging Face transformers 5',
  repo: 'huggingface/transformers',
  commit: '55e3c83d929946e40a655395a6095404af9f998a',
  paths: ['src/transformers/modeling_rope_utils.py'],
  note: 'read at that commit of the fork yuchenxie4645/transformers (tests/fixtures/hf_rope.py)',
};

const yarnMscale = (scale, m) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);

/** DeepSeek V2/V3 multiply the softmax scale by mscale(factor, mscale_all_dim)^2 when the RoPE is scaled. */
export function deepseekSoftmaxFactor(model, dict) {
  if (!/^deepseek_v[23]$/.test(model.modelType) || ropeTypeOf(dict) === 'default') return 1;
  const all = dict.mscale_all_dim;
  if (!all || !(dict.factor > 0)) return 1;
  return yarnMscale(dict.factor, all) ** 2;
}

/**
 * Rotate-half on the checkpoint's rows, but DeepSeek V2/V3 (rope_interleave, True by default in
 * DeepseekV3Config) and Llama 4 (complex freqs_cis) rotate interleaved pairs.
 */
export function hfLayout(model) {
  if (model.config.rope_interleave === false) return 'half';
  if (model.config.rope_interleave === true) return 'interleaved';
  return /^(deepseek_v[23]|llama4(_text)?)$/.test(model.modelType) ? 'interleaved' : 'half';
}

/**
 * @param model readModel's description
 * @param {{ seqLen: number }} opts
 * @param frequencies pe.ropeFrequencies
 */
export function transformers5(model, { seqLen }, frequencies) {
  return model.layerTypes.map(({ layerType, layers }) => {
    if (layerType === 'no_rope')
      return { layerType, layers, rope: false, codePath: 'Llama4TextAttention: use_rope = no_rope_layers[layer_idx]' };
    const local = layerType === 'sliding_attention' && model.config.rope_local_base_freq != null;
    const config = configForLayer(model, layerType);
    const { options } = ropeFromConfig(
      local ? { ...config, rope_parameters: { rope_theta: model.config.rope_local_base_freq } } : config,
    );
    const type = options.scaling?.type ?? 'default';
    const withLength = type === 'dynamic' || type === 'longrope' ? { ...options, seqLen } : options;
    const f = frequencies(withLength);
    const dict = local ? {} : model.dict(layerType);
    let rule = 'fixed';
    if (type === 'longrope') {
      const original = options.scaling.originalMaxPositionEmbeddings;
      rule =
        seqLen > original
          ? `long_factor: seqLen ${seqLen} > ${original}`
          : `short_factor: seqLen ${seqLen} <= ${original}`;
    } else if (type === 'dynamic') {
      const max = options.scaling.maxPositionEmbeddings;
      rule = seqLen > max ? `base scaled for seqLen ${seqLen} > ${max}` : `base unscaled: seqLen ${seqLen} <= ${max}`;
    }
    const invFreq32 = Float32Array.from(f.invFreq);
    return {
      layerType,
      layers,
      rope: true,
      base: options.base,
      type,
      rotaryDim: f.rotaryDim,
      invFreq: f.invFreq,
      attentionFactor: f.attentionFactor,
      attentionFactorAppliedTo: 'cos and sin (so q and k)',
      softmaxFactor: deepseekSoftmaxFactor(model, dict),
      layout: hfLayout(model),
      weightsPermuted: false,
      rule,
      angle: torchAngle(invFreq32),
      angleBound: torchBound,
      codePath: `modeling_rope_utils.ROPE_INIT_FUNCTIONS['${type}']${local ? ' at rope_local_base_freq' : ''}`,
    };
  });
}
