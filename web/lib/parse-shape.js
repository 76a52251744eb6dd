// What the .npy and the text parsers share: their error and the shape without size-1 dimensions.

/** The RangeError of parseTable. */
export function parseError(message) {
  return new RangeError(`posenc.parseTable: ${message}`);
}

/**
 * The shape without its size-1 dimensions while more than two remain
 * (PyTorch's [L, 1, d] buffer, [1, L, d], [L, 1, 1] of d = 1): the values keep
 * their C order.
 */
export function squeezed(shape) {
  // The first (length - 2) ones go, in one pass (a shape may have 300,000 of them).
  let ones = Math.min(shape.length - 2, shape.filter((n) => n === 1).length);
  return shape.filter((n) => !(n === 1 && ones-- > 0));
}
