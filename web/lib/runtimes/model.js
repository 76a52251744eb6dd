// What every runtime reads first from a config.json: the language model's
// fields (text_config for multimodal configs), its RoPE dict (rope_parameters
// in transformers 5, rope_scaling before; one dict per layer type for Gemma 3
// and others) and which layers rotate with which parameters.
import { fail } from '../options.js';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const positiveInteger = (v) => (Number.isInteger(v) && v > 0 ? v : undefined);
// Layers a config may list; a real one has at most a few hundred.
const MAX_LAYERS = 1 << 16;

/** The RoPE dict of one layer type (or the only one), with `type` as the legacy key `type` or `rope_type`. */
function dictOf(config, layerType) {
  const raw = config.rope_parameters ?? config.rope_scaling ?? null;
  if (raw === null) return {};
  if (!isObject(raw)) return {};
  const values = Object.values(raw);
  const perLayer = values.length > 0 && values.every(isObject);
  if (!perLayer) return raw;
  return raw[layerType] ?? raw.full_attention ?? values[0];
}

/**
 * The layer types of a config: full attention (rope_theta and the scaling),
 * Gemma 3's sliding-window layers (rope_local_base_freq, unscaled: Gemma3TextConfig
 * makes every sliding_window_pattern-th layer, 6 by default, full) and Llama 4's
 * no-RoPE layers (Llama4TextConfig: no_rope_layers[i] == 0, by default every 4th).
 * @returns {{ layerType: string, layers: number[] }[]}
 */
function layerTypesOf(config) {
  const count = Math.min(positiveInteger(config.num_hidden_layers) ?? 1, MAX_LAYERS);
  let types;
  if (Array.isArray(config.layer_types) && config.layer_types.length <= MAX_LAYERS)
    types = config.layer_types.map(String);
  else if (config.rope_local_base_freq !== undefined && config.rope_local_base_freq !== null) {
    const pattern = positiveInteger(config.sliding_window_pattern) ?? 6;
    types = Array.from({ length: count }, (_, i) => ((i + 1) % pattern ? 'sliding_attention' : 'full_attention'));
  } else if (config.model_type === 'llama4_text' || config.model_type === 'llama4') {
    const interval = positiveInteger(config.no_rope_layer_interval) ?? 4;
    const listed = Array.isArray(config.no_rope_layers) && config.no_rope_layers.length === count;
    types = Array.from({ length: count }, (_, i) =>
      (listed ? config.no_rope_layers[i] : (i + 1) % interval !== 0) ? 'full_attention' : 'no_rope',
    );
  } else types = Array.from({ length: count }, () => 'full_attention');
  const order = [];
  const layers = new Map();
  types.forEach((t, i) => {
    if (!layers.has(t)) {
      layers.set(t, []);
      order.push(t);
    }
    layers.get(t).push(i);
  });
  return order.map((layerType) => ({ layerType, layers: layers.get(layerType) }));
}

/**
 * The fields of a config.json every runtime reads, named once.
 * @param {string} where the calling function, for messages
 * @param {object} config a parsed config.json
 */
export function readModel(where, config) {
  if (!isObject(config)) fail(TypeError, where, 'config must be an object, a parsed config.json', config);
  const top = config;
  // Vision-language models keep the language model's fields in text_config.
  if (config.hidden_size === undefined && config.head_dim === undefined && isObject(config.text_config))
    config = { ...config.text_config, model_type: config.text_config.model_type ?? config.model_type };
  const hiddenSize = positiveInteger(config.hidden_size);
  const numHeads = positiveInteger(config.num_attention_heads);
  const hiddenHeadDim = hiddenSize && numHeads ? Math.floor(hiddenSize / numHeads) : undefined;
  const headDim = positiveInteger(config.head_dim) ?? positiveInteger(config.qk_rope_head_dim) ?? hiddenHeadDim;
  if (headDim === undefined)
    fail(TypeError, where, 'config needs head_dim, or hidden_size and num_attention_heads', config.head_dim);
  return {
    config,
    top,
    modelType:
      typeof config.model_type === 'string'
        ? config.model_type
        : typeof top.model_type === 'string'
          ? top.model_type
          : '',
    architectures: Array.isArray(top.architectures) ? top.architectures.map(String) : [],
    headDim,
    hiddenHeadDim,
    maxPositionEmbeddings: positiveInteger(config.max_position_embeddings),
    layerTypes: layerTypesOf(config),
    dict: (layerType) => dictOf(config, layerType),
  };
}

/** rope_type, or the legacy `type` ('su' is LongRoPE's first name). */
export function ropeTypeOf(dict) {
  const type = dict.rope_type ?? dict.type ?? 'default';
  return type === 'su' ? 'longrope' : type;
}

/** The config with one layer type's RoPE dict as its only dict (what posenc's ropeFromConfig reads). */
export function configForLayer(model, layerType) {
  const dict = model.dict(layerType);
  const config = { ...model.config, rope_parameters: dict, rope_scaling: undefined };
  delete config.rope_local_base_freq;
  delete config.layer_types;
  return config;
}
