// Validates and normalises user options before anything reaches wasm, so bad
// input throws a TypeError/RangeError naming the parameter and the module is
// never left half-way through a call.
import { ANGLES, DTYPES, EXPONENTS, LAYOUTS, ODD_COLUMNS, ORDERS, PRESETS, PRESET_NAMES } from './conventions.js';

export const MAX_D_MODEL = 1 << 20;
// Bytes of one result array: what a wasm32 heap (and a scratch copy) can hold.
export const MAX_BYTES = 2 ** 31 - 1;

// The knobs of a convention, which every function takes.
const ENCODING_OPTIONS = [
  'dModel',
  'preset',
  'layout',
  'exponent',
  'order',
  'angle',
  'base',
  'minTimescale',
  'maxTimescale',
  'start',
  'paddingRow',
  'scale',
  'oddColumn',
];

// What each function reads besides them. An option of another function (from
// on table) is refused like a misspelt one: ignoring it would hide the mistake
// (table's rows start at `start`, not at `from`). Only `length` is taken by
// all, and ignored where there is no length, so that one options object serves
// table and the functions of its rows (row, offsetDots, frequencies) as long
// as its dtype, if any, suits each (frequencies and offsetDots are float64).
const OPTIONS = {
  table: ['length', 'dtype', 'out'],
  row: ['length', 'dtype', 'out'],
  frequencies: ['length', 'dtype', 'out'],
  offsetDots: ['length', 'maxOffset', 'minOffset', 'from', 'dtype', 'out'],
  similarity: ['length', 'dtype', 'out'],
  // The options of the pe.table call it rebuilds (out, if there, is not read).
  codeSnippet: ['length', 'dtype', 'out'],
};
const KNOWN = Object.fromEntries(
  Object.entries(OPTIONS).map(([where, extra]) => [where, new Set([...ENCODING_OPTIONS, ...extra])]),
);

const describe = (v) =>
  typeof v === 'string'
    ? JSON.stringify(v)
    : typeof v === 'bigint'
      ? `${v}n`
      : Array.isArray(v)
        ? `an array of length ${v.length}`
        : String(v);

export function fail(ErrorType, where, message, value) {
  throw new ErrorType(`posenc.${where}: ${message} (got ${describe(value)})`);
}

// Messages are built only on failure: these checks run on every call.
function number(where, name, value, accepted) {
  if (typeof value !== 'number') fail(TypeError, where, `${name} must be a number: ${accepted()}`, value);
  return value;
}

export function integer(where, name, value, min, max) {
  const accepted = () => `an integer in [${min}, ${max}]`;
  number(where, name, value, accepted);
  if (!Number.isInteger(value) || value < min || value > max)
    fail(RangeError, where, `${name} must be ${accepted()}`, value);
  return value;
}

const aFiniteNumber = () => 'a finite number';

// Largest magnitude of a position, a scale or minTimescale: beyond 2^53 positions
// are no longer distinct integers, and products such as 2 * start, pos * w or
// scale^2 * dModel could overflow to Infinity and come back as NaN.
export const MAX_MAGNITUDE = 2 ** 53;

/** A finite number; with `bounded`, also of magnitude at most 2^53. */
export function finite(where, name, value, bounded = false) {
  number(where, name, value, aFiniteNumber);
  if (!Number.isFinite(value)) fail(RangeError, where, `${name} must be a finite number`, value);
  if (bounded && !(Math.abs(value) <= MAX_MAGNITUDE))
    fail(RangeError, where, `${name} must be a finite number of magnitude at most 2^53`, value);
  return value;
}

function oneOf(where, name, value, allowed) {
  const index = allowed.indexOf(value);
  if (index >= 0) return index;
  const accepted = allowed.map((a) => `'${a}'`).join(', ');
  fail(typeof value === 'string' ? RangeError : TypeError, where, `${name} must be one of ${accepted}`, value);
}

function checkObject(where, opts) {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts))
    fail(TypeError, where, 'options must be an object', opts);
  const known = KNOWN[where];
  for (const key of Object.keys(opts)) {
    if (known.has(key)) continue;
    const owners = Object.keys(KNOWN).filter((name) => name !== 'codeSnippet' && KNOWN[name].has(key));
    const hint = owners.length
      ? `'${key}' is an option of ${owners.join(', ')}, not of ${where}`
      : `unknown option '${key}'`;
    fail(TypeError, where, `${hint}; ${where}'s options: ${[...known].join(', ')}`, opts[key]);
  }
  return opts;
}

/**
 * Resolves the convention: preset first, then explicit knobs.
 * Returns the numeric parameters the wasm bindings take.
 */
