// The numbers of the precision section (docs/precision.md): what a framework
// that keeps positions, frequencies and angles in float16, bfloat16 or float32
// computes, against the exact table. Every value comes from the core (the
// precision knobs of table, row, ropeCache and ropeFrequencies); this file only
// subtracts, compares and finds maxima. No text: sections in
// precision-sections.js, strings in i18n/precision-plots.*.js.
import { PRECISION_PATHS } from './precision-paths.js';

/** Options that put every step of a call through `format`. */
export const through = (format) => ({ positionDtype: format, frequencyDtype: format, angleDtype: format });

/** The largest |a - b| over two arrays of equal length, and its index (NaN counts as largest). */
function largestDifference(a, b) {
  let worst = 0;
  let at = 0;
  for (let i = 0; i < a.length; i++) {
    const difference = Math.abs(a[i] - b[i]);
    if (!(difference <= worst)) {
      if (Number.isNaN(difference)) return { value: NaN, at: i };
      worst = difference;
      at = i;
    }
  }
  return { value: worst, at };
}

/**
 * The first integer position whose rounding in `format` meets its
 * predecessor's (the first n with n + 1 rounding onto n), found with the core:
 * rows of dModel 2 are sin and cos of the rounded position itself.
 */
export function firstCollision(pe, format) {
  const angleOf = (position) => Array.from(pe.row(position, { dModel: 2, dtype: 'float64', positionDtype: format }));
  for (let k = 1; k <= 52; k++) {
    const n = 2 ** k;
    const [a, b] = [angleOf(n), angleOf(n + 1)];
    if (a[0] === b[0] && a[1] === b[1]) return n;
  }
  return null;
}

