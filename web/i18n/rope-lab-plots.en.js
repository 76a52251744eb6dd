// English strings of the RoPE lab's plots (<posenc-rope-scaling>, the dials):
// spread into plots.en.js. Every sentence is built from the live numbers.
import { formatGrouped as n, groupDigits as count } from './number.js';

// A base: grouped digits from 100,000 up (500,000, not 5.00000e+5), else 6 significant digits.
const big = (value) => (Math.abs(value) >= 1e5 && Math.abs(value) < 1e15 ? count(Math.round(value)) : n(value, 6));

// A wavelength in positions: grouped whole positions from 1,000 up, else 4 significant digits.
const wavelength = (value) => (value >= 1e3 ? count(Math.round(value)) : n(value, 4));

const blendedWords = {
  dynamic: 'take the enlarged base (blended)',
  longrope: 'are divided by their own factor from the list (blended)',
};

const attentionWords = ({ type, value, given, mscale, mscaleAllDim, factor }) => {
  const v = n(value, 6);
  if (given) return `Attention factor: ${v}, as given (attention_factor).`;
  if (type === 'yarn' && mscale && mscaleAllDim)
    return `Attention factor: get_mscale(${n(factor, 6)}, ${n(mscale, 6)}) / get_mscale(${n(factor, 6)}, ${n(mscaleAllDim, 6)}) = ${v}.`;
  if (type === 'yarn')
    return factor <= 1
      ? `Attention factor: ${v} (factor ≤ 1).`
      : `Attention factor: 0.1·ln(${n(factor, 6)}) + 1 = ${v}: cos and sin are multiplied by it, so every q·k score by its square, ${n(value * value, 6)}.`;
  if (type === 'longrope')
    return factor <= 1
      ? `Attention factor: ${v} (factor ≤ 1).`
      : `Attention factor: √(1 + ln ${n(factor, 6)} / ln original_max_position_embeddings) = ${v}: cos and sin are multiplied by it, so every q·k score by ${n(value * value, 6)}.`;
  return `Attention factor: ${v} (the ${type} type does not scale cos and sin).`;
};

export default {
  'ropeLab.axisPair': 'rotary pair i',
  'ropeLab.axisWavelength': 'wavelength 2π/ωᵢ (positions)',
  'ropeLab.legendBefore': 'without scaling',
  'ropeLab.kind.kept': 'kept (extrapolated)',
  'ropeLab.kind.interpolated': 'interpolated (÷ factor)',
  'ropeLab.kind.blended': 'blended',
  'ropeLab.guideOriginal': (length) => `original context L₀ = ${count(length)}`,
  'ropeLab.guideSeqLen': (length) => `sequence length ${count(length)}`,
  'ropeLab.guideBand': (name, length) => `L₀/${name} = ${wavelength(length)}`,
  'ropeLab.longropeHeadDim': (pairs, headDim) =>
    `LongRoPE takes one factor per pair: the preset’s lists have ${pairs}, so head_dim is ${headDim} here.`,
  'ropeLab.kinds': ({ pairs, kept, interpolated, blended, factor, type }) =>
    type === 'default'
      ? `No scaling (rope_type default): all ${pairs} pairs keep their frequency, and beyond the original context the slow ones extrapolate.`
      : `Of ${pairs} pairs, ${kept} keep their frequency (extrapolated: they turn as in training), ${interpolated} are divided by factor ${n(factor, 6)} (interpolated) and ${blended} ${blendedWords[type] ?? 'are blended between the two'}.`,
  'ropeLab.attention': attentionWords,
  'ropeLab.softmaxScale': (factor, mscaleAllDim, scale) =>
    `DeepSeek-V3’s attention also multiplies its softmax scale by get_mscale(${n(factor, 6)}, ${n(mscaleAllDim, 6)})² = ${n(scale, 6)}: that is in the attention, not in RoPE.`,
  'ropeLab.longropeList': (long, seqLen, original) =>
    long
      ? `seq_len ${count(seqLen)} > original_max_position_embeddings ${count(original)}: long_factor is used.`
      : `seq_len ${count(seqLen)} ≤ original_max_position_embeddings ${count(original)}: short_factor is used.`,
  'ropeLab.unseen': ({ original, pairs, fullTurns, firstBefore, firstAfter, position, unseenBefore, unseenAfter }) =>
    fullTurns === pairs
      ? `In training (positions 0 to ${count(original - 1)}) every one of the ${pairs} pairs turned through a full circle: no angle is new at any position.`
      : `In training (positions 0 to ${count(original - 1)}) ${fullTurns} of ${pairs} pairs turned through a full circle; the other ${pairs - fullTurns} never did. Without scaling, the first position with an angle never seen in training is ${count(firstBefore)}; with scaling it is ${count(firstAfter)}. At position ${count(position)}, ${unseenAfter} pairs show an angle never seen in training (${unseenBefore} without scaling). Angles are compared on the circle: a pair that turned past a whole circle and came back into its trained arc is at a seen angle; an angle between those of two trained positions counts as seen, as position interpolation assumes.`,
  'ropeLab.dynamicBases': (base, rows) =>
    `Dynamic NTK scales the base with the sequence length L (rope_theta ${big(base)}): ${rows.map(({ length, base: grown }) => `L = ${count(length)} → ${big(grown)}`).join(', ')}.`,
  'ropeLab.describe': ({ pairs, type, shortest, longest, original }) =>
    `Wavelength of each of ${pairs} rotary pairs on a log scale, without scaling (rings) and with ${type} (dots), from ${wavelength(shortest)} to ${wavelength(longest)}, against the original context ${count(original)}.`,
  'ropeLab.dialsLegend': (position, original) =>
    `Each dial is one pair at position ${count(position)} (the sequence’s last): the thin hand without scaling, the thick hand with it. Shaded: the arc the training range sweeps (positions below ${count(original)}); a thick hand outside the shading points at an angle never seen in training.`,
  'ropeLab.odometer': ({ beta, position, turnsSlowest, pairs }) =>
    `Read together the dials are an odometer in base β = rope_theta^(2/d) = ${n(beta, 6)} (before scaling): each pair turns β times slower than the one before it. At position ${count(position)} the slowest pair (i = ${pairs - 1}) has turned ${n(turnsSlowest, 4)} times with scaling.`,
  'ropeLab.readoutHint': 'Hover or tap a pair, or focus the plot and use the arrow keys, to read it out.',
  'ropeLab.readout': ({ pair, wavelengthBefore, wavelengthAfter, factor, kindText, seenShare, original }) =>
    `Pair ${pair}: wavelength ${wavelength(wavelengthBefore)} → ${wavelength(wavelengthAfter)} positions (factor ${n(factor, 4)}), ${kindText}. ${seenShare >= 1 ? `Training (positions below ${count(original)}) turned it through its whole circle.` : `Training (positions below ${count(original)}) swept ${n(100 * seenShare, 3)}% of its circle.`}`,
  'ropeLab.dialsDescribe': (pairs, position) =>
    `${pairs} dials, one per rotary pair, showing each pair’s angle at position ${count(position)} without and with scaling.`,
};
