// The numbers of the RoPE chapter's first sections and of "why 10000", as a
// function of the page state: every value from the core (ropeApply,
// ropeScores, ropeSupportedContext, ropeSmallestBase, offsetDots,
// frequencies), no text, so that the page computes them in its worker
// (section-data.js spreads ROPE_COMPUTE into COMPUTE). rope-sections.js turns
// them into each plot's data and options.
import { PRESETS } from '../lib/index.js';

/** Starting positions whose score curves are overlaid: p, p + 100, p + 1000 (as for s(k)). */
const START_STEPS = [0, 100, 1000];
/** Offsets shown by the relative-score plot: [-min(K, start), K]. */
export const RELATIVE_WINDOW = 256;
/** Offsets of the decay plot: 0 .. min(L - 1, DECAY_WINDOW). */
export const DECAY_WINDOW = 1024;
/** The bases every base plot marks: the paper's (and Llama 2's), Llama 3's, and 1e6 (Qwen2.5, Llama 3.x long). */
export const MARKED_BASES = Object.freeze([1e4, 5e5, 1e6]);
/** Longest context a base's support is counted to (a larger one shows as "at least"). */
export const SUPPORT_LIMIT = 2 ** 19;
/** Bases sampled per decade for the plots against the base. */
const BASES_PER_DECADE = 16;
const SEED = 20210420; // RoFormer's first arXiv version: 2021-04-20.

/** A deterministic stream of uniform numbers in (0, 1) (mulberry32). */
function uniforms(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
}

/**
 * A query and a key of `headDim` numbers, N(0, 1/headDim) each (Box–Muller):
 * the same two vectors at every position, so that only the rotation differs.
 */
export function queryAndKey(headDim) {
  const next = uniforms(SEED + headDim);
  const gaussian = () => Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next());
  const scale = 1 / Math.sqrt(headDim);
  const q = Float64Array.from({ length: headDim }, () => gaussian() * scale);
  const k = Float64Array.from({ length: headDim }, () => gaussian() * scale);
  return { q, k };
}

/**
 * The half-split vector as the interleaved layout holds it: pair i's members
 * at i and i + d/2 move to 2i and 2i + 1 (the permutation applied to q and k
 * weights when a checkpoint changes layout). inverse: the other way.
 */
export function toInterleaved(vector, inverse = false) {
  const half = vector.length / 2;
  const out = new Float64Array(vector.length);
  for (let i = 0; i < half; i++) {
    if (inverse) {
      out[i] = vector[2 * i];
      out[i + half] = vector[2 * i + 1];
    } else {
      out[2 * i] = vector[i];
      out[2 * i + 1] = vector[i + half];
    }
  }
  return out;
}

/** q at position `start` and k at start + m, m in [first, last], rotated by the core: their dot products. */
function relativeScores(pe, opts, q, k, start, first, last) {
  const d = q.length;
  const count = last - first + 1;
  const rotatedQ = pe.ropeApply(q, { ...opts, positions: [start] });
  const keys = new Float64Array(count * d);
  for (let t = 0; t < count; t++) keys.set(k, t * d);
  const positions = Float64Array.from({ length: count }, (_, t) => start + first + t);
  const rotatedK = pe.ropeApply(keys, { ...opts, positions });
  const scores = new Float64Array(count);
  for (let t = 0; t < count; t++) {
    let dot = 0;
    for (let j = 0; j < d; j++) dot += rotatedQ[j] * rotatedK[t * d + j];
    scores[t] = dot;
  }
  return scores;
}

const largestDifference = (a, b) => a.reduce((worst, value, i) => Math.max(worst, Math.abs(value - b[i])), 0);

/** The paper's sinusoidal convention at width d and the state's base. */
const paperAt = (dModel, base) => ({ ...PRESETS.vaswani, preset: 'vaswani', dModel, base });

/** Bases from `low` to `high`, BASES_PER_DECADE a decade, with `extra` bases merged in (sorted, distinct). */
export function baseGrid(low, high, extra = []) {
  const decades = Math.log10(high / low);
  const steps = Math.max(1, Math.ceil(decades * BASES_PER_DECADE));
  const grid = Array.from({ length: steps + 1 }, (_, n) =>
    Number((low * 10 ** ((decades * n) / steps)).toPrecision(6)),
  );
  const inside = extra.filter((b) => Number.isFinite(b) && b >= low && b <= high);
  return Float64Array.from([...new Set([...grid, ...inside])].sort((a, b) => a - b));
}

// The base searches are the chapter's slowest calls (80 ms at 512 x 2048, more at longer contexts): kept per
// (headDim, context).
const smallestBases = new Map();
function smallestBase(pe, headDim, context) {
  const key = `${headDim}/${context}`;
  if (!smallestBases.has(key)) {
    if (smallestBases.size >= 32) smallestBases.delete(smallestBases.keys().next().value);
    smallestBases.set(key, pe.ropeSmallestBase({ headDim, context }));
  }
  return smallestBases.get(key);
}

