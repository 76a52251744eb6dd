// Finds the convention behind a positional-encoding table computed elsewhere:
// the knobs, base, start, padding row and scale that reproduce it, which step
// of its computation (exponent, frequency, position, angle) was rounded to a
// smaller float format, and which bug (relative to the nearest preset)
// explains a departure.
//
// The search (identify/search.js): all-zero rows are taken as padding and left
// out; an odd width's last column is a sinusoid of its own unless it is all
// zeros; each structure's base comes in closed form from the columns'
// frequencies estimated from the data, a log grid of bases only when that
// fits nothing; the best few get their base refined and rounded. The
// explanation (identify/explain.js) then tries the roundest base and scale
// first, in float64 and along each precision path, on sample rows and then
// on the whole table.
//
// Every candidate table comes from the library; the only trigonometry here is
// the float32-angle recipe (compare.js), whose rounding of the exponent
// product the core's precision knobs do not reproduce.
import { PRESETS, PRESET_NAMES, MISTAKEN_PRESETS } from './conventions.js';
import { checkTable } from './check-table.js';
import { checkWork } from './cost.js';
import { MAX_MAGNITUDE } from './options.js';
import { compare, compareTable, tableScratch } from './identify/compare.js';
import { dtypePaths, explainRound, FLOAT32_ANGLE_PATH, FLOAT64_PATH } from './identify/explain.js';
import { diagnosisOf, differences, presetDistance, STRUCTURAL_KNOBS } from './identify/diagnosis.js';
import { FIT_ROWS, freeBuffers, PROBE_ROWS, SPREAD_ROWS, searchConvention } from './identify/search.js';
import { storageOf, toleranceOf, within } from './identify/storage.js';
import {
  gridFindings,
  identifyGrid,
  identifyGrid3d,
  identifyTimestep,
  looksSinusoidal,
  tableNotes,
  timestepFindings,
  timestepOfTable,
} from './identify/elsewhere.js';

// The diagnosis of each rounded step, and every step exact (the float64 table).
const DTYPE_CODES = Object.freeze({
  exponentDtype: 'exponent-dtype',
  frequencyDtype: 'frequency-dtype',
  positionDtype: 'position-dtype',
  angleDtype: 'angle-dtype',
});
const EXACT_STEPS = Object.freeze(Object.fromEntries(Object.keys(DTYPE_CODES).map((knob) => [knob, 'float64'])));

// Widest table (dModel) tried as the transpose of an unexplained one: 2048
// covers the usual model widths; wider searches take seconds.
const MAX_TRANSPOSED_WIDTH = 2048;

// A table no convention explains is a near miss of the closest candidate when that one is off by at
// most this fraction of the largest |value| (a wrong base or a few corrupted values, not another scheme).
export const NEAR_MISFIT = 0.1;

// The time a search may take, estimated before it starts, in nanoseconds of
// CPU on the 2-core test VM (the work units of options.js): a call whose
// estimate exceeds IDENTIFY_SECONDS is refused, and the search of a turned
// table is tried only when both searches fit. The slowest table of a size is
// one that matches nothing (every structure at every base of the grid, on
// sample rows: a cost per column), plus a cost per value (conversion, the
// spread rows, the comparisons of whole tables). Measured as CPU time under
// load 11-19 (docs/precision.md): 1.3-2.8 ms a column, about 150 ns a value;
// 256 x 4096 of noise 10.6 s, 8192 x 1024 3.0 s; tables that match took
// 0.05-1.4 s at the same sizes. Costs rounded up.
const IDENTIFY_SECONDS = 12;
const IDENTIFY_WORK = IDENTIFY_SECONDS * 1e9;
const IDENTIFY_COST = Object.freeze({ column: 2.75e6, value: 150 });
const searchWork = (length, dModel) => dModel * IDENTIFY_COST.column + length * dModel * IDENTIFY_COST.value;

/**
 * Identifies the convention of a row-major [length x dModel] table.
 * @param {import('./index.js').Posenc} pe the loaded library
 * @param {Float32Array | Float64Array | number[]} data
 * @param {number} length
 * @param {number} dModel
 * @returns {import('./index.js').Identification}
 */
