// Owns the parameter table: one row per knob of the plots, with its state key,
// its URL parameter (the explainer page and embed.html use the same names),
// its element attribute, its parser (strict text -> value; the error text the
// elements show), its range (possibly a function of other knobs), its default
// and where it is shown. Everything that reads or writes knobs (page URL,
// element attributes, embed.html parameters, embed snippets) is derived from
// PARAMS here or in state.js. Adding a knob: one row here plus its strings.
// Nothing here touches the DOM: values only come out as numbers, enum names or
// error messages (shown with textContent).
import { ANGLES, EXPONENTS, LAYOUTS, ODD_COLUMNS, ORDERS, PRESETS, PRESET_NAMES } from '../lib/index.js';
import { PRECISION_PATHS } from './precision-paths.js';
import { ROPE_LAYOUTS } from '../lib/conventions.js';
import { LAB_TYPES, ROPE_PRESETS, ROPE_PRESET_NAMES } from './rope-presets.js';
import { AXIS_ORDERS, TIMESTEP_PRESETS, TIMESTEP_PRESET_NAMES } from '../lib/elsewhere-options.js';

export const THEMES = Object.freeze(['auto', 'light', 'dark']);

/**
 * Where a knob is shown:
 * 'control': a control of the explainer page (part of the page state and its URL);
 * 'knob': a knob of the encoding the page has no control for (elements and embed only;
 *   absent means the preset's value);
 * 'view': how an element draws (elements and embed only).
 */
export const SHOWN = Object.freeze(['control', 'knob', 'view']);

// Longest text quoted back in an error message.
const QUOTE_LIMIT = 40;
const INTEGER = /^\d{1,9}$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d{1,3})?$/i;

/**
 * What a value should have been, in English: { kind: 'integer' | 'evenInteger' | 'number' |
 * 'magnitude' | 'rowOrNone', low, high } or { kind: 'oneOf', allowed }.
 * The elements word it in their language (web/i18n, 'param.expected').
 */
export function expectedText({ kind, low, high, allowed }) {
  if (kind === 'oneOf') return `one of ${allowed.join(', ')}`;
  if (kind === 'magnitude') return `a number from ${low} to ${high} or from -${high} to -${low}`;
  if (kind === 'rowOrNone') return `none or an integer from ${low} to ${high}`;
  if (kind === 'evenInteger') return `an even integer from ${low} to ${high}`;
  return `${kind === 'integer' ? 'an integer' : 'a number'} from ${low} to ${high}`;
}

/**
 * A value that does not parse: `message` says in English what was expected
 * and quotes what was given; `expected` (see expectedText) and `given` (the
 * quote) are the facts a translation is worded from.
 */
export class ParamError extends Error {
  constructor(expected, given) {
    super(`expected ${expectedText(expected)}, got ${given}`);
    this.expected = expected;
    this.given = given;
  }
}

function quote(text) {
  const short = text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
  return `“${short}”`;
}

function fail(expected, text) {
  throw new ParamError(expected, quote(text));
}

// Values are taken exactly as written: no surrounding spaces (CSS matches
// theme="dark" exactly, and URL parameters are as strict). Each parser gets
// the text and the row's range [low, high], resolved for the knobs read so far.
const integer = (text, [low, high]) => {
  const value = INTEGER.test(text) ? Number(text) : NaN;
  if (!(value >= low && value <= high)) fail({ kind: 'integer', low, high }, text);
  return value;
};

/** An even integer: RoPE turns pairs of dimensions. */
const evenInteger = (text, [low, high]) => {
  const value = INTEGER.test(text) ? Number(text) : NaN;
  if (!(value >= low && value <= high && value % 2 === 0)) fail({ kind: 'evenInteger', low, high }, text);
  return value;
};

const number = (text, [low, high]) => {
  const value = NUMBER.test(text) ? Number(text) : NaN;
  if (!(value >= low && value <= high)) fail({ kind: 'number', low, high }, text);
  return value;
};

/** A number whose magnitude is in [low, high], of either sign. */
const magnitude = (text, [low, high]) => {
  const value = NUMBER.test(text) ? Number(text) : NaN;
  if (!(value >= -high && value <= high && Math.abs(value) >= low)) fail({ kind: 'magnitude', low, high }, text);
  return value;
};

