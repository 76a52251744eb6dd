// pe.ropeFromConfig: the RoPE options of a parsed Hugging Face config.json,
// read as transformers' RotaryEmbeddingConfigMixin standardizes them, and a
// warning for each mistake people keep making with them. Messages are English;
// each has a stable `code` for a page to translate.
import { describe, fail } from './options.js';
import { ROPE_SCALING_TYPES } from './rope-options.js';

const where = 'ropeFromConfig';
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
// A config value in a message or warning: never throws, never huge (describe()
// names a value with no text, a BigInt, a cycle, a 20,000-deep object by its kind).
const show = (v) => (typeof v === 'string' ? `'${v.length > 80 ? `${v.slice(0, 77)}...` : v}'` : describe(v));
// Keys of the RoPE dict read at most: a real one has a dozen (or one dict per
// layer type), so the reading does bounded work whatever the config holds.
export const MAX_ROPE_KEYS = 256;

// Llama 3.1's published values: what a llama3 rope_scaling without them meant.
const LLAMA3_DEFAULTS = { factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 };

function positiveInteger(config, key) {
  const v = config[key];
  if (v === undefined || v === null) return undefined;
  if (!(Number.isInteger(v) && v > 0)) fail(TypeError, where, `config.${key} must be a positive integer`, v);
  return v;
}

/** The dict of RoPE parameters, and its layer type when it is given per layer type (Gemma 3 and others). */
function ropeDict(config, warnings) {
  const dict = config.rope_parameters ?? config.rope_scaling ?? null;
  const key =
    config.rope_parameters !== undefined && config.rope_parameters !== null ? 'rope_parameters' : 'rope_scaling';
  if (dict === null) return { dict: {}, key };
  if (!isObject(dict)) fail(TypeError, where, `config.${key} must be an object or null`, dict);
  const keys = Object.keys(dict);
  if (keys.length > MAX_ROPE_KEYS)
    fail(RangeError, where, `config.${key} has ${keys.length} keys, more than ${MAX_ROPE_KEYS}: no RoPE dict`, dict);
  const values = keys.map((k) => dict[k]);
  const perLayer = values.length > 0 && values.every((v) => isObject(v));
  if (!perLayer) return { dict, key };
  const layerTypes = keys;
  const chosen = layerTypes.includes('full_attention') ? 'full_attention' : layerTypes[0];
  warnings.push({
    code: 'per-layer-rope',
    message: `config.${key} gives one RoPE per layer type (${layerTypes.map(show).join(', ')}); these options are for ${show(chosen)}`,
  });
  return { dict: dict[chosen], key: `${key}.${chosen}` };
}

/**
 * Gemma 3: sliding-window layers rotate with rope_local_base_freq, unscaled;
 * the full-attention ones with rope_theta and the scaling. Layer types as
 * Gemma3TextConfig makes them: layer_types, else every sliding_window_pattern-th
 * layer (6 by default) full.
 */
function localBase(config, base, warn) {
  const local = config.rope_local_base_freq;
  if (local === undefined || local === null) return;
  const layers =
    Number.isInteger(config.num_hidden_layers) && config.num_hidden_layers > 0 ? config.num_hidden_layers : 0;
  const pattern =
    Number.isInteger(config.sliding_window_pattern) && config.sliding_window_pattern > 0
      ? config.sliding_window_pattern
      : 6;
  const types =
    Array.isArray(config.layer_types) && config.layer_types.length <= 1 << 16
      ? config.layer_types
      : Array.from({ length: Math.min(layers, 1 << 16) }, (_, i) =>
          (i + 1) % pattern ? 'sliding_attention' : 'full_attention',
        );
  const sliding = types.filter((t) => t === 'sliding_attention').length;
  const which = types.length
    ? `${sliding} of ${types.length} layers (sliding_attention)`
    : `${pattern - 1} of every ${pattern} layers (sliding_attention)`;
  warn(
    'local-rope-base',
    `${which} rotate with rope_local_base_freq = ${show(local)}, unscaled; these options (rope_theta = ${show(base)}) are those of the ${types.length ? types.length - sliding : 'other'} full_attention layers: for the others pass base: ${show(local)} and no scaling`,
  );
}

/**
 * @param {object} config a parsed config.json
 * @returns {{ options: object, warnings: { code: string, message: string }[] }}
 */
