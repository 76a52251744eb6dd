// pe.ropeFromConfig: the RoPE options of a parsed Hugging Face config.json,
// read as transformers' RotaryEmbeddingConfigMixin standardizes them, and a
// warning for each mistake people keep making with them. Messages are English;
// each has a stable `code` for a page to translate.
import { ROPE_SCALING_TYPES } from './rope-options.js';

const where = 'ropeFromConfig';
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
const show = (v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v));

// Llama 3.1's published values: what a llama3 rope_scaling without them meant.
const LLAMA3_DEFAULTS = { factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 };

function positiveInteger(config, key) {
  const v = config[key];
  if (v === undefined || v === null) return undefined;
  if (!(Number.isInteger(v) && v > 0))
    throw new TypeError(`posenc.${where}: config.${key} must be a positive integer (got ${show(v)})`);
  return v;
}

/** The dict of RoPE parameters, and its layer type when it is given per layer type (Gemma 3 and others). */
function ropeDict(config, warnings) {
  const dict = config.rope_parameters ?? config.rope_scaling ?? null;
  const key =
    config.rope_parameters !== undefined && config.rope_parameters !== null ? 'rope_parameters' : 'rope_scaling';
  if (dict === null) return { dict: {}, key };
  if (!isObject(dict))
    throw new TypeError(`posenc.${where}: config.${key} must be an object or null (got ${show(dict)})`);
  const values = Object.values(dict);
  const perLayer = values.length > 0 && values.every((v) => isObject(v));
  if (!perLayer) return { dict, key };
  const layerTypes = Object.keys(dict);
  const chosen = layerTypes.includes('full_attention') ? 'full_attention' : layerTypes[0];
  warnings.push({
    code: 'per-layer-rope',
    message: `config.${key} gives one RoPE per layer type (${layerTypes.join(', ')}); these options are for '${chosen}'`,
  });
  return { dict: dict[chosen], key: `${key}.${chosen}` };
}

/**
 * @param {object} config a parsed config.json
 * @returns {{ options: object, warnings: { code: string, message: string }[] }}
 */
export function ropeFromConfig(config) {
  if (!isObject(config))
    throw new TypeError(`posenc.${where}: config must be an object, a parsed config.json (got ${show(config)})`);
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
      throw new TypeError(
        `posenc.${where}: config needs head_dim, or hidden_size and num_attention_heads (got ${show(config.hidden_size)} and ${show(config.num_attention_heads)})`,
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

  let base = dict.rope_theta ?? config.rope_theta;
  if (base === undefined || base === null) {
    warn(
      'rope-theta-missing',
      'config has no rope_theta: 10000 assumed, the default of most models (Llama 3 uses 500000, Qwen2 1000000)',
    );
    base = 10000;
  }

  // Top level first, as standardize_rope_params does; GPT-NeoX calls it rotary_pct.
  const partial = config.partial_rotary_factor ?? dict.partial_rotary_factor ?? config.rotary_pct ?? 1;
  const options = { headDim, base };
  if (partial !== 1) {
    options.partialRotaryFactor = partial;
    const dims = isNumber(partial) ? Math.floor(headDim * partial) : NaN;
    if (dims % 2 === 1)
      warn(
        'odd-rotary-dim',
        `partial_rotary_factor ${partial} leaves int(${headDim} * ${partial}) = ${dims} dims to rotate, an odd number: posenc rotates ${dims - 1} (HF's arange(0, ${dims}, 2) gives ${(dims + 1) / 2} frequencies for ${dims} dims, which cannot pair up)`,
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
      if (isNumber(factor) && original !== undefined && max !== undefined) {
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
        `longrope uses short_factor up to ${original ?? max} positions and long_factor beyond: pass seqLen; without it these are the short factors`,
      );
      break;
    }
    case 'llama3': {
      const missing = ['factor', 'low_freq_factor', 'high_freq_factor'].filter((f) => dict[f] === undefined);
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
          `llama3 rope scaling lacks ${missing.join(', ')} (HF refuses such a config); assumed ${missing
            .map((f) => {
              const name = { factor: 'factor', low_freq_factor: 'lowFreqFactor', high_freq_factor: 'highFreqFactor' }[
                f
              ];
              return `${f} = ${name ? assumed[name] : assumed.originalMaxPositionEmbeddings}`;
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
  if (config.rope_interleave === true)
    warn(
      'interleaved-layout',
      "this model rotates interleaved pairs (rope_interleave): pass layout: 'interleaved' to ropeCache and ropeApply",
    );
  return { options, warnings };
}
