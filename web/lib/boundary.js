// What web/lib stages for the module, by name: the fields of the staged
// blocks in order, the number of each enum's names, and the limits. The
// module reports its own (cpp/bindings/boundary.h); loader.js refuses a module
// whose report differs, so that no call ever reads a field at the wrong place.
import { ANGLES, EXPONENTS, LAYOUTS, ODD_COLUMNS, ORDERS, PRECISION_DTYPES } from './conventions.js';
import { LIMITS, ROPE_LIMITS } from './limits.js';
import { ROPE_SCALING_TYPES } from './rope-options.js';
import { AXIS_ORDERS } from './elsewhere-options.js';

/** The keys of encodingParams() (options.js) in the order of the staged block. */
export const ENCODING_FIELDS = Object.freeze([
  'dModel',
  'layout',
  'exponent',
  'order',
  'angle',
  'base',
  'frequencyScale',
  'start',
  'paddingRow',
  'scale',
  'oddColumn',
  'exponentDtype',
  'frequencyDtype',
  'positionDtype',
  'angleDtype',
]);

/** The keys of ropeParams().params (rope-options.js) in the order of the staged block. */
export const ROPE_FIELDS = Object.freeze([
  'rotaryDim',
  'scaling',
  'base',
  'factor',
  'originalMaxPositionEmbeddings',
  'maxPositionEmbeddings',
  'seqLen',
  'betaFast',
  'betaSlow',
  'mscale',
  'mscaleAllDim',
  'attentionFactor',
  'truncate',
  'lowFreqFactor',
  'highFreqFactor',
  'exponentDtype',
  'frequencyDtype',
]);

/** The keys of timestepParams() (elsewhere-options.js) in the order of the staged block. */
export const TIMESTEP_FIELDS = Object.freeze(['dim', 'maxPeriod', 'flipSinToCos', 'downscaleFreqShift', 'scale']);

/** The keys of gridParams() (elsewhere-options.js) in the order of the staged block. */
export const GRID_FIELDS = Object.freeze([
  'dim',
  'height',
  'width',
  'axisOrder',
  'extraTokens',
  'baseSize',
  'interpolationScale',
  'base',
  'coordinateDtype',
]);

/** The keys of grid3dParams() (elsewhere-options.js) in the order of the staged block. */
export const GRID3D_FIELDS = Object.freeze([
  'dim',
  'frames',
  'height',
  'width',
  'axisOrder',
  'extraTokens',
  'spatialInterpolationScale',
  'temporalInterpolationScale',
  'base',
  'coordinateDtype',
]);

// options.js and rope-options.js resolve a name to its index in these lists.
const indexed = (names) => Object.freeze(Object.fromEntries(names.map((name, index) => [name, index])));
const layouts = indexed(LAYOUTS);

/** Each enum's names and the numbers staged for them. */
export const ENUMS = Object.freeze({
  // RoPE's 'half' (pair i at i and i + d/2) is the sinusoids' 'concat': one numbering.
  layout: Object.freeze({ ...layouts, half: layouts.concat }),
  exponent: indexed(EXPONENTS),
  order: indexed(ORDERS),
  angle: indexed(ANGLES),
  oddColumn: indexed(ODD_COLUMNS),
  dtype: indexed(PRECISION_DTYPES),
  scaling: indexed(ROPE_SCALING_TYPES),
  axisOrder: indexed(AXIS_ORDERS),
});

const list = (names) => `[${names.join(', ')}]`;

/** What differs between two lists of names in order, or '' when none does. */
function listDifference(what, module, library) {
  const length = Math.max(module.length, library.length);
  for (let i = 0; i < length; i++)
    if (module[i] !== library[i])
      return `${what} differ at index ${i}: the module reads ${module[i] === undefined ? 'nothing' : `'${module[i]}'`} where this library stages ${library[i] === undefined ? 'nothing' : `'${library[i]}'`} (module: ${list(module)}; library: ${list(library)})`;
  return '';
}

/** What differs between two { name: number } tables, or '' when none does. */
function tableDifference(what, module = {}, library) {
  for (const name of new Set([...Object.keys(library), ...Object.keys(module)]))
    if (!Object.is(module[name], library[name]))
      return `${what} '${name}' is ${module[name]} in the module but ${library[name]} in this library`;
  return '';
}

