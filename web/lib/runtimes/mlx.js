// MLX-LM: mlx_lm/models/rope_utils.py (initialize_rope and its RoPE classes)
// and the model files that call it, as read at the commit below. Its YaRN,
// Llama 3 and dynamic rules are Hugging Face's (posenc's core computes them);
// LongRoPE always takes the long factors, and YaRN ignores attention_factor.
import { configForLayer, ropeTypeOf } from './model.js';
import { ropeFromConfig } from '../rope-config.js';
import { mlxAngle, mlxBound } from './angles.js';

export const MLX_SOURCE = {
  id: 'mlx',
  name: 'MLX-LM',
  repo: 'ml-explore/mlx-lm',
  commit: 'd78bf58e217c904ec282ed8da9b947491f78c022',
  paths: [
    'mlx_lm/models/rope_utils.py',
    'mlx_lm/models/deepseek_v3.py',
    'mlx_lm/models/phi3.py',
    'mlx_lm/models/gemma3_text.py',
  ],
  checkedAgainst:
    'rope_utils.py of the fork pierre427/mlx-lm @ 917cb35a9e2a7f1ea5c18dca54e1d09e529692b5: main plus an unmerged YarnRoPE attention_factor branch',
};

const mscale = (scale, m) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);

export function mlx(model, { seqLen }, frequencies) {
  const deepseek = /^deepseek_v[23]$/.test(model.modelType);
  return model.layerTypes.map(({ layerType, layers }) => {
    if (layerType === 'no_rope')
      return { layerType, layers, rope: false, codePath: 'llama4.py: use_rope = (layer_idx + 1) % 4 != 0' };
    const local = layerType === 'sliding_attention' && model.config.rope_local_base_freq != null;
    const dict = local ? { rope_theta: model.config.rope_local_base_freq } : model.dict(layerType);
    const { options } = ropeFromConfig({ ...configForLayer(model, layerType), rope_parameters: dict });
    const type = ropeTypeOf(dict);
    let opts = options;
    let rule = 'fixed';
    let codePath = `initialize_rope('${type}')`;
    if (type === 'longrope') {
      // SuScaledRoPE: long_factor at every position, x scaled by long_mscale or sqrt(1 + ln(max / original) / ln(original)).
      const original = options.scaling.originalMaxPositionEmbeddings;
      const max = model.maxPositionEmbeddings;
      const factor = max / original;
      const scale = dict.long_mscale || (factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(original)));
      opts = { ...options, seqLen: original + 1, scaling: { ...options.scaling, attentionFactor: scale } };
      rule = 'long_factor at every position';
      codePath = 'initialize_rope → SuScaledRoPE (phi3.py: SuScaledRoPE for longrope/su)';
    } else if (type === 'yarn' || type === 'deepseek_yarn') {
      // YarnRoPE: mscale(f, mscale) / mscale(f, mscale_all_dim), defaults 1 and 0; no attention_factor, no truncate.
      const f = dict.factor;
      const af = mscale(f, dict.mscale ?? 1) / mscale(f, dict.mscale_all_dim ?? 0);
      const scaling = { ...options.scaling, attentionFactor: af };
      delete scaling.truncate;
      delete scaling.mscale;
      delete scaling.mscaleAllDim;
      opts = { ...options, scaling };
      codePath = 'initialize_rope → YarnRoPE (x scaled by mscale before mx.fast.rope)';
    } else if (type === 'dynamic') {
      opts = { ...options, seqLen };
      const max = options.scaling.maxPositionEmbeddings;
      rule = seqLen > max ? `base scaled for seqLen ${seqLen} > ${max}` : `base unscaled: seqLen ${seqLen} <= ${max}`;
      codePath = 'initialize_rope → DynamicNTKScalingRoPE (seq_len = max(L + offset, max_position_embeddings))';
    }
    const f = frequencies(opts);
    const periods32 = Float32Array.from(f.invFreq, (w) => 1 / w);
    const softmaxFactor = deepseek && dict.mscale_all_dim ? mscale(dict.factor, dict.mscale_all_dim) ** 2 : 1;
    return {
      layerType,
      layers,
      rope: true,
      base: options.base,
      type,
      rotaryDim: f.rotaryDim,
      invFreq: f.invFreq,
      attentionFactor: f.attentionFactor,
      attentionFactorAppliedTo: 'q and k before the rotation',
      softmaxFactor,
      // deepseek_v3.py passes traditional=True; the others rope_traditional (False in Hugging Face configs).
      layout: deepseek || model.config.rope_traditional === true ? 'interleaved' : 'half',
      weightsPermuted: false,
      rule,
      angle: mlxAngle(periods32),
      angleBound: mlxBound,
      codePath,
    };
  });
}