const oneOf = (allowed) => (text) => {
  if (!allowed.includes(text)) fail({ kind: 'oneOf', allowed }, text);
  return text;
};

/** A layout or exponent equal to the preset's is no override (null: the preset's). */
const presetOverride = (key, allowed) => (text, range, state) => {
  const value = oneOf(allowed)(text);
  return value === PRESETS[state.preset][key] ? null : value;
};

/** "none" (no padding row) or a row of the table. */
const rowOrNone = (text, [low, high]) => {
  if (text === 'none') return null;
  const value = INTEGER.test(text) ? Number(text) : NaN;
  if (!(value >= low && value <= high)) fail({ kind: 'rowOrNone', low, high }, text);
  return value;
};

/** A RoPE lab knob equal to its RoPE preset's value is no override (null: the preset's). */
const ropePresetOverride = (key, parser) => (text, range, state) => {
  const value = parser(text, range, state);
  return value === ROPE_PRESETS[state.ropePreset][key] ? null : value;
};

/** A timestep knob equal to its timestep preset's value is no override (null: the preset's). */
const timestepOverride = (key, values) => (text, range, state) => {
  const value = values[oneOf(Object.keys(values))(text)];
  return value === TIMESTEP_PRESETS[state.tsPreset][key] ? null : value;
};
/** The timestep ranges of the chapter "elsewhere": 0 … 1000 (integer steps) or 0 … 1. */
export const TIMESTEP_RANGES = Object.freeze(['1000', '1']);
/** The 2-D grid's width (dModel rounded down to a multiple of 4, at least 4: each axis gets pairs). */
export const gridDim = (state) => Math.max(4, 4 * Math.floor(state.dModel / 4));
const lastGridColumn = (state) => gridDim(state) - 1;
const lastPatch = (state) => state.gridHeight * state.gridWidth - 1;

/** "auto" (the type's own formula) or a number in range. */
const autoOrNumber = (text, range) => (text === 'auto' ? null : number(text, range));

/** Largest position the slider offers: twice the table, to show extrapolation. */
export const maxPosition = (state) => 2 * state.length - 1;
export const maxOffset = (state) => state.length - 1;
export const maxDimension = (state) => state.dModel - 1;
/** The table's last row (a padding row must be one of its rows). */
const lastRow = (state) => state.length - 1;

/**
 * The knobs, in the order they are read (a range may depend on a knob above
 * it) and written to URLs. Row: key (state or option name), param (URL),
 * attribute, shown (see SHOWN), default (null: the preset's; undefined:
 * absent, i.e. the preset's), range [low, high] (numbers, or functions of the
 * knobs above), parse(text, range, knobsSoFar) -> value or throws ParamError,
 * format(value) -> text (default String).
 */