/**
 * The module's report as { encodingFields, ropeFields, enums, limits,
 * encodingAddress, ropeAddress, timestepAddress, gridAddress, grid3dAddress }: module.boundary() is a view of its text
 * (cpp/bindings/boundary.cpp, one item a line), which a module without the
 * RoPE functions gives without ropeFields, the scaling enum and the RoPE limits.
 */
export function moduleReport(module) {
  const report = parseReport(new TextDecoder().decode(module.boundary()));
  report.encodingAddress = module.stagedAddress();
  // The RoPE block follows the encoding's.
  report.ropeAddress = report.encodingAddress + 8 * report.encodingFields.length;
  // The timestep block, then the 2-D and 3-D grids', in a block of their own (not in the modules of load({ rope: false })).
  if (typeof module.stagedElsewhereAddress === 'function') {
    report.timestepAddress = module.stagedElsewhereAddress();
    report.gridAddress = report.timestepAddress + 8 * report.timestepFields.length;
    report.grid3dAddress = report.gridAddress + 8 * report.gridFields.length;
  }
  return report;
}

const FIELD_LISTS = ['encodingFields', 'ropeFields', 'timestepFields', 'gridFields', 'grid3dFields'];

/** The report's text as { encodingFields, ropeFields, timestepFields, gridFields, grid3dFields, enums, limits }. */
export function parseReport(text) {
  const report = {
    encodingFields: [],
    ropeFields: undefined,
    timestepFields: [],
    gridFields: [],
    grid3dFields: [],
    enums: {},
    limits: {},
  };
  for (const line of text.split('\n')) {
    const [kind, ...words] = line.split(' ');
    if (FIELD_LISTS.includes(kind)) report[kind] = words;
    else if (kind === 'enum') {
      const [name, ...pairs] = words;
      report.enums[name] = {};
      for (let i = 0; i + 1 < pairs.length; i += 2) report.enums[name][pairs[i]] = Number(pairs[i + 1]);
    } else if (kind === 'limit') report.limits[words[0]] = Number(words[1]);
  }
  return report;
}

/**
 * Throws an Error naming the first mismatch between what the module reports
 * (moduleReport()) and what this library stages and checks; `rope`: whether
 * the module has the RoPE functions, and so reads the RoPE block; `elsewhere`:
 * whether it has timestepEmbedding, sincosGrid2d, sincosGrid3d, resizeGrid and tableAt (elsewhere.js).
 */
export function checkBoundary(report, rope, elsewhere = rope) {
  const enums = Object.keys(ENUMS).filter(
    (name) => (rope || name !== 'scaling') && (elsewhere || name !== 'axisOrder'),
  );
  const limits = rope
    ? LIMITS
    : Object.fromEntries(Object.entries(LIMITS).filter(([name]) => !ROPE_LIMITS.includes(name)));
  const problem =
    listDifference('the staged encoding fields', report.encodingFields, ENCODING_FIELDS) ||
    (rope ? listDifference('the staged RoPE fields', report.ropeFields ?? [], ROPE_FIELDS) : '') ||
    (elsewhere ? listDifference('the staged timestep fields', report.timestepFields, TIMESTEP_FIELDS) : '') ||
    (elsewhere ? listDifference('the staged grid fields', report.gridFields, GRID_FIELDS) : '') ||
    (elsewhere ? listDifference('the staged 3-D grid fields', report.grid3dFields, GRID3D_FIELDS) : '') ||
    enums.map((name) => tableDifference(`enum ${name}:`, report.enums[name], ENUMS[name])).find(Boolean) ||
    tableDifference('limit', report.limits, limits);
  if (problem)
    throw new Error(
      `posenc.load: the WebAssembly module does not match this library: ${problem}; build both from the same sources (web/scripts/build-wasm.sh)`,
    );
  return report;
}

/**
 * A function writing a parameters object into a staged block of `fields`
 * doubles at `address` of the module's memory, by the fields' names.
 */
export function stager(module, address, fields) {
  let staged = null;
  // Only this function writes the block: the frozen parameters of repeated
  // options (options.js keeps them) are there already.
  let last = null;
  return (params) => {
    // A view taken before the memory grew is detached: take a new one then.
    if (staged === null || staged.buffer !== module.HEAPU8.buffer)
      staged = new Float64Array(module.HEAPU8.buffer, address, fields.length);
    else if (params === last && Object.isFrozen(params)) return;
    for (let i = 0; i < fields.length; i++) staged[i] = +params[fields[i]];
    last = params;
  };
}
