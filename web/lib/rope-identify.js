// pe.ropeIdentify({ values, rows, columns, dtype? }): what a cos or sin cache
// is. Finds the layout (which columns repeat each other), the kind (row 0 is
// position 0: cos there is the attention factor in every column, sin is 0),
// each pair's frequency (its angle unwrapped along the rows), then the RoPE
// configuration whose frequencies (computed by ropeFrequencies) match them:
// rope_theta, and none, linear, yarn or llama3 scaling with its factor. The
// verdict is checked by rebuilding the cache with ropeCache and measuring the
// largest difference against what a float32 angle or the values' dtype allow.
import { describe, fail, integer, MAX_BYTES, oneOf } from './options.js';
import { lengthOfView, typedArrayKind } from './typed-arrays.js';

const TWO_PI = 2 * Math.PI;
export const ROPE_IDENTIFY_DTYPES = Object.freeze(['float16', 'bfloat16', 'float32', 'float64']);
const EPSILON = { float16: 2 ** -11, bfloat16: 2 ** -8, float32: 2 ** -24, float64: 2 ** -52 };
// A pair's frequency is trusted once its angle has moved this far over the cache (a cos near 1 says little).
const DETERMINED_ANGLE = 0.05;
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
  const determined = Array.from(w, (wi) => (rows - 1) * wi >= DETERMINED_ANGLE);
  const trusted = (i) => determined[i];

  /** Largest relative difference between a candidate's frequencies and the measured ones (trusted pairs). */
  const misfit = (invFreq) => {
    let worst = 0;
    for (let i = 0; i < n; i++) if (trusted(i)) worst = Math.max(worst, Math.abs(invFreq[i] - w[i]) / w[i]);
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
  // or divide all the fast pairs alike), rounded where a round number fits as well.
  const j = Math.min(2, n - 1);
  const ratioBase = j > 0 ? (w[0] / w[j]) ** (d / (2 * j)) : 10000;
  const ladder = (base) => frequencies({ headDim: d, base });
  const fastFit = (base) => {
    const plain = ladder(base);
    if (!plain) return Infinity;
    let worst = 0;
    for (let i = 0; i < Math.min(n, 4); i++)
      worst = Math.max(worst, Math.abs(plain.invFreq[i] / plain.invFreq[0] - w[i] / w[0]));
    return worst;
  };
  // The roundest base that fits as well as the measured ratio does (within its measuring noise).
  const rawFit = fastFit(ratioBase);
  const base = niceNear(ratioBase).find((b) => b > 1 && fastFit(b) <= Math.max(2 * rawFit, 1e-6)) ?? ratioBase;

  // Candidates: plain or linear (every pair divided alike), then yarn and llama3 over their grids.
  const candidates = [];
  const plain = ladder(base);
  if (plain) {
    for (const factor of niceNear(plain.invFreq[0] / w[0])) {
      const scaling = Math.abs(factor - 1) < 1e-9 ? null : { type: 'linear', factor };
      candidates.push({ headDim: d, base, ...(scaling && { scaling }) });
    }
    // How much the slowest trusted pair was slowed: the factor of an interpolating method.
    let slowest = 0;
    for (let i = 0; i < n; i++) if (trusted(i)) slowest = i;
    if (slowest > 0)
      for (const factor of niceNear(plain.invFreq[slowest] / w[slowest]).filter((f) => f > 1)) {
        for (const original of CONTEXTS) {
          for (const [betaFast, betaSlow] of YARN_BETAS)
            for (const truncate of [true, false])
              candidates.push({
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
              });
          for (const [lowFreqFactor, highFreqFactor] of LLAMA3_BANDS)
            candidates.push({
              headDim: d,
              base,
              scaling: {
                type: 'llama3',
                factor,
                originalMaxPositionEmbeddings: original,
                lowFreqFactor,
                highFreqFactor,
              },
            });
        }
      }
  }
  const scored = [];
  for (const options of candidates) {
    const f = frequencies(options);
    if (f) scored.push({ options, score: misfit(f.invFreq), f });
  }
  // The first (simplest, roundest) candidate that fits as well as the best does, within measuring noise.
  const least = Math.min(...scored.map((c) => c.score));
  const best = scored.find((c) => c.score <= Math.max(3 * least, least + 1e-6)) ?? null;

  // The verdict: the best candidate's cache against the values (the measured attention factor where it differs).
  const verdict = (options, attentionFactor) => {
    const { cos, sin } = rope.ropeCache({ ...options, length: rows, layout, dtype: 'float64' });
    const rebuilt = kind === 'cos' ? cos : sin;
    const scale = attentionFactor / rope.ropeFrequencies(options).attentionFactor;
    let error = 0;
    for (let k = 0; k < values.length; k++) error = Math.max(error, Math.abs(rebuilt[k] * scale - values[k]));
    return error;
  };
  // A round attention factor where the measured one is within its noise (a sin cache's is measured less closely).
  const noise = (kind === 'cos' ? 4 * EPSILON[dtype] : 1e-6) * amplitude + 1e-12;
  amplitude = niceNear(amplitude).find((a) => Math.abs(a - amplitude) <= noise);
  const base0 = { kind, layout, rotaryDim: d, dtype, attentionFactor: amplitude };
  if (!best) return { explained: false, reason: 'pairs', ...base0, base, error: Infinity };
  const { options } = best;
  // What the values' dtype and a float32 angle (m·w in float32, as PyTorch forms it) may leave.
  const tolerance = amplitude * (2 * EPSILON[dtype] + 2 ** -23 * (rows - 1) * w[0]) + 1e-12;
  // The attention factor: the type's own when it explains the amplitude, else the measured one (given explicitly).
  const own = best.f.attentionFactor;
  const attentionFactor = Math.abs(own - amplitude) <= noise ? own : amplitude;
  const error = verdict(options, attentionFactor);
  const type = options.scaling?.type ?? 'default';
  const found = {
    ...base0,
    attentionFactor,
    base,
    type,
    factor: options.scaling?.factor ?? null,
    options:
      attentionFactor === own || type !== 'yarn'
        ? options
        : { ...options, scaling: { ...options.scaling, attentionFactor } },
    error,
    tolerance,
  };
  return { explained: error <= tolerance, ...found };
}
