// Validates and resolves the RoPE options before anything reaches wasm, so bad
// input throws a TypeError/RangeError naming the parameter (nested scaling
// fields as `scaling.<field>`) and the module is never left half-way through a
// call. Defaults and fallbacks are Hugging Face's (standardize_rope_params).
import { checkKnownKeys, fail, finite, integer, MAX_BYTES, MAX_MAGNITUDE, oneOf, precisionParams } from './options.js';
import { bufferOf, isDetached, lengthOfView, typedArrayKind } from './typed-arrays.js';
import { PRECISION_OPTIONS, ROPE_LAYOUTS } from './conventions.js';
import { LIMITS } from './limits.js';

export const ROPE_SCALING_TYPES = Object.freeze(['default', 'linear', 'dynamic', 'yarn', 'longrope', 'llama3']);
export { ROPE_LAYOUTS };
export const MAX_HEAD_DIM = LIMITS.maxHeadDim;

const COMMON = [
  'headDim',
  'hiddenSize',
  'numHeads',
  'base',
  'partialRotaryFactor',
  'seqLen',
  'scaling',
  ...PRECISION_OPTIONS,
];
const OPTIONS = {
  ropeFrequencies: [],
  ropeCache: ['length', 'start', 'layout', 'dtype', 'out'],
  ropeApply: ['positions', 'start', 'heads', 'layout', 'out'],
  ropeScores: ['maxOffset', 'from'],
  ropeSupportedContext: ['limit'],
  codeSnippet: ['length', 'start', 'layout', 'dtype', 'out'],
};
const KNOWN = Object.fromEntries(
  Object.entries(OPTIONS).map(([where, extra]) => [where, new Set([...COMMON, ...extra])]),
);

// The scaling fields each type reads (HF's required and optional keys).
const SCALING_FIELDS = {
  default: [],
  linear: ['factor'],
  dynamic: ['factor', 'maxPositionEmbeddings'],
  yarn: [
    'factor',
    'originalMaxPositionEmbeddings',
    'maxPositionEmbeddings',
    'betaFast',
    'betaSlow',
    'mscale',
    'mscaleAllDim',
    'attentionFactor',
    'truncate',
  ],
  longrope: [
    'factor',
    'originalMaxPositionEmbeddings',
    'maxPositionEmbeddings',
    'shortFactor',
    'longFactor',
    'attentionFactor',
  ],
  llama3: ['factor', 'originalMaxPositionEmbeddings', 'maxPositionEmbeddings', 'lowFreqFactor', 'highFreqFactor'],
};

function checkObject(where, name, value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fail(TypeError, where, `${name} must be an object`, value);
  return value;
}

function positive(where, name, value) {
  finite(where, name, value);
  if (!(value > 0)) fail(RangeError, where, `${name} must be a finite number > 0`, value);
  return value;
}

function nonNegative(where, name, value) {
  finite(where, name, value);
  if (!(value >= 0)) fail(RangeError, where, `${name} must be a finite number >= 0`, value);
  return value;
}

// A typed array by its internal slots (any realm; no Proxy or look-alike).
const isFloatArray = (v) => ['Float64Array', 'Float32Array'].includes(typedArrayKind(v));

/** An Array or a Float32Array/Float64Array of `pairs` numbers > 0, copied before any wasm work. */
function factors(where, name, value, pairs) {
  const typed = isFloatArray(value);
  if (!(typed || Array.isArray(value)))
    fail(TypeError, where, `${name} must be an array of rotaryDim / 2 = ${pairs} numbers`, value);
  if (typed && isDetached(bufferOf(value))) fail(TypeError, where, `${name} is a view of a detached buffer`, value);
  if ((typed ? lengthOfView(value) : value.length) !== pairs)
    fail(RangeError, where, `${name} must hold rotaryDim / 2 = ${pairs} numbers, one per pair`, value);
  const out = new Float64Array(pairs);
  for (let i = 0; i < pairs; i++) out[i] = positive(where, `${name}[${i}]`, value[i]);
  return out;
}

/** Checks the keys of an options object: another function's option is refused with a hint. */
function checkKeys(where, opts) {
  if (opts === undefined) fail(TypeError, where, 'options are required: an object with headDim', opts);
  checkObject(where, 'options', opts);
  return checkKnownKeys(where, opts, KNOWN);
}

