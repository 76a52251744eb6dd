// Output arrays: the caller's array checked, or a new one, and the errors
// of a result that does not fit (in wasm32, or in the module's heap).
import { fail, MAX_BYTES, textOf } from './options.js';
import { bufferOf, isDetached, lengthOfView, typedArrayKind } from './typed-arrays.js';

/** Throws unless count elements of ArrayType fit in MAX_BYTES. */
export function checkSize(where, what, count, ArrayType, advice = 'reduce length or dModel') {
  const bytes = count * ArrayType.BYTES_PER_ELEMENT;
  if (bytes > MAX_BYTES)
    throw new RangeError(
      `posenc.${where}: ${textOf(what)} needs ${bytes} bytes, more than ${MAX_BYTES} (what wasm32 can hold); ${advice}`,
    );
}

/**
 * Throws unless `value`, the parameter `name`, is a live typed array of
 * ArrayType's kind (of this or another realm, or a subclass) holding `count`
 * values, which is no view of the module's memory: `wasmMemory()` gives that
 * memory, which the call may detach by growing it. `why` follows the type in
 * the message; `inPlace`: a WasmArray is accepted too. Returns value.
 */
export function checkOutput(where, name, value, ArrayType, count, { inPlace = false, wasmMemory, why = '' } = {}) {
  if (typedArrayKind(value) !== ArrayType.name)
    fail(
      TypeError,
      where,
      `${name} must be a ${ArrayType.name}${why}${inPlace ? ' or a WasmArray from pe.allocate()' : ''}`,
      value,
    );
  const buffer = bufferOf(value);
  const length = lengthOfView(value);
  // A view of a detached buffer has length 0: one of the length wanted (>= 1)
  // is live, and needs no test (which builds a view).
  if ((length !== count || count === 0) && isDetached(buffer))
    fail(
      TypeError,
      where,
      `${name} is a view of a detached buffer (a WasmArray.array taken before the wasm memory grew, or a transferred buffer): ${inPlace ? 'pass the WasmArray itself, or read .array again' : 'read .array again, or pass an array of your own'}`,
      value,
    );
  if (wasmMemory !== undefined && buffer === wasmMemory())
    fail(
      TypeError,
      where,
      `${name} is a view of the module's own memory (WasmArray.array), which this call may detach by growing it${inPlace ? ': pass the WasmArray itself (out: wasmArray), written in place' : ': pass a Float32Array/Float64Array of your own'}`,
      value,
    );
  if (length !== count) fail(RangeError, where, `${name} must have length ${count}`, length);
  return value;
}

/**
 * The caller's buffer when given (a Float32Array or Float64Array of this or
 * another realm, or a subclass; it must fit exactly), else a new one.
 * `wasmMemory`: the module's memory, whose views the call may detach by growing it.
 */
export function outputArray(where, opts, ArrayType, count, inPlace = false, wasmMemory = undefined) {
  const out = opts?.out;
  if (out === undefined) return new ArrayType(count);
  const why = ArrayType === Float64Array ? ' (dtype float64)' : '';
  return checkOutput(where, 'out', out, ArrayType, count, { inPlace, wasmMemory, why });
}

/** The error of a call whose scratch or result did not fit in the wasm heap. */
export const outOfMemory = (where) =>
  new RangeError(
    `posenc.${where}: not enough wasm memory for this request (free() the WasmArrays you no longer need, or ask for less)`,
  );