/** Per plot: compute({ model, state }) -> plain objects and typed arrays (see section-data.js). */
export const ROPE_COMPUTE = {
  /**
   * Sinusoidal table, width d (even part), length L: per base, the largest
   * cosine similarity of two rows at least m = max(1, k) apart, and the share
   * of dimensions that turn less than one radian across the L rows.
   */
  'why-base': ({ model, state }) => {
    const pe = model.core;
    const d = 2 * Math.floor(state.dModel / 2);
    const L = state.length;
    const apart = Math.min(Math.max(1, state.offset), L - 1);
    const reference = smallestBase(pe, d, L);
    const bases = baseGrid(2, 1e8, [state.base, 1e4, reference ?? NaN]);
    const similarity = new Float64Array(bases.length);
    const slowShare = new Float64Array(bases.length);
    const slowDims = new Float64Array(bases.length);
    bases.forEach((base, n) => {
      const conv = paperAt(d, base);
      // Rows p and p + j of the paper's table have dot product s(j) = sum_i cos(j w_i), and norm² d/2.
      const dots = pe.offsetDots({ ...conv, from: 0, minOffset: apart, maxOffset: L - 1 });
      similarity[n] = dots.reduce((a, b) => Math.max(a, b), -Infinity) / (d / 2);
      const frequencies = pe.frequencies(conv);
      let slow = 0;
      for (let j = 0; j < d; j++) if ((L - 1) * frequencies[j] < 1) slow++;
      slowDims[n] = slow;
      slowShare[n] = slow / d;
    });
    const at = (base) => bases.indexOf(base);
    const read = (base) =>
      at(base) < 0 ? null : { base, similarity: similarity[at(base)], slowDims: slowDims[at(base)] };
    return {
      d,
      length: L,
      apart,
      bases,
      similarity,
      slowShare,
      smallest: reference,
      current: read(state.base),
      paper: read(1e4),
      atSmallest: reference === null ? null : read(reference),
    };
  },

  /** The same q and k at every position, rotated: q_p · k_(p+m) against m for p, p + 100, p + 1000. */
  'rope-relative': ({ model, state }) => {
    const pe = model.core;
    const { ropeDim: headDim, base, ropeLayout: layout } = state;
    const opts = { headDim, base, layout };
    const { q, k } = queryAndKey(headDim);
    const curves = START_STEPS.map((step) => {
      const start = state.position + step;
      const first = -Math.min(RELATIVE_WINDOW, start);
      return { start, first, values: relativeScores(pe, opts, q, k, start, first, RELATIVE_WINDOW) };
    });
    let spread = 0;
    for (const curve of curves.slice(1)) {
      const shift = curve.first - curves[0].first;
      curve.values.forEach((value, i) => {
        const at = i + shift;
        if (at >= 0 && at < curves[0].values.length) spread = Math.max(spread, Math.abs(value - curves[0].values[at]));
      });
    }
    // The other layout: the same scores once q and k are permuted, other scores if they are not.
    const other = layout === 'half' ? 'interleaved' : 'half';
    const inverse = layout === 'interleaved';
    const [start, first] = [curves[0].start, curves[0].first];
    const otherOpts = { ...opts, layout: other };
    const permuted = relativeScores(
      pe,
      otherOpts,
      toInterleaved(q, inverse),
      toInterleaved(k, inverse),
      start,
      first,
      RELATIVE_WINDOW,
    );
    const unpermuted = relativeScores(pe, otherOpts, q, k, start, first, RELATIVE_WINDOW);
    return {
      offset: state.offset,
      q,
      k,
      curves,
      spread,
      layout,
      other,
      permutedDifference: largestDifference(permuted, curves[0].values),
      unpermutedDifference: largestDifference(unpermuted, curves[0].values),
    };
  },

  /** RoFormer §3.4.3: the score of all-ones q and k, its relative upper bound, and s(k)/(d/2) of the sinusoidal table. */
  'rope-decay': ({ model, state }) => {
    const pe = model.core;
    const { ropeDim: headDim, base } = state;
    const window = Math.min(state.context - 1, DECAY_WINDOW);
    const { scores, bound } = pe.ropeScores({ headDim, base, maxOffset: window });
    const sinusoid = pe.offsetDots({ ...paperAt(headDim, base), from: 0, minOffset: 0, maxOffset: window });
    const scaled = sinusoid.map((value) => value / (headDim / 2));
    return { window, scores, bound, sinusoid: scaled, agreement: largestDifference(scores, scaled) };
  },

  /**
   * The criterion of Men et al. 2024: per base, the context it supports (the first offset
   * where sum_i cos(m w_i) < 0, up to a limit), the smallest base for the
   * context L, and the marked bases' contexts.
   */
  'rope-base': ({ model, state }) => {
    const pe = model.core;
    const { ropeDim: headDim, context } = state;
    const reference = smallestBase(pe, headDim, context);
    const limit = Math.min(SUPPORT_LIMIT, 2 * context);
    const marked = [...MARKED_BASES, state.base, reference ?? NaN];
    const bases = baseGrid(10, 1e8, marked);
    const supported = bases.map((base) => pe.ropeSupportedContext({ headDim, base, limit }));
    const supports = (base) => pe.ropeSupportedContext({ headDim, base, limit: SUPPORT_LIMIT });
    return {
      headDim,
      context,
      limit,
      bases,
      supported,
      smallest: reference,
      marks: [...new Set(marked.filter(Number.isFinite))].map((base) => {
        const count = supports(base);
        return { base, supported: count, capped: count >= SUPPORT_LIMIT };
      }),
    };
  },
};