/** headDim, or hiddenSize // numHeads as HF derives it. */
function headDimOf(where, opts) {
  if (opts.headDim !== undefined) {
    if (opts.hiddenSize !== undefined || opts.numHeads !== undefined)
      fail(TypeError, where, 'give either headDim or hiddenSize and numHeads, not both', opts.hiddenSize);
    return integer(where, 'headDim', opts.headDim, 2, MAX_HEAD_DIM);
  }
  if (opts.hiddenSize === undefined || opts.numHeads === undefined)
    fail(TypeError, where, 'headDim is required (or hiddenSize and numHeads): an integer >= 2', opts.headDim);
  const hiddenSize = integer(where, 'hiddenSize', opts.hiddenSize, 2, MAX_HEAD_DIM * 1024);
  const numHeads = integer(where, 'numHeads', opts.numHeads, 1, hiddenSize);
  const headDim = Math.floor(hiddenSize / numHeads);
  if (headDim < 2 || headDim > MAX_HEAD_DIM)
    fail(RangeError, where, `hiddenSize / numHeads must be in [2, ${MAX_HEAD_DIM}]`, headDim);
  return headDim;
}

/**
 * Everything the wasm calls take: `params` (RopeParams of rope_bindings.cpp),
 * the longrope factor arrays, headDim, rotaryDim and the resolved scaling.
 */
export function ropeParams(where, rawOpts) {
  const opts = checkKeys(where, rawOpts);
  const headDim = headDimOf(where, opts);
  const base = opts.base === undefined ? 10000 : finite(where, 'base', opts.base);
  if (!(base > 1)) fail(RangeError, where, 'base must be a finite number > 1 (rope_theta)', base);
  const partial =
    opts.partialRotaryFactor === undefined ? 1 : finite(where, 'partialRotaryFactor', opts.partialRotaryFactor);
  if (!(partial > 0 && partial <= 1))
    fail(RangeError, where, 'partialRotaryFactor must be a finite number in (0, 1]', partial);
  // HF: int(head_dim * partial_rotary_factor); an odd count has no partner for its last dim.
  const rotaryDim = Math.floor(headDim * partial) & ~1;
  if (rotaryDim < 2)
    fail(RangeError, where, `partialRotaryFactor leaves fewer than 2 of headDim = ${headDim} dims to rotate`, partial);
  const seqLen = opts.seqLen === undefined ? 0 : integer(where, 'seqLen', opts.seqLen, 1, MAX_MAGNITUDE);

  const scaling = opts.scaling === undefined ? {} : checkObject(where, 'scaling', opts.scaling);
  const type = scaling.type === undefined ? 'default' : scaling.type;
  const typeIndex = oneOf(where, 'scaling.type', type, ROPE_SCALING_TYPES);
  const fields = SCALING_FIELDS[type];
  for (const key of Object.keys(scaling)) {
    if (key === 'type' || fields.includes(key)) continue;
    const readers = Object.keys(SCALING_FIELDS).filter((t) => SCALING_FIELDS[t].includes(key));
    fail(
      TypeError,
      where,
      readers.length
        ? `scaling.${key} is not read by type '${type}' (only by ${readers.map((t) => `'${t}'`).join(', ')}); its fields: ${fields.join(', ') || 'none'}`
        : `unknown scaling field '${key}'; type '${type}' reads: ${fields.join(', ') || 'none'}`,
      scaling[key],
    );
  }
  const has = (key) => scaling[key] !== undefined;
  const required = (key, what) => {
    if (!has(key)) fail(TypeError, where, `scaling.${key} is required with type '${type}': ${what}`, undefined);
  };
  const params = {
    rotaryDim,
    scaling: typeIndex,
    base,
    factor: has('factor') ? positive(where, 'scaling.factor', scaling.factor) : NaN,
    originalMaxPositionEmbeddings: has('originalMaxPositionEmbeddings')
      ? integer(where, 'scaling.originalMaxPositionEmbeddings', scaling.originalMaxPositionEmbeddings, 1, MAX_MAGNITUDE)
      : NaN,
    maxPositionEmbeddings: has('maxPositionEmbeddings')
      ? integer(where, 'scaling.maxPositionEmbeddings', scaling.maxPositionEmbeddings, 1, MAX_MAGNITUDE)
      : NaN,
    seqLen,
    betaFast: has('betaFast') ? positive(where, 'scaling.betaFast', scaling.betaFast) : 32,
    betaSlow: has('betaSlow') ? positive(where, 'scaling.betaSlow', scaling.betaSlow) : 1,
    mscale: has('mscale') ? nonNegative(where, 'scaling.mscale', scaling.mscale) : 0,
    mscaleAllDim: has('mscaleAllDim') ? nonNegative(where, 'scaling.mscaleAllDim', scaling.mscaleAllDim) : 0,
    attentionFactor: has('attentionFactor') ? positive(where, 'scaling.attentionFactor', scaling.attentionFactor) : NaN,
    truncate: true,
    lowFreqFactor: 1,
    highFreqFactor: 4,
  };
  if (has('truncate')) {
    if (typeof scaling.truncate !== 'boolean')
      fail(TypeError, where, 'scaling.truncate must be true or false', scaling.truncate);
    params.truncate = scaling.truncate;
  }
  let shortFactor = null;
  let longFactor = null;
  const aNumber = 'a finite number > 0';
  // HF's standardize_rope_params: the original context defaults to max_position_embeddings.
  const original = () => {
    if (Number.isNaN(params.originalMaxPositionEmbeddings)) {
      if (Number.isNaN(params.maxPositionEmbeddings))
        fail(
          TypeError,
          where,
          `scaling.originalMaxPositionEmbeddings is required with type '${type}' (or maxPositionEmbeddings, which HF then uses)`,
          undefined,
        );
      params.originalMaxPositionEmbeddings = params.maxPositionEmbeddings;
    }
  };
  switch (type) {
    case 'linear':
      required('factor', aNumber);
      break;
    case 'dynamic':
      required('factor', aNumber);
      required('maxPositionEmbeddings', 'the length up to which the base is kept');
      if (rotaryDim < 4)
        fail(RangeError, where, "rotaryDim must be >= 4 with type 'dynamic' (exponent dim / (dim - 2))", rotaryDim);
      break;
    case 'yarn':
    case 'longrope':
      original();
      if (!has('factor') && Number.isNaN(params.maxPositionEmbeddings))
        fail(
          TypeError,
          where,
          `scaling.factor is required with type '${type}' (or maxPositionEmbeddings, to take maxPositionEmbeddings / originalMaxPositionEmbeddings)`,
          undefined,
        );
      if (type === 'longrope') {
        required('shortFactor', `rotaryDim / 2 = ${rotaryDim / 2} numbers`);
        required('longFactor', `rotaryDim / 2 = ${rotaryDim / 2} numbers`);
        shortFactor = factors(where, 'scaling.shortFactor', scaling.shortFactor, rotaryDim / 2);
        longFactor = factors(where, 'scaling.longFactor', scaling.longFactor, rotaryDim / 2);
      }
      break;
    case 'llama3':
      required('factor', aNumber);
      required('lowFreqFactor', aNumber);
      required('highFreqFactor', 'a finite number > lowFreqFactor');
      original();
      params.lowFreqFactor = positive(where, 'scaling.lowFreqFactor', scaling.lowFreqFactor);
      params.highFreqFactor = finite(where, 'scaling.highFreqFactor', scaling.highFreqFactor);
      if (!(params.highFreqFactor > params.lowFreqFactor))
        fail(
          RangeError,
          where,
          'scaling.highFreqFactor must be a finite number > lowFreqFactor',
          scaling.highFreqFactor,
        );
      break;
  }
  checkResolved(where, params, shortFactor, longFactor);
  // Exponent and frequency roundings go into the frequencies, position and
  // angle roundings into every angle (cache, apply, scores).
  const precision = precisionParams(where, opts);
  params.exponentDtype = precision.exponentDtype;
  params.frequencyDtype = precision.frequencyDtype;
  return { params, shortFactor, longFactor, headDim, rotaryDim, type, precision };
}

