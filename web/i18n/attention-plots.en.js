// English strings of the plots on attention, sine and cosine, the training
// length and the FAQ (sections/attention-sections.js): labels, notes with live numbers,
// descriptions. Spread into plots.en.js.
import { formatNumber as n } from './number.js';

const pct = (value) => `${n(value, 3)}%`;

export default {
  'attention.keyAxis': 'key position q',
  'attention.queryAxis': 'query position p',
  'attention.legend': 'PE(p)ᵀ M_k PE(q)',
  'attention.readout': (p, q, k, value) => `PE(${p})ᵀ M_${k} PE(${q}) = s(${q + k - p}) = ${n(value, 6)}`,
  'attention.hint': 'Hover or tap the matrix, or focus it and use the arrow keys; click (or Enter) picks the query p.',
  'attention.describe': ({ rows, min, max, offset }) =>
    `Positional attention scores PE(p)ᵀ M_k PE(q) for ${rows} query and key positions at k = ${offset}: values from ${n(min)} to ${n(max)}, largest on the diagonal q = p − ${offset}.`,
  'attention.before': 'p − k',
  'attention.after': 'p + k',
  'attention.plain': 'plain dot product PE(p)·PE(q)',
  'attention.rotated': (k) => `with M_${k}: PE(p)ᵀ M_${k} PE(q)`,
  'attention.scores': (p) => `scores of query p = ${p}`,
  'attention.weights': 'softmax(score / √d) over the keys shown',
  'attention.tokens': 'with M_k, random tokens added',
  'attention.unscaled': 'random tokens x, norm ≈ 1',
  'attention.scaled': 'random tokens × √d, norm ≈ √d',
  'attention.symmetry': ({ plainBefore, plainAfter, rotatedBefore, rotatedAfter, offset }) =>
    `Plain dot product: score(p, p − ${offset}) = ${n(plainBefore, 6)}, score(p, p + ${offset}) = ${n(plainAfter, 6)} — the same: it cannot tell before from after. With M_${offset}: score(p, p − ${offset}) = s(0) = ${n(rotatedBefore, 6)}, score(p, p + ${offset}) = s(${2 * offset}) = ${n(rotatedAfter, 6)}.`,
  'attention.weightBack': ({ plain, rotated, offset }) =>
    Number.isFinite(rotated)
      ? `Softmax weight on the key p − ${offset}: ${n(plain, 3)} with the plain dot product, ${n(rotated, 3)} with M_${offset}.`
      : `p − ${offset} is before position 0: this query has no key ${offset} tokens back.`,
  'attention.fractions': ({
    window,
    offset,
    rows,
    plain,
    rotated,
    unscaled,
    scaled,
    unscaledPercent,
    scaledPercent,
    scaledItself,
  }) =>
    rows === 0
      ? `No query of the ${window} positions 0 … ${window - 1} has a key ${offset} tokens back: lower k.`
      : `Queries p = ${offset} … ${window - 1} (${rows}), keys 0 … ${window - 1}: the best key is p − ${offset} for ${plain} of ${rows} with the plain dot product, ${rotated} with M_${offset}, ${unscaled} (${pct(unscaledPercent)}) with tokens of norm ≈ 1 added, ${scaled} (${pct(scaledPercent)}) with tokens × √d. With those, ${scaledItself} queries score their own position highest${scaledItself > rows / 2 ? ': the token’s product with itself, x_pᵀ M_k x_p, outweighs the rest' : ''}.`,
  'attention.describeRows': ({ position, offset }) =>
    `Attention scores and softmax weights of query ${position} over the keys around it, for the plain dot product and for M_${offset}, and with random token embeddings added.`,

  'sineOnly.from': (start) => `sine only, from position ${start}`,
  'sineOnly.axis': 's_sin(k)',
  'sineOnly.describe': ({ curves, spread }) =>
    `s(k) of the sine-only encoding from ${curves.length} starting positions; largest difference between the curves ${n(spread)}: it depends on the starting position.`,

  'sineFit.sine': 'sine only: best matrix',
  'sineFit.cosine': 'cosine only: best matrix',
  'sineFit.both': 'sin and cos: M_k',
  'sineFit.panel': ({ pairs, allPairs }) =>
    `part of f(PE(p + k)) missed, per pair${pairs < allPairs ? ` (fastest ${pairs})` : ''}`,
  'sineFit.axis': 'pair i',
  'sineFit.underdetermined': ({ positions, pairs }) =>
    `Only ${positions} positions for ${pairs} pairs: some matrix fits that few rows exactly. Raise L or lower k.`,
  'sineFit.residual': ({ positions, offset, pairs, allPairs, sine, cosine, both }) =>
    `Best matrix from f(PE(p)) to f(PE(p + ${offset})) over p = 0 … ${positions - 1}${pairs < allPairs ? `, pairs 0 … ${pairs - 1}` : ''}: it misses ${pct(sine)} of the sine-only targets and ${pct(cosine)} of the cosine-only ones. With sine and cosine, M_${offset} misses ${both.toExponential(1)}: rounding.`,
  'sineFit.zero': ({ offset, norm }) =>
    `Why no matrix can work with sines alone: at p = 0 the sine-only vector is all zeros, and every matrix maps zero to zero, while its vector at p = ${offset} has norm ${n(norm, 4)}.`,
  'sineFit.spread': ({ sine, cosine }) =>
    `s(k) from p and from p + 100 differ by up to ${n(sine, 4)} with sines only and ${n(cosine, 4)} with cosines only: the dot product depends on where you start.`,
  'sineFit.mirror': ({ pair, position, angle, mirrorAngle, mirrorPosition }) =>
    `Pair i = ${pair} at p = ${position}: angle θ = ${n(angle, 4)} rad. The sine alone has the same value at π − θ = ${n(mirrorAngle, 4)} rad, which this pair reaches at position ${n(mirrorPosition, 4)}; the cosine tells the two apart (cos θ = ${n(Math.cos(angle), 3)}, cos(π − θ) = ${n(Math.cos(mirrorAngle), 3)}).`,
  'sineFit.describe': ({ pairs }) =>
    `Per pair, for ${pairs} pairs: how much of the shifted encoding the best matrix misses for a sine-only and a cosine-only encoding (a large part), and M_k's residual with sine and cosine (zero).`,

  'extrapolation.panel': 'fraction of each pair’s turn',
  'extrapolation.marker': 'first pair not seen whole',
  'extrapolation.seen': (length) => `seen in training, positions 0 … ${length - 1}`,
  'extrapolation.reached': (position) => `reached at p = ${position}`,
  'extrapolation.count': ({ length, incomplete, firstIncomplete, slowestSeenDegrees, seen }) =>
    incomplete === 0
      ? `With L = ${length}, every one of the ${seen.length} pairs turns a full circle within the training positions.`
      : `With L = ${length}, pairs ${firstIncomplete} … ${seen.length - 1} (${incomplete} of ${seen.length}) never complete a turn within positions 0 … ${length - 1}; the slowest sees ${n(slowestSeenDegrees, 3)}° of its 360°.`,
  'extrapolation.atP': ({ length, position, unseenAtP, incomplete }) =>
    position < length
      ? `p = ${position} is inside the training length: every pair is at an angle seen in training.`
      : `At p = ${position} (beyond L = ${length}), ${unseenAtP} of the ${incomplete} pairs not seen whole are at angles no training position had.`,
  'extrapolation.describe': ({ length, incomplete, seen }) =>
    `Per pair, the fraction of its circle the positions 0 to ${length - 1} cover: ${incomplete} of ${seen.length} pairs see only an arc.`,

  'tokenScale.panel': (p) => `position ${p}: PE(p) and a token × √d`,
  'tokenScale.pe': (p) => `PE(${p})`,
  'tokenScale.token': 'random token embedding × √d',
  'tokenScale.norms': ({ peNorm, tokenNorm, scaledNorm, dModel }) =>
    `|PE(p)| = ${n(peNorm, 4)} = √${Math.floor(dModel / 2)} at d = ${dModel} (1 per pair). A token embedding initialised with standard deviation 1/√d has norm ${n(tokenNorm, 3)}; multiplied by √d = ${n(Math.sqrt(dModel), 4)}, ${n(scaledNorm, 3)}.`,
  'tokenScale.cosine': ({ cosine, dModel }) =>
    `Cosine of the angle between this token and PE(p): ${n(cosine, 2)}; two random directions in ${dModel} dimensions have a cosine of typical size 1/√d = ${n(1 / Math.sqrt(dModel), 2)}.`,
  'tokenScale.nope': ({ position, uniformWeight }) =>
    `Without any positional encoding, a causal head that attends evenly to every token so far gives each the weight 1/(p + 1) = ${n(uniformWeight, 3)} at p = ${position}: a value from which later layers can read the position.`,
  'tokenScale.describe': ({ position }) =>
    `The positional encoding at position ${position} and a random token embedding scaled by √d, value per dimension.`,
};
