// Named presets: each mirrors one real implementation. Explicit knobs in the
// options override a preset's values.

// Every knob of the paper's convention; the other presets say how they differ.
const PAPER = Object.freeze({
  layout: 'interleaved',
  exponent: 'pair',
  order: 'sin-cos',
  angle: 'divide',
  base: 10000,
  start: 0,
  paddingRow: null,
  scale: 1,
  // PE(pos, 2i) with 2i = d - 1: an odd d's last column is a sine of its own.
  oddColumn: 'formula',
});

const preset = (changes) => Object.freeze({ ...PAPER, ...changes });

/** @type {Readonly<Record<string, Readonly<import('./index.js').Convention>>>} */
export const PRESETS = Object.freeze({
  // Vaswani et al. 2017 §3.5; PyTorch's "Language modeling" tutorial; Hugging Face
  // create_sinusoidal_embeddings and Keras-NLP SinePositionEncoding: sin on even,
  // cos on odd columns, exponent 2i/d (at odd d, sin in the last column too).
  vaswani: PAPER,
  // tensor2tensor common_attention.get_timing_signal_1d: [sin | cos], timescales
  // spaced geometrically over num_timescales - 1 steps, zero column for odd d.
  tensor2tensor: preset({ layout: 'concat', exponent: 'half-minus-one', oddColumn: 'zero' }),
  // TensorFlow's "Neural machine translation with a Transformer and Keras"
  // tutorial, positional_encoding(length, depth): [sin | cos] with depths i/(d/2).
  // (At odd depth the tutorial returns depth + 1 columns; here the last is zero.)
  'tf-tutorial': preset({ layout: 'concat', oddColumn: 'zero' }),
  // fairseq SinusoidalPositionalEmbedding.get_embedding: as tensor2tensor, table
  // rows are positions 0.. and row padding_idx (1) is zeroed.
  fairseq: preset({ layout: 'concat', exponent: 'half-minus-one', paddingRow: 1, oddColumn: 'zero' }),
  // An early PyTorch port: exponent 2j/d on the column index (sin and cos of a
  // pair get different frequencies) and row 0 kept as an all-zero padding row.
  'legacy-column': preset({ exponent: 'column', paddingRow: 0 }),
  // The attempt in a well-known Q&A question, verbatim: (pos/10000)^(2j/d),
  // cos on even and sin on odd columns.
  question: preset({ exponent: 'column', order: 'cos-sin', angle: 'ratio-power' }),
});

export const PRESET_NAMES = Object.freeze(Object.keys(PRESETS));
export const LAYOUTS = Object.freeze(['interleaved', 'concat']);
export const EXPONENTS = Object.freeze(['pair', 'half-minus-one', 'column']);
export const ORDERS = Object.freeze(['sin-cos', 'cos-sin']);
export const ANGLES = Object.freeze(['divide', 'ratio-power']);
// In the order of the core's OddColumn.
/** RoPE's pairings: (i, i + d/2) (Llama, Hugging Face) or (2i, 2i + 1) (RoFormer, GPT-J). */
export const ROPE_LAYOUTS = Object.freeze(['half', 'interleaved']);
export const ODD_COLUMNS = Object.freeze(['formula', 'zero']);
export const DTYPES = Object.freeze(['float32', 'float64']);
// Formats a position, frequency, exponent or angle can be rounded to on the way
// (positionDtype, frequencyDtype, exponentDtype, angleDtype; docs/precision.md):
// index = the core's posenc::Dtype.
export const PRECISION_DTYPES = Object.freeze(['float64', 'float32', 'float16', 'bfloat16']);
// The knobs that take them, in the order of the steps.
export const PRECISION_OPTIONS = Object.freeze(['exponentDtype', 'frequencyDtype', 'positionDtype', 'angleDtype']);

/**
 * Whether a convention has the paper's structure (layout, exponent, order and
 * angle): what Hugging Face and Keras-NLP compute, a lone sine at odd d included.
 * For identify's messages and the page's checker; not part of the package API.
 */
export const structuredLikeHuggingFace = (c) =>
  c.layout === PAPER.layout && c.exponent === PAPER.exponent && c.order === PAPER.order && c.angle === PAPER.angle;

/**
 * Presets that reproduce known mistakes: identify() also names the mistakes
 * such a table keeps (relative to the paper), and the page compares it with
 * the paper's table. Not part of the package API.
 */
export const MISTAKEN_PRESETS = Object.freeze(['legacy-column', 'question']);

/** A padding row beyond the table is no padding row (as identify() counts it). Not part of the package API. */
export const paddingIn = (paddingRow, length) => (paddingRow !== null && paddingRow < length ? paddingRow : null);
