// The English sentence of each identify() diagnosis, worded from its facts:
// the `message` API users print. (The page words diagnoses itself, in its
// language, from the same facts: web/i18n.)
import { PRESETS, structuredLikeHuggingFace } from '../conventions.js';

// Significant bits of each format (the leading one included).
const BITS = { float32: 24, float16: 11, bfloat16: 8 };
const show = (x) => String(Number(x.toPrecision(6)));
const percent = (x) => `${Number((100 * x).toPrecision(3))}%`;
const EXPONENT_TEXT = { pair: '2i/d (pair index i)', 'half-minus-one': 'i/(d/2 − 1)', column: '2j/d (column index j)' };
const ANGLE_TEXT = { divide: 'pos / base^e', 'ratio-power': '(pos / base)^e' };

function describeOptions(o) {
  const padding = o.paddingRow === null ? 'no padding row' : `padding row ${o.paddingRow}`;
  return `${o.layout}, exponent ${o.exponent}, ${o.order}, angle ${o.angle}, base ${show(o.base)}, start ${o.start}, ${padding}, scale ${show(o.scale)}`;
}

/** PE(pos, 2i) continued to 2i = d - 1: the first function of pair (d - 1) / 2, alone. */
function lone(order, dModel) {
  const [first, second] = order === 'sin-cos' ? ['sin', 'cos'] : ['cos', 'sin'];
  return `a ${first} at pair index i = ${(dModel - 1) / 2} without its ${second}`;
}

// What identify() tried before answering 'no match' (its `tried`), in the order tried.
const TRIED_TEXT = {
  table: '1-D tables at positions 0, 1, … (shifted by up to 3)',
  grid: '2-D sin-cos grids (MAE, DiT, diffusers) and 3-D ones (diffusers, CogVideoX); leading zero rows as extra tokens',
  timestep: 'timestep embeddings at evenly spaced timesteps',
  'any-start': '1-D tables from any position',
  descending: 'descending (relative) positions',
  transposed: 'the transposed table',
};
const triedText = (tried) => (tried?.length ? ` Tried: ${tried.map((k) => TRIED_TEXT[k]).join('; ')}.` : '');
const TIMESTEP_ORDER_TEXT = {
  'sin-cos': '[sin | cos] (flip_sin_to_cos=False)',
  'cos-sin': '[cos | sin] (flip_sin_to_cos=True)',
};
const gridShape = ({ height, width }) => `${height} rows of ${width} patches`;

