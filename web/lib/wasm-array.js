// Arrays that live in the module's own memory (pe.allocate). table() and
// similarity() write into one in place; into a caller's Float32Array they
// write through wasm scratch and copy every value out (about a quarter of the
// time of a 2048 x 512 table, two fifths at 512 x 128).
//
// A typed-array view of wasm memory is detached when the memory grows (any
// allocation in the module may grow it), so the handle hands out `.array`
// afresh instead of one view for good.
import { checkObjectKeys, dtypeOf, fail, integer, MAX_BYTES } from './options.js';

// Arrays the caller dropped without free(): their memory goes back when the
// garbage collector has collected them and the engine then runs this callback,
// between tasks: never during synchronous code, and only when a collection
// happens (wasm memory does not prompt one). Hence free().
const leaked =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry(({ module, address, bytes, held }) => {
        module.freeArray(address);
        held.bytes -= bytes;
        held.count -= 1;
      })
    : null;

// Bytes the module must still be able to allocate after pe.allocate(): the
// small objects every call builds (its options struct, a writer) come from
// operator new, which aborts the module instead of returning null when the
// heap is full (a wasm build has no exceptions); the large scratch is
// allocated with nothrow and fails as a RangeError.
export const HEADROOM_BYTES = 64 * 1024;

// Bytes and arrays handed out by pe.allocate and not yet given back, per module.
const heldByModule = new WeakMap();
const heldOf = (module) => {
  if (!heldByModule.has(module)) heldByModule.set(module, { bytes: 0, count: 0 });
  return heldByModule.get(module);
};

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
    const held = heldOf(module);
    const bytes = length * ArrayType.BYTES_PER_ELEMENT;
    held.bytes += bytes;
    held.count += 1;
    leaked?.register(this, { module, address, bytes, held }, this);
  }

  /** Whether x is a WasmArray (a brand check: no Proxy or look-alike passes). */
  static is(x) {
    return x !== null && typeof x === 'object' && #address in x;
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
    const held = heldOf(this.#module);
    held.bytes -= this.#length * this.#ArrayType.BYTES_PER_ELEMENT;
    held.count -= 1;
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
    checkObjectKeys('allocate', opts, ['dtype']);
    const ArrayType = dtypeOf('allocate', opts);
    const dtype = dtypeName(ArrayType);
    const length = integer('allocate', 'count', count, 1, Math.floor(MAX_BYTES / ArrayType.BYTES_PER_ELEMENT));
    const address = module.allocateArray(length, ArrayType.BYTES_PER_ELEMENT);
    // Refused unless the headroom is still there after it: see HEADROOM_BYTES.
    const headroom = address === 0 ? 0 : module.allocateArray(HEADROOM_BYTES, 1);
    if (headroom !== 0) module.freeArray(headroom);
    else {
      if (address !== 0) module.freeArray(address);
      const held = heldOf(module);
      const unfreed = held.count
        ? `; ${held.count} WasmArrays hold ${held.bytes} bytes: free() your WasmArrays when done with them (dropped ones are reclaimed only after a garbage collection, between tasks, never within a synchronous loop)`
        : '';
      throw new RangeError(
        `posenc.allocate: count ${length}: not enough wasm memory for ${length} ${dtype} values (${length * ArrayType.BYTES_PER_ELEMENT} bytes, wasm32 holds at most 2 GiB)${unfreed}`,
      );
    }
    return new WasmArray(module, address, length, ArrayType);
  };
}