// Far beyond any model's (YaRN's is about 1.1 to 1.4), and the cache (A cos)
// in float32 and the scores (A^2 times a sum over pairs) stay finite.
export const MAX_ATTENTION_FACTOR = 2 ** 64;
// A frequency above this could make an angle (position times frequency, positions up to 2^53) overflow.
const MAX_FREQUENCY = Number.MAX_VALUE / MAX_MAGNITUDE;

/**
 * Options that each pass their own checks can still resolve to frequencies
 * or an attention factor that are Infinity, NaN or 0 (a factor of 5e-324, a
 * betaFast of 1e-320, an original context of 1): these float64 bounds of
 * what rope.cpp computes (the smallest and largest frequency of each type)
 * refuse them, naming the option that drives the value.
 */
function checkResolved(where, p, shortFactor, longFactor) {
  const dim = p.rotaryDim;
  const n = dim / 2;
  const check = (name, value, frequency) => {
    const ok = frequency
      ? value > 0 && value <= MAX_FREQUENCY
      : value >= 1 / MAX_ATTENTION_FACTOR && value <= MAX_ATTENTION_FACTOR;
    if (!ok)
      fail(
        RangeError,
        where,
        frequency
          ? `${name} resolves to an inverse frequency of ${value}: every one must be a finite number in (0, ${MAX_FREQUENCY.toPrecision(3)}] (an angle at position 2^53 must stay finite)`
          : `${name} resolves to an attention factor of ${value}: it must be a finite number in [2^-64, 2^64] (so caches and scores stay finite)`,
        p[name.replace('scaling.', '')] ?? value,
      );
  };
  // The unscaled ladder runs from 1 down to base^(-(dim - 2) / dim).
  const slowest = (base) => base ** (-(dim - 2) / dim);
  const range = (name, divisorMin, divisorMax, base = p.base) => {
    check(name, 1 / divisorMin, true);
    check(name, slowest(base) / divisorMax, true);
  };
  const type = ROPE_SCALING_TYPES[p.scaling];
  const factor = Number.isNaN(p.factor) ? p.maxPositionEmbeddings / p.originalMaxPositionEmbeddings : p.factor;
  switch (type) {
    case 'linear':
    case 'llama3':
      // llama3 divides some pairs by factor and blends others between w and w / factor.
      range('scaling.factor', Math.min(1, p.factor), Math.max(1, p.factor));
      break;
    case 'dynamic': {
      const seqLen = Math.max(p.seqLen, p.maxPositionEmbeddings);
      const base = p.base * ((p.factor * seqLen) / p.maxPositionEmbeddings - (p.factor - 1)) ** (dim / (dim - 2));
      range('scaling.factor', 1, 1, base);
      break;
    }
    case 'yarn': {
      range('scaling.factor', Math.min(1, factor), Math.max(1, factor));
      const correction = (rotations) =>
        (dim * Math.log(p.originalMaxPositionEmbeddings / (rotations * 2 * Math.PI))) / (2 * Math.log(p.base));
      let low = correction(p.betaFast);
      let high = correction(p.betaSlow);
      if (p.truncate) [low, high] = [Math.floor(low), Math.ceil(high)];
      [low, high] = [Math.max(low, 0), Math.min(high, dim - 1)];
      if (low === high) high += 0.001;
      // A ramp from pair Infinity (low) makes every frequency NaN.
      for (const i of [0, n - 1])
        if (Number.isNaN((i - low) / (high - low))) {
          const name = Number.isFinite(low) ? 'betaSlow' : 'betaFast';
          fail(
            RangeError,
            where,
            `scaling.${name} puts YaRN's ramp at pair ${low} .. ${high}, which makes every frequency NaN: originalMaxPositionEmbeddings / (${name} * 2 pi) must be finite`,
            p[name],
          );
        }
      const mscale = (scale, m) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
      if (!Number.isNaN(p.attentionFactor)) check('scaling.attentionFactor', p.attentionFactor);
      else if (p.mscale !== 0 && p.mscaleAllDim !== 0) {
        const ratio = mscale(factor, p.mscale) / mscale(factor, p.mscaleAllDim);
        check(ratio < 1 ? 'scaling.mscaleAllDim' : 'scaling.mscale', ratio);
      } else check('scaling.factor', mscale(factor, 1));
      break;
    }
    case 'longrope': {
      for (const [name, values] of [
        ['scaling.shortFactor', shortFactor],
        ['scaling.longFactor', longFactor],
      ])
        range(name, Math.min(...values), Math.max(...values));
      if (!Number.isNaN(p.attentionFactor)) check('scaling.attentionFactor', p.attentionFactor);
      else if (factor > 1)
        check(
          'scaling.originalMaxPositionEmbeddings',
          Math.sqrt(1 + Math.log(factor) / Math.log(p.originalMaxPositionEmbeddings)),
        );
      break;
    }
  }
}

export function ropeLayout(where, opts) {
  return opts.layout === undefined ? 0 : oneOf(where, 'layout', opts.layout, ROPE_LAYOUTS);
}

export function ropeDtype(where, opts) {
  const dtype = opts.dtype === undefined ? 'float32' : opts.dtype;
  oneOf(where, 'dtype', dtype, ['float32', 'float64']);
  return dtype === 'float64' ? Float64Array : Float32Array;
}

/** A position (start, from): finite, |x| <= 2^53, and so is x + count. */
export function ropePosition(where, name, value, count) {
  if (value === undefined) return 0;
  finite(where, name, value, true);
  if (!(Math.abs(value + count) <= MAX_MAGNITUDE))
    fail(RangeError, where, `${name} + ${count} must have magnitude at most 2^53`, value);
  return value;
}

export { MAX_BYTES };
