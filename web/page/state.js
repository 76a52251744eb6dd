// The page state and its URL form. Every value read from the URL is parsed
// and range-checked here; anything invalid falls back to the default, so no
// URL text ever reaches the DOM or the core as-is.
import { EXPONENTS, LAYOUTS, PRESETS, PRESET_NAMES } from '../lib/index.js';

export const LIMITS = {
  dModel: [2, 1024],
  length: [8, 2048],
  base: [2, 1e8],
};

export const DEFAULTS = Object.freeze({
  dModel: 128,
  length: 256,
  base: 10000,
  preset: 'vaswani',
  // null: whatever the preset says.
  layout: null,
  exponent: null,
  position: 10,
  offset: 8,
  dimension: 6,
  versus: 'question',
});

// State key -> URL parameter.
const PARAMS = {
  dModel: 'dModel',
  length: 'length',
  base: 'base',
  preset: 'preset',
  layout: 'layout',
  exponent: 'exponent',
  position: 'p',
  offset: 'k',
  dimension: 'j',
  versus: 'compare',
};

/** Largest position the slider offers: twice the table, to show extrapolation. */
export const maxPosition = (state) => 2 * state.length - 1;
export const maxOffset = (state) => state.length - 1;
export const maxDimension = (state) => state.dModel - 1;

function parseInteger(text, low, high) {
  if (text === null || !/^\d{1,7}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= low && value <= high ? value : undefined;
}

function parseNumber(text, low, high) {
  if (text === null || !/^\d+(\.\d+)?(e\d+)?$/i.test(text)) return undefined;
  const value = Number(text);
  return value >= low && value <= high ? value : undefined;
}

const pick = (text, allowed) => (allowed.includes(text) ? text : undefined);

/** Reads the state from a query string, default for every invalid value. */
export function fromQuery(search) {
  const query = new URLSearchParams(search);
  const get = (key) => query.get(PARAMS[key]);
  const state = { ...DEFAULTS };
  state.dModel = parseInteger(get('dModel'), ...LIMITS.dModel) ?? DEFAULTS.dModel;
  state.length = parseInteger(get('length'), ...LIMITS.length) ?? DEFAULTS.length;
  state.base = parseNumber(get('base'), ...LIMITS.base) ?? DEFAULTS.base;
  state.preset = pick(get('preset'), PRESET_NAMES) ?? DEFAULTS.preset;
  // As the controls do: a layout or exponent equal to the preset's is no override (and leaves the URL).
  const override = (key, allowed) => {
    const value = pick(get(key), allowed) ?? null;
    return value === PRESETS[state.preset][key] ? null : value;
  };
  state.layout = override('layout', LAYOUTS);
  state.exponent = override('exponent', EXPONENTS);
  state.versus = pick(get('versus'), PRESET_NAMES) ?? DEFAULTS.versus;
  // These depend on dModel and length: checked after those are known.
  state.position =
    parseInteger(get('position'), 0, maxPosition(state)) ?? Math.min(DEFAULTS.position, maxPosition(state));
  state.offset = parseInteger(get('offset'), 0, maxOffset(state)) ?? Math.min(DEFAULTS.offset, maxOffset(state));
  state.dimension =
    parseInteger(get('dimension'), 0, maxDimension(state)) ?? Math.min(DEFAULTS.dimension, maxDimension(state));
  return state;
}

/** The query string for a state: only values that differ from the defaults. */
export function toQuery(state) {
  const query = new URLSearchParams();
  for (const [key, param] of Object.entries(PARAMS)) {
    if (state[key] !== DEFAULTS[key] && state[key] !== null) query.set(param, String(state[key]));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** Keeps the selections inside what dModel and length allow. */
export function clampSelections(state) {
  state.position = Math.min(state.position, maxPosition(state));
  state.offset = Math.min(state.offset, maxOffset(state));
  state.dimension = Math.min(state.dimension, maxDimension(state));
  return state;
}
