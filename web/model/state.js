// Owns reading and writing knobs as text, from the parameter table
// (params.js): the explainer page's state and its URL (anything invalid falls
// back to the default, silently, so that no URL text ever reaches the DOM or
// the core as-is), and the elements' attributes (an invalid one is reported,
// named by its attribute).
import { CONTROLS, DEFAULTS, PARAMS, ParamError, fallback, format, parse, rangeOf } from './params.js';

export { DEFAULTS, LIMITS, maxDimension, maxOffset, maxPosition } from './params.js';

/**
 * Reads `rows` in order, get(row) -> text | null | undefined (absent). Returns
 * { values, errors: [{ row, message }] }: a missing or invalid value is the
 * row's fallback, so that the others are still checked against sensible ranges.
 */
export function readParams(rows, get) {
  const values = {};
  const errors = [];
  for (const row of rows) {
    const text = get(row);
    values[row.key] = fallback(row, values);
    if (text === null || text === undefined) continue;
    try {
      values[row.key] = parse(row, String(text), values);
    } catch (error) {
      if (!(error instanceof ParamError)) throw error;
      errors.push({ row, message: error.message, expected: error.expected, given: error.given });
    }
  }
  return { values, errors };
}

/** The URL parameters of the `rows` of `values` that differ from their defaults (none is written as absent). */
export function writeParams(rows, values) {
  const query = new URLSearchParams();
  for (const row of rows) {
    const value = values[row.key];
    if (value !== row.default && value !== undefined && !(value === null && row.default !== undefined))
      query.set(row.param, format(row, value));
  }
  return query;
}

/** Reads the page state from a query string, default for every invalid value. */
export function fromQuery(search) {
  const query = new URLSearchParams(search);
  return readParams(CONTROLS, (row) => query.get(row.param)).values;
}

/** The query string for a page state: only values that differ from the defaults. */
export function toQuery(state) {
  const text = writeParams(CONTROLS, state).toString();
  return text ? `?${text}` : '';
}

/** Keeps the selections inside what dModel and length allow. */
export function clampSelections(state) {
  for (const row of CONTROLS)
    if (typeof row.range?.[1] === 'function') state[row.key] = Math.min(state[row.key], rangeOf(row, state)[1]);
  return state;
}

/** A fresh page state with every default (selections clamped). */
export const defaultState = () => clampSelections({ ...DEFAULTS });

/**
 * Reads the attributes (get(name) -> string | null) into the page state, the
 * extra knobs (only those given), the theme and the plot height (null:
 * derived from the width). Returns { state, extras, theme, height, errors },
 * where errors is [{ attribute, message }]; an invalid attribute falls back to
 * its default so that the others are still checked against sensible ranges.
 */
export function readAttributes(get) {
  const { values, errors } = readParams(PARAMS, (row) => get(row.attribute));
  const state = {};
  const extras = {};
  for (const row of PARAMS) {
    if (row.shown === 'control') state[row.key] = values[row.key];
    else if (row.shown === 'knob' && values[row.key] !== undefined) extras[row.key] = values[row.key];
  }
  return {
    state,
    extras,
    theme: values.theme,
    height: values.height,
    // message: English; expected and given: its facts, for a translation.
    errors: errors.map(({ row, message, expected, given }) => ({ attribute: row.attribute, message, expected, given })),
  };
}
