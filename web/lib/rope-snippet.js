// codeSnippet('numpy' | 'pytorch', ropeOptions): NumPy or PyTorch code that
// rebuilds inv_freq, the attention factor and the cos/sin cache of
// pe.ropeCache(ropeOptions), with the formulas of transformers'
// modeling_rope_utils.py in float64.
import { ropeDtype, ropeLayout, ropeParams, ropePosition, ROPE_LAYOUTS, ROPE_SCALING_TYPES } from './rope-options.js';
import { fail, integer, MAX_BYTES } from './options.js';
import { rounded, roundedNote, rounds, roundToHelper } from './precision-snippet.js';
import { PRECISION_DTYPES } from './conventions.js';

/** Options of a RoPE call rather than of a sinusoidal table. */
export function isRopeOptions(options) {
  return (
    options !== null &&
    typeof options === 'object' &&
    options.dModel === undefined &&
    (options.headDim !== undefined || options.hiddenSize !== undefined || options.scaling !== undefined)
  );
}

/** A Python float literal that reads back to exactly x. */
function pyFloat(x) {
  const text = String(x);
  return /[.e]/.test(text) || text.includes('Infinity') || text === 'NaN' ? text : `${text}.0`;
}

const pyList = (values) => `[${Array.from(values, pyFloat).join(', ')}]`;

// The array calls that differ between the two (everything else is the same Python).
const ARRAYS = {
  numpy: {
    module: 'import numpy as np',
    name: 'np',
    arange: (args) => `np.arange(${args}, dtype=np.float64)`,
    clip: (x) => `np.clip(${x}, 0, 1)`,
    array: (list) => `np.array(${list})`,
    where: 'np.where',
    outer: 'np.outer',
    both: (x) => `np.concatenate([${x}, ${x}], axis=1)`,
    pairs: (x) => `np.repeat(${x}, 2, axis=1)`,
    cos: 'np.cos',
    sin: 'np.sin',
    cast: (x) => `${x}.astype(np.float32)`,
  },
  pytorch: {
    module: 'import torch',
    name: 'torch',
    arange: (args) => `torch.arange(${args}, dtype=torch.float64)`,
    clip: (x) => `torch.clamp(${x}, 0, 1)`,
    array: (list) => `torch.tensor(${list}, dtype=torch.float64)`,
    where: 'torch.where',
    outer: 'torch.outer',
    both: (x) => `torch.cat([${x}, ${x}], dim=1)`,
    pairs: (x) => `torch.repeat_interleave(${x}, 2, dim=1)`,
    cos: 'torch.cos',
    sin: 'torch.sin',
    cast: (x) => `${x}.to(torch.float32)`,
  },
};

