// Validates and normalises user options before anything reaches wasm, so bad
// input throws a TypeError/RangeError naming the parameter and the module is
// never left half-way through a call.
import {
  ANGLES,
  DTYPES,
  EXPONENTS,
  LAYOUTS,
  ODD_COLUMNS,
  ORDERS,
  PRECISION_DTYPES,
  PRECISION_OPTIONS,
  PRESETS,
  PRESET_NAMES,
} from './conventions.js';
import { LIMITS } from './limits.js';

export const MAX_D_MODEL = LIMITS.maxDModel;
export const MAX_BYTES = LIMITS.maxBytes;

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
  ...PRECISION_OPTIONS,
];

// What each function reads besides them. An option of another function (from
// on table) is refused like a misspelt one: ignoring it would hide the mistake
// (table's rows start at `start`, not at `from`). Only `length` is taken by
// all, and ignored where there is no length, so that one options object serves
// table and the functions of its rows (row, offsetDots, frequencies) as long
// as its dtype, if any, suits each (frequencies and offsetDots are float64).
const OPTIONS = {
  table: ['length', 'dtype', 'out', 'positions'],
  row: ['length', 'dtype', 'out'],
  frequencies: ['length', 'dtype', 'out'],
  offsetDots: ['length', 'maxOffset', 'minOffset', 'from', 'dtype', 'out'],
  similarity: ['length', 'dtype', 'out'],
  // The options of the pe.table call it rebuilds (out, if there, is not read).
  codeSnippet: ['length', 'dtype', 'out', 'positions'],
};
const KNOWN = Object.fromEntries(
  Object.entries(OPTIONS).map(([where, extra]) => [where, new Set([...ENCODING_OPTIONS, ...extra])]),
);

/**
 * A value as text for a message. Never throws: a value with no text
 * (Object.create(null), a throwing toString, a revoked Proxy) is named by its
 * kind, so that the message says what was wrong instead of failing itself.
 */
export function describe(v) {
  try {
    if (typeof v === 'string') return JSON.stringify(v.length > 80 ? `${v.slice(0, 77)}...` : v);
    if (typeof v === 'bigint') return `${v}n`;
    if (Array.isArray(v)) return `an array of length ${v.length}`;
    if (typeof v === 'function') return 'a function';
    if (v !== null && typeof v === 'object') return Object.prototype.toString.call(v);
    return String(v);
  } catch {
    return `a value of type ${typeof v}`;
  }
}

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

export const MAX_MAGNITUDE = LIMITS.maxMagnitude;

/** A finite number; with `bounded`, also of magnitude at most 2^53. */
export function finite(where, name, value, bounded = false) {
  number(where, name, value, aFiniteNumber);
  if (!Number.isFinite(value)) fail(RangeError, where, `${name} must be a finite number`, value);
  if (bounded && !(Math.abs(value) <= MAX_MAGNITUDE))
    fail(RangeError, where, `${name} must be a finite number of magnitude at most 2^53`, value);
  return value;
}

export function oneOf(where, name, value, allowed) {
  const index = allowed.indexOf(value);
  if (index >= 0) return index;
  const accepted = allowed.map((a) => `'${a}'`).join(', ');
  fail(typeof value === 'string' ? RangeError : TypeError, where, `${name} must be one of ${accepted}`, value);
}

/** Throws unless opts is an options object with no key outside `known`. */
export function checkObjectKeys(where, opts, known) {
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts))
    fail(TypeError, where, 'options must be an object', opts);
  for (const key of Object.keys(opts))
    if (!known.includes(key))
      fail(TypeError, where, `unknown option '${key}'; ${where}'s options: ${known.join(', ')}`, opts[key]);
  return opts;
}

function checkObject(where, opts) {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts))
    fail(TypeError, where, 'options must be an object', opts);
  return checkKnownKeys(where, opts, KNOWN);
}

/**
 * Refuses a key of opts that is not one of known[where] (function -> Set of
 * its options), naming the functions whose option it is: ignoring it would hide
 * the mistake.
 */
