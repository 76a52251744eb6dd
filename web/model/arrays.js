// Owns "which arrays a plot needs": the big arrays the core computes in one
// call each (the table, the compared table, the similarity matrix), the knobs
// each is computed from, and the options of that call. The page asks its
// worker for them, the elements compute them on the main thread, and the
// embed snippets list the knobs they stand for. A section names an array in
// its deps (sections.js).
import { PRESETS } from '../lib/index.js';
import { ENCODING_KEYS, encoding } from './convention.js';

const ENCODING = [...ENCODING_KEYS, 'length'];

/**
 * Per array (the slot a section names in its deps): the core's function
 * (kind), the knobs it is computed from, and options(state, extras) for that call.
 */
export const ARRAYS = Object.freeze({
  table: {
    kind: 'table',
    keys: ENCODING,
    options: (state, extras) => ({ ...encoding(state), ...extras, length: state.length }),
  },
  // The compared convention covers the same positions at the same scale, so that their difference is the conventions'.
  versus: {
    kind: 'table',
    keys: ['dModel', 'length', 'base', 'versus'],
    options: ({ versus, dModel, base, length }, extras) => ({
      preset: versus,
      dModel,
      base,
      length,
      ...shared(extras),
    }),
  },
  similarity: {
    kind: 'similarity',
    keys: ENCODING,
    options: (state, extras) => ({ ...encoding(state), ...extras, length: state.length }),
  },
});

const shared = (extras) =>
  Object.fromEntries(['start', 'scale'].filter((key) => key in extras).map((key) => [key, extras[key]]));

/** The knobs a section depends on: its deps, with each array standing for the knobs it is computed from. */
export const knobsOf = (deps) => new Set(deps.flatMap((dep) => ARRAYS[dep]?.keys ?? [dep]));

/**
 * What each array slot should hold for `state` (and the extra knobs of an
 * element): { slot: [kind, options] }, for the slots `deps` names (all by
 * default). Throws a RangeError for a pair of conventions that cannot be compared.
 */
export function wantedArrays(state, extras = {}, deps = Object.keys(ARRAYS)) {
  if (deps.includes('versus') && PRESETS[state.versus].angle === 'ratio-power' && extras.start < 0)
    throw new RangeError(
      `start must be >= 0 to compare with ${state.versus}, whose angle (pos / base)^e is no real number at negative positions`,
    );
  const wanted = {};
  for (const [slot, { kind, options }] of Object.entries(ARRAYS))
    if (deps.includes(slot)) wanted[slot] = [kind, options(state, extras)];
  return wanted;
}
