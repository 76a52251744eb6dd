// Named presets: each mirrors one real implementation. Explicit knobs in the
// options override a preset's values.

/** @type {Readonly<Record<string, Readonly<import('./index.js').Convention>>>} */
export const PRESETS = Object.freeze({
  // Vaswani et al. 2017 §3.5; PyTorch's "Language modeling" tutorial; Hugging Face
  // create_sinusoidal_embeddings: sin on even, cos on odd columns, exponent 2i/d.
  vaswani: Object.freeze({
    layout: 'interleaved',
    exponent: 'pair',
    order: 'sin-cos',
    angle: 'divide',
    base: 10000,
    start: 0,
    paddingRow: null,
    scale: 1,
  }),
  // tensor2tensor common_attention.get_timing_signal_1d: [sin | cos], timescales
  // spaced geometrically over num_timescales - 1 steps, zero column for odd d.
  tensor2tensor: Object.freeze({
    layout: 'concat',
    exponent: 'half-minus-one',
    order: 'sin-cos',
    angle: 'divide',
    base: 10000,
    start: 0,
    paddingRow: null,
    scale: 1,
  }),
  // TensorFlow's "Neural machine translation with a Transformer and Keras"
  // tutorial, positional_encoding(length, depth): [sin | cos] with depths i/(d/2).
  'tf-tutorial': Object.freeze({
    layout: 'concat',
    exponent: 'pair',
    order: 'sin-cos',
    angle: 'divide',
    base: 10000,
    start: 0,
    paddingRow: null,
    scale: 1,
  }),
  // fairseq SinusoidalPositionalEmbedding.get_embedding: as tensor2tensor, table
  // rows are positions 0.. and row padding_idx (1) is zeroed.
  fairseq: Object.freeze({
    layout: 'concat',
    exponent: 'half-minus-one',
    order: 'sin-cos',
    angle: 'divide',
    base: 10000,
    start: 0,
    paddingRow: 1,
    scale: 1,
  }),
  // An early PyTorch port: exponent 2j/d on the column index (sin and cos of a
  // pair get different frequencies) and row 0 kept as an all-zero padding row.
  'legacy-column': Object.freeze({
    layout: 'interleaved',
    exponent: 'column',
    order: 'sin-cos',
    angle: 'divide',
    base: 10000,
    start: 0,
    paddingRow: 0,
    scale: 1,
  }),
  // The attempt in a well-known Q&A question, verbatim: (pos/10000)^(2j/d),
  // cos on even and sin on odd columns.
  question: Object.freeze({
    layout: 'interleaved',
    exponent: 'column',
    order: 'cos-sin',
    angle: 'ratio-power',
    base: 10000,
    start: 0,
    paddingRow: null,
    scale: 1,
  }),
});

export const PRESET_NAMES = Object.freeze(Object.keys(PRESETS));
export const LAYOUTS = Object.freeze(['interleaved', 'concat']);
export const EXPONENTS = Object.freeze(['pair', 'half-minus-one', 'column']);
export const ORDERS = Object.freeze(['sin-cos', 'cos-sin']);
export const ANGLES = Object.freeze(['divide', 'ratio-power']);
export const DTYPES = Object.freeze(['float32', 'float64']);
