// Validates and resolves the options of the sinusoids beyond token positions
// (timestepEmbedding, sincosGrid2d, sincosGrid3d, resizeGrid, and table's positions) before anything
// reaches wasm: bad input throws a TypeError/RangeError naming the function
// and the parameter.
import { checkObjectKeys, fail, finite, integer, oneOf } from './options.js';
import { LIMITS } from './limits.js';
import { bufferOf, isDetached, lengthOfView, typedArrayKind } from './typed-arrays.js';

/** Which axis the first half of a grid row encodes (cpp: posenc::AxisOrder). */
export const AXIS_ORDERS = Object.freeze(['w-h', 'h-w']);
// Formats a grid's coordinates are formed in (indices of PRECISION_DTYPES: posenc::Dtype).
const COORDINATE_DTYPES = Object.freeze(['float64', 'float32']);

// Every knob of diffusers' get_timestep_embedding defaults; the others say how they differ.
const DIFFUSERS = Object.freeze({ maxPeriod: 10000, flipSinToCos: false, downscaleFreqShift: 1, scale: 1 });
// guided-diffusion / improved-diffusion nn.timestep_embedding, DiT's
// TimestepEmbedder.timestep_embedding and latent-diffusion's
// ldm/modules/diffusionmodules/util.py timestep_embedding: [cos | sin],
// frequencies exp(-ln(max_period) i / half), a zero column for odd dim.
const COS_FIRST_OVER_HALF = Object.freeze({ ...DIFFUSERS, flipSinToCos: true, downscaleFreqShift: 0 });

/** Timestep presets, each one real implementation's defaults. */
export const TIMESTEP_PRESETS = Object.freeze({
  diffusers: DIFFUSERS,
  'guided-diffusion': COS_FIRST_OVER_HALF,
  'improved-diffusion': COS_FIRST_OVER_HALF,
  dit: COS_FIRST_OVER_HALF,
  'latent-diffusion': COS_FIRST_OVER_HALF,
});
export const TIMESTEP_PRESET_NAMES = Object.freeze(Object.keys(TIMESTEP_PRESETS));

// MAE util/pos_embed.py and DiT models.py get_2d_sincos_pos_embed: integer
// coordinates, the first half from the column index (w). diffusers'
// get_2d_sincos_pos_embed divides the float32 coordinates by size / base_size
// (base_size 16 by default) and by interpolation_scale.
const MAE = Object.freeze({
  axisOrder: 'w-h',
  baseSize: null,
  interpolationScale: 1,
  base: 10000,
  coordinateDtype: 'float64',
});
/** 2-D grid presets. */
export const GRID_PRESETS = Object.freeze({
  mae: MAE,
  dit: MAE,
  diffusers: Object.freeze({ ...MAE, baseSize: 16, coordinateDtype: 'float32' }),
});
export const GRID_PRESET_NAMES = Object.freeze(Object.keys(GRID_PRESETS));

// diffusers' get_3d_sincos_pos_embed: torch.arange(float32) / interpolation scale
// on each axis, both scales 1 by default. CogVideoX's transformer config sets the
// spatial scale to 1.875 (CogVideoXTransformer3DModel, spatial_interpolation_scale).
const DIFFUSERS_3D = Object.freeze({
  axisOrder: 'w-h',
  spatialInterpolationScale: 1,
  temporalInterpolationScale: 1,
  base: 10000,
  coordinateDtype: 'float32',
});
/** 3-D grid presets. */
export const GRID3D_PRESETS = Object.freeze({
  diffusers: DIFFUSERS_3D,
  cogvideox: Object.freeze({ ...DIFFUSERS_3D, spatialInterpolationScale: 1.875 }),
});
export const GRID3D_PRESET_NAMES = Object.freeze(Object.keys(GRID3D_PRESETS));

const TIMESTEP_OPTIONS = [
  'timesteps',
  'dim',
  'preset',
  'maxPeriod',
  'flipSinToCos',
  'downscaleFreqShift',
  'scale',
  'dtype',
];
const GRID_OPTIONS = [
  'dim',
  'height',
  'width',
  'preset',
  'axisOrder',
  'extraTokens',
  'baseSize',
  'interpolationScale',
  'base',
  'coordinateDtype',
  'resizedFrom',
  'dtype',
];
const GRID3D_OPTIONS = [
  'dim',
  'frames',
  'height',
  'width',
  'preset',
  'axisOrder',
  'extraTokens',
  'spatialInterpolationScale',
  'temporalInterpolationScale',
  'base',
  'coordinateDtype',
  'dtype',
];
const RESIZE_OPTIONS = ['dim', 'height', 'width', 'toHeight', 'toWidth', 'extraTokens', 'dtype'];
const MAX_GRID_SIDE = 16384;

function boolean(where, name, value) {
  if (typeof value !== 'boolean') fail(TypeError, where, `${name} must be true or false`, value);
  return value;
}

/**
 * An array of numbers (an Array, or a typed array of any realm but a BigInt
 * one) copied into a Float64Array before any wasm work, each finite and of
 * magnitude at most 2^53; `name` names it in messages.
 */