export function ropeFromConfig(config) {
  if (!isObject(config)) fail(TypeError, where, 'config must be an object, a parsed config.json', config);
  const warnings = [];
  const warn = (code, message) => warnings.push({ code, message });

  // Vision-language models keep the language model's fields in text_config.
  if (config.hidden_size === undefined && config.head_dim === undefined && isObject(config.text_config)) {
    warn('text-config', 'the RoPE fields were read from config.text_config (the language model of this config)');
    config = config.text_config;
  }

  // head_dim, else DeepSeek's qk_rope_head_dim (its rotary part), else hidden_size // num_attention_heads.
  let headDim = positiveInteger(config, 'head_dim') ?? positiveInteger(config, 'qk_rope_head_dim');
  if (headDim === undefined) {
    const hiddenSize = positiveInteger(config, 'hidden_size');
    const numHeads = positiveInteger(config, 'num_attention_heads');
    if (hiddenSize === undefined || numHeads === undefined)
      fail(
        TypeError,
        where,
        `config needs head_dim, or hidden_size and num_attention_heads (got ${show(config.hidden_size)} and ${show(config.num_attention_heads)})`,
        config.head_dim,
      );
    headDim = Math.floor(hiddenSize / numHeads);
  }

  const { dict, key } = ropeDict(config, warnings);
  let type = dict.rope_type ?? dict.type ?? 'default';
  if (type === 'su') {
    // Phi-3's first configs; transformers' Phi3Config reads them as longrope.
    warn('legacy-type', `config.${key}.type 'su' is the old name of 'longrope'; read as 'longrope'`);
    type = 'longrope';
  }
  if (!ROPE_SCALING_TYPES.includes(type)) {
    warn(
      'unknown-scaling-type',
      `config.${key} has rope type ${show(type)}, which posenc does not compute (it knows ${ROPE_SCALING_TYPES.join(', ')}); these options leave the frequencies unscaled`,
    );
    type = 'default';
  }

  // GPT-NeoX calls it rotary_emb_base (GPTNeoXConfig.convert_rope_params_to_dict reads it as rope_theta).
  let base = dict.rope_theta ?? config.rope_theta ?? config.rotary_emb_base;
  if (base === undefined || base === null) {
    warn(
      'rope-theta-missing',
      'config has no rope_theta: 10000 assumed, the default of most models (Llama 3 uses 500000, Qwen2 1000000)',
    );
    base = 10000;
  }

  // Top level first, as standardize_rope_params does; GPT-NeoX calls it rotary_pct, and
  // GPTNeoXConfig takes 0.25 when it is missing.
  const neox = config.model_type === 'gpt_neox';
  const partial = config.partial_rotary_factor ?? dict.partial_rotary_factor ?? config.rotary_pct ?? (neox ? 0.25 : 1);
  const options = { headDim, base };
  if (partial !== 1) options.partialRotaryFactor = partial;
  const dims = isNumber(partial) ? Math.floor(headDim * partial) : NaN;
  if (dims % 2 === 1) {
    warn(
      partial === 1 ? 'odd-head-dim' : 'odd-rotary-dim',
      `${partial === 1 ? `head_dim ${headDim} is odd` : `partial_rotary_factor ${partial} leaves int(${headDim} * ${partial}) = ${dims} dims to rotate, an odd number`}: posenc rotates ${dims - 1} at exponents 2i/${dims - 1}, while HF's arange(0, ${dims}, 2) / ${dims} gives ${(dims + 1) / 2} frequencies at exponents 2i/${dims}, for ${dims} dims that cannot pair up (its rotate_half fails)`,
    );
  }

  const max = positiveInteger(config, 'max_position_embeddings');
  // Phi-3 keeps the pretraining length at the top level; it wins there (standardize_rope_params).
  const original = positiveInteger(config, 'original_max_position_embeddings') ?? dict.original_max_position_embeddings;
  const scaling = { type };
  const copy = (from, to) => {
    if (dict[from] !== undefined && dict[from] !== null) scaling[to] = dict[from];
  };
  switch (type) {
    case 'linear':
      copy('factor', 'factor');
      break;
    case 'dynamic':
      copy('factor', 'factor');
      if (max !== undefined) scaling.maxPositionEmbeddings = max;
      warn(
        'dynamic-depends-on-length',
        `dynamic NTK scaling changes the frequencies once the sequence is longer than max_position_embeddings (${max}): pass seqLen; without it these are the frequencies of shorter sequences`,
      );
      break;
    case 'yarn': {
      copy('factor', 'factor');
      if (original !== undefined) scaling.originalMaxPositionEmbeddings = original;
      if (max !== undefined) scaling.maxPositionEmbeddings = max;
      // HF reads `beta_fast or 32`: 0 and null mean the default.
      if (dict.beta_fast) scaling.betaFast = dict.beta_fast;
      if (dict.beta_slow) scaling.betaSlow = dict.beta_slow;
      copy('mscale', 'mscale');
      copy('mscale_all_dim', 'mscaleAllDim');
      copy('attention_factor', 'attentionFactor');
      copy('truncate', 'truncate');
      const factor = dict.factor;
      if (isNumber(factor) && isNumber(original) && max !== undefined) {
        const implicit = max / original;
        if (implicit !== factor && implicit !== 1)
          warn(
            'yarn-factor-mismatch',
            `yarn factor ${factor} differs from max_position_embeddings / original_max_position_embeddings = ${max} / ${original} = ${implicit}; HF (and these options) use the factor`,
          );
      }
      break;
    }
    case 'longrope': {
      copy('factor', 'factor');
      if (original !== undefined) scaling.originalMaxPositionEmbeddings = original;
      if (max !== undefined) scaling.maxPositionEmbeddings = max;
      copy('short_factor', 'shortFactor');
      copy('long_factor', 'longFactor');
      copy('attention_factor', 'attentionFactor');
      const dims = isNumber(partial) ? Math.floor(headDim * partial) : headDim;
      const pairs = Math.floor(dims / 2);
      for (const [field, name] of [
        ['short_factor', 'shortFactor'],
        ['long_factor', 'longFactor'],
      ]) {
        const length = Array.isArray(dict[field]) ? dict[field].length : undefined;
        if (length !== pairs)
          warn(
            'longrope-factor-length',
            `longrope ${field} has ${length === undefined ? 'no list' : `${length} values`}, not one per rotary pair (${pairs}): the calls will refuse scaling.${name}`,
          );
      }
      warn(
        'longrope-depends-on-length',
        `longrope uses short_factor up to ${show(original ?? max)} positions and long_factor beyond: pass seqLen; without it these are the short factors`,
      );
      break;
    }
    case 'llama3': {
      // null too: HF's _compute_llama3_parameters then fails (inv_freq / None).
      const missing = ['factor', 'low_freq_factor', 'high_freq_factor'].filter(
        (f) => dict[f] === undefined || dict[f] === null,
      );
      if (original === undefined) missing.push('original_max_position_embeddings');
      const assumed = {
        factor: dict.factor ?? LLAMA3_DEFAULTS.factor,
        lowFreqFactor: dict.low_freq_factor ?? LLAMA3_DEFAULTS.low_freq_factor,
        highFreqFactor: dict.high_freq_factor ?? LLAMA3_DEFAULTS.high_freq_factor,
        // HF's standardize_rope_params falls back to max_position_embeddings.
        originalMaxPositionEmbeddings: original ?? max ?? LLAMA3_DEFAULTS.original_max_position_embeddings,
      };
      if (missing.length > 0)
        warn(
          'llama3-fields-missing',
          `llama3 rope scaling lacks ${missing.join(', ')} (missing or null: HF refuses or fails on such a config); assumed ${missing
            .map((f) => {
              const name = { factor: 'factor', low_freq_factor: 'lowFreqFactor', high_freq_factor: 'highFreqFactor' }[
                f
              ];
              return `${f} = ${show(name ? assumed[name] : assumed.originalMaxPositionEmbeddings)}`;
            })
            .join(
              ', ',
            )}${original === undefined && max !== undefined ? ' (max_position_embeddings, as HF falls back to)' : ''}`,
        );
      Object.assign(scaling, assumed);
      break;
    }
  }
  if (type !== 'default') options.scaling = scaling;
  localBase(config, base, warn);
  if (config.rope_interleave === true)
    warn(
      'interleaved-layout',
      "this model rotates interleaved pairs (rope_interleave): pass layout: 'interleaved' to ropeCache and ropeApply",
    );
  return { options, warnings };
}