export function identify(pe, data, length, dModel) {
  if (pe === null || typeof pe !== 'object' || typeof pe.table !== 'function')
    throw new TypeError('posenc.identify: pe must be the loaded library (await load())');
  checkTable('identify', 'data', data, length, dModel);
  checkWork(
    'identify',
    () =>
      `searching a ${length} x ${dModel} table (dModel × ${IDENTIFY_COST.column} ns + length × dModel × ${IDENTIFY_COST.value} ns, against a bound of ${IDENTIFY_SECONDS} s)`,
    searchWork(length, dModel),
    'the convention shows in the first rows: pass fewer rows (e.g. the first 1024); at most 4363 columns can be searched',
    IDENTIFY_WORK,
  );
  // (The constructor converts a typed array natively; Float64Array.from iterates.)
  const values = new Float64Array(data);
  const maxAbs = largestValue(values, dModel).size;
  // |value| <= |scale| <= 2^53 in every table the library computes: larger
  // values are no positional encoding it can reproduce (and their squares,
  // which the fits sum, could overflow).
  if (maxAbs > MAX_MAGNITUDE) return tooLarge(values, dModel);
  if (maxAbs === 0) {
    // Nothing to search for: scale 0 reproduces it under any convention; the
    // answer names the paper's, and where the paper's table first differs.
    const paper = pe.table({ length, dModel, dtype: 'float64' });
    const first = compare(values, paper, dModel, 0).firstBeyond;
    return {
      match: false,
      options: { ...PRESETS.vaswani, scale: 0 },
      preset: null,
      nearestPreset: 'vaswani',
      float32Angle: false,
      maxAbsError: 0,
      tolerance: 0,
      firstDifference: first && { ...first, expected: paper[first.row * dModel + first.column], actual: 0 },
      transposed: false,
      ...NOTHING_ELSE,
      // (found: the largest |value|; where: the paper's first value that is not zero.)
      diagnosis: [
        diagnosisOf({ code: 'all-zero', preset: 'vaswani', found: 0, where: first }, PRESETS.vaswani, dModel),
      ],
    };
  }
  const rows = identifyRows(pe, values, length, dModel);
  if (rows.match) return { ...rows, ...tableNaming(rows, values, length, dModel), transposed: false };
  // Tables beyond token positions 0, 1, … (a grid, timesteps, any start or descending positions), else no match.
  const tried = ['table'];
  const elsewhere = identifyElsewhere(pe, values, length, dModel, tried, rows.near);
  if (elsewhere) return { ...rows, ...elsewhere, transposed: false };
  const result = {
    ...rows,
    ...NOTHING_ELSE,
    tried,
    diagnosis: rows.diagnosis.map((d) => withTried(d, tried, rows, dModel)),
  };
  // (The search grows with the width: a turned table wider than this, or one
  // whose search would take the call past its work limit, is not tried.)
  if (
    result.match ||
    length < 2 ||
    dModel < 2 ||
    length > MAX_TRANSPOSED_WIDTH ||
    searchWork(length, dModel) + searchWork(dModel, length) > IDENTIFY_WORK
  )
    return { ...result, transposed: false };
  // Positions in columns, dimensions in rows (a d x L table): explained once turned back.
  const turned = new Float64Array(values.length);
  for (let r = 0; r < length; r++) for (let j = 0; j < dModel; j++) turned[j * length + r] = values[r * dModel + j];
  const back = identifyRows(pe, turned, dModel, length);
  tried.push('transposed');
  if (!back.match)
    return { ...result, transposed: false, diagnosis: rows.diagnosis.map((d) => withTried(d, tried, rows, dModel)) };
  // found: the shape given; expected: the shape explained; changes: the codes of
  // the turned table's own departures from its nearest preset (none when it is that preset).
  const diagnosis = [
    diagnosisOf(
      {
        code: 'transposed',
        preset: back.preset ?? back.nearestPreset,
        found: { length, dModel },
        expected: { length: dModel, dModel: length },
        changes: back.preset === null ? back.diagnosis.map((d) => d.code) : [],
      },
      back.options,
      length,
    ),
  ];
  return {
    ...back,
    ...tableNaming(back, turned, dModel, length),
    match: false,
    preset: null,
    transposed: true,
    firstDifference: null,
    diagnosis,
  };
}

// What an answer that is no table of the library's holds in the fields about the others.
const NOTHING_ELSE = Object.freeze({
  kind: null,
  positions: null,
  timestep: null,
  grid: null,
  grid3d: null,
  notes: [],
});