export function numbersOf(where, name, values) {
  const kind = typedArrayKind(values);
  const typed = kind !== undefined && !kind.startsWith('Big');
  if (!(Array.isArray(values) || typed)) fail(TypeError, where, `${name} must be an array of numbers`, values);
  if (typed && isDetached(bufferOf(values))) fail(TypeError, where, `${name} is a view of a detached buffer`, values);
  const length = typed ? lengthOfView(values) : values.length;
  if (length < 1) fail(RangeError, where, `${name} must hold at least one number`, length);
  const numbers = new Float64Array(length);
  for (let k = 0; k < length; k++) {
    const value = values[k];
    if (typeof value !== 'number') fail(TypeError, where, `${name}[${k}] must be a number`, value);
    if (!(Math.abs(value) <= LIMITS.maxMagnitude))
      fail(RangeError, where, `${name}[${k}] must be a finite number of magnitude at most 2^53`, value);
    numbers[k] = value;
  }
  return numbers;
}

const dtypeIn = (where, opts) =>
  opts.dtype === undefined
    ? Float32Array
    : [Float32Array, Float64Array][oneOf(where, 'dtype', opts.dtype, ['float32', 'float64'])];

/** { params (the staged block's numbers, TIMESTEP_FIELDS), timesteps (Float64Array), ArrayType }. */
export function timestepParams(where, opts) {
  checkObjectKeys(where, opts, TIMESTEP_OPTIONS);
  const presetName = opts.preset === undefined ? 'diffusers' : opts.preset;
  const preset = TIMESTEP_PRESETS[TIMESTEP_PRESET_NAMES[oneOf(where, 'preset', presetName, TIMESTEP_PRESET_NAMES)]];
  const pick = (key) => (opts[key] === undefined ? preset[key] : opts[key]);
  if (opts.timesteps === undefined) fail(TypeError, where, 'timesteps is required: an array of numbers', undefined);
  if (opts.dim === undefined)
    fail(TypeError, where, `dim is required: an integer in [1, ${LIMITS.maxDModel}]`, undefined);
  const timesteps = numbersOf(where, 'timesteps', opts.timesteps);
  const dim = integer(where, 'dim', opts.dim, 1, LIMITS.maxDModel);
  const maxPeriod = finite(where, 'maxPeriod', pick('maxPeriod'));
  if (!(maxPeriod > 0)) fail(RangeError, where, 'maxPeriod must be a finite number > 0', maxPeriod);
  const downscaleFreqShift = finite(where, 'downscaleFreqShift', pick('downscaleFreqShift'), true);
  const half = Math.floor(dim / 2);
  if (half > 1 && half - downscaleFreqShift === 0)
    fail(
      RangeError,
      where,
      `downscaleFreqShift must differ from floor(dim / 2) = ${half}: the exponent divides by floor(dim / 2) - downscaleFreqShift`,
      downscaleFreqShift,
    );
  const params = Object.freeze({
    dim,
    maxPeriod,
    flipSinToCos: boolean(where, 'flipSinToCos', pick('flipSinToCos')),
    downscaleFreqShift,
    scale: finite(where, 'scale', pick('scale'), true),
  });
  return { params, timesteps, ArrayType: dtypeIn(where, opts) };
}

function side(where, name, value) {
  if (value === undefined) fail(TypeError, where, `${name} is required: an integer in [1, ${MAX_GRID_SIDE}]`, value);
  return integer(where, name, value, 1, MAX_GRID_SIDE);
}

/** The grid size `resizedFrom` names ({ height, width }), or null when undefined. */
function resizedFromIn(where, value) {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fail(
      TypeError,
      where,
      'resizedFrom must be an object { height, width }: the grid size the table was made at',
      value,
    );
  for (const key of Object.keys(value))
    if (key !== 'height' && key !== 'width')
      fail(TypeError, where, `resizedFrom has an unknown key '${key}': it takes height and width`, value[key]);
  return Object.freeze({
    height: side(where, 'resizedFrom.height', value.height),
    width: side(where, 'resizedFrom.width', value.width),
  });
}

/** A number in (0, 16384]. */
function positiveScale(where, name, value) {
  finite(where, name, value);
  if (!(value > 0 && value <= MAX_GRID_SIDE))
    fail(RangeError, where, `${name} must be a number in (0, ${MAX_GRID_SIDE}]`, value);
  return value;
}

