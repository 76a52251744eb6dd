// pe.ropeIdentify({ values, rows, columns, dtype? }): what a cos or sin cache
// is. Finds the layout (which columns repeat each other), the kind (row 0 is
// position 0: cos there is the attention factor in every column, sin is 0),
// each pair's frequency (its angle unwrapped along the rows), then the RoPE
// configuration whose frequencies (computed by ropeFrequencies) match them:
// rope_theta, and none, linear, yarn or llama3 scaling with its factor. The
// verdict is checked by rebuilding the cache with ropeCache and measuring the
// largest difference against what a float32 angle or the values' dtype allow.
import { checkWork, COST } from './cost.js';
import { describe, fail, integer, MAX_BYTES, oneOf } from './options.js';
import { lengthOfView, typedArrayKind } from './typed-arrays.js';

const TWO_PI = 2 * Math.PI;
export const ROPE_IDENTIFY_DTYPES = Object.freeze(['float16', 'bfloat16', 'float32', 'float64']);
const EPSILON = { float16: 2 ** -11, bfloat16: 2 ** -8, float32: 2 ** -24, float64: 2 ** -52 };
// A value off by this many units of its dtype still leaves a pair's frequency where it was measured.
const VALUE_NOISE = 20;
// Frequencies computed in float32 (as PyTorch does), relative.
const FLOAT32_FREQUENCY = 2 ** -22;
// Pairs measured within this relative noise take part in the fit (slower ones have hardly turned).
const INFORMATIVE = 0.25;
// A candidate fits when it is within this many noise units of every informative pair, and is
// about as close as the closest when within CLOSE more.
const FIT = 3;
const CLOSE = 0.5;
// Factors this close (relative) make the same claim.
const SAME_FACTOR = 0.01;
// The most rows "too few rows" ever asks for.
const MAX_ROWS_TO_TELL = 2 ** 24;
// The factors model configs ship with (Qwen2.5 4, Llama 3.1 8, Llama 3.2 32, DeepSeek-V3 40, ...).
const CONFIG_FACTORS = [2, 4, 8, 16, 32, 40, 64];
// The grids searched for the thresholds of yarn and llama3 (the values models ship with).
const CONTEXTS = Array.from({ length: 11 }, (_, k) => 2 ** (10 + k));
const YARN_BETAS = [
  [32, 1],
  [16, 1],
  [64, 1],
  [32, 2],
];
const LLAMA3_BANDS = [
  [1, 4],
  [1, 2],
  [2, 4],
  [1, 8],
  [2, 8],
];

// Beyond this angle, sin and cos take the slow argument reduction (rope.js's angleWork).
const FAR_ANGLE = 2 ** 20;
const ADVICE = 'pass its first rows instead: a few thousand rows are enough to tell the configuration';

/**
 * The work of one identification, checked before any: reading every value a
 * few times, and the verdict's float64 rebuild (a sin and cos per pair and
 * row, at most pi radians a row, so slow far angles beyond 2^20 / pi rows).
 */
function identifyWork(rows, columns) {
  const angle = rows * Math.PI > FAR_ANGLE ? COST.farAngle : 2 * COST.direct;
  return rows * (columns / 2) * angle + rows * columns * 8 * COST.step;
}

/** The narrowest dtype every value is exact in. */
function inferDtype(values) {
  let bfloat16 = true;
  let float16 = true;
  const bits = new Uint32Array(1);
  const float = new Float32Array(bits.buffer);
  for (const v of values) {
    if (Math.fround(v) !== v) return 'float64';
    float[0] = v;
    if (bits[0] & 0xffff) bfloat16 = false;
    if (float16 && v !== 0) {
      const exponent = Math.floor(Math.log2(Math.abs(v)));
      const scaled = Math.abs(v) * 2 ** (10 - Math.max(exponent, -14));
      if (Math.abs(v) > 65504 || !Number.isInteger(scaled)) float16 = false;
    }
  }
  return bfloat16 ? 'bfloat16' : float16 ? 'float16' : 'float32';
}

/** 'half' or 'interleaved' when every row repeats its values that way (the first that fits), else null. */
function layoutOf(values, rows, d) {
  const n = d / 2;
  const same = (a, b) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a));
  const fits = (partner) => {
    for (let r = 0; r < rows; r++)
      for (let i = 0; i < n; i++) {
        const [j, k] = partner(i);
        if (!same(values[r * d + j], values[r * d + k])) return false;
      }
    return true;
  };
  if (fits((i) => [i, i + n])) return 'half';
  if (fits((i) => [2 * i, 2 * i + 1])) return 'interleaved';
  return null;
}

