// The public functions around one instantiated wasm module. Options are
// validated in options.js; this file only sizes outputs and copies results
// out of the wasm heap into arrays the caller owns.
import {
  checkSize,
  checkWork,
  dtypeOf,
  encodingParams,
  finite,
  fixedDtype,
  integer,
  lengthOf,
  MAX_BYTES,
  MAX_PRODUCT_WORK,
  MAX_SINUSOID_WORK,
  outputArray,
} from './options.js';
import { ANGLES } from './conventions.js';
import { identify } from './identify.js';
import { allocator, WasmArray } from './wasm-array.js';
import { ropeApi } from './rope.js';

// Rows are produced a chunk at a time into wasm scratch and copied out while
// still in cache: no table-sized allocation in the wasm heap, and a copy that
// costs about one extra pass over cache instead of one over memory.
const CHUNK_BYTES = 256 * 1024;
// Index of 'ratio-power' in ANGLES: the one angle that is no sinusoid of position.
const RATIO_POWER = ANGLES.indexOf('ratio-power');

const outOfMemory = (where) => new RangeError(`posenc.${where}: not enough wasm memory for this request`);

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
// a page away from it (bindings.cpp, placed()).
const pageOffset = (out, index) => (out.byteOffset + index * out.BYTES_PER_ELEMENT) % 4096;

/** `out`, a WasmArray, written in place by write(address) (false: out of wasm memory). */
function inPlace(where, out, module, ArrayType, count, write) {
  if (!write(WasmArray.target(where, out, module, ArrayType, count))) throw outOfMemory(where);
  return out.array;
}

function drain(chunks, out, rowValues, rowCount, where) {
  const chunkRows = chunks.chunkRows;
  try {
    if (!chunks.ok()) throw outOfMemory(where);
    for (let r = 0; r < rowCount; r += chunkRows) {
      const rows = Math.min(chunkRows, rowCount - r);
      // A view of wasm memory, valid only until the next call into the module.
      out.set(chunks.next(rows, pageOffset(out, r * rowValues)), r * rowValues);
    }
  } finally {
    chunks.delete();
  }
  return out;
}

function rowsPerChunk(rowBytes, rowCount) {
  return Math.max(1, Math.min(rowCount, Math.floor(CHUNK_BYTES / rowBytes)));
}

export function createApi(module) {
  // Tables up to this size come from one call into scratch the module keeps.
  const onceBytes = module.onceBytes();
  function withChunkRows(chunks, chunkRows) {
    chunks.chunkRows = chunkRows;
    return chunks;
  }

  const api = {
    simd: module.simd(),

    table(opts) {
      const params = encodingParams('table', opts);
      const length = lengthOf('table', opts);
      const ArrayType = dtypeOf('table', opts);
      checkRatioPowerPositions('table', params, 'start', params.start);
      const count = length * params.dModel;
      checkSize('table', `a ${length} x ${params.dModel} table`, count, ArrayType);
      if (opts.out instanceof WasmArray) {
        const write = ArrayType === Float64Array ? module.tableInto64 : module.tableInto32;
        return inPlace('table', opts.out, module, ArrayType, count, (address) => write(params, length, address));
      }
      const out = outputArray('table', opts, ArrayType, count, true);
      if (count * ArrayType.BYTES_PER_ELEMENT <= onceBytes) {
        // One call, no writer object: the fixed cost is most of a small table's.
        const once = ArrayType === Float64Array ? module.tableOnce64 : module.tableOnce32;
        const rows = once(params, length, pageOffset(out, 0));
        if (rows === null) throw outOfMemory('table');
        // A view of wasm memory, valid only until the next call into the module.
        out.set(rows);
        return out;
      }
      const chunkRows = rowsPerChunk(params.dModel * ArrayType.BYTES_PER_ELEMENT, length);
      const Chunks = ArrayType === Float64Array ? module.TableChunks64 : module.TableChunks32;
      return drain(withChunkRows(new Chunks(params, 0, chunkRows), chunkRows), out, params.dModel, length, 'table');
    },

    row(position, opts) {
      finite('row', 'position', position, true);
      const params = encodingParams('row', opts);
      const ArrayType = dtypeOf('row', opts);
      checkRatioPowerPositions('row', params, 'position', position);
      const out = outputArray('row', opts, ArrayType, params.dModel);
      out.set(ArrayType === Float64Array ? module.row64(params, position) : module.row32(params, position));
      return out;
    },

    frequencies(opts) {
      const params = encodingParams('frequencies', opts);
      fixedDtype('frequencies', opts, 'float64');
      const out = outputArray('frequencies', opts, Float64Array, params.dModel);
      out.set(module.frequencies(params));
      return out;
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
      const direct = params.angle === RATIO_POWER;
      checkWork(
        'offsetDots',
        `(maxOffset - minOffset + 1) × dModel${direct ? " with angle 'ratio-power'" : ''}`,
        count * params.dModel,
        direct ? MAX_PRODUCT_WORK / 8 : MAX_SINUSOID_WORK,
        'reduce maxOffset or dModel',
      );
      const out = outputArray('offsetDots', opts, Float64Array, count);
      const dots = module.offsetDots(params, from, minOffset, maxOffset);
      if (dots === null) throw outOfMemory('offsetDots');
      out.set(dots);
      return out;
    },

    similarity(opts) {
      const params = encodingParams('similarity', opts);
      const length = lengthOf('similarity', opts);
      fixedDtype('similarity', opts, 'float32');
      checkRatioPowerPositions('similarity', params, 'start', params.start);
      checkSize('similarity', `a ${length} x ${length} matrix`, length * length, Float32Array, 'reduce length');
      if (params.angle === RATIO_POWER) {
        checkSize(
          'similarity',
          `the float64 ${length} x ${params.dModel} table it multiplies out`,
          length * params.dModel,
          Float64Array,
        );
        checkWork(
          'similarity',
          "length² × dModel with angle 'ratio-power'",
          length * length * params.dModel,
          MAX_PRODUCT_WORK,
          'reduce length or dModel',
        );
      }
      if (opts.out instanceof WasmArray) {
        return inPlace('similarity', opts.out, module, Float32Array, length * length, (address) =>
          module.similarityInto(params, length, address),
        );
      }
      const out = outputArray('similarity', opts, Float32Array, length * length, true);
      const chunkRows = rowsPerChunk(length * 4, length);
      const chunks = withChunkRows(new module.SimilarityChunks(params, length, chunkRows), chunkRows);
      return drain(chunks, out, length, length, 'similarity');
    },

    /** An array in the module's own memory: table() and similarity() write into it without copying. */
    allocate: allocator(module),

    /** Bytes malloc'ed inside the wasm heap right now (for leak checks). */
    heapBytes() {
      return module.allocatedBytes();
    },

    /** Which convention explains a table computed elsewhere (see identify.js). */
    identify(data, length, dModel) {
      return identify(api, data, length, dModel);
    },

    // Rotary position embedding (rope.js).
    ...ropeApi(module),
  };
  return Object.freeze(api);
}
