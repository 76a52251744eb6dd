// The public functions around one instantiated wasm module. Options are
// validated in options.js; this file only sizes outputs and copies results
// out of the wasm heap into arrays the caller owns.
import { checkWork, COST } from './cost.js';
import { dtypeOf, encodingParams, fail, finite, fixedDtype, integer, lengthOf, MAX_BYTES } from './options.js';
import { checkSize, outOfMemory, outputArray } from './outputs.js';
import { byteOffsetOf, typedArrayKind, writeInto } from './typed-arrays.js';
import { ANGLES, EXPONENTS, ODD_COLUMNS } from './conventions.js';
import { identify } from './identify.js';
import { allocator, WasmArray } from './wasm-array.js';
import { ropeApi } from './rope.js';
import { ENCODING_FIELDS, stager } from './boundary.js';
import { leastSquaresApi } from './least-squares.js';
import { elsewhereApi, tableAtPositions } from './elsewhere.js';
import { numbersOf } from './elsewhere-options.js';

// Rows are produced a chunk at a time into wasm scratch and copied out while
// still in cache: no table-sized allocation in the wasm heap, and a copy that
// costs about one extra pass over cache instead of one over memory.
const CHUNK_BYTES = 256 * 1024;
// Index of 'ratio-power' in ANGLES: the one angle that is no sinusoid of position.
const RATIO_POWER = ANGLES.indexOf('ratio-power');
const COLUMN_EXPONENT = EXPONENTS.indexOf('column');
const ZERO_ODD_COLUMN = ODD_COLUMNS.indexOf('zero');

// What the core does for a convention (see posenc.h): both members of each
// pair at one frequency (one rotating phasor: recurrences and cosine sums over
// the pairs), a lone sinusoid in an odd last column, real products otherwise.
// Rounded positions or angles (positionDtype, angleDtype) make angles no
// sinusoids of position: rows are evaluated directly, dots multiplied out.
const linearAngles = (params) => params.positionDtype === 0 && params.angleDtype === 0;
const pairsShareFrequency = (params) =>
  params.angle !== RATIO_POWER && params.exponent !== COLUMN_EXPONENT && linearAngles(params);
// Dots of real row products (row() per position: a pow and a sin/cos per value).
const multipliedOut = (params) => params.angle === RATIO_POWER || !linearAngles(params);
const multipliedHow = (params) =>
  params.angle === RATIO_POWER ? " with angle 'ratio-power'" : linearAngles(params) ? '' : ' with rounded angles';
const hasLoneColumn = (params) => params.dModel % 2 === 1 && params.oddColumn !== ZERO_ODD_COLUMN;

/** Work of a length x dModel table (options.js, COST): the recurrence for float32 rows of pairs sharing a frequency. */
function tableWork(params, length, ArrayType) {
  const values = length * params.dModel;
  if (params.angle === RATIO_POWER) return values * COST.power;
  if (ArrayType === Float32Array && pairsShareFrequency(params))
    return values * COST.step + (hasLoneColumn(params) ? length * COST.direct : 0);
  const far = farColumnShare(params, Math.max(Math.abs(params.start), Math.abs(params.start + length - 1)));
  const direct = linearAngles(params) ? COST.direct : COST.rounded;
  return values * (far * COST.farAngle + (1 - far) * direct);
}

// Angles beyond 2^20 take sin/cos's slow argument reduction (COST.farAngle).
const FAR_ANGLE = 2 ** 20;

/**
 * About which share of the columns reach an angle beyond 2^20 at positions up
 * to `farthest`: those whose exponent e gives frequencyScale · base^(-e) ·
 * farthest > 2^20. Exponents spread evenly over [0, 1) (pair, half-minus-one)
 * or [0, 2) (column).
 */
function farColumnShare(params, farthest) {
  const reach = Math.log((farthest * params.frequencyScale) / FAR_ANGLE) / Math.log(params.base);
  const span = params.exponent === COLUMN_EXPONENT ? 2 : 1;
  return Math.min(1, Math.max(0, reach / span));
}

/** Work of `count` offsets' dot products: cosine sums over the pairs, over every column twice, or real rows. */
function offsetDotsWork(params, count) {
  const terms = count * params.dModel;
  if (multipliedOut(params)) return terms * COST.power;
  return count * COST.step + (pairsShareFrequency(params) ? terms : 2 * terms) * COST.step;
}

/** Work of the length x length matrix: its entries plus the sums or products behind them. */
function similarityWork(params, length) {
  const entries = length * length * COST.step;
  const rows = length * params.dModel;
  if (multipliedOut(params)) return entries + rows * COST.power + length * rows * COST.product;
  return entries + (pairsShareFrequency(params) ? rows : 3 * rows) * COST.step;
}

/**
 * (pos / base)^e is no real number at a negative position (NaN): with angle
 * 'ratio-power' the positions a call evaluates must be >= 0: `value`, the
 * smallest of them, is what `name` says.
 */
