// The numbers of the chapter on how attention uses the encoding (issue #20:
// attention, why sine and cosine, beyond the training length, the FAQ), as a
// function of the page state: every encoding value comes from the core
// (table, row, offsetDots, frequencies) through the model (data.js); this
// module only multiplies, sums and fits them. No text: sections in
// attention-sections.js add the labels. The page runs these in its worker.
import { PRESETS } from '../lib/index.js';
import { pairColumns, pairCount } from './convention.js';
import { offsetWindow } from './data.js';

const TWO_PI = 2 * Math.PI;
/** Starting positions whose s(k) curves are overlaid (as in the offset section): p, p + 100, p + 1000. */
const START_STEPS = [0, 100, 1000];
/** Keys shown on each side of the query in the attention rows. */
export const ROW_REACH = 48;
/** Positions and pairs fitted at most by the least-squares maps (the cost grows with positions × pairs²). */
export const FIT_POSITIONS = 1024;
export const FIT_PAIRS = 128;

/**
 * The paper's encoding at the state's width and base, pairs only: at an odd d
 * the last column is left zero (a lone sine would make the dot products depend
 * on p, which is the point of another section, not of these).
 */
export const pairedPaper = (state) => ({
  ...PRESETS.vaswani,
  preset: 'vaswani',
  dModel: state.dModel,
  base: state.base,
  oddColumn: 'zero',
});

/** Positions 0 … N−1 of the attention matrix: 128, or enough to hold k + 64, at most 512 and L. */
export const attentionWindow = (state) => Math.min(state.length, 512, Math.max(128, state.offset + 64));