/** An 'unexplained' diagnosis reworded with the searches tried. */
function withTried(entry, tried, rows, dModel) {
  if (!entry.code.startsWith('unexplained')) return entry;
  const { message: _, ...facts } = entry;
  return diagnosisOf({ ...facts, tried: [...tried] }, rows.options, dModel);
}

/** The fields of a 1-D answer (row r at position start + r): the timestep embedding it also is, and notes. */
function tableNaming(rows, values, length, dModel) {
  const timestep = timestepOfTable(rows.options, length, dModel);
  const notes = [
    ...tableNotes(rows.options, dModel),
    ...(timestep ? timestepFindings(timestep, values, length, dModel, rows.nearestPreset) : []),
  ];
  return {
    kind: 'table',
    positions: { first: rows.options.start, step: 1 },
    timestep,
    grid: null,
    grid3d: null,
    notes,
  };
}

/**
 * The answer for a table that is no 1-D table at positions 0, 1, … (start
 * −3…3): a 2-D grid, a timestep embedding at evenly spaced timesteps, a 1-D
 * table at any start or at descending positions (unless that search came
 * `near`); null when none explains it. `tried` gets each search run.
 */
function identifyElsewhere(pe, values, length, dModel, tried, near) {
  const tolerance = toleranceOf(values, storageOf(values));
  const largest = largestValue(values, dModel).size;
  tried.push('grid');
  const grid = identifyGrid(pe, values, length, dModel, tolerance);
  if (grid) {
    // Each axis is a 1-D table of dModel / 2 columns at integer coordinates: [sin | cos], exponent 2i/(dModel/2).
    const options = { ...PRESETS['tf-tutorial'], base: grid.grid.base };
    const { diagnosis, notes } = gridFindings(grid.grid, nearestOf(options));
    return elsewhereAnswer('grid', options, grid.comparison, largest, tolerance, diagnosis, notes, { grid: grid.grid });
  }
  // (A 3-D grid is searched under the same 'grid' entry of `tried`.)
  const grid3d = identifyGrid3d(pe, values, length, dModel, tolerance);
  if (grid3d) {
    // Each spatial half is a 1-D table of 3 dModel / 8 columns at the patches' coordinates, [sin | cos].
    const options = { ...PRESETS['tf-tutorial'], base: grid3d.grid.base };
    return elsewhereAnswer('grid3d', options, grid3d.comparison, largest, tolerance, [], [], { grid3d: grid3d.grid });
  }
  // The searches below fit sinusoids of the row index: not worth their time on other tables.
  if (!looksSinusoidal(values, length, dModel, tolerance)) return null;
  tried.push('timestep');
  const timestep = identifyTimestep(pe, values, length, dModel, tolerance);
  // Timesteps one apart are a 1-D table at some start or descending: named as one below when the search finds it.
  const timestepAnswer = () => {
    const t = timestep.timestep;
    const options = {
      ...PRESETS.tensor2tensor,
      exponent: t.downscaleFreqShift === 0 ? 'pair' : 'half-minus-one',
      order: t.flipSinToCos ? 'cos-sin' : 'sin-cos',
      base: t.maxPeriod,
      start: t.timesteps.first,
    };
    const diagnosis = timestepFindings(t, values, length, dModel, nearestOf(options));
    return elsewhereAnswer('timestep', options, timestep.comparison, largest, tolerance, diagnosis, [], {
      timestep: t,
    });
  };
  if (timestep && Math.abs(timestep.timestep.timesteps.step) !== 1) return timestepAnswer();
  // A near miss at starts −3…3 (a few wrong values) is no table at another start: not searched again.
  if (near) return timestep ? timestepAnswer() : null;
  tried.push('any-start');
  const ascending = identifyRows(pe, values, length, dModel, true);
  if (ascending.match) return { ...ascending, ...tableNaming(ascending, values, length, dModel) };
  // Relative positions, from +L down: the rows turned upside down are ascending.
  tried.push('descending');
  const flipped = new Float64Array(values.length);
  for (let r = 0; r < length; r++)
    flipped.set(values.subarray(r * dModel, (r + 1) * dModel), (length - 1 - r) * dModel);
  const descending = identifyRows(pe, flipped, length, dModel, true);
  if (!descending.match) return timestep ? timestepAnswer() : null;
  const first = descending.options.start + length - 1;
  const last = descending.options.start;
  const back = (where) => (where && where.row !== undefined ? { ...where, row: length - 1 - where.row } : where);
  const diagnosis = [
    diagnosisOf(
      {
        code: 'relative-positions',
        knob: 'start',
        preset: descending.nearestPreset,
        found: { first, last },
        expected: 0,
      },
      descending.options,
      dModel,
    ),
    ...descending.diagnosis
      .filter((d) => d.knob !== 'start')
      .map(({ message: _, ...facts }) =>
        diagnosisOf({ ...facts, where: back(facts.where) }, descending.options, dModel),
      ),
  ];
  const paddingRow = descending.options.paddingRow === null ? null : length - 1 - descending.options.paddingRow;
  return {
    ...descending,
    options: { ...descending.options, start: first, paddingRow },
    preset: null,
    kind: 'positions',
    positions: { first, step: -1 },
    timestep: null,
    grid: null,
    grid3d: null,
    notes: tableNotes(descending.options, dModel),
    diagnosis,
  };
}