function checkRatioPowerPositions(where, params, name, value) {
  if (params.angle === RATIO_POWER && !(value >= 0))
    throw new RangeError(
      `posenc.${where}: ${name} must be >= 0 with angle 'ratio-power', (pos / base)^e being no real number at negative positions (got ${value})`,
    );
}

// Where out[index] lies, mod 4 KB: the module writes what is copied there half
// a page away from it (cpp/bindings/buffers.h, placementBytes()).
const pageOffset = (out, index) =>
  (byteOffsetOf(out) + index * (typedArrayKind(out) === 'Float64Array' ? 8 : 4)) % 4096;

/** `out`, a WasmArray, written in place by write(address) (false: out of wasm memory). */
function inPlace(where, out, module, ArrayType, count, write) {
  // (target() checks out before anything runs.)
  if (!write(WasmArray.target(where, out, module, ArrayType, count))) throw outOfMemory(where);
  return out.array;
}

/**
 * Copies the rows of a chunk writer (a handle from module.table32/64 or
 * similarity: 0 when out of wasm memory) into out, and ends the writer.
 */
function drain(module, chunks, chunkRows, out, rowValues, rowCount, where) {
  if (chunks === 0) throw outOfMemory(where);
  try {
    for (let r = 0; r < rowCount; r += chunkRows) {
      const rows = Math.min(chunkRows, rowCount - r);
      // A view of wasm memory, valid only until the next call into the module.
      writeInto(out, module.chunksNext(chunks, rows, pageOffset(out, r * rowValues)), r * rowValues);
    }
  } finally {
    module.chunksEnd(chunks);
  }
  return out;
}

function rowsPerChunk(rowBytes, rowCount) {
  return Math.max(1, Math.min(rowCount, Math.floor(CHUNK_BYTES / rowBytes)));
}

