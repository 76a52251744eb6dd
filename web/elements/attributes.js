// The attributes of the <posenc-*> elements: their names (the JS options and
// the page's selections in kebab-case), how each is parsed, and the page
// state they turn into. Nothing here touches the DOM: values only ever come
// out as numbers, enum names or error messages (shown with textContent).
import { ANGLES, EXPONENTS, LAYOUTS, ODD_COLUMNS, ORDERS, PRESETS, PRESET_NAMES } from '../lib/index.js';
import { DEFAULTS, LIMITS, maxDimension, maxOffset, maxPosition } from '../page/state.js';

export const THEMES = Object.freeze(['auto', 'light', 'dark']);

// Longest attribute text quoted back in an error message.
const QUOTE_LIMIT = 40;
// Bounds of the knobs the page has no control for.
const START_LIMIT = 1e6;
// Height of a plot's drawing, when given (CSS pixels).
export const HEIGHT_LIMITS = [100, 4000];
// Magnitude of scale: below the lower bound the float32 tables underflow
// toward zero, and a plot of all-zero values has no range to describe.
const SCALE_LIMITS = [1e-6, 1e6];

/** Attribute name -> state key (the page's state, plus the knobs it has no control for). */
export const ATTRIBUTES = Object.freeze({
  'd-model': 'dModel',
  length: 'length',
  preset: 'preset',
  layout: 'layout',
  exponent: 'exponent',
  order: 'order',
  angle: 'angle',
  base: 'base',
  start: 'start',
  'padding-row': 'paddingRow',
  scale: 'scale',
  'odd-column': 'oddColumn',
  position: 'position',
  offset: 'offset',
  dimension: 'dimension',
  compare: 'versus',
  theme: 'theme',
  height: 'height',
});

/** State key -> attribute name. */
export const ATTRIBUTE_OF = Object.freeze(Object.fromEntries(Object.entries(ATTRIBUTES).map(([a, k]) => [k, a])));

/** Knobs of the encoding that the page does not set (they default to the preset's). */
export const EXTRA_KNOBS = Object.freeze(['order', 'angle', 'start', 'paddingRow', 'scale', 'oddColumn']);

const INTEGER = /^\d{1,9}$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d{1,3})?$/i;

class AttributeError extends Error {}

function quote(text) {
  const short = text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
  return `“${short}”`;
}

function fail(expected, text) {
  throw new AttributeError(`expected ${expected}, got ${quote(text)}`);
}

// Values are taken exactly as written: no surrounding spaces (CSS matches
// theme="dark" exactly, and the page's URL parameters are as strict).
function integer(text, low, high) {
  const value = INTEGER.test(text) ? Number(text) : NaN;
  if (!(value >= low && value <= high)) fail(`an integer from ${low} to ${high}`, text);
  return value;
}

function number(text, low, high, what = `a number from ${low} to ${high}`) {
  const value = NUMBER.test(text) ? Number(text) : NaN;
  if (!(value >= low && value <= high)) fail(what, text);
  return value;
}

function oneOf(text, allowed) {
  if (!allowed.includes(text)) fail(`one of ${allowed.join(', ')}`, text);
  return text;
}

/**
 * Reads the attributes (get(name) -> string | null) into the page state, the
 * extra knobs, the theme and the plot height (null: derived from the width).
 * Returns { state, extras, theme, height, errors }, where
 * errors is [{ attribute, message }]; an invalid attribute falls back to its
 * default so that the others are still checked against sensible ranges.
 */
export function readAttributes(get) {
  const errors = [];
  const read = (attribute, parse, fallback) => {
    const text = get(attribute);
    if (text === null || text === undefined) return fallback;
    try {
      return parse(String(text));
    } catch (error) {
      if (!(error instanceof AttributeError)) throw error;
      errors.push({ attribute, message: error.message });
      return fallback;
    }
  };
  const state = { ...DEFAULTS };
  state.dModel = read('d-model', (t) => integer(t, ...LIMITS.dModel), DEFAULTS.dModel);
  state.length = read('length', (t) => integer(t, ...LIMITS.length), DEFAULTS.length);
  state.base = read('base', (t) => number(t, ...LIMITS.base), DEFAULTS.base);
  state.preset = read('preset', (t) => oneOf(t, PRESET_NAMES), DEFAULTS.preset);
  state.versus = read('compare', (t) => oneOf(t, PRESET_NAMES), DEFAULTS.versus);
  // As on the page, a layout or exponent equal to the preset's is no override.
  const override = (key, allowed) => {
    const value = read(key, (t) => oneOf(t, allowed), null);
    return value === PRESETS[state.preset][key] ? null : value;
  };
  state.layout = override('layout', LAYOUTS);
  state.exponent = override('exponent', EXPONENTS);
  // Selections: ranges follow dModel and length; a missing one is the page's default, clamped.
  const selection = (attribute, key, max) => read(attribute, (t) => integer(t, 0, max), Math.min(DEFAULTS[key], max));
  state.position = selection('position', 'position', maxPosition(state));
  state.offset = selection('offset', 'offset', maxOffset(state));
  state.dimension = selection('dimension', 'dimension', maxDimension(state));

  const extras = {};
  const extra = (key, parse) => {
    const value = read(ATTRIBUTE_OF[key], parse, undefined);
    if (value !== undefined) extras[key] = value;
  };
  extra('order', (t) => oneOf(t, ORDERS));
  extra('angle', (t) => oneOf(t, ANGLES));
  extra('start', (t) => number(t, -START_LIMIT, START_LIMIT));
  extra('paddingRow', (t) => {
    if (t === 'none') return null;
    const value = INTEGER.test(t) ? Number(t) : NaN;
    if (!(value < state.length)) fail(`none or an integer from 0 to ${state.length - 1}`, t);
    return value;
  });
  extra('scale', (t) => {
    const [low, high] = SCALE_LIMITS;
    const expected = `a number from ${low} to ${high} or from -${high} to -${low}`;
    const value = number(t, -high, high, expected);
    if (!(Math.abs(value) >= low)) fail(expected, t);
    return value;
  });
  extra('oddColumn', (t) => oneOf(t, ODD_COLUMNS));
  const theme = read('theme', (t) => oneOf(t, THEMES), 'auto');
  const height = read('height', (t) => integer(t, ...HEIGHT_LIMITS), null);
  return { state, extras, theme, height, errors };
}