/** The frequency of one pair from its values u_m = cos(m w) or sin(m w) (normalised), m = 0 .. rows - 1. */
function frequencyOf(u, kind) {
  const rows = u.length;
  const clamp = (x) => Math.max(-1, Math.min(1, x));
  const branches = (x) =>
    kind === 'cos' ? [Math.acos(clamp(x)), -Math.acos(clamp(x))] : [Math.asin(clamp(x)), Math.PI - Math.asin(clamp(x))];
  let w = Math.abs(branches(u[1])[0]);
  // Doubling the row each time: the angle predicted from w is off by less than a branch's width.
  const steps = [];
  for (let m = 2; m < rows; m *= 2) steps.push(m);
  if (rows - 1 > 1 && steps.at(-1) !== rows - 1) steps.push(rows - 1);
  for (const m of steps) {
    const predicted = m * w;
    let best = null;
    for (const branch of branches(u[m])) {
      const angle = branch + TWO_PI * Math.round((predicted - branch) / TWO_PI);
      if (best === null || Math.abs(angle - predicted) < Math.abs(best - predicted)) best = angle;
    }
    // A value at the top or bottom of its wave barely moves with the angle: it refines nothing.
    const slope = kind === 'cos' ? Math.abs(Math.sin(best)) : Math.abs(Math.cos(best));
    if (slope > 0.05 || m * w < 0.3) w = best / m;
  }
  return w;
}

/** Round numbers near x (a config's factor or base is written by a person): x itself last. */
const niceNear = (x) => [...new Set([1, 2, 3, 4].map((digits) => Number(x.toPrecision(digits))).concat(x))];