export const PARAMS = Object.freeze(
  [
    {
      key: 'dModel',
      param: 'dModel',
      attribute: 'd-model',
      shown: 'control',
      default: 128,
      range: [2, 1024],
      parse: integer,
    },
    {
      key: 'length',
      param: 'length',
      attribute: 'length',
      shown: 'control',
      default: 256,
      range: [8, 2048],
      parse: integer,
    },
    { key: 'base', param: 'base', attribute: 'base', shown: 'control', default: 10000, range: [2, 1e8], parse: number },
    {
      key: 'preset',
      param: 'preset',
      attribute: 'preset',
      shown: 'control',
      default: 'vaswani',
      parse: oneOf(PRESET_NAMES),
    },
    {
      key: 'layout',
      param: 'layout',
      attribute: 'layout',
      shown: 'control',
      default: null,
      parse: presetOverride('layout', LAYOUTS),
    },
    {
      key: 'exponent',
      param: 'exponent',
      attribute: 'exponent',
      shown: 'control',
      default: null,
      parse: presetOverride('exponent', EXPONENTS),
    },
    // The selections: a default beyond the range is clamped to it.
    {
      key: 'position',
      param: 'p',
      attribute: 'position',
      shown: 'control',
      default: 10,
      range: [0, maxPosition],
      parse: integer,
    },
    {
      key: 'offset',
      param: 'k',
      attribute: 'offset',
      shown: 'control',
      default: 8,
      range: [0, maxOffset],
      parse: integer,
    },
    {
      key: 'dimension',
      param: 'j',
      attribute: 'dimension',
      shown: 'control',
      default: 6,
      range: [0, maxDimension],
      parse: integer,
    },
    {
      key: 'versus',
      param: 'compare',
      attribute: 'compare',
      shown: 'control',
      default: 'question',
      parse: oneOf(PRESET_NAMES),
    },
    // The dtype path of the precision section: positions, frequencies and angles in this format.
    {
      key: 'precision',
      param: 'precision',
      attribute: 'precision',
      shown: 'control',
      default: 'float16',
      parse: oneOf(PRECISION_PATHS),
    },
    // The RoPE chapter's first sections: the head's dimension, where a pair's two members sit, and
    // the context the base must serve (Su Jianlin's criterion). The lab below has its own head_dim
    // (a model config's), as it has its own rope_theta next to the page's base.
    {
      key: 'ropeDim',
      param: 'ropeDim',
      attribute: 'rope-dim',
      shown: 'control',
      default: 128,
      range: [4, 256],
      parse: evenInteger,
    },
    {
      key: 'ropeLayout',
      param: 'ropeLayout',
      attribute: 'rope-layout',
      shown: 'control',
      default: 'half',
      parse: oneOf(ROPE_LAYOUTS),
    },
    {
      key: 'context',
      param: 'context',
      attribute: 'context',
      shown: 'control',
      default: 4096,
      range: [16, 16384],
      parse: integer,
    },
    // The RoPE context-extension lab (rope-lab-data.js): Hugging Face's rope_parameters names; null: the RoPE preset's.
    {
      key: 'ropePreset',
      param: 'ropePreset',
      attribute: 'rope-preset',
      shown: 'control',
      default: 'llama3.1-8b',
      parse: oneOf(ROPE_PRESET_NAMES),
    },
    {
      key: 'ropeType',
      param: 'ropeType',
      attribute: 'rope-type',
      shown: 'control',
      default: null,
      parse: ropePresetOverride('ropeType', oneOf(LAB_TYPES)),
    },
    {
      key: 'headDim',
      param: 'headDim',
      attribute: 'head-dim',
      shown: 'control',
      default: null,
      range: [4, 512],
      parse: ropePresetOverride('headDim', evenInteger),
    },
    {
      key: 'ropeTheta',
      param: 'ropeTheta',
      attribute: 'rope-theta',
      shown: 'control',
      default: null,
      range: [2, 1e9],
      parse: ropePresetOverride('ropeTheta', number),
    },
    {
      key: 'factor',
      param: 'factor',
      attribute: 'factor',
      shown: 'control',
      default: null,
      range: [1, 1000],
      parse: ropePresetOverride('factor', number),
    },
    {
      key: 'originalMaxPositionEmbeddings',
      param: 'originalMaxPositionEmbeddings',
      attribute: 'original-max-position-embeddings',
      shown: 'control',
      default: null,
      range: [16, 1048576],
      parse: ropePresetOverride('originalMaxPositionEmbeddings', integer),
    },
    {
      key: 'seqLen',
      param: 'seqLen',
      attribute: 'seq-len',
      shown: 'control',
      default: null,
      range: [1, 16777216],
      parse: ropePresetOverride('seqLen', integer),
    },
    {
      key: 'betaFast',
      param: 'betaFast',
      attribute: 'beta-fast',
      shown: 'control',
      default: null,
      range: [0.01, 1000],
      parse: ropePresetOverride('betaFast', number),
    },
    {
      key: 'betaSlow',
      param: 'betaSlow',
      attribute: 'beta-slow',
      shown: 'control',
      default: null,
      range: [0.01, 1000],
      parse: ropePresetOverride('betaSlow', number),
    },
    {
      key: 'mscale',
      param: 'mscale',
      attribute: 'mscale',
      shown: 'control',
      default: null,
      range: [0, 100],
      parse: ropePresetOverride('mscale', number),
    },
    {
      key: 'mscaleAllDim',
      param: 'mscaleAllDim',
      attribute: 'mscale-all-dim',
      shown: 'control',
      default: null,
      range: [0, 100],
      parse: ropePresetOverride('mscaleAllDim', number),
    },
    {
      key: 'attentionFactor',
      param: 'attentionFactor',
      attribute: 'attention-factor',
      shown: 'control',
      default: null,
      range: [0.01, 100],
      parse: autoOrNumber,
      format: (value) => (value === null ? 'auto' : String(value)),
    },
    {
      key: 'lowFreqFactor',
      param: 'lowFreqFactor',
      attribute: 'low-freq-factor',
      shown: 'control',
      default: null,
      range: [0.01, 1000],
      parse: ropePresetOverride('lowFreqFactor', number),
    },
    {
      key: 'highFreqFactor',
      param: 'highFreqFactor',
      attribute: 'high-freq-factor',
      shown: 'control',
      default: null,
      range: [0.01, 1000],
      parse: ropePresetOverride('highFreqFactor', number),
    },
    // The chapter "elsewhere": diffusion timestep embeddings (diffusers' get_timestep_embedding knobs;
    // null: the timestep preset's), a 2-D sin-cos grid, relative tables and streaming chunks.
    {
      key: 'tsPreset',
      param: 'tsPreset',
      attribute: 'ts-preset',
      shown: 'control',
      default: 'diffusers',
      parse: oneOf(TIMESTEP_PRESET_NAMES),
    },
    {
      key: 'flipSinToCos',
      param: 'flipSinToCos',
      attribute: 'flip-sin-to-cos',
      shown: 'control',
      default: null,
      parse: timestepOverride('flipSinToCos', { false: false, true: true }),
    },
    {
      key: 'freqShift',
      param: 'freqShift',
      attribute: 'freq-shift',
      shown: 'control',
      default: null,
      parse: timestepOverride('downscaleFreqShift', { 0: 0, 1: 1 }),
    },
    {
      key: 'maxPeriod',
      param: 'maxPeriod',
      attribute: 'max-period',
      shown: 'control',
      default: 10000,
      range: [2, 1e8],
      parse: number,
    },
    {
      key: 'tsRange',
      param: 'tsRange',
      attribute: 'ts-range',
      shown: 'control',
      default: '1000',
      parse: oneOf(TIMESTEP_RANGES),
    },
    {
      key: 'gridHeight',
      param: 'gridHeight',
      attribute: 'grid-height',
      shown: 'control',
      default: 6,
      range: [1, 32],
      parse: integer,
    },
    {
      key: 'gridWidth',
      param: 'gridWidth',
      attribute: 'grid-width',
      shown: 'control',
      default: 10,
      range: [1, 32],
      parse: integer,
    },
    {
      key: 'axisOrder',
      param: 'axisOrder',
      attribute: 'axis-order',
      shown: 'control',
      default: 'w-h',
      parse: oneOf(AXIS_ORDERS),
    },
    {
      key: 'gridColumn',
      param: 'gridColumn',
      attribute: 'grid-column',
      shown: 'control',
      default: 2,
      range: [0, lastGridColumn],
      parse: integer,
    },
    {
      key: 'gridPatch',
      param: 'gridPatch',
      attribute: 'grid-patch',
      shown: 'control',
      default: 23,
      range: [0, lastPatch],
      parse: integer,
    },
    {
      key: 'relLength',
      param: 'relLength',
      attribute: 'rel-length',
      shown: 'control',
      default: 32,
      range: [2, 128],
      parse: integer,
    },
    {
      key: 'chunkStart',
      param: 'chunkStart',
      attribute: 'chunk-start',
      shown: 'control',
      default: 64,
      range: [0, 1024],
      parse: integer,
    },
    { key: 'order', param: 'order', attribute: 'order', shown: 'knob', parse: oneOf(ORDERS) },
    { key: 'angle', param: 'angle', attribute: 'angle', shown: 'knob', parse: oneOf(ANGLES) },
    { key: 'start', param: 'start', attribute: 'start', shown: 'knob', range: [-1e6, 1e6], parse: number },
    {
      key: 'paddingRow',
      param: 'paddingRow',
      attribute: 'padding-row',
      shown: 'knob',
      range: [0, lastRow],
      parse: rowOrNone,
      format: (value) => (value === null ? 'none' : String(value)),
    },
    // Magnitude: below the lower bound the float32 tables underflow toward
    // zero, and a plot of all-zero values has no range to describe.
    { key: 'scale', param: 'scale', attribute: 'scale', shown: 'knob', range: [1e-6, 1e6], parse: magnitude },
    { key: 'oddColumn', param: 'oddColumn', attribute: 'odd-column', shown: 'knob', parse: oneOf(ODD_COLUMNS) },
    { key: 'theme', param: 'theme', attribute: 'theme', shown: 'view', default: 'auto', parse: oneOf(THEMES) },
    // Height of a plot's drawing in CSS pixels (null: derived from the width).
    {
      key: 'height',
      param: 'height',
      attribute: 'height',
      shown: 'view',
      default: null,
      range: [100, 4000],
      parse: integer,
    },
  ].map(Object.freeze),
);