/** The preset nearest to these knobs (the first of equals). */
function nearestOf(options) {
  const distances = PRESET_NAMES.map((name) => presetDistance(options, PRESETS[name], Infinity));
  return PRESET_NAMES[distances.indexOf(Math.min(...distances))];
}

/** An answer explained by a table other than pe.table's (a grid, a timestep embedding). */
function elsewhereAnswer(kind, options, comparison, largest, tolerance, diagnosis, notes, fields) {
  return {
    match: true,
    kind,
    options,
    preset: null,
    nearestPreset: nearestOf(options),
    near: true,
    relativeMisfit: largest > 0 ? comparison.maxAbsError / largest : 0,
    float32Angle: false,
    maxAbsError: comparison.maxAbsError,
    tolerance,
    firstDifference: null,
    positions: null,
    timestep: null,
    grid: null,
    grid3d: null,
    ...fields,
    diagnosis,
    notes,
  };
}

/** The largest |value| and its cell. */
function largestValue(values, dModel) {
  let size = 0;
  let at = 0;
  for (let k = 0; k < values.length; k++) if (Math.abs(values[k]) > size) [size, at] = [Math.abs(values[k]), k];
  return { size, row: Math.floor(at / dModel), column: at % dModel };
}

/** The answer for values no convention of the library reaches (|value| > 2^53, or a fitted scale beyond it). */
function tooLarge(values, dModel) {
  const { size: maxAbs, row, column } = largestValue(values, dModel);
  return {
    match: false,
    options: { ...PRESETS.vaswani },
    preset: null,
    nearestPreset: 'vaswani',
    float32Angle: false,
    maxAbsError: maxAbs,
    tolerance: 0,
    firstDifference: null,
    transposed: false,
    ...NOTHING_ELSE,
    diagnosis: [
      diagnosisOf(
        { code: 'too-large', preset: 'vaswani', found: maxAbs, expected: MAX_MAGNITUDE, where: { row, column } },
        PRESETS.vaswani,
        dModel,
      ),
    ],
  };
}

/** The comparison with a preset's table when it equals the data within tolerance (its first rows tried first), else null. */
function presetReproduces(pe, scratch, values, name, length, dModel, tolerance) {
  const head = Math.min(length, FIT_ROWS);
  const first = pe.table({ preset: name, length: head, dModel, dtype: 'float64' });
  if (compare(values.subarray(0, head * dModel), first, dModel, tolerance).firstBeyond !== null) return null;
  const comparison = compareTable(pe, scratch, values, { preset: name }, dModel, tolerance);
  return comparison.firstBeyond === null ? comparison : null;
}

/** Whether the fitted convention's last column, continued by the formula, is zero on these rows too. */
function formulaColumnIsZero(search, options, rows) {
  const { pe, dModel, tolerance } = search;
  const length = rows[rows.length - 1] + 1;
  const table = pe.table({ ...options, oddColumn: 'formula', paddingRow: null, dModel, length, dtype: 'float64' });
  return rows.every((r) => within(table[r * dModel + dModel - 1], tolerance));
}

/** identify() of data taken as [length x dModel], as given; `anyStart`: at the start its phases tell, not −3…3. */
function identifyRows(pe, values, length, dModel, anyStart = false) {
  const scratch = tableScratch(pe, length * dModel);
  try {
    return identifyRowsWith(pe, values, length, dModel, scratch, anyStart);
  } finally {
    scratch.free?.();
  }
}

