// NumPy and PyTorch code that rebuilds the sinusoids beyond token positions:
// timestepSnippet (pe.timestepEmbedding), gridSnippet (pe.sincosGrid2d), and
// the positions line of codeSnippet's table at any positions. Each computes in
// float64 with the formulas of the frameworks (diffusers' get_timestep_embedding,
// MAE's get_2d_sincos_pos_embed) and casts to float32 unless dtype is 'float64',
// as the core does.
import { fail } from './options.js';
import { AXIS_ORDERS, gridParams, numbersOf, timestepParams } from './elsewhere-options.js';

// The formats of gridParams' coordinateDtype index (cpp: posenc::Dtype).
const COORDINATE_DTYPES = ['float64', 'float32'];

const LANGUAGES = Object.freeze({
  numpy: {
    module: 'import numpy as np',
    arange: (args) => `np.arange(${args}, dtype=np.float64)`,
    array: (list) => `np.array(${list}, dtype=np.float64)`,
    exp: 'np.exp',
    sin: 'np.sin',
    cos: 'np.cos',
    outer: 'np.outer',
    concat: (parts, axis) => `np.concatenate([${parts}], axis=${axis})`,
    zeros: (shape) => `np.zeros(${shape}, dtype=np.float64)`,
    tile: (x, rows) => `np.tile(${x}, (${rows}, 1))`,
    repeat: (x, count) => `np.repeat(${x}, ${count}, axis=0)`,
    coordinates32: (size) => `np.arange(${size}, dtype=np.float32)`,
    toFloat64: (x) => `${x}.astype(np.float64)`,
    toFloat32: (x) => `${x} = ${x}.astype(np.float32)`,
  },
  pytorch: {
    module: 'import torch',
    arange: (args) => `torch.arange(${args}, dtype=torch.float64)`,
    array: (list) => `torch.tensor(${list}, dtype=torch.float64)`,
    exp: 'torch.exp',
    sin: 'torch.sin',
    cos: 'torch.cos',
    outer: 'torch.outer',
    concat: (parts, axis) => `torch.cat([${parts}], dim=${axis})`,
    zeros: (shape) => `torch.zeros(${shape}, dtype=torch.float64)`,
    tile: (x, rows) => `${x}.repeat(${rows}, 1)`,
    repeat: (x, count) => `torch.repeat_interleave(${x}, ${count}, dim=0)`,
    coordinates32: (size) => `torch.arange(${size}, dtype=torch.float32)`,
    toFloat64: (x) => `${x}.to(torch.float64)`,
    toFloat32: (x) => `${x} = ${x}.to(torch.float32)`,
  },
});

function languageOf(where, language) {
  if (typeof language !== 'string' || !Object.hasOwn(LANGUAGES, language))
    fail(
      typeof language === 'string' ? RangeError : TypeError,
      where,
      "language must be 'numpy' or 'pytorch'",
      language,
    );
  return LANGUAGES[language];
}

/** A Python float literal that reads back to exactly x. */
function pyFloat(x) {
  const text = String(x);
  return /[.e]/.test(text) || text.includes('Infinity') || text === 'NaN' ? text : `${text}.0`;
}

// Divisors tried to write numbers as an arange: 0, 10, ..., 1000 and 0, 0.01, ..., 1 (k / 1000 is
// the correctly rounded quotient in Python as in JavaScript).
const DIVISORS = [1, 10, 100, 1000];

/**
 * Python for the float64 array of `numbers` (a Float64Array): an arange of integers (divided by a
 * power of ten) when they are one exactly, else a list.
 */
export function numbersExpression(lang, numbers) {
  for (const divisor of DIVISORS) {
    const ints = Array.from(numbers, (x) => Math.round(x * divisor));
    if (!ints.every((n, k) => Number.isSafeInteger(n) && n / divisor === numbers[k])) continue;
    const step = ints.length > 1 ? ints[1] - ints[0] : 1;
    if (step === 0 || !ints.every((n, k) => n === ints[0] + k * step)) continue;
    const range = lang.arange(`${ints[0]}, ${ints[0] + step * ints.length}, ${step}`);
    return divisor === 1 ? range : `${range} / ${divisor}`;
  }
  const items = Array.from(numbers, pyFloat);
  const rows = [];
  for (let k = 0; k < items.length; k += 8) rows.push(items.slice(k, k + 8).join(', '));
  return lang.array(rows.length > 1 ? `[\n    ${rows.join(',\n    ')},\n]` : `[${rows[0]}]`);
}

/**
 * Python (NumPy or PyTorch) that builds `emb`, the rows of pe.timestepEmbedding(opts): diffusers'
 * get_timestep_embedding in float64 (guided-diffusion, DiT and latent-diffusion are its
 * flip_sin_to_cos=True, downscale_freq_shift=0), then float32 unless dtype is 'float64'.
 * @param {'numpy' | 'pytorch'} language
 * @param {import('./index.js').TimestepOptions} opts
 */
