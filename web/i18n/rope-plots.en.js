// English strings of the RoPE chapter's plots and of "why 10000" (elements
// and embed.html show them too); plots.en.js spreads them in.
import { formatDifference as tiny, formatGrouped, formatNumber as n, groupDigits as count } from './number.js';

/** A base: whole bases below 1e7 with grouped digits (500,000), others as numbers (4,293.44, 1.00e+8). */
const b = (base, digits = 3) => (Number.isInteger(base) && base < 1e7 ? count(base) : formatGrouped(base, digits));

export default {
  'axis.base': 'base',

  'whyBase.similarity': (apart) => `largest cosine similarity of two rows ≥ ${apart} apart`,
  'whyBase.slow': (length) => `share of dimensions turning < 1 radian over ${count(length)} positions`,
  'whyBase.yTitle': 'similarity / share',
  'whyBase.markCurrent': (base) => `base ${b(base)}`,
  'whyBase.markSmallest': (base) => `smallest ${b(base)}`,
  'whyBase.noteAt': ({ base, similarity, slowDims, d, apart }) =>
    `At base ${b(base)}: two rows ${apart} or more positions apart reach a cosine similarity of ${n(similarity)}; ${slowDims} of ${d} dimensions turn less than one radian across the table.`,
  'whyBase.noteSmallest': ({ smallest, length, d }) =>
    smallest === null
      ? `No base up to 1e12 keeps s(k) ≥ 0 for every k < ${count(length)} at d = ${d}.`
      : `The smallest base that keeps s(k) ≥ 0 for every k < ${count(length)} at d = ${d} (the criterion of Men et al. 2024) is ${b(smallest, 6)}: 10000 is ${smallest <= 1e4 ? 'above it' : 'below it, too small for this table by that criterion'}.`,
  'whyBase.describe': ({ d, length, apart }) =>
    `Against the base on a log scale, for d = ${d} and ${count(length)} positions: the largest cosine similarity of two rows at least ${apart} apart, high for small bases, and the share of dimensions that barely turn, high for large bases.`,

  'ropeRelative.from': (start) => `q at position ${count(start)}`,
  'ropeRelative.xTitle': 'offset k',
  'ropeRelative.yTitle': '𝐪_p · 𝐤_(p+k)',
  'ropeRelative.describe': ({ curves, spread, other, permutedDifference, unpermutedDifference }) =>
    `The same 𝐪 and 𝐤 rotated to positions p and p + k, from ${curves.length} starting positions: the curves agree to within ${tiny(spread)}. With the ${other} layout and 𝐪, 𝐤 permuted into it the scores agree to within ${tiny(permutedDifference)}; without the permutation they differ by up to ${n(unpermutedDifference)}.`,

  'ropeDecay.bound': 'RoFormer’s relative upper bound ÷ its value at 0',
  'ropeDecay.score': 'RoPE score of all-ones q, k',
  'ropeDecay.sinusoid': 's(k)/(d/2) of the sinusoidal table',
  'ropeDecay.yTitle': 'score',
  'ropeDecay.noteBound': ({ window, atZero, last }) =>
    `The bound (1/(d/2))·Σ|S_j| falls from ${n(atZero)} at k = 0 to ${n(last)} at k = ${count(window)} (${n((100 * last) / atZero)}%).`,
  'ropeDecay.noteAgreement': (difference) =>
    `The RoPE score and the sinusoidal s(k)/(d/2) agree to within ${tiny(difference)}.`,
  'ropeDecay.describe': (window) =>
    `Offsets 0 to ${count(window)}: RoFormer’s relative upper bound (scaled to 1 at 0), the score of all-ones 𝐪 and 𝐤, and the sinusoidal s(k)/(d/2) on top of it.`,

  'ropeBase.series': (headDim) => `context the base supports (d = ${headDim})`,
  'ropeBase.guide': (context) => `L = ${count(context)}`,
  'ropeBase.mark': ({ base, supported, capped }) => `${b(base)}: ${capped ? '≥ ' : ''}${count(supported)}`,
  'ropeBase.yTitle': 'context (positions)',
  'ropeBase.noteSmallest': ({ smallest, context, headDim }) =>
    smallest === null
      ? `No base up to 1e12 keeps Σ cos(k·ω_i) ≥ 0 for every k < ${count(context)} at d = ${headDim}.`
      : `Smallest base with Σ cos(k·ω_i) ≥ 0 for every k < ${count(context)} at d = ${headDim}: ${b(smallest, 6)}.`,
  'ropeBase.noteMark': ({ base, supported, capped, context }) =>
    capped
      ? `Base ${b(base)}: the sum stays ≥ 0 for every k < ${count(supported)} (counted no further): enough for L = ${count(context)}.`
      : `Base ${b(base)}: the sum first turns negative at k = ${count(supported)}, so it supports ${count(supported)} positions: ${supported >= context ? 'enough for' : 'fewer than'} L = ${count(context)}.`,
  'ropeBase.describe': ({ headDim, context, limit, marked }) =>
    `Against the base on a log scale, the context it supports by the criterion of Men et al. (2024) at d = ${headDim} (counted up to ${count(limit)}), with the line L = ${count(context)} and the bases ${marked
      .slice(0, -1)
      .map((base) => b(base))
      .join(', ')} and ${b(marked.at(-1))} marked.`,
};