/** A row's range for the knobs read before it. */
export const rangeOf = (row, state) => row.range?.map((limit) => (typeof limit === 'function' ? limit(state) : limit));

/** Parses a row's text given the knobs read before it; throws ParamError. */
export const parse = (row, text, state) => row.parse(text, rangeOf(row, state), state);

export const PARAM = Object.freeze(Object.fromEntries(PARAMS.map((row) => [row.key, row])));

/** The rows the explainer page has controls for (its state and URL). */
export const CONTROLS = Object.freeze(PARAMS.filter((row) => row.shown === 'control'));

/**
 * Range of the controls with fixed ranges: { dModel: [2, 1024], length: [8, 2048], base: [2, 1e8] }.
 * The page's and elements' slider ranges, a UI choice: they lie within the library's limits
 * (web/lib/limits.js; tests/js/lib/boundary.test.js checks), which are far wider.
 */
export const LIMITS = Object.freeze(
  Object.fromEntries(
    CONTROLS.filter((row) => row.range?.every(Number.isFinite)).map((row) => [row.key, Object.freeze([...row.range])]),
  ),
);

/** The page state's defaults (selections before clamping to the table's size). */
export const DEFAULTS = Object.freeze(Object.fromEntries(CONTROLS.map((row) => [row.key, row.default])));