/** A seeded stream of uniform numbers in [0, 1) (mulberry32): the same tokens in every run and browser. */
function uniforms(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKEN_SEED = 0x5eed2017;

/**
 * The token embedding at `position`: dModel independent normal entries of
 * standard deviation 1/√d (the initialisation of fairseq and tensor2tensor;
 * its norm is about 1), seeded by the position alone. `scale` multiplies it
 * (√d: the paper's §3.4, which makes the norm about √d).
 */
export function tokenVector(dModel, position, scale = 1) {
  const next = uniforms(TOKEN_SEED ^ Math.imul(position + 1, 0x9e3779b1));
  const out = new Float64Array(dModel);
  const deviation = scale / Math.sqrt(dModel);
  for (let j = 0; j < dModel; j += 2) {
    // Box–Muller: two normals from two uniforms (1 − u keeps the log finite).
    const radius = Math.sqrt(-2 * Math.log(1 - next()));
    const angle = TWO_PI * next();
    out[j] = deviation * radius * Math.cos(angle);
    if (j + 1 < dModel) out[j + 1] = deviation * radius * Math.sin(angle);
  }
  return out;
}

/** M_k·v: every (sin, cos) pair of v turned by ω_i k; `turn` is row k of the convention (sin ω_i k, cos ω_i k). */
function rotate(conv, turn, vector) {
  const out = Float64Array.from(vector);
  for (let i = 0; i < pairCount(conv.dModel); i++) {
    const { sin, cos } = pairColumns(conv, i);
    out[sin] = vector[sin] * turn[cos] + vector[cos] * turn[sin];
    out[cos] = vector[cos] * turn[cos] - vector[sin] * turn[sin];
  }
  return out;
}

const dot = (a, b) => {
  let sum = 0;
  for (let j = 0; j < a.length; j++) sum += a[j] * b[j];
  return sum;
};

/** softmax(values / temperature), in float64. */
export function softmax(values, temperature) {
  let largest = -Infinity;
  for (const value of values) largest = Math.max(largest, value);
  const out = new Float64Array(values.length);
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += out[i] = Math.exp((values[i] - largest) / temperature);
  for (let i = 0; i < values.length; i++) out[i] /= sum;
  return out;
}

/**
 * For the queries p = k … N−1 of a window of N positions: how many have their
 * largest score(p, q) over the keys q = 0 … N−1 at q = p − k, and how many at q = p.
 */
function lookBack(size, offset, score) {
  let hits = 0;
  // Queries whose best key is their own position (the token's product with itself can outweigh the rest).
  let itself = 0;
  for (let p = offset; p < size; p++) {
    let best = -Infinity;
    let at = -1;
    for (let q = 0; q < size; q++) {
      const value = score(p, q);
      if (value > best) [best, at] = [value, q];
    }
    if (at === p - offset) hits++;
    if (at === p) itself++;
  }
  const rows = Math.max(0, size - offset);
  return { hits, itself, rows, fraction: rows > 0 ? hits / rows : NaN };
}

/**
 * score(p, q) = u_pᵀ M_k u_q over the rows of a window, u = PE + token·scale:
 * the queries u_p and the keys M_k·u_q, for lookBack.
 */
function tokenScores(conv, rows, turn, scale) {
  const d = conv.dModel;
  const queries = [];
  const keys = [];
  for (let q = 0; q < rows.length / d; q++) {
    const u = rows.slice(q * d, (q + 1) * d);
    const token = tokenVector(d, q, scale);
    for (let j = 0; j < d; j++) u[j] += token[j];
    queries.push(u);
    keys.push(rotate(conv, turn, u));
  }
  return (p, q) => dot(queries[p], keys[q]);
}

/** Largest |a(m) − b(m)| of two s(k) curves over the offsets they share. */
function spread(a, b) {
  let worst = 0;
  for (let i = 0; i < a.values.length; i++) {
    const at = a.first + i - b.first;
    if (at >= 0 && at < b.values.length) worst = Math.max(worst, Math.abs(a.values[i] - b.values[at]));
  }
  return worst;
}

/**
 * s(k) of the encoding that keeps only the sine (or only the cosine) of each
 * pair, from `start` over k in [-min(K, start), K]: Σ_i f(ω_i p)·f(ω_i (p + k)),
 * summed over rows of the core's float64 table.
 */
function halfOffsetCurve(model, conv, member, start, window) {
  const back = Math.min(window, start);
  const count = back + window + 1;
  const rows = model.table({ ...conv, dtype: 'float64' }, start - back, count);
  const d = conv.dModel;
  const columns = Array.from({ length: pairCount(d) }, (_, i) => pairColumns(conv, i)[member]);
  const values = new Float64Array(count);
  const at = back * d;
  for (let n = 0; n < count; n++) {
    let sum = 0;
    for (const column of columns) sum += rows[at + column] * rows[n * d + column];
    values[n] = sum;
  }
  return { start, first: -back, values };
}

/**
 * The best matrix from f(PE(p)) to f(PE(p + k)) over p = 0 … N−1, where f keeps
 * one member of each pair: per pair, the residual relative to the target's
 * norm (1: nothing of it is reached; 0: reached exactly).
 *
 * The target is f(ω(p + k)) = cos(ωk)·f(ωp) ± sin(ωk)·g(ωp), g the other
 * member, and f(ωp) is an input: what the inputs cannot reach of it is
 * |sin(ω_i k)| times what they cannot reach of g(ω_i p), which depends on
 * neither k nor the position. That part (the core's least squares of N ×
 * pairs, the costly step) is kept for the last settings
 * per member, so that dragging the offset, the position, the dimension or the
 * length (while N stays) does not redo it.
 */
function halfFit(model, rows, conv, member, positions, offset, pairs) {
  const d = conv.dModel;
  const { unreached, rank } = unreachedOfOther(model, rows, conv, member, positions, pairs);
  let leftSquared = 0;
  let totalSquared = 0;
  const relative = new Float64Array(pairs);
  // Each target's norm², summed row by row through the table (a column at a time missed the cache).
  const columns = Array.from({ length: pairs }, (_, i) => pairColumns(conv, i));
  const targetColumns = Int32Array.from(columns, (pair) => pair[member]);
  const targets = new Float64Array(pairs);
  for (let p = 0; p < positions; p++) {
    const row = (p + offset) * d;
    for (let i = 0; i < pairs; i++) targets[i] += rows[row + targetColumns[i]] ** 2;
  }
  for (let i = 0; i < pairs; i++) {
    const target = targets[i];
    // Row `offset` of the paper's float64 table (unscaled) holds sin(ω_i k) in the pair's sine column.
    const left = Math.abs(rows[offset * d + columns[i].sin]) * unreached[i];
    relative[i] = target > 0 ? left / Math.sqrt(target) : 0;
    leftSquared += left ** 2;
    totalSquared += target;
  }
  return { relative, overall: Math.sqrt(leftSquared / totalSquared), rank };
}

// member -> { key, unreached, rank } for the last settings it was computed for.
const unreachedKept = new Map();

/**
 * Per pair i, |g_i − P g_i| over p = 0 … N−1: g_i the other member's column,
 * P the least-squares projection on the member's columns of the `pairs`
 * fastest pairs (the core's leastSquaresResiduals, whose rank stops where the
 * slow sinusoids are parallel to rounding); and that numerical rank.
 */
function unreachedOfOther(model, rows, conv, member, positions, pairs) {
  const key = `${JSON.stringify(conv)}|${positions}|${pairs}`;
  const kept = unreachedKept.get(member);
  if (kept?.key === key) return kept;
  const d = conv.dModel;
  const other = member === 'sin' ? 'cos' : 'sin';
  const inputs = new Float64Array(positions * pairs);
  const targets = new Float64Array(positions * pairs);
  const columns = Array.from({ length: pairs }, (_, i) => pairColumns(conv, i));
  const inputColumns = Int32Array.from(columns, (pair) => pair[member]);
  const targetColumns = Int32Array.from(columns, (pair) => pair[other]);
  for (let p = 0, at = 0; p < positions; p++) {
    const row = p * d;
    for (let i = 0; i < pairs; i++, at++) {
      inputs[at] = rows[row + inputColumns[i]];
      targets[at] = rows[row + targetColumns[i]];
    }
  }
  const { residuals: unreached, rank } = model.core.leastSquaresResiduals({ inputs, targets, rows: positions });
  const computed = { key, unreached, rank };
  unreachedKept.set(member, computed);
  return computed;
}

/**
 * Per plot of the chapter: compute({ model, state }) -> plain objects and typed
 * arrays (what a worker can post back).
 */
export const ATTENTION_COMPUTE = {
  /**
   * The positional scores PE(p)ᵀ M_k PE(q) = s(q + k − p) of the window's N positions, as a map (the
   * page's worker paints it); min and max are those of the map's float32 values, as the worker finds them.
   */
  attention: ({ model, state }) => {
    const conv = pairedPaper(state);
    const size = attentionWindow(state);
    const k = state.offset;
    const low = k - (size - 1);
    const s = model.offsetDots(conv, 0, low, k + size - 1);
    const values = new Float32Array(size * size);
    for (let p = 0; p < size; p++) for (let q = 0; q < size; q++) values[p * size + q] = s[q + k - p - low];
    // Every offset of s is in the map (the first row holds k − (N − 1) … k, the first column k … k + N − 1).
    let [min, max] = [Infinity, -Infinity];
    for (const value of s) {
      const single = Math.fround(value);
      [min, max] = [Math.min(min, single), Math.max(max, single)];
    }
    return { size, offset: k, map: { values, rows: size, columns: size }, min, max };
  },

  /**
   * One query's scores over the keys around it, plain (A = I) and with A = M_k,
   * their softmax, the same with token embeddings, and over the window the
   * fraction of queries whose best key is p − k.
   */
  'attention-rows': ({ model, state }) => {
    const conv = pairedPaper(state);
    const d = state.dModel;
    const k = state.offset;
    const p = state.position;
    const first = -Math.min(ROW_REACH, p);
    const count = ROW_REACH - first + 1;
    // s(m) for m in [first, ROW_REACH + k]: plain scores s(q − p), rotated s(q − p + k).
    const s = model.offsetDots(conv, 0, first, ROW_REACH + k);
    const offsets = Float64Array.from({ length: count }, (_, n) => first + n);
    const plain = Float64Array.from(offsets, (m) => s[m - first]);
    const rotated = Float64Array.from(offsets, (m) => s[m + k - first]);
    const temperature = Math.sqrt(d);
    // Tokens over the same keys, at both scales.
    const exact = { ...conv, dtype: 'float64' };
    const turn = model.row(exact, k);
    const withTokens = (scale) => {
      const query = Float64Array.from(model.row(exact, p));
      const token = tokenVector(d, p, scale);
      for (let j = 0; j < d; j++) query[j] += token[j];
      return Float64Array.from(offsets, (m) => {
        const key = Float64Array.from(model.row(exact, p + m));
        const keyToken = tokenVector(d, p + m, scale);
        for (let j = 0; j < d; j++) key[j] += keyToken[j];
        return dot(query, rotate(conv, turn, key));
      });
    };
    const size = attentionWindow(state);
    const rows = model.table(exact, 0, size);
    // s(m) over every q − p (+ k) of the window: the positional scores without a token.
    const windowDots = model.offsetDots(conv, 0, -(size - 1), size - 1 + k);
    const positional = (shift) => (p, q) => windowDots[q - p + shift + size - 1];
    // s(−k), s(0), s(k), s(2k): score(p, p ∓ k) plain and with M_k.
    const around = model.offsetDots(conv, 0, -k, 2 * k);
    return {
      position: p,
      offset: k,
      offsets,
      plain,
      rotated,
      plainWeights: softmax(plain, temperature),
      rotatedWeights: softmax(rotated, temperature),
      unscaled: withTokens(1),
      scaled: withTokens(Math.sqrt(d)),
      // score(p, p − k) and score(p, p + k): s(−k) and s(k) for the plain product; s(0) and s(2k) with M_k.
      symmetry: {
        plainBefore: around[0],
        plainAfter: around[2 * k],
        rotatedBefore: around[k],
        rotatedAfter: around[3 * k],
      },
      window: size,
      fractions: {
        plain: lookBack(size, k, positional(0)),
        rotated: lookBack(size, k, positional(k)),
        unscaled: lookBack(size, k, tokenScores(conv, rows, turn, 1)),
        scaled: lookBack(size, k, tokenScores(conv, rows, turn, Math.sqrt(d))),
      },
    };
  },

  /** s(k) of the sine-only encoding from p, p + 100, p + 1000 (they part: it depends on p). */
  'sine-only': ({ model, state }) => {
    const conv = pairedPaper(state);
    const window = offsetWindow(state);
    return {
      offset: state.offset,
      curves: START_STEPS.map((step) => halfOffsetCurve(model, conv, 'sin', state.position + step, window)),
      contributions: null,
    };
  },

  /**
   * Per pair, what the best matrix from f(PE(p)) to f(PE(p + k)) leaves of the
   * target (sine only, cosine only; the fastest FIT_PAIRS pairs), and M_k's residual for the whole pair;
   * how far the half encodings' s(k) curves from p and p + 100 part; the angle
   * of dimension j's pair at p and its mirror π − θ.
   */
  'sine-fit': ({ model, state }) => {
    const conv = pairedPaper(state);
    const d = state.dModel;
    const k = state.offset;
    const positions = Math.min(state.length - k, FIT_POSITIONS);
    const exact = { ...conv, dtype: 'float64' };
    const rows = model.table(exact, 0, positions + k);
    const pairs = Math.min(pairCount(d), FIT_PAIRS);
    const turn = model.row(exact, k);
    // sin and cos together: M_k maps every row exactly; its residual, relative per pair.
    const both = new Float64Array(pairs);
    let bothLeft = 0;
    let bothTotal = 0;
    const columns = Array.from({ length: pairs }, (_, i) => pairColumns(conv, i));
    const [sines, cosines] = ['sin', 'cos'].map((member) => Int32Array.from(columns, (pair) => pair[member]));
    const [turnSines, turnCosines] = [sines, cosines].map((of) => Float64Array.from(of, (column) => turn[column]));
    // Per pair, summed row by row through the table (a column at a time missed the cache).
    const lefts = new Float64Array(pairs);
    const totals = new Float64Array(pairs);
    for (let p = 0; p < positions; p++) {
      const [from, to] = [p * d, (p + k) * d];
      for (let i = 0; i < pairs; i++) {
        const sin = sines[i];
        const cos = cosines[i];
        const turnSin = turnSines[i];
        const turnCos = turnCosines[i];
        const ps = rows[from + sin];
        const pc = rows[from + cos];
        const ts = rows[to + sin];
        const tc = rows[to + cos];
        lefts[i] += (ts - (ps * turnCos + pc * turnSin)) ** 2 + (tc - (pc * turnCos - ps * turnSin)) ** 2;
        totals[i] += ts ** 2 + tc ** 2;
      }
    }
    for (let i = 0; i < pairs; i++) {
      both[i] = Math.sqrt(lefts[i] / totals[i]);
      bothLeft += lefts[i];
      bothTotal += totals[i];
    }
    const underdetermined = positions <= pairs;
    // Row 0 of the sine-only encoding is all zeros, which every matrix maps to zero: PE_sin(k) is missed whole.
    let zeroTarget = 0;
    for (let i = 0; i < pairCount(d); i++) zeroTarget += turn[pairColumns(conv, i).sin] ** 2;
    const window = offsetWindow(state);
    const partOf = (member) => {
      const [a, b] = [state.position, state.position + 100].map((start) =>
        halfOffsetCurve(model, conv, member, start, window),
      );
      return spread(a, b);
    };
    // The pair of dimension j (the last pair for an odd d's zero column).
    const pair = Math.min(Math.floor(state.dimension / 2), pairCount(d) - 1);
    const frequency = model.frequencies(conv)[pairColumns(conv, pair).sin];
    const angle = (frequency * state.position) % TWO_PI;
    const mirror = (((Math.PI - angle) % TWO_PI) + TWO_PI) % TWO_PI;
    return {
      positions,
      offset: k,
      underdetermined,
      sine: underdetermined ? null : halfFit(model, rows, conv, 'sin', positions, k, pairs),
      cosine: underdetermined ? null : halfFit(model, rows, conv, 'cos', positions, k, pairs),
      pairs,
      allPairs: pairCount(d),
      both: { relative: both, overall: Math.sqrt(bothLeft / bothTotal) },
      spread: { sine: partOf('sin'), cosine: partOf('cos') },
      zeroTarget: Math.sqrt(zeroTarget),
      mirror: { pair, position: state.position, angle, mirrorAngle: mirror, mirrorPosition: mirror / frequency },
    };
  },

  /** Per pair: the fraction of its circle that positions 0 … L−1 cover, and the turn reached at p. */
  extrapolation: ({ model, state }) => {
    const conv = pairedPaper(state);
    const pairs = pairCount(state.dModel);
    const frequency = model.frequencies(conv);
    const last = state.length - 1;
    const seen = new Float64Array(pairs);
    const reached = new Float64Array(pairs);
    let incomplete = 0;
    let firstIncomplete = -1;
    let unseenAtP = 0;
    for (let i = 0; i < pairs; i++) {
      const w = frequency[pairColumns(conv, i).sin];
      seen[i] = Math.min(1, (w * last) / TWO_PI);
      reached[i] = Math.min(1, (w * state.position) / TWO_PI);
      if (w * last < TWO_PI) {
        incomplete++;
        if (firstIncomplete < 0) firstIncomplete = i;
        if ((w * state.position) % TWO_PI > w * last) unseenAtP++;
      }
    }
    const slowest = frequency[pairColumns(conv, pairs - 1).sin];
    return {
      length: state.length,
      position: state.position,
      seen,
      reached,
      incomplete,
      firstIncomplete,
      unseenAtP,
      slowestSeenDegrees: seen[pairs - 1] * 360,
      slowestPeriod: TWO_PI / slowest,
    };
  },

  /** The sizes the FAQ quotes: |PE(p)|, a token embedding's norm with and without √d, their angle. */
  'token-scale': ({ model, state }) => {
    const d = state.dModel;
    const conv = pairedPaper(state);
    const row = model.row({ ...conv, dtype: 'float64' }, state.position);
    const token = tokenVector(d, state.position, 1);
    const scaled = tokenVector(d, state.position, Math.sqrt(d));
    const norm = (v) => Math.sqrt(dot(v, v));
    return {
      position: state.position,
      row: Float64Array.from(row),
      token: scaled,
      peNorm: norm(row),
      tokenNorm: norm(token),
      scaledNorm: norm(scaled),
      cosine: dot(row, token) / (norm(row) * norm(token)),
      // A causal head that attends evenly to every token so far (no positional encoding) gives each 1/(p + 1).
      uniformWeight: 1 / (state.position + 1),
    };
  },
};