/** { params (the staged block's numbers, GRID_FIELDS), resizedFrom ({ height, width } or null), ArrayType }. */
export function gridParams(where, opts) {
  checkObjectKeys(where, opts, GRID_OPTIONS);
  const presetName = opts.preset === undefined ? 'mae' : opts.preset;
  const preset = GRID_PRESETS[GRID_PRESET_NAMES[oneOf(where, 'preset', presetName, GRID_PRESET_NAMES)]];
  const pick = (key) => (opts[key] === undefined ? preset[key] : opts[key]);
  if (opts.dim === undefined)
    fail(
      TypeError,
      where,
      'dim is required: a multiple of 4 (each axis gets dim/2 columns of sin, cos pairs)',
      undefined,
    );
  const dim = integer(where, 'dim', opts.dim, 4, LIMITS.maxDModel);
  if (dim % 4 !== 0)
    fail(RangeError, where, 'dim must be a multiple of 4: each axis gets dim/2 columns of sin and cos pairs', dim);
  const baseSize = pick('baseSize');
  if (baseSize !== null) {
    finite(where, 'baseSize', baseSize);
    if (!(baseSize > 0 && baseSize <= MAX_GRID_SIDE))
      fail(RangeError, where, `baseSize must be null (none) or a number in (0, ${MAX_GRID_SIDE}]`, baseSize);
  }
  const interpolationScale = positiveScale(where, 'interpolationScale', pick('interpolationScale'));
  const base = finite(where, 'base', pick('base'));
  if (!(base > 1)) fail(RangeError, where, 'base must be a finite number > 1', base);
  const params = Object.freeze({
    dim,
    height: side(where, 'height', opts.height),
    width: side(where, 'width', opts.width),
    axisOrder: oneOf(where, 'axisOrder', pick('axisOrder'), AXIS_ORDERS),
    extraTokens: opts.extraTokens === undefined ? 0 : integer(where, 'extraTokens', opts.extraTokens, 0, MAX_GRID_SIDE),
    baseSize: baseSize ?? 0,
    interpolationScale,
    base,
    coordinateDtype: oneOf(where, 'coordinateDtype', pick('coordinateDtype'), COORDINATE_DTYPES),
  });
  return { params, resizedFrom: resizedFromIn(where, opts.resizedFrom), ArrayType: dtypeIn(where, opts) };
}

/** { params (the staged block's numbers, GRID3D_FIELDS), ArrayType }. */
export function grid3dParams(where, opts) {
  checkObjectKeys(where, opts, GRID3D_OPTIONS);
  const presetName = opts.preset === undefined ? 'diffusers' : opts.preset;
  const preset = GRID3D_PRESETS[GRID3D_PRESET_NAMES[oneOf(where, 'preset', presetName, GRID3D_PRESET_NAMES)]];
  const pick = (key) => (opts[key] === undefined ? preset[key] : opts[key]);
  if (opts.dim === undefined)
    fail(
      TypeError,
      where,
      'dim is required: a multiple of 16 (dim/4 temporal and 3*dim/4 spatial columns of sin, cos pairs)',
      undefined,
    );
  const dim = integer(where, 'dim', opts.dim, 16, LIMITS.maxDModel);
  if (dim % 16 !== 0)
    fail(
      RangeError,
      where,
      'dim must be a multiple of 16: dim/4 temporal and 3*dim/4 spatial columns of sin and cos pairs',
      dim,
    );
  const base = finite(where, 'base', pick('base'));
  if (!(base > 1)) fail(RangeError, where, 'base must be a finite number > 1', base);
  const params = Object.freeze({
    dim,
    frames: side(where, 'frames', opts.frames),
    height: side(where, 'height', opts.height),
    width: side(where, 'width', opts.width),
    axisOrder: oneOf(where, 'axisOrder', pick('axisOrder'), AXIS_ORDERS),
    extraTokens: opts.extraTokens === undefined ? 0 : integer(where, 'extraTokens', opts.extraTokens, 0, MAX_GRID_SIDE),
    spatialInterpolationScale: positiveScale(where, 'spatialInterpolationScale', pick('spatialInterpolationScale')),
    temporalInterpolationScale: positiveScale(where, 'temporalInterpolationScale', pick('temporalInterpolationScale')),
    base,
    coordinateDtype: oneOf(where, 'coordinateDtype', pick('coordinateDtype'), COORDINATE_DTYPES),
  });
  return { params, ArrayType: dtypeIn(where, opts) };
}

/**
 * pe.resizeGrid(table, opts): { table (Float64Array), size ({ dim, height, width,
 * toHeight, toWidth, extraTokens }), ArrayType }; the table must hold
 * (extraTokens + height * width) * dim numbers.
 */
export function resizeParams(where, table, opts) {
  checkObjectKeys(where, opts, RESIZE_OPTIONS);
  if (opts.dim === undefined)
    fail(TypeError, where, `dim is required: an integer in [1, ${LIMITS.maxDModel}]`, undefined);
  const size = Object.freeze({
    dim: integer(where, 'dim', opts.dim, 1, LIMITS.maxDModel),
    height: side(where, 'height', opts.height),
    width: side(where, 'width', opts.width),
    toHeight: side(where, 'toHeight', opts.toHeight),
    toWidth: side(where, 'toWidth', opts.toWidth),
    extraTokens: opts.extraTokens === undefined ? 0 : integer(where, 'extraTokens', opts.extraTokens, 0, MAX_GRID_SIDE),
  });
  const values = numbersOf(where, 'table', table);
  const expected = (size.extraTokens + size.height * size.width) * size.dim;
  if (values.length !== expected)
    fail(
      RangeError,
      where,
      `table must hold (extraTokens + height * width) * dim = (${size.extraTokens} + ${size.height} * ${size.width}) * ${size.dim} = ${expected} numbers`,
      values.length,
    );
  return { table: values, size, ArrayType: dtypeIn(where, opts) };
}
