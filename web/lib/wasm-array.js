// Arrays that live in the module's own memory (pe.allocate). table() and
// similarity() write into one in place; into a caller's Float32Array they
// write through wasm scratch and copy every value out (about a quarter of the
// time of a 2048 x 512 table, two fifths at 512 x 128).
//
// A typed-array view of wasm memory is detached when the memory grows (any
// allocation in the module may grow it), so the handle hands out `.array`
// afresh instead of one view for good.
import { dtypeOf, fail, integer, MAX_BYTES } from './options.js';

// Arrays the caller dropped without free(): their memory goes back when they are collected.
const leaked =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry(({ module, address }) => module.freeArray(address))
    : null;

const dtypeName = (ArrayType) => (ArrayType === Float64Array ? 'float64' : 'float32');

export class WasmArray {
  #module;
  #address;
  #length;
  #ArrayType;
  #view = null;

  /** Use pe.allocate(). */
  constructor(module, address, length, ArrayType) {
    this.#module = module;
    this.#address = address;
    this.#length = length;
    this.#ArrayType = ArrayType;
    leaked?.register(this, { module, address }, this);
  }

  /** The values: a view of wasm memory, valid until the module's memory next grows (read it again then). */
  get array() {
    if (this.#address === 0) throw new TypeError('posenc.WasmArray.array: this WasmArray was freed');
    // A detached view reports length 0.
    if (this.#view?.length !== this.#length) {
      const view = this.#ArrayType === Float64Array ? this.#module.view64 : this.#module.view32;
      this.#view = view(this.#address, this.#length);
    }
    return this.#view;
  }

  get length() {
    return this.#length;
  }

  get dtype() {
    return dtypeName(this.#ArrayType);
  }

  get freed() {
    return this.#address === 0;
  }

  /** Gives the memory back (again: nothing). */
  free() {
    if (this.#address === 0) return;
    leaked?.unregister(this);
    this.#module.freeArray(this.#address);
    this.#address = 0;
    this.#view = null;
  }

  /** The address to write `count` values of ArrayType at, for posenc.`where`'s `out`. */
  static target(where, out, module, ArrayType, count) {
    if (out.#module !== module) throw new TypeError(`posenc.${where}: out is a WasmArray of another posenc module`);
    if (out.#address === 0) throw new TypeError(`posenc.${where}: out is a WasmArray that was freed`);
    if (out.#ArrayType !== ArrayType)
      fail(
        TypeError,
        where,
        `out must be a ${dtypeName(ArrayType)} WasmArray, as dtype is '${dtypeName(ArrayType)}'`,
        out.dtype,
      );
    if (out.#length !== count) fail(RangeError, where, `out must have length ${count}`, out.#length);
    return out.#address;
  }
}

/** pe.allocate(count, { dtype }) for one module. */
export function allocator(module) {
  return function allocate(count, opts = {}) {
    if (opts === null || typeof opts !== 'object' || Array.isArray(opts))
      fail(TypeError, 'allocate', 'options must be an object', opts);
    for (const key of Object.keys(opts)) {
      if (key !== 'dtype') fail(TypeError, 'allocate', `unknown option '${key}' (allowed: dtype)`, opts[key]);
    }
    const ArrayType = dtypeOf('allocate', opts);
    const dtype = dtypeName(ArrayType);
    const length = integer('allocate', 'count', count, 1, Math.floor(MAX_BYTES / ArrayType.BYTES_PER_ELEMENT));
    const address = module.allocateArray(length, ArrayType.BYTES_PER_ELEMENT);
    if (address === 0) throw new RangeError(`posenc.allocate: not enough wasm memory for ${length} ${dtype} values`);
    return new WasmArray(module, address, length, ArrayType);
  };
}