/** A row's value when it is absent or invalid, given the knobs read before it. */
export const fallback = (row, state) =>
  typeof row.default === 'number' ? Math.min(row.default, rangeOf(row, state)[1]) : row.default;

/** A row's value as text for a URL or an attribute. */
export const format = (row, value) => (row.format ? row.format(value) : String(value));

/** Attribute name -> state key (the page's state, the knobs it has no control for, theme, height). */
export const ATTRIBUTES = Object.freeze(Object.fromEntries(PARAMS.map((row) => [row.attribute, row.key])));

/** State key -> attribute name. */
export const ATTRIBUTE_OF = Object.freeze(Object.fromEntries(PARAMS.map((row) => [row.key, row.attribute])));

/** embed.html's URL parameter -> the element attribute it sets. */
export const EMBED_PARAMS = Object.freeze(Object.fromEntries(PARAMS.map((row) => [row.param, row.attribute])));

/** Attribute -> embed.html's URL parameter (the names its error messages use). */
export const PARAM_OF_ATTRIBUTE = Object.freeze(Object.fromEntries(PARAMS.map((row) => [row.attribute, row.param])));

/** URL parameters the explainer page reads as well. */
export const PAGE_PARAMS = Object.freeze(CONTROLS.map((row) => row.param));

/**
 * The options of each select of the knob forms: their values, and the prefix of their labels'
 * keys in web/i18n (<labels>.<value>; null: the value is its own label). The generator writes them
 * into the chapter documents, so that a select has its width from the first layout; the page
 * labels them in its language (web/page/controls.js).
 */
export const SELECT_OPTIONS = Object.freeze({
  preset: { values: PRESET_NAMES, labels: 'option.preset' },
  versus: { values: PRESET_NAMES, labels: 'option.preset' },
  layout: { values: LAYOUTS, labels: 'option.layout' },
  exponent: { values: EXPONENTS, labels: 'option.exponent' },
  precision: { values: PRECISION_PATHS, labels: null },
  ropeLayout: { values: ROPE_LAYOUTS, labels: 'controls.ropeLayout' },
  tsPreset: { values: TIMESTEP_PRESET_NAMES, labels: null },
  flipSinToCos: { values: ['false', 'true'], labels: 'option.flipSinToCos' },
  freqShift: { values: ['0', '1'], labels: null },
  tsRange: { values: TIMESTEP_RANGES, labels: 'option.tsRange' },
  axisOrder: { values: AXIS_ORDERS, labels: 'option.axisOrder' },
});