const SENTENCES = {
  'all-zero': () => 'Every value is zero: there is no encoding to identify.',
  'too-large': ({ found }) =>
    `The values reach ${show(found)}: too large to be a positional encoding (|value| ≤ scale ≤ 2^53).`,
  transposed: ({ found, preset, changes }) =>
    `The table is transposed: its rows are dimensions and its columns positions. As ${found.dModel} positions × ${found.length} dimensions it is ${changes.length > 0 ? `${preset} with ${changes.join(', ')}` : preset}; transpose it (pe.T).`,
  unexplained: ({ found, where, relative }, options) =>
    `No convention explains this table: the closest (${describeOptions(options)}) is off by up to ${show(found)} (${percent(relative)} of the largest value) at row ${where.row}, column ${where.column}.`,
  'unexplained-far': ({ found, where, relative, tried }) =>
    `No convention explains this table, nor comes near it: the closest candidate is off by up to ${show(found)} (${percent(relative)} of the largest value) at row ${where.row}, column ${where.column}; it is another scheme (learned positions) or not a positional encoding.${triedText(tried)}`,
  'float32-angle': ({ error, where }) =>
    `The angles were computed in float32 (position × frequency rounded to 24 bits): the error grows with position, up to ${show(error)} at row ${where.row}. Compute the angles in float64 and cast the table afterwards.`,
  'angle-dtype': ({ found, error, where }) =>
    `The angles were rounded to ${found} (position × frequency kept to ${BITS[found]} significant bits): the error grows with position, up to ${show(error)} at row ${where.row}. Compute the angles in float32 or float64 and cast the table afterwards.`,
  'position-dtype': ({ found, error, where }) =>
    `The positions were rounded to ${found} (exact only up to ${2 ** BITS[found]}; beyond, neighbouring positions share one value): up to ${show(error)} off at row ${where.row}. Keep the positions in float32 or an integer type.`,
  'frequency-dtype': ({ found, error, where }) =>
    `The frequencies were rounded to ${found} (${BITS[found]} significant bits): each column's angle drifts with position, up to ${show(error)} off at row ${where.row}. Compute the frequencies in float32 or float64.`,
  'exponent-dtype': ({ found, error, where }) =>
    `The frequency exponents (such as 2i/d) were computed in ${found}: the frequencies are slightly off and the error grows with position, up to ${show(error)} at row ${where.row}. Compute the exponents in float64.`,
  'concat-vs-interleaved': ({ preset, found }) =>
    found === 'concat'
      ? `The pairs are concatenated as [first block | second block]; ${preset} interleaves them in even and odd columns.`
      : `The pairs are interleaved in even and odd columns; ${preset} concatenates them as [first block | second block].`,
  'sin-cos-swapped': ({ preset, found, expected }) =>
    `Sine and cosine are swapped: each pair is (${found.replace('-', ', ')}) where ${preset} has (${expected.replace('-', ', ')}).`,
  ratio: ({ preset, found, expected }) =>
    `The angle is ${ANGLE_TEXT[found]} where ${preset} uses ${ANGLE_TEXT[expected]}` +
    (found === 'ratio-power'
      ? ': the power applies to the ratio, so the columns are not sinusoids of the position.'
      : '.'),
  exponent: ({ preset, found, expected }) =>
    `The frequency exponent is ${EXPONENT_TEXT[found]}; ${preset} uses ${EXPONENT_TEXT[expected]}${found === 'column' ? ', so the two members of a pair get different frequencies' : ''}.`,
  base: ({ found, expected }) => `The base is ${show(found)}, not ${expected}.`,
  start: ({ code, found, expected }) =>
    `Row 0 is position ${found}, not ${expected}${code === 'start-off-by-one' ? ': the positions are off by one' : ''}.`,
  'missing-padding-row': ({ preset, expected }) =>
    `Row ${expected} is not zero: ${preset} zeroes it as the padding row.`,
  'unexpected-padding-row': ({ preset, found }) =>
    `Row ${found} is all zeros (a padding row); ${preset} has no padding row.`,
  'padding-row-moved': ({ preset, found, expected }) =>
    `Row ${found} is the zero padding row; ${preset} zeroes row ${expected}.`,
  scaled: ({ preset, found, expected }, options, dModel) =>
    `Every value is multiplied by ${show(found)}${found === Math.sqrt(dModel) ? ' (√dModel)' : ''}; ${preset} uses scale ${expected}.`,
  'grid-axes-swapped': ({ found }) =>
    `A 2-D grid of ${gridShape(found)} whose first half of the columns encodes the row (h) coordinate: MAE, DiT and diffusers put the column (w) coordinate first (their code calls that half emb_h: facebookresearch/mae#18), so this table is theirs with h and w swapped; a checkpoint trained with theirs expects the other order.`,
  'grid-naming': ({ found }) =>
    `A non-square 2-D grid of ${gridShape(found)} (height ${found.height}, width ${found.width}), the first half of the columns encoding the column (w) coordinate as in MAE and DiT, whose code calls that half emb_h (facebookresearch/mae#18): sizes passed the other way round give ${found.width} rows of ${found.height}.`,
  'grid-several-fit': ({ found }) =>
    `Several grids fit this row count: ${found.map((s) => `${s.height} × ${s.width} (${s.axisOrder})`).join(', ')}; the first is reported.`,
  'relative-positions': ({ found }) =>
    `The rows are positions ${found.first} down to ${found.last}, one apart: a relative-position table (as ESPnet's RelPositionalEncoding and Transformer-XL build it).`,
  'timestep-order': () =>
    `The timestep embedding is ${TIMESTEP_ORDER_TEXT['sin-cos']} with frequencies exp(−ln(max_period) · i / half) (downscale_freq_shift=0): guided-diffusion, DiT, latent-diffusion and diffusers' Stable Diffusion UNets use this exponent with ${TIMESTEP_ORDER_TEXT['cos-sin']}. A model trained with the other order gets its halves swapped (as reported for Wan: flashinfer-ai/flashinfer#3819).`,
  'timestep-shift': () =>
    `This is downscale_freq_shift=1 (frequencies exp(−ln(max_period) · i / (half − 1))) with cos first; diffusers' SDXL UNet (flip_sin_to_cos=True) and guided-diffusion use 0 (kohya-ss/sd-scripts#1187).`,
  'timesteps-unit-interval': ({ found, ends, neighbours }) =>
    `The timesteps run from ${show(found.first)} to ${show(found.last)} at max_period ${show(found.maxPeriod)}: most columns barely turn (angle t · max_period^(−e) ≤ t), so the rows are nearly constant: the first and last rows have cosine similarity ${show(ends)}, neighbouring rows at least ${show(neighbours)}. Models with t in [0, 1] multiply it by 1000 first (diffusers' scale=1000).`,
  'whisper-sinusoids': ({ found }) =>
    `[sin | cos] with exponent i/(d/2 − 1) and base ${show(found)}: Whisper's sinusoids(length, channels, max_timescale=${show(found)}) (log_timescale_increment = log(max_timescale) / (channels/2 − 1)), tensor2tensor's get_timing_signal_1d and diffusers' get_timestep_embedding with downscale_freq_shift=1 compute this table.`,
  'odd-column-zero': ({ preset }, options, dModel) =>
    `The last column (odd width ${dModel}) is all zeros, a padding column; ${preset} continues the formula there: ${lone(PRESETS[preset].order, dModel)}.`,
  'odd-column-formula': ({ preset }, options, dModel) =>
    `The last column (odd width ${dModel}) continues the formula: ${lone(options.order, dModel)}${structuredLikeHuggingFace(options) ? ' (as Hugging Face and Keras-NLP compute it)' : ''}; ${preset} leaves it zero.`,
};
// Codes that share one sentence.
const SENTENCE_OF = {
  'ratio-power': 'ratio',
  'angle-divide': 'ratio',
  'exponent-uses-column': 'exponent',
  'exponent-uses-pair': 'exponent',
  'exponent-uses-half-minus-one': 'exponent',
  'start-off-by-one': 'start',
  'start-offset': 'start',
};

/**
 * The English sentence of a diagnosis.
 * @param {{ code: string }} entry its facts
 * @param {import('../index.js').Convention} options the knobs diagnosed
 * @param {number} dModel the width they were found at
 */
export const diagnosisMessage = (entry, options, dModel) =>
  SENTENCES[SENTENCE_OF[entry.code] ?? entry.code](entry, options, dModel);