export function encodingParams(where, rawOpts) {
  const opts = checkObject(where, rawOpts);
  const pick = (key) => (opts[key] === undefined ? preset[key] : opts[key]);
  const presetName = opts.preset === undefined ? 'vaswani' : opts.preset;
  oneOf(where, 'preset', presetName, PRESET_NAMES);
  const preset = PRESETS[presetName];

  if (opts.dModel === undefined)
    fail(TypeError, where, `dModel is required: an integer in [1, ${MAX_D_MODEL}]`, undefined);
  const dModel = integer(where, 'dModel', opts.dModel, 1, MAX_D_MODEL);

  let base = pick('base');
  let frequencyScale = 1;
  if (opts.minTimescale !== undefined || opts.maxTimescale !== undefined) {
    if (opts.base !== undefined)
      fail(TypeError, where, 'give either base or minTimescale/maxTimescale, not both', opts.base);
    const minTimescale = opts.minTimescale === undefined ? 1 : finite(where, 'minTimescale', opts.minTimescale, true);
    const maxTimescale = opts.maxTimescale === undefined ? 1e4 : finite(where, 'maxTimescale', opts.maxTimescale);
    if (!(minTimescale > 0)) fail(RangeError, where, 'minTimescale must be a finite number > 0', minTimescale);
    if (!(maxTimescale > minTimescale))
      fail(RangeError, where, 'maxTimescale must be a finite number > minTimescale', maxTimescale);
    // tensor2tensor multiplies its inverse timescales by min_timescale.
    base = maxTimescale / minTimescale;
    frequencyScale = minTimescale;
  }
  finite(where, 'base', base);
  if (!(base > 1)) fail(RangeError, where, 'base must be a finite number > 1', base);

  // Functions with a fixed output type still reject a dtype no function knows.
  if (opts.dtype !== undefined) oneOf(where, 'dtype', opts.dtype, DTYPES);

  const paddingRow = pick('paddingRow');
  if (paddingRow !== null && paddingRow !== undefined)
    integer(where, 'paddingRow', paddingRow, 0, Number.MAX_SAFE_INTEGER);

  return {
    dModel,
    layout: oneOf(where, 'layout', pick('layout'), LAYOUTS),
    exponent: oneOf(where, 'exponent', pick('exponent'), EXPONENTS),
    order: oneOf(where, 'order', pick('order'), ORDERS),
    angle: oneOf(where, 'angle', pick('angle'), ANGLES),
    base,
    frequencyScale,
    start: finite(where, 'start', pick('start'), true),
    paddingRow: paddingRow === null || paddingRow === undefined ? -1 : paddingRow,
    scale: finite(where, 'scale', pick('scale'), true),
    oddColumn: oneOf(where, 'oddColumn', pick('oddColumn'), ODD_COLUMNS),
  };
}

/** For functions with one output type: dtype, if given, must name it. */
export function fixedDtype(where, opts, dtype) {
  if (opts?.dtype !== undefined && opts.dtype !== dtype)
    fail(RangeError, where, `dtype must be '${dtype}': ${where} returns ${dtype} values`, opts.dtype);
}

export function dtypeOf(where, opts) {
  const dtype = opts?.dtype === undefined ? 'float32' : opts.dtype;
  oneOf(where, 'dtype', dtype, DTYPES);
  return dtype === 'float64' ? Float64Array : Float32Array;
}

export function lengthOf(where, opts) {
  if (opts?.length === undefined) fail(TypeError, where, 'length is required: an integer >= 1', undefined);
  return integer(where, 'length', opts.length, 1, MAX_BYTES);
}

/** Throws unless count elements of ArrayType fit in MAX_BYTES. */
export function checkSize(where, what, count, ArrayType, advice = 'reduce length or dModel') {
  const bytes = count * ArrayType.BYTES_PER_ELEMENT;
  if (bytes > MAX_BYTES)
    throw new RangeError(
      `posenc.${where}: ${what} needs ${bytes} bytes, more than ${MAX_BYTES} (what wasm32 can hold); ${advice}`,
    );
}

// Work limits keep one call to seconds, not hours: O(maxOffset × dModel) for the
// closed forms, and real row products where angle is 'ratio-power'.
export const MAX_SINUSOID_WORK = 2 ** 33;
export const MAX_PRODUCT_WORK = 2 ** 30;

/** Throws unless `work` is within `limit`; `what` spells out the product. */
export function checkWork(where, what, work, limit, advice) {
  if (work > limit)
    throw new RangeError(
      `posenc.${where}: ${what} = ${work} exceeds ${limit}, the most work one call may do; ${advice}`,
    );
}

/** The caller's buffer when given (it must fit exactly), else a new one. */
export function outputArray(where, opts, ArrayType, count, inPlace = false) {
  const out = opts?.out;
  if (out === undefined) return new ArrayType(count);
  if (!(out instanceof ArrayType))
    fail(
      TypeError,
      where,
      `out must be a ${ArrayType.name}${ArrayType === Float64Array ? ' (dtype float64)' : ''}${inPlace ? ' or a WasmArray from pe.allocate()' : ''}`,
      Object.prototype.toString.call(out),
    );
  if (out.length !== count) fail(RangeError, where, `out must have length ${count}`, out.length);
  return out;
}