/** The first integer position whose row in `format` is NaN (position rounded to Infinity), up to 2^20. */
export function firstOverflow(pe, format) {
  const overflows = (position) => Number.isNaN(pe.row(position, { dModel: 2, positionDtype: format })[0]);
  if (!overflows(2 ** 20)) return null;
  let low = 0;
  let high = 2 ** 20;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (overflows(middle)) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * The section's numbers for the table `conv` of `length` rows: the error map
 * through `format` (rounded - exact), and per format its first collision, its
 * first overflow (float16) and its largest error over the table. float32
 * tables: their own rounding (6e-8) is far below every error shown but
 * float32's, whose largest is still 100 times larger at these lengths.
 */
export function precisionNumbers(pe, conv, length, format) {
  const exact = pe.table({ ...conv, length, dtype: 'float64' });
  const difference = (path) => {
    const rounded = pe.table({ ...conv, ...through(path), length, dtype: 'float64' });
    const values = new Float32Array(exact.length);
    for (let i = 0; i < values.length; i++) values[i] = rounded[i] - exact[i];
    const { value, at } = largestDifference(rounded, exact);
    return { values, largest: { value, row: Math.floor(at / conv.dModel), column: at % conv.dModel } };
  };
  let map = null;
  const formats = PRECISION_PATHS.map((path) => {
    const { values, largest } = difference(path);
    if (path === format) map = values;
    return { format: path, collision: firstCollision(pe, path), overflow: firstOverflow(pe, path), largest };
  });
  return { format, map, formats };
}

// A map of all zeros (no error at all) still needs a colour scale.
const SMALLEST_DOMAIN = 1e-12;

/** What the map is shown in units of: the largest error of `format` (2 for NaN, the overflow). */
function boundOf(formats, format) {
  const { largest } = formats.find((facts) => facts.format === format);
  return Math.max(SMALLEST_DOMAIN, Number.isFinite(largest.value) ? largest.value : 2);
}

// One scaled copy per map (the model memoises the map: the same object while it does).
const scaledMaps = new WeakMap();
function scaledBy(map, bound) {
  if (!scaledMaps.has(map)) {
    // A plain loop: a typed array's map() calls a callback per value, far slower over a million.
    const scaled = new map.constructor(map.length);
    for (let i = 0; i < map.length; i++) scaled[i] = map[i] / bound;
    scaledMaps.set(map, scaled);
  }
  return scaledMaps.get(map);
}

/**
 * What the worker computes for the section (section-data.js spreads this into COMPUTE). The map
 * comes in units of its largest error (bound), shaped: the worker paints a section's `map` of
 * { values, rows, columns } for its heatmap (compute-worker.js), in that heatmap's domain [-1, 1].
 */
export const PRECISION_COMPUTE = {
  precision: ({ model, state, conv }) => {
    const { format, map, formats } = model.remember('precision', precisionNumbers, conv, state.length, state.precision);
    const bound = boundOf(formats, format);
    return {
      format,
      formats,
      bound,
      map: { values: scaledBy(map, bound), rows: state.length, columns: state.dModel },
      replays: model.remember('precisionReplays', replays),
    };
  },
};

// The reported cases, with the settings of their reports.
const NEOX = { headDim: 32, length: 2048, position: 1857, feature: 1 };
const DIFFUSERS = { headDim: 128, start: 65536, length: 512 };

/** Distinct rows of a [rows x width] array. */
function distinctRows(values, width) {
  const seen = new Set();
  for (let r = 0; r < values.length / width; r++) seen.add(values.subarray(r * width, (r + 1) * width).join());
  return seen.size;
}

/**
 * The cases of the reports, replayed by the core: gpt-neox #1003 (float16
 * cache), bfloat16 positions 256 and 257, the diffusers autocast collapse
 * above 65536, and each one's fix (float32 steps).
 */
export function replays(pe) {
  // gpt-neox #1003: inv_freq, positions and their product in float16.
  const cache = (extra, opts = NEOX) =>
    pe.ropeCache({ headDim: opts.headDim, length: opts.length, start: opts.start ?? 0, dtype: 'float64', ...extra });
  const exact = cache({});
  const half = cache(through('float16'));
  const single = cache(through('float32'));
  const width = NEOX.headDim;
  const cell = NEOX.position * width + NEOX.feature;
  const w = pe.ropeFrequencies({ headDim: width }).invFreq[NEOX.feature];
  const wHalf = pe.ropeFrequencies({ headDim: width, frequencyDtype: 'float16' }).invFreq[NEOX.feature];
  const exactAngle = NEOX.position * w;
  // The angle the float16 cache holds, read back from its sin and cos (the turn nearest the exact angle).
  const turn = Math.atan2(half.sin[cell], half.cos[cell]);
  const halfAngle = turn + 2 * Math.PI * Math.round((exactAngle - turn) / (2 * Math.PI));
  const largestHalf = largestDifference(half.cos, exact.cos);
  const neox = {
    ...NEOX,
    frequency: w,
    halfFrequency: wHalf,
    exactAngle,
    halfAngle,
    exactCos: exact.cos[cell],
    halfCos: half.cos[cell],
    largest: {
      value: largestHalf.value,
      position: Math.floor(largestHalf.at / width),
      feature: largestHalf.at % width,
    },
    float32Largest: largestDifference(single.cos, exact.cos).value,
  };
  // bfloat16 positions: rows 256 and 257.
  const row = (position, extra) => pe.row(position, { dModel: 64, dtype: 'float64', ...extra });
  const bfloat16 = {
    exactDifference: largestDifference(row(256, {}), row(257, {})).value,
    roundedDifference: largestDifference(
      row(256, { positionDtype: 'bfloat16' }),
      row(257, { positionDtype: 'bfloat16' }),
    ).value,
  };
  // diffusers #13920/#13922: positions 65536 + k, the frequency matmul in bfloat16 under autocast.
  const collapsed = cache(through('bfloat16'), DIFFUSERS);
  const exactHigh = cache({}, DIFFUSERS);
  const fixedHigh = cache(through('float32'), DIFFUSERS);
  const diffusers = {
    ...DIFFUSERS,
    distinct: distinctRows(collapsed.cos, DIFFUSERS.headDim),
    exactDistinct: distinctRows(exactHigh.cos, DIFFUSERS.headDim),
    largest: largestDifference(collapsed.cos, exactHigh.cos).value,
    float32Largest: largestDifference(fixedHigh.cos, exactHigh.cos).value,
  };
  return { neox, bfloat16, diffusers };
}
