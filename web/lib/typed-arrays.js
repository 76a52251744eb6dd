// The engine's typed-array intrinsics, for arrays of any realm or subclass:
// what an array is, where its values lie and how to write them, read from
// internal slots rather than from properties a caller's object could override.
// The engine's own typed-array accessors, taken once: the brand and the
// length of an \`out\` come from its internal slots, never from properties a
// subclass, a Proxy or a look-alike object could override, and its values are
// written by the intrinsic set() (a subclass's set() that calls back into
// posenc would otherwise run while the values sit in wasm scratch).
const TypedArray = Object.getPrototypeOf(Float32Array);
const intrinsic = (name) => Object.getOwnPropertyDescriptor(TypedArray.prototype, name);
const typedArrayTag = intrinsic(Symbol.toStringTag).get;
const typedArrayLength = intrinsic('length').get;
const typedArrayBuffer = intrinsic('buffer').get;
const typedArrayByteOffset = intrinsic('byteOffset').get;
const typedArraySet = intrinsic('set').value;

/** 'Float32Array', 'Float64Array', … for a typed array of any realm (node:vm, an iframe), else undefined. */
export const typedArrayKind = (value) => typedArrayTag.call(value);

/** Whether an ArrayBuffer (or SharedArrayBuffer) was detached (transferred, or wasm memory that grew). */
export function isDetached(buffer) {
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** A typed array's byte offset, from its internal slot. */
export const byteOffsetOf = (array) => typedArrayByteOffset.call(array);

/** out.set(values, offset) with the engine's own set(), whatever out's class says. */
export function writeInto(out, values, offset = 0) {
  typedArraySet.call(out, values, offset);
}

/** A typed array's length, from its internal slot (0 once detached). */
export const lengthOfView = (array) => typedArrayLength.call(array);

/** A typed array's buffer, from its internal slot. */
export const bufferOf = (array) => typedArrayBuffer.call(array);