/** The API over an instantiated module whose report (module.boundary()) loader.js has checked. */
export function createApi(module, report) {
  // Tables up to this size come from one call into scratch the module keeps.
  const onceBytes = module.onceBytes();
  // The module's memory now (a new ArrayBuffer after every growth).
  const wasmMemory = () => module.HEAPU8.buffer;
  // Every call's options go through one block of wasm memory (boundary.js):
  // writing 15 doubles costs less than an Embind struct.
  const stage = stager(module, report.encodingAddress, ENCODING_FIELDS);
  // The small tables' scratch, taken now, before pe.allocate() can fill the heap.
  stage(encodingParams('table', { dModel: 1 }));
  module.table32(1, 0, 0, 1);
  // A view of `count` values at `address` in the small tables' scratch (null
  // for address 0: out of memory), reused while the address, the count and
  // the memory stay the same. Valid until the next call into the module.
  let scratchView = null;
  function scratchRows(address, count, ArrayType) {
    if (address === 0) return null;
    const view = scratchView;
    if (
      view === null ||
      view.buffer !== module.HEAPU8.buffer ||
      view.byteOffset !== address ||
      view.length !== count ||
      !(view instanceof ArrayType)
    )
      scratchView = new ArrayType(module.HEAPU8.buffer, address, count);
    return scratchView;
  }
  // A view of wasm memory (or null: out of memory), copied into out at once.
  function copyOut(where, out, values) {
    if (values === null) throw outOfMemory(where);
    writeInto(out, values);
    return out;
  }

  // table({ ..., positions }): rows at any positions (elsewhere.js).
  function tableAt(params, opts) {
    const positions = numbersOf('table', 'positions', opts.positions);
    for (const [name, why] of [
      ['start', 'the positions are the rows'],
      ['out', 'a table at positions returns a new array'],
    ])
      if (opts[name] !== undefined) fail(TypeError, 'table', `give either positions or ${name}: ${why}`, opts[name]);
    if (opts.length !== undefined && opts.length !== positions.length)
      fail(
        RangeError,
        'table',
        `length must equal positions.length (${positions.length}) when both are given`,
        opts.length,
      );
    checkRatioPowerPositions(
      'table',
      params,
      'every position',
      positions.reduce((a, b) => Math.min(a, b)),
    );
    return tableAtPositions(module, stage, params, positions, dtypeOf('table', opts));
  }

  const api = {
    simd: module.simd(),

    table(opts) {
      const params = encodingParams('table', opts);
      if (opts.positions !== undefined) return tableAt(params, opts);
      const length = lengthOf('table', opts);
      const ArrayType = dtypeOf('table', opts);
      checkRatioPowerPositions('table', params, 'start', params.start);
      const count = length * params.dModel;
      checkSize('table', () => `a ${length} x ${params.dModel} table`, count, ArrayType);
      checkWork(
        'table',
        () => `a ${length} x ${params.dModel} ${ArrayType === Float64Array ? 'float64' : 'float32'} table`,
        tableWork(params, length, ArrayType),
        'reduce length or dModel',
      );
      // table32/64 write in place, write a small table in one call or start a chunk writer (bindings.cpp).
      const write = ArrayType === Float64Array ? module.table64 : module.table32;
      if (WasmArray.is(opts.out)) {
        return inPlace('table', opts.out, module, ArrayType, count, (address) => {
          stage(params);
          return write(length, address, 0, 1) === 1;
        });
      }
      const out = outputArray('table', opts, ArrayType, count, true, wasmMemory);
      if (count * ArrayType.BYTES_PER_ELEMENT <= onceBytes) {
        // One call, no writer object: the fixed cost is most of a small table's.
        stage(params);
        return copyOut('table', out, scratchRows(write(length, 0, pageOffset(out, 0), 1), count, ArrayType));
      }
      const chunkRows = rowsPerChunk(params.dModel * ArrayType.BYTES_PER_ELEMENT, length);
      stage(params);
      return drain(module, write(length, 0, 0, chunkRows), chunkRows, out, params.dModel, length, 'table');
    },

    // row and frequencies do at most 2^20 values' work (dModel <= 2^20): no work limit.
    row(position, opts) {
      finite('row', 'position', position, true);
      const params = encodingParams('row', opts);
      const ArrayType = dtypeOf('row', opts);
      checkRatioPowerPositions('row', params, 'position', position);
      const out = outputArray('row', opts, ArrayType, params.dModel, false, wasmMemory);
      stage(params);
      return copyOut('row', out, module.row(position, ArrayType === Float64Array));
    },

    frequencies(opts) {
      const params = encodingParams('frequencies', opts);
      fixedDtype('frequencies', opts, 'float64');
      const out = outputArray('frequencies', opts, Float64Array, params.dModel, false, wasmMemory);
      stage(params);
      return copyOut('frequencies', out, module.frequencies());
    },

    offsetDots(opts) {
      const params = encodingParams('offsetDots', opts);
      fixedDtype('offsetDots', opts, 'float64');
      if (opts.maxOffset === undefined)
        throw new TypeError('posenc.offsetDots: maxOffset is required: an integer >= minOffset (got undefined)');
      const limit = Math.floor(MAX_BYTES / 8) - 1;
      const minOffset =
        opts.minOffset === undefined ? 0 : integer('offsetDots', 'minOffset', opts.minOffset, -limit, limit);
      const maxOffset = integer('offsetDots', 'maxOffset', opts.maxOffset, minOffset, minOffset + limit);
      const from = opts.from === undefined ? 0 : finite('offsetDots', 'from', opts.from, true);
      const count = maxOffset - minOffset + 1;
      if (from < 0) checkRatioPowerPositions('offsetDots', params, 'from', from);
      else checkRatioPowerPositions('offsetDots', params, 'from + minOffset', from + minOffset);
      checkWork(
        'offsetDots',
        () => `${count} offsets × dModel ${params.dModel}${multipliedHow(params)}`,
        offsetDotsWork(params, count),
        'reduce maxOffset or dModel',
      );
      const out = outputArray('offsetDots', opts, Float64Array, count, false, wasmMemory);
      stage(params);
      return copyOut('offsetDots', out, module.offsetDots(from, minOffset, maxOffset));
    },

    similarity(opts) {
      const params = encodingParams('similarity', opts);
      const length = lengthOf('similarity', opts);
      fixedDtype('similarity', opts, 'float32');
      checkRatioPowerPositions('similarity', params, 'start', params.start);
      checkSize('similarity', `a ${length} x ${length} matrix`, length * length, Float32Array, 'reduce length');
      if (multipliedOut(params))
        checkSize(
          'similarity',
          `the float64 ${length} x ${params.dModel} table it multiplies out`,
          length * params.dModel,
          Float64Array,
        );
      checkWork(
        'similarity',
        `a ${length} x ${length} matrix of rows of dModel ${params.dModel}${multipliedHow(params)}`,
        similarityWork(params, length),
        'reduce length or dModel',
      );
      if (WasmArray.is(opts.out)) {
        return inPlace('similarity', opts.out, module, Float32Array, length * length, (address) => {
          stage(params);
          return module.similarity(length, address, 1) === 1;
        });
      }
      const out = outputArray('similarity', opts, Float32Array, length * length, true, wasmMemory);
      const chunkRows = rowsPerChunk(length * 4, length);
      stage(params);
      return drain(module, module.similarity(length, 0, chunkRows), chunkRows, out, length, length, 'similarity');
    },

    /** An array in the module's own memory: table() and similarity() write into it without copying. */
    allocate: allocator(module),

    /** Bytes malloc'ed inside the wasm heap right now (for leak checks): the writers kept for repeated options are dropped first. */
    heapBytes() {
      return module.allocatedBytes();
    },

    /** Which convention explains a table computed elsewhere (see identify.js). */
    identify(data, length, dModel) {
      return identify(api, data, length, dModel);
    },

    // What a least-squares fit on some columns leaves of others (least-squares.js).
    ...leastSquaresApi(module),

    // Rotary position embedding (rope.js).
    ...ropeApi(module, report),

    // Timestep embeddings and 2-D grids (elsewhere.js).
    ...elsewhereApi(module, report),
  };
  return Object.freeze(api);
}
