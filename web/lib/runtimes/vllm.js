// vLLM: get_rope (vllm/model_executor/layers/rotary_embedding/__init__.py)
// and its rotary embedding classes, as read at the commits below. Where its
// rule is Hugging Face's (default, linear, llama3, yarn) posenc's core
// computes the frequencies; LongRoPE and dynamic NTK follow vLLM's own choices.
import { configForLayer, ropeTypeOf } from './model.js';
import { ropeFromConfig } from '../rope-config.js';
import { torchAngle, torchBound } from './angles.js';

const VLLM = 'vllm/model_executor/layers/rotary_embedding/';
export const VLLM_SOURCE = {
  id: 'vllm',
  name: 'vLLM',
  repo: 'vllm-project/vllm',
  commit: '0cd5784803d83f81fac0794b82cb592d4317d4bf',
  paths: [
    `${VLLM}__init__.py (get_rope) @ 0cd5784803d83f81fac0794b82cb592d4317d4bf`,
    `${VLLM}yarn_scaling_rope.py @ 0cd5784803d83f81fac0794b82cb592d4317d4bf`,
    `${VLLM}base.py @ 072d10a084c2b89e63323c781eacd7d7e218ba2b`,
    `${VLLM}phi3_long_rope_scaled_rope.py @ 17d618b0f944610b73e79e6726983fbe7679f613`,
    `${VLLM}deepseek_scaling_rope.py @ 00d678e109f09c2d1845e7a6626ba9fd5980e4f0`,
    `${VLLM}llama3_rope.py @ 045d7575500e01e0f4a7ff84e039a9f7f7dc3bd0`,
    `${VLLM}linear_scaling_rope.py @ 0f17ee061e413bf8ab7927f926f69cdff24dc63e`,
    `${VLLM}dynamic_ntk_scaling_rope.py @ 3cfbaf333d800badc12fad1f138ab01178d35ab8 (max_trained_positions = max_position)`,
    `${VLLM}common.py @ 1593f0c1de61ba1e6efb9315ac8d0a3d2fe14cdd and, for truncate, local-inference-lab/vllm @ 94e058cb0d5face3e81d2186da3e4b393fb212a6`,
  ],
};

const mscale = (scale, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
const isDeepseek = (model) => /^deepseek_v[23]$/.test(model.modelType);

/**
 * @param {{ seqLen: number, maxModelLen?: number }} opts maxModelLen: vLLM's --max-model-len
 *   (by default the config's max_position_embeddings)
 */
export function vllm(model, { seqLen, maxModelLen }, frequencies) {
  return model.layerTypes.map(({ layerType, layers }) => {
    if (layerType === 'no_rope')
      return { layerType, layers, rope: false, codePath: 'Llama4Attention: nope layers get no rotary_emb' };
    const local = layerType === 'sliding_attention' && model.config.rope_local_base_freq != null;
    const dict = local ? { rope_theta: model.config.rope_local_base_freq } : model.dict(layerType);
    const config = { ...configForLayer(model, layerType), rope_parameters: dict };
    const { options } = ropeFromConfig(config);
    const type = ropeTypeOf(dict);
    const max = model.maxPositionEmbeddings;
    const base = { layerType, layers, rope: true, base: options.base, type, layout: 'half', weightsPermuted: false };
    const result = (opts, extra) => {
      const f = frequencies(opts);
      return {
        ...base,
        rotaryDim: f.rotaryDim,
        invFreq: f.invFreq,
        attentionFactor: f.attentionFactor,
        attentionFactorAppliedTo: 'cos and sin (so q and k)',
        softmaxFactor: 1,
        rule: 'fixed',
        angle: torchAngle(Float32Array.from(f.invFreq)),
        angleBound: torchBound,
        ...extra,
      };
    };
    if (isDeepseek(model) && type !== 'default') {
      // DeepseekV2Attention: rope_type 'deepseek_yarn', is_neox_style=False; cos/sin times
      // mscale(f, mscale) / mscale(f, mscale_all_dim) * attn_factor (no attention_factor, always truncated).
      const f = dict.factor;
      const af = (mscale(f, dict.mscale ?? 1) / mscale(f, dict.mscale_all_dim ?? 0)) * (dict.attn_factor ?? 1);
      const yarn = { ...options, scaling: { ...options.scaling, truncate: undefined, attentionFactor: af } };
      delete yarn.scaling.truncate;
      delete yarn.scaling.mscale;
      delete yarn.scaling.mscaleAllDim;
      return result(yarn, {
        layout: 'interleaved',
        softmaxFactor: mscale(f, dict.mscale_all_dim ?? 0) ** 2,
        codePath:
          'deepseek_v2.py → get_rope(rope_type="deepseek_yarn", is_neox_style=False) → DeepseekScalingRotaryEmbedding',
      });
    }
    switch (type) {
      case 'longrope': {
        // Phi3LongRoPEScaledRotaryEmbedding: long factors at every position when
        // max_model_len > original_max_position_embeddings, short ones otherwise;
        // short_mscale / long_mscale, else sqrt(1 + ln(max / original) / ln(original)).
        const original = options.scaling.originalMaxPositionEmbeddings;
        const modelLen = maxModelLen ?? max;
        const useLong = modelLen > original;
        const scale = max / original;
        const factor = scale <= 1 ? 1 : Math.sqrt(1 + Math.log(scale) / Math.log(original));
        const chosen = useLong ? dict.long_mscale : dict.short_mscale;
        return result(
          {
            ...options,
            seqLen: useLong ? original + 1 : 1,
            scaling: { ...options.scaling, attentionFactor: chosen ?? factor },
          },
          {
            rule: useLong
              ? `long_factor at every position: max_model_len ${modelLen} > ${original}`
              : `short_factor at every position: max_model_len ${modelLen} <= ${original}`,
            codePath:
              'get_rope → Phi3LongRoPEScaledRotaryEmbedding (use_long_rope = max_model_len > original_max_position_embeddings)',
          },
        );
      }
      case 'dynamic': {
        // DynamicNTKScalingRotaryEmbedding: one base for the whole cache,
        // base * (factor * max_position / max_trained_positions - (factor - 1))^(d / (d - 2)),
        // max_trained_positions defaulting to max_position: the unscaled base.
        const trained = dict.max_trained_positions ?? max;
        const factor = dict.factor;
        const d = Math.floor(options.headDim * (options.partialRotaryFactor ?? 1)) & ~1;
        const scaled = options.base * ((factor * max) / trained - (factor - 1)) ** (d / (d - 2));
        return result(
          { headDim: options.headDim, partialRotaryFactor: options.partialRotaryFactor, base: scaled },
          {
            base: scaled,
            rule: `one base at every length: ${scaled} (max_trained_positions ${trained})`,
            codePath: 'get_rope → DynamicNTKScalingRotaryEmbedding._compute_cos_sin_cache',
          },
        );
      }
      default:
        return result(options, {
          codePath: `get_rope → ${{ default: 'RotaryEmbedding', linear: 'LinearScalingRotaryEmbedding', llama3: 'Llama3RotaryEmbedding', yarn: 'YaRNScalingRotaryEmbedding' }[type] ?? type}`,
        });
    }
  });
}