export function timestepSnippet(language, opts) {
  const where = 'timestepSnippet';
  const lang = languageOf(where, language);
  const { params: p, timesteps, ArrayType } = timestepParams(where, opts);
  const resolved = { preset: opts.preset ?? 'diffusers', ...p };
  const lines = [
    `# Diffusion timestep embedding (posenc), as diffusers' get_timestep_embedding in float64: ${JSON.stringify(resolved)}`,
    'import math',
    lang.module,
    '',
    `timesteps = ${numbersExpression(lang, timesteps)}`,
    `dim, max_period = ${p.dim}, ${pyFloat(p.maxPeriod)}`,
    `flip_sin_to_cos, downscale_freq_shift, scale = ${p.flipSinToCos ? 'True' : 'False'}, ${pyFloat(p.downscaleFreqShift)}, ${pyFloat(p.scale)}`,
    'half = dim // 2',
    // Frequency 0 is 1 whatever half - shift (diffusers divides 0 by it).
    `exponent = ${lang.arange('half')}`,
    'if half - downscale_freq_shift != 0:',
    '    exponent = exponent / (half - downscale_freq_shift)',
    `freqs = ${lang.exp}(-math.log(max_period) * exponent)`,
    `angles = scale * ${lang.outer}(timesteps, freqs)`,
    `emb = ${lang.concat(`${lang.sin}(angles), ${lang.cos}(angles)`, 1)}`,
    'if flip_sin_to_cos:',
    `    emb = ${lang.concat('emb[:, half:], emb[:, :half]', 1)}`,
    'if dim % 2 == 1:  # a zero last column',
    `    emb = ${lang.concat(`emb, ${lang.zeros('(emb.shape[0], 1)')}`, 1)}`,
  ];
  if (ArrayType !== Float64Array) lines.push(lang.toFloat32('emb'));
  return lines.join('\n') + '\n';
}

/**
 * Python (NumPy or PyTorch) that builds `pe`, the rows of pe.sincosGrid2d(opts): MAE's
 * get_2d_sincos_pos_embed (patch r * width + c at row c of the width axis and row r of the
 * height axis), in float64, then float32 unless dtype is 'float64'.
 * @param {'numpy' | 'pytorch'} language
 * @param {import('./index.js').Grid2dOptions} opts
 */
export function gridSnippet(language, opts) {
  const where = 'gridSnippet';
  const lang = languageOf(where, language);
  const { params: p, ArrayType } = gridParams(where, opts);
  const axisOrder = AXIS_ORDERS[p.axisOrder];
  const coordinateDtype = COORDINATE_DTYPES[p.coordinateDtype];
  const resolved = { preset: opts.preset ?? 'mae', ...p, axisOrder, coordinateDtype, baseSize: p.baseSize || null };
  const float32Coordinates = coordinateDtype === 'float32';
  const coordinate = [
    ...(p.baseSize ? ['    pos = pos / (size / base_size)'] : []),
    ...(p.interpolationScale !== 1 ? ['    pos = pos / interpolation_scale'] : []),
  ];
  const widthFirst = axisOrder === 'w-h';
  const lines = [
    `# 2-D sin-cos grid (posenc), as MAE's get_2d_sincos_pos_embed in float64: ${JSON.stringify(resolved)}`,
    lang.module,
    '',
    `dim, height, width, base = ${p.dim}, ${p.height}, ${p.width}, ${pyFloat(p.base)}`,
    ...(p.baseSize ? [`base_size = ${pyFloat(p.baseSize)}`] : []),
    ...(p.interpolationScale !== 1 ? [`interpolation_scale = ${pyFloat(p.interpolationScale)}`] : []),
    '',
    'def axis_rows(size):',
    '    """[sin | cos] of dim / 2 columns at the coordinates 0 .. size - 1 of one axis."""',
    float32Coordinates
      ? `    pos = ${lang.coordinates32('size')}  # float32 coordinates, as diffusers forms them`
      : `    pos = ${lang.arange('size')}`,
    ...coordinate,
    ...(float32Coordinates ? [`    pos = ${lang.toFloat64('pos')}`] : []),
    `    omega = 1.0 / base ** (${lang.arange('dim // 4')} / (dim / 4))`,
    `    angles = ${lang.outer}(pos, omega)`,
    `    return ${lang.concat(`${lang.sin}(angles), ${lang.cos}(angles)`, 1)}`,
    '',
    '# patch r * width + c: its column c (the width axis) and its row r (the height axis)',
    `across = ${lang.tile('axis_rows(width)', 'height')}`,
    `down = ${lang.repeat('axis_rows(height)', 'width')}`,
    `pe = ${lang.concat(widthFirst ? 'across, down' : 'down, across', 1)}  # axis order ${axisOrder}`,
    ...(p.extraTokens
      ? [`pe = ${lang.concat(`${lang.zeros(`(${p.extraTokens}, dim)`)}, pe`, 0)}  # class / register token rows`]
      : []),
  ];
  if (ArrayType !== Float64Array) lines.push(lang.toFloat32('pe'));
  return lines.join('\n') + '\n';
}

/** codeSnippet's position line for a table at `positions`: pos, a column of those positions. */
export function positionsLine(language, xp, positions) {
  const lang = LANGUAGES[language] ?? {
    ...LANGUAGES.numpy,
    arange: (args) => `${xp}.arange(${args}, dtype=${xp}.float64)`,
    array: (list) => `${xp}.array(${list}, dtype=${xp}.float64)`,
  };
  const numbers = numbersOf('codeSnippet', 'positions', positions);
  return {
    length: numbers.length,
    line: `pos = (${numbersExpression(lang, numbers)})[:, None]  # position of each row`,
  };
}