export function ropeSnippet(language, options) {
  const where = 'codeSnippet';
  if (!Object.hasOwn(ARRAYS, language))
    fail(
      RangeError,
      where,
      "RoPE options have NumPy and PyTorch snippets: language must be 'numpy' or 'pytorch'",
      language,
    );
  const xp = ARRAYS[language];
  const r = ropeParams(where, options);
  if (options.length === undefined) fail(TypeError, where, 'length is required: an integer >= 1', undefined);
  const length = integer(where, 'length', options.length, 1, MAX_BYTES);
  const start = ropePosition(where, 'start', options.start, length);
  const layout = ROPE_LAYOUTS[ropeLayout(where, options)];
  const float64 = ropeDtype(where, options) === Float64Array;
  const p = r.params;
  const type = ROPE_SCALING_TYPES[p.scaling];
  const resolved = { headDim: r.headDim, rotaryDim: r.rotaryDim, base: p.base, length, start, layout };
  if (options.scaling !== undefined) resolved.scaling = options.scaling;
  if (p.seqLen) resolved.seqLen = p.seqLen;
  const precision = r.precision;
  for (const [name, index] of Object.entries(precision)) if (index !== 0) resolved[name] = PRECISION_DTYPES[index];

  const lines = [
    `# RoPE cos/sin cache (posenc), as transformers' modeling_rope_utils.py in float64: ${JSON.stringify(resolved)}`,
    'import math',
    xp.module,
    ...(rounds(precision) ? ['', ...roundToHelper(xp.name)] : []),
    '',
    `dim, base = ${r.rotaryDim}, ${pyFloat(p.base)}  # rotary dims (head_dim * partial_rotary_factor, even), rope_theta`,
    `i = ${xp.arange('0, dim, 2')}  # 2 * pair index`,
    'attention_factor = 1.0',
  ];
  // exponentDtype: the exponent i / dim rounded once, wherever it is used.
  const exponentStart = lines.length;
  if (precision.exponentDtype !== 0)
    lines.push(
      `e = ${rounded('i / dim', precision.exponentDtype)}${roundedNote(precision.exponentDtype, 'exponents')}`,
    );
  const original = pyFloat(p.originalMaxPositionEmbeddings);
  switch (type) {
    case 'default':
      lines.push('inv_freq = 1.0 / (base ** (i / dim))');
      break;
    case 'linear':
      lines.push(`inv_freq = 1.0 / (base ** (i / dim)) / ${pyFloat(p.factor)}`);
      break;
    case 'dynamic':
      lines.push(
        `factor, max_position_embeddings = ${pyFloat(p.factor)}, ${pyFloat(p.maxPositionEmbeddings)}`,
        `seq_len = max(${p.seqLen ? pyFloat(p.seqLen) : 'max_position_embeddings'}, max_position_embeddings)`,
        'base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))',
        'inv_freq = 1.0 / (base ** (i / dim))',
      );
      break;
    case 'yarn': {
      const factor = Number.isNaN(p.factor)
        ? `${pyFloat(p.maxPositionEmbeddings)} / ${original}  # max / original`
        : pyFloat(p.factor);
      lines.push(
        `factor = ${factor}`,
        `original = ${original}  # original_max_position_embeddings`,
        `beta_fast, beta_slow = ${pyFloat(p.betaFast)}, ${pyFloat(p.betaSlow)}`,
        'def get_mscale(scale, mscale=1.0):',
        '    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0',
      );
      if (!Number.isNaN(p.attentionFactor)) lines.push(`attention_factor = ${pyFloat(p.attentionFactor)}`);
      else if (p.mscale && p.mscaleAllDim)
        lines.push(
          `attention_factor = get_mscale(factor, ${pyFloat(p.mscale)}) / get_mscale(factor, ${pyFloat(p.mscaleAllDim)})`,
        );
      else lines.push('attention_factor = get_mscale(factor)');
      lines.push(
        'def correction_dim(rotations):',
        '    return (dim * math.log(original / (rotations * 2 * math.pi))) / (2 * math.log(base))',
        p.truncate
          ? 'low, high = math.floor(correction_dim(beta_fast)), math.ceil(correction_dim(beta_slow))'
          : 'low, high = correction_dim(beta_fast), correction_dim(beta_slow)  # truncate = False',
        'low, high = max(low, 0), min(high, dim - 1)',
        'if low == high:',
        '    high += 0.001',
        `ramp = ${xp.clip(`(${xp.arange('dim // 2')} - low) / (high - low)`)}`,
        'pos_freqs = base ** (i / dim)',
        'extrapolation_factor = 1 - ramp',
        'inv_freq = (1.0 / (factor * pos_freqs)) * (1 - extrapolation_factor) + (1.0 / pos_freqs) * extrapolation_factor',
      );
      break;
    }
    case 'longrope': {
      const factor = Number.isNaN(p.factor) ? `${pyFloat(p.maxPositionEmbeddings)} / ${original}` : pyFloat(p.factor);
      const long = p.seqLen > p.originalMaxPositionEmbeddings;
      lines.push(
        `factor, original = ${factor}, ${original}`,
        Number.isNaN(p.attentionFactor)
          ? 'attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original))'
          : `attention_factor = ${pyFloat(p.attentionFactor)}`,
        `# ${long ? 'long' : 'short'}_factor: seq_len ${p.seqLen || 'unset'} ${long ? '>' : '<='} original`,
        `ext_factors = ${xp.array(pyList(long ? r.longFactor : r.shortFactor))}`,
        'inv_freq = 1.0 / (ext_factors * base ** (i / dim))',
      );
      break;
    }
    case 'llama3':
      lines.push(
        `factor, low_freq_factor, high_freq_factor = ${pyFloat(p.factor)}, ${pyFloat(p.lowFreqFactor)}, ${pyFloat(p.highFreqFactor)}`,
        `old_context_len = ${original}`,
        'inv_freq = 1.0 / (base ** (i / dim))',
        'wavelen = 2 * math.pi / inv_freq',
        `inv_freq_llama = ${xp.where}(wavelen > old_context_len / low_freq_factor, inv_freq / factor, inv_freq)`,
        'smooth = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)',
        'smoothed = (1 - smooth) * inv_freq_llama / factor + smooth * inv_freq_llama',
        'medium = ~(wavelen < old_context_len / high_freq_factor) & ~(wavelen > old_context_len / low_freq_factor)',
        `inv_freq = ${xp.where}(medium, smoothed, inv_freq_llama)`,
      );
      break;
  }
  if (precision.exponentDtype !== 0)
    for (let k = exponentStart + 1; k < lines.length; k++) lines[k] = lines[k].replaceAll('(i / dim)', 'e');
  if (precision.frequencyDtype !== 0)
    lines.push(
      `inv_freq = ${rounded('inv_freq', precision.frequencyDtype)}${roundedNote(precision.frequencyDtype, 'frequencies')}`,
    );
  lines.push(
    '',
    `pos = ${start === 0 ? '' : `${pyFloat(start)} + `}${xp.arange(String(length))}  # position of each row`,
  );
  if (precision.positionDtype !== 0)
    lines.push(`pos = ${rounded('pos', precision.positionDtype)}${roundedNote(precision.positionDtype, 'positions')}`);
  lines.push(
    `angle = ${rounded(`${xp.outer}(pos, inv_freq)`, precision.angleDtype)}${roundedNote(precision.angleDtype, 'angles')}`,
    layout === 'half'
      ? `emb = ${xp.both('angle')}  # [c0..c(n-1), c0..c(n-1)] (rotate_half)`
      : `emb = ${xp.pairs('angle')}  # [c0, c0, c1, c1, ...] (interleaved)`,
    `cos = attention_factor * ${xp.cos}(emb)`,
    `sin = attention_factor * ${xp.sin}(emb)`,
  );
  if (!float64) lines.push(`cos, sin = ${xp.cast('cos')}, ${xp.cast('sin')}`);
  return lines.join('\n') + '\n';
}