function identifyRowsWith(pe, values, length, dModel, scratch, anyStart) {
  const storage = storageOf(values);
  const tolerance = toleranceOf(values, storage);

  // All-zero rows are padding; they are left out of the search.
  const zeroRows = [];
  const nonZeroRows = [];
  for (let r = 0; r < length; r++) {
    const row = values.subarray(r * dModel, (r + 1) * dModel);
    (row.every((v) => within(v, tolerance)) ? zeroRows : nonZeroRows).push(r);
  }
  const searchRows = nonZeroRows.length > 0 ? nonZeroRows : zeroRows;
  // An odd width's last column: zeros, or a sinusoid of its own (never all zero over rows).
  const lastColumnZero =
    dModel % 2 === 1 && searchRows.every((r) => within(values[r * dModel + dModel - 1], tolerance));
  const search = {
    pe,
    data: values,
    dModel,
    tolerance,
    oddColumn: lastColumnZero ? 'zero' : 'formula',
    buffers: new Map(),
    anyStart,
  };
  const spreadRows = Array.from(
    new Set(
      Array.from(
        { length: SPREAD_ROWS },
        (_, k) => searchRows[Math.round((k * (searchRows.length - 1)) / (SPREAD_ROWS - 1))],
      ),
    ),
  );
  const sampleRows = [...new Set([...searchRows.slice(0, PROBE_ROWS), ...spreadRows])];
  /** The search's convention and the roundest explanation of the data by it (null: none), or null (no fit). */
  const searchAndExplain = (quick) => {
    let fit;
    try {
      fit = searchConvention(search, searchRows.slice(0, PROBE_ROWS), searchRows.slice(0, FIT_ROWS), spreadRows, quick);
    } finally {
      freeBuffers(search);
    }
    // No fit at all, or one whose scale no table may have: values near 2^53.
    if (fit === null || !(Math.abs(fit.scale) <= MAX_MAGNITUDE)) return null;
    /** @type {import('./index.js').Convention} */
    const options = {
      ...fit.structure,
      base: fit.base,
      start: fit.start,
      paddingRow: nonZeroRows.length > 0 && zeroRows.length > 0 ? zeroRows[0] : null,
      scale: fit.scale,
      oddColumn: search.oddColumn,
    };
    // Where the formula's last column would be zero too (a few rows near position
    // 0), both explain it, and the nearest preset's choice is taken below.
    if (dModel % 2 === 0 || (lastColumnZero && formulaColumnIsZero(search, options, searchRows)))
      options.oddColumn = undefined;
    // The roundest base and scale that reproduce the whole table, in float64;
    // then along a path that lost precision: the steps frameworks' dtypes
    // round, each reproduced exactly by the core; then any float32 recipe of
    // the angles (within float32 error). Angles rounded to float32 leave
    // float32 values (or fewer, or printed ones): never claimed for values
    // with all of float64's digits.
    const farthest = Math.max(Math.abs(options.start), Math.abs(options.start + length - 1));
    const paths = [FLOAT64_PATH, ...dtypePaths(farthest)];
    if (options.angle === 'divide' && storage !== 'float64') paths.push(FLOAT32_ANGLE_PATH);
    const data = { pe, values, length, dModel, tolerance, sampleRows, scratch };
    return { options, explained: explainRound(data, options, paths), quick: fit.quick };
  };
  // A common base kept without refinement that explains nothing: refined after all.
  let found = searchAndExplain(true);
  if (found?.quick && !found.explained) found = searchAndExplain(false);
  if (found === null) return tooLarge(values, dModel);
  const { options, explained } = found;
  if (explained) Object.assign(options, explained.options);
  const path = explained?.path ?? FLOAT64_PATH;
  // The rounded steps (e.g. { angleDtype: 'float16' }), which options carry so that pe.table(options) reproduces the data.
  const rounded = path.knobs ?? {};
  const float32Angle = path === FLOAT32_ANGLE_PATH || rounded.angleDtype === 'float32';
  // The float64 table's comparison: the misfit when nothing explains the data, the error of a lost precision.
  let byFloat64 =
    path === FLOAT64_PATH && explained
      ? explained.comparison
      : compareTable(pe, scratch, values, { ...options, ...EXACT_STEPS }, dModel, tolerance);
  let explanation = explained?.comparison ?? byFloat64;
  const match = explanation.firstBeyond === null;

  const distances = PRESET_NAMES.map((name) => presetDistance(options, PRESETS[name], length));
  const byDistance = PRESET_NAMES.map((name, k) => [distances[k], name])
    .sort((a, b) => a[0] - b[0])
    .map(([, name]) => name);
  let nearest = byDistance[0];
  let exact = distances[PRESET_NAMES.indexOf(nearest)] === 0;
  // Knobs can differ where they make no difference (one pair: layout and
  // exponent; d = 1: the paper's row 0 is zero, like a padding row): a preset
  // whose own table this is, is the answer.
  if (match && !exact && !float32Angle && Object.keys(rounded).length === 0) {
    for (const name of byDistance) {
      const reproduced = presetReproduces(pe, scratch, values, name, length, dModel, tolerance);
      if (!reproduced) continue;
      [nearest, exact, byFloat64, explanation] = [name, true, reproduced, reproduced];
      Object.assign(options, PRESETS[name]);
      break;
    }
  }
  options.oddColumn ??= PRESETS[nearest].oddColumn;

  // How near the closest candidate is: its largest misfit over the largest |value|. A far one's knobs
  // (a base of 16.6, a start of 3) and preset would read like a near miss: they are not reported.
  const largest = largestValue(values, dModel).size;
  const relativeMisfit = largest > 0 ? explanation.maxAbsError / largest : 0;
  const near = match || relativeMisfit <= NEAR_MISFIT;
  const diagnosis = [];
  if (!match) {
    // Knob differences of a fit that does not fit would only mislead.
    // found: the largest misfit, where: its cell; expected: the tolerance it exceeds.
    diagnosis.push(
      diagnosisOf(
        {
          code: near ? 'unexplained' : 'unexplained-far',
          // The page's reference table; a far one's message names no preset.
          preset: nearest,
          relative: relativeMisfit,
          found: explanation.maxAbsError,
          expected: tolerance,
          where: explanation.worst,
        },
        options,
        dModel,
      ),
    );
  } else diagnosis.push(...differences(options, nearest, length, dModel));
  if (match && MISTAKEN_PRESETS.includes(nearest)) {
    // The preset's own mistakes that the table shares, named relative to the paper
    // (the legacy port's all-zero row 0 too: a reader pasting its output should hear of it).
    const shared = [...STRUCTURAL_KNOBS, 'paddingRow'].filter((knob) => options[knob] === PRESETS[nearest][knob]);
    const mistakes = { ...PRESETS.vaswani, ...Object.fromEntries(shared.map((knob) => [knob, options[knob]])) };
    for (const d of differences(mistakes, 'vaswani', length, dModel))
      if (!diagnosis.some((known) => known.code === d.code)) diagnosis.push(d);
  }
  for (const [knob, format] of Object.entries(rounded)) {
    // A step rounded to a smaller format: the largest difference from the float64 table, and its cell.
    diagnosis.push(
      diagnosisOf(
        {
          code: DTYPE_CODES[knob],
          knob,
          preset: nearest,
          found: format,
          expected: 'float64',
          where: byFloat64.worst,
          error: byFloat64.maxAbsError,
        },
        options,
        dModel,
      ),
    );
    options[knob] = format;
  }
  if (path === FLOAT32_ANGLE_PATH) {
    // The float32 angles' error: the largest difference from the float64 table, and its cell.
    diagnosis.push(
      diagnosisOf(
        {
          code: 'float32-angle',
          preset: nearest,
          found: 'float32',
          expected: 'float64',
          where: byFloat64.worst,
          error: byFloat64.maxAbsError,
        },
        options,
        dModel,
      ),
    );
  }

  // Where the data first departs from the nearest preset's float64 table (its own, when exact).
  const byPreset = exact ? byFloat64 : compareTable(pe, scratch, values, { preset: nearest }, dModel, tolerance);
  const difference = byPreset.firstBeyond;
  const firstDifference =
    difference === null
      ? null
      : {
          ...difference,
          expected: byPreset.expectedThere,
          actual: values[difference.row * dModel + difference.column],
        };

  return {
    match,
    options,
    preset: match && exact ? nearest : null,
    nearestPreset: nearest,
    near,
    relativeMisfit,
    float32Angle,
    maxAbsError: explanation.maxAbsError,
    tolerance,
    firstDifference,
    diagnosis,
  };
}