export function ropeIdentify(rope, input) {
  const where = 'ropeIdentify';
  if (input === null || typeof input !== 'object')
    fail(TypeError, where, 'input must be an object { values, rows, columns, dtype? }', input);
  const { values: given, dtype: stated } = input;
  const rows = integer(where, 'rows', input.rows, 1, MAX_BYTES);
  const columns = integer(where, 'columns', input.columns, 1, MAX_BYTES);
  const typed = typedArrayKind(given) !== undefined;
  if (!(Array.isArray(given) || typed))
    fail(TypeError, where, 'values must be an array or typed array of rows x columns numbers', given);
  const length = typed ? lengthOfView(given) : given.length;
  if (length !== rows * columns)
    fail(RangeError, where, `values must hold rows x columns = ${rows * columns} numbers`, length);
  if (stated !== undefined) oneOf(where, 'dtype', stated, ROPE_IDENTIFY_DTYPES);
  checkWork(where, () => `a ${rows} x ${columns} cache`, identifyWork(rows, columns), ADVICE);
  const values = Float64Array.from(given);
  for (let k = 0; k < values.length; k++)
    if (!Number.isFinite(values[k]))
      fail(RangeError, where, `values[${k}] must be a finite number (got ${describe(values[k])})`, values[k]);
  const dtype = stated ?? inferDtype(values);
  const d = columns;
  if (rows < 3 || d % 2 !== 0) return { explained: false, reason: 'shape', dtype };
  const layout = layoutOf(values, rows, d);
  if (!layout) return { explained: false, reason: 'pairs', dtype };
  const n = d / 2;
  const at = (r, i) => values[r * d + (layout === 'half' ? i : 2 * i)];

  // Row 0 is position 0: cos(0) = 1 and sin(0) = 0, times the attention factor.
  const largest = values.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const first = at(0, 0);
  let kind;
  let amplitude;
  const tolerance0 = 4 * EPSILON[dtype] * largest;
  if (first > 0 && Array.from({ length: n }, (_, i) => at(0, i)).every((v) => Math.abs(v - first) <= tolerance0)) {
    kind = 'cos';
    amplitude = first;
  } else if (Array.from({ length: n }, (_, i) => at(0, i)).every((v) => Math.abs(v) <= tolerance0)) {
    kind = 'sin';
    // The fastest pair's recurrence s(m-1) + s(m+1) = 2 cos(w) s(m), where |s(m)| is largest, gives w; then
    // s(m) = a sin(m w) gives a.
    let m = 1;
    for (let r = 1; r < rows - 1; r++) if (Math.abs(at(r, 0)) > Math.abs(at(m, 0))) m = r;
    const w0 = Math.acos(Math.max(-1, Math.min(1, (at(m - 1, 0) + at(m + 1, 0)) / (2 * at(m, 0)))));
    amplitude = at(m, 0) / Math.sin(m * w0);
    if (!(amplitude > 0)) return { explained: false, reason: 'start', dtype, layout, rotaryDim: d };
  } else return { explained: false, reason: 'start', dtype, layout, rotaryDim: d };

  const w = Float64Array.from({ length: n }, (_, i) =>
    frequencyOf(
      Float64Array.from({ length: rows }, (_, r) => at(r, i) / amplitude),
      kind,
    ),
  );
  // How closely each pair's frequency is measured (relative): a value off by a few units of the
  // dtype moves the angle by that over the wave's slope (a cos near angle 0 moves as the angle
  // squared), spread over the angle the pair turned; plus float32 frequencies and angles.
  const relativeNoise = (wi, count) => {
    const angle = (count - 1) * wi;
    return (VALUE_NOISE * EPSILON[dtype]) / (angle * (kind === 'cos' ? Math.min(1, angle) : 1)) + FLOAT32_FREQUENCY;
  };
  const noise = Float64Array.from(w, (wi) => relativeNoise(wi, rows));
  const informative = (i) => noise[i] < INFORMATIVE;

  /** A candidate's largest difference from the measured frequencies, in units of each pair's noise. */
  const misfit = (invFreq) => {
    let worst = 0;
    for (let i = 0; i < n; i++)
      if (informative(i)) worst = Math.max(worst, Math.abs(invFreq[i] - w[i]) / (w[i] * noise[i]));
    return worst;
  };
  const frequencies = (options) => {
    try {
      return rope.ropeFrequencies(options);
    } catch {
      return null;
    }
  };

  // rope_theta from the fastest pairs' ratio (the same for a plain, linear, yarn or llama3 ladder: they keep
  // or divide all the fast pairs alike), rounded where a round number fits within the measuring noise.
  const j = Math.min(2, n - 1);
  const ratioBase = j > 0 ? (w[0] / w[j]) ** (d / (2 * j)) : 10000;
  const ladder = (base) => frequencies({ headDim: d, base });
  const fastFit = (base) => {
    const plain = ladder(base);
    if (!plain) return Infinity;
    let worst = 0;
    for (let i = 1; i < Math.min(n, 4); i++) {
      const measured = w[i] / w[0];
      worst = Math.max(
        worst,
        Math.abs(plain.invFreq[i] / plain.invFreq[0] - measured) / (measured * (noise[i] + noise[0])),
      );
    }
    return worst;
  };
  const rawFit = fastFit(ratioBase);
  const base = niceNear(ratioBase).find((b) => b > 1 && fastFit(b) <= Math.max(2 * rawFit, FIT)) ?? ratioBase;

  // Candidates, simplest first: plain or linear (every pair divided alike), then yarn and llama3 over the
  // factors configs use and those near the slowest informative pair's ratio, and their grids. Tier 0: the
  // shapes nearly every config has (yarn's betas 32 and 1, truncated; llama3's band 1 to 4); tier 1: the rest.
  const candidates = [];
  const plain = ladder(base);
  if (plain) {
    for (const factor of niceNear(plain.invFreq[0] / w[0])) {
      const scaling = Math.abs(factor - 1) < 1e-9 ? null : { type: 'linear', factor };
      candidates.push({ tier: 0, options: { headDim: d, base, ...(scaling && { scaling }) } });
    }
    let slowest = 0;
    for (let i = 0; i < n; i++) if (informative(i)) slowest = i;
    const near = slowest > 0 ? niceNear(plain.invFreq[slowest] / w[slowest]) : [];
    for (const factor of new Set([...CONFIG_FACTORS, ...near.filter((f) => f > 1)])) {
      for (const original of CONTEXTS) {
        for (const [betaFast, betaSlow] of YARN_BETAS)
          for (const truncate of [true, false])
            candidates.push({
              tier: betaFast === 32 && betaSlow === 1 && truncate ? 0 : 1,
              options: {
                headDim: d,
                base,
                scaling: {
                  type: 'yarn',
                  factor,
                  originalMaxPositionEmbeddings: original,
                  betaFast,
                  betaSlow,
                  truncate,
                },
              },
            });
        for (const [lowFreqFactor, highFreqFactor] of LLAMA3_BANDS)
          candidates.push({
            tier: lowFreqFactor === 1 && highFreqFactor === 4 ? 0 : 1,
            options: {
              headDim: d,
              base,
              scaling: {
                type: 'llama3',
                factor,
                originalMaxPositionEmbeddings: original,
                lowFreqFactor,
                highFreqFactor,
              },
            },
          });
      }
    }
  }
  const scored = [];
  for (const [order, { tier, options }] of candidates.entries()) {
    const f = frequencies(options);
    if (f) scored.push({ options, tier, order, score: misfit(f.invFreq), f });
  }

  // A round attention factor where the measured one is within its noise (a sin cache's is measured less closely).
  const amplitudeNoise = (kind === 'cos' ? 4 * EPSILON[dtype] : 1e-6) * amplitude + 1e-12;
  amplitude = niceNear(amplitude).find((a) => Math.abs(a - amplitude) <= amplitudeNoise);
  const measured = { kind, layout, rotaryDim: d, dtype, attentionFactor: amplitude, base };
  if (scored.length === 0) return { explained: false, reason: 'fit', ...measured, error: Infinity };

  // Among the candidates within the measuring noise, those about as close as the closest; of these the
  // first of the commonest tier (simplest, roundest). None within the noise: the nearest, refused below.
  const fitting = scored.filter((c) => c.score <= FIT);
  const least = Math.min(...fitting.map((c) => c.score));
  const close = fitting.filter((c) => c.score <= least + CLOSE).sort((a, b) => a.tier - b.tier || a.order - b.order);
  const best = close[0] ?? scored.reduce((a, c) => (c.score < a.score ? c : a));
  const { options } = best;
  const type = options.scaling?.type ?? 'default';
  const factor = options.scaling?.factor ?? null;

  // Another type or factor that fits as well but computes other frequencies for the pairs the rows cannot
  // resolve: the rows cannot tell them apart. Rows needed: the fewest that resolve a pair where they differ.
  let rowsNeeded = 0;
  for (const other of close) {
    const otherFactor = other.options.scaling?.factor ?? null;
    const sameClaim =
      (other.options.scaling?.type ?? 'default') === type &&
      (factor === otherFactor || Math.abs(otherFactor - factor) <= SAME_FACTOR * factor);
    if (other.tier > best.tier || sameClaim) continue;
    const need = rowsToTell(best.f.invFreq, other.f.invFreq, relativeNoise);
    if (need > rows && (rowsNeeded === 0 || need < rowsNeeded)) rowsNeeded = need;
  }
  if (rowsNeeded > 0) return { explained: false, reason: 'rows', rowsNeeded, ...measured };

  // The verdict: the candidate's cache against the values. Its attention factor: the type's own where the
  // least-squares amplitude over every value is within the dtype's rounding of it, else that amplitude.
  const own = best.f.attentionFactor;
  const { cos, sin } = rope.ropeCache({ ...options, length: rows, layout, dtype: 'float64' });
  const rebuilt = kind === 'cos' ? cos : sin;
  let dot = 0;
  let norm = 0;
  for (let k = 0; k < values.length; k++) {
    dot += values[k] * rebuilt[k];
    norm += rebuilt[k] * rebuilt[k];
  }
  const fitted = norm > 0 ? (own * dot) / norm : amplitude;
  const attentionFactor =
    Math.abs(fitted - own) <= 4 * EPSILON[dtype] * own
      ? own
      : (niceNear(fitted).find((a) => Math.abs(a - fitted) <= 4 * EPSILON[dtype] * fitted) ?? fitted);
  let error = 0;
  for (let k = 0; k < values.length; k++)
    error = Math.max(error, Math.abs((rebuilt[k] * attentionFactor) / own - values[k]));
  // What the values' dtype and a float32 angle (m·w in float32, as PyTorch forms it) may leave.
  const tolerance = attentionFactor * (2 * EPSILON[dtype] + 2 ** -23 * (rows - 1) * w[0]) + 1e-12;
  // A guess that misses says only what was measured: no type, factor or options that read like a claim.
  if (!(error <= tolerance)) return { explained: false, reason: 'fit', ...measured, attentionFactor, error, tolerance };
  return {
    explained: true,
    ...measured,
    attentionFactor,
    type,
    factor,
    options:
      attentionFactor === own || type !== 'yarn'
        ? options
        : { ...options, scaling: { ...options.scaling, attentionFactor } },
    error,
    tolerance,
  };
}

/**
 * The fewest rows (doubling, then bisecting) at which some pair where two candidates' frequencies
 * differ is measured closely enough to tell them apart; 0 when they differ nowhere.
 */
function rowsToTell(a, b, relativeNoise) {
  const differing = [];
  for (let i = 0; i < a.length; i++) {
    const delta = Math.abs(a[i] - b[i]) / a[i];
    if (delta > 1e-9) differing.push([a[i], delta]);
  }
  if (differing.length === 0) return 0;
  const tells = (count) =>
    differing.some(([wi, delta]) => relativeNoise(wi, count) < Math.min(INFORMATIVE, delta / (2 * FIT)));
  let high = 4;
  while (!tells(high)) {
    if (high >= MAX_ROWS_TO_TELL) return MAX_ROWS_TO_TELL;
    high *= 2;
  }
  let low = high / 2;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (tells(mid)) high = mid;
    else low = mid;
  }
  return high;
}
