// What the compute worker posts of a plot's numbers (model/section-data.js):
// the model memoises them, so they cannot be transferred as they are, and
// cloned, a large array costs the receiving main thread a copy of it (a 1M-value
// precision map at every step of a drag). Large arrays are copied in the
// worker instead and the copies transferred.

/** Typed arrays from this many bytes are copied and transferred rather than cloned. */
export const LARGE_BYTES = 1 << 16;

/**
 * `numbers` with each large typed array in it replaced by a copy, and the
 * copies' buffers (to transfer); the rest as it is (cloned by postMessage).
 */
export function detachLarge(numbers) {
  const copies = new Map();
  const walk = (value) => {
    if (ArrayBuffer.isView(value)) {
      if (value.byteLength < LARGE_BYTES || value instanceof DataView) return value;
      if (!copies.has(value)) copies.set(value, value.slice());
      return copies.get(value);
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  const detached = walk(numbers);
  return { numbers: detached, transfer: [...copies.values()].map((copy) => copy.buffer) };
}
