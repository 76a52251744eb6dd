// The library's limits as the module reports them (cpp/include/posenc/limits.h,
// cpp/bindings/boundary.h). A checked-in table rather than one generated at
// build time: options are validated before any module is loaded (code
// snippets, the page's parameters, a worker's first message), and a generated
// file would be one more build output the package and the site depend on.
// loader.js refuses a module whose report differs (boundary.js).
export const LIMITS = Object.freeze({
  // Columns of a sinusoidal encoding.
  maxDModel: 2 ** 20,
  // A position, start, scale or minTimescale: beyond 2^53 positions are no
  // longer distinct integers, and products such as 2 * start, pos * w or
  // scale^2 * dModel could overflow to Infinity and come back as NaN.
  maxMagnitude: 2 ** 53,
  // Bytes of one result array: what a wasm32 heap (and a scratch copy) can hold.
  maxBytes: 2 ** 31 - 1,
  // RoPE's head dimension: far above any in use (DeepSeek's 192, Gemma's 256).
  maxHeadDim: 2 ** 16,
  // The context of Su Jianlin's base criterion: ropeSupportedContext's limit, ropeSmallestBase's context.
  maxContext: 2 ** 20,
  // The largest base ropeSmallestBase searches.
  maxBase: 1e12,
});

/** The limits only a module with the RoPE functions reports (the others do not check them). */
export const ROPE_LIMITS = Object.freeze(['maxHeadDim', 'maxContext', 'maxBase']);