export function checkKnownKeys(where, opts, known) {
  for (const key of Object.keys(opts)) {
    if (known[where].has(key)) continue;
    const owners = Object.keys(known).filter((name) => name !== 'codeSnippet' && known[name].has(key));
    const hint = owners.length
      ? `'${key}' is an option of ${owners.join(', ')}, not of ${where}`
      : `unknown option '${key}'`;
    fail(TypeError, where, `${hint}; ${where}'s options: ${[...known[where]].join(', ')}`, opts[key]);
  }
  return opts;
}

// What encodingParams() reads of an options object: its result depends on
// these values and on the object's own keys (unknown ones are refused), and
// on nothing else.
const READ_OPTIONS = [...ENCODING_OPTIONS, 'dtype'];

// Option sets that validated lately, per function, most recent first: a call
// with the same own keys and the same values (Object.is: -0 is not 0) gets the
// same parameters without validating again (0.2-0.4 us of a call). Keyed by
// content, never by the object, so an object changed between calls is seen;
// only primitives are kept (a valid option is one), at most RECENT per function.
const RECENT = 4;
const recentByFunction = new Map();

function recentParams(where, opts, keys) {
  const recent = recentByFunction.get(where);
  if (recent === undefined) return undefined;
  for (let r = 0; r < recent.length; r++) {
    const entry = recent[r];
    if (!sameList(keys, entry.keys)) continue;
    let same = true;
    for (let i = 0; i < READ_OPTIONS.length && same; i++) same = Object.is(opts[READ_OPTIONS[i]], entry.values[i]);
    if (!same) continue;
    if (r > 0) recent.unshift(...recent.splice(r, 1));
    return entry.params;
  }
  return undefined;
}

function sameList(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

function remember(where, keys, values, params) {
  // Only primitives (every valid option is one): nothing of the caller's is kept alive.
  if (values.some((v) => v !== null && (typeof v === 'object' || typeof v === 'function'))) return;
  if (!recentByFunction.has(where)) recentByFunction.set(where, []);
  const recent = recentByFunction.get(where);
  recent.unshift({ keys, values, params });
  if (recent.length > RECENT) recent.pop();
}

/**
 * Resolves the convention: preset first, then explicit knobs.
 * Returns the numeric parameters the wasm bindings take (frozen: the same
 * object serves repeated calls with the same options).
 */
export function encodingParams(where, rawOpts) {
  if (rawOpts === null || typeof rawOpts !== 'object' || Array.isArray(rawOpts))
    return validateEncoding(where, rawOpts);
  let keys, values;
  try {
    keys = Object.keys(rawOpts);
    const known = recentParams(where, rawOpts, keys);
    if (known !== undefined) return known;
    values = READ_OPTIONS.map((key) => rawOpts[key]);
  } catch {
    // A getter or Proxy trap that throws: validation reports it as before.
    keys = undefined;
  }
  const params = validateEncoding(where, rawOpts);
  // Kept only if a second reading agrees with the first (a getter may answer
  // differently each time: such options are validated at every call).
  if (
    keys !== undefined &&
    sameList(keys, Object.keys(rawOpts)) &&
    sameList(
      values,
      READ_OPTIONS.map((key) => rawOpts[key]),
    )
  )
    remember(where, keys, values, params);
  return params;
}

function validateEncoding(where, rawOpts) {
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

  return Object.freeze({
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
    ...precisionParams(where, opts),
  });
}

/**
 * The rounding steps (exponentDtype, frequencyDtype, positionDtype,
 * angleDtype): each a PRECISION_DTYPES index, 'float64' (0, exact) when absent.
 */
export function precisionParams(where, opts) {
  const params = {};
  for (const name of PRECISION_OPTIONS)
    params[name] = opts?.[name] === undefined ? 0 : oneOf(where, name, opts[name], PRECISION_DTYPES);
  return params;
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

// `what` of checkSize and checkWork: text, or a function that gives it, so
// that a call within the limits builds no message.
export const textOf = (what) => (typeof what === 'function' ? what() : what);
