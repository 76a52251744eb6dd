// The RoPE functions of one instantiated module (pe.ropeFrequencies, ropeCache,
// ropeApply, ropeScores, ropeFromConfig). Options are validated in
// rope-options.js; this file sizes outputs and copies results out of the wasm
// heap into arrays the caller owns.
import { checkWork, COST } from './cost.js';
import { checkKnownKeys, fail, integer, MAX_BYTES, MAX_MAGNITUDE } from './options.js';
import { checkOutput, checkSize, outOfMemory } from './outputs.js';
import { bufferOf, byteOffsetOf, isDetached, lengthOfView, typedArrayKind, writeInto } from './typed-arrays.js';
import { MAX_HEAD_DIM, ropeDtype, ropeLayout, ropeParams, ropePosition } from './rope-options.js';
import { ropeFromConfig } from './rope-config.js';
import { ropeIdentify } from './rope-identify.js';
import { ENUMS, ROPE_FIELDS, stager } from './boundary.js';
import { ROPE_LAYOUTS } from './conventions.js';
import { LIMITS } from './limits.js';

// Cache rows come a chunk at a time into wasm scratch and are copied out while in cache.
const CHUNK_BYTES = 256 * 1024;
// Su Jianlin's base criterion: the longest context (the largest base searched is the module's,
// LIMITS.maxBase), and the search's grid.
export const MAX_CONTEXT = LIMITS.maxContext;
const STEPS_PER_OCTAVE = 256;
// The base search's scans, measured (cpp/src/rope_base.cpp, d 128): 38 at context 1024, 192 at 8192,
// 531 at 32768, 1312 at 131072; about 40 (context / 1024)^0.7, each at most context x pairs sums of steps.
const scansOf = (context) => 40 * Math.max(1, context / 1024) ** 0.7;

// The float32 cache's recurrence is reseeded with exact sin/cos every this many rows (cpp/src/oscillators.h).
const RESEED_ROWS = 1024;

/** Work of the sin and cos of one angle, by the largest angle's magnitude (COST in options.js). */
const angleWork = (largestAngle) => (largestAngle > 2 ** 20 ? COST.farAngle : 2 * COST.direct);

/** The largest inverse frequency: with the largest |position|, it bounds every angle. */
const largestOf = (invFreq) => invFreq.reduce((m, w) => Math.max(m, Math.abs(w)), 0);

function outputPair(where, out, ArrayType, count, wasmMemory) {
  if (out === undefined) return { cos: new ArrayType(count), sin: new ArrayType(count) };
  if (out === null || typeof out !== 'object' || ArrayBuffer.isView(out))
    fail(TypeError, where, 'out must be an object { cos, sin } of two arrays', out);
  // Each read once: a getter could answer differently the second time.
  const pair = { cos: out.cos, sin: out.sin };
  for (const key of ['cos', 'sin']) checkOutput(where, `out.${key}`, pair[key], ArrayType, count, { wasmMemory });
  const bytes = count * ArrayType.BYTES_PER_ELEMENT;
  const [cosAt, sinAt] = [byteOffsetOf(pair.cos), byteOffsetOf(pair.sin)];
  if (bufferOf(pair.cos) === bufferOf(pair.sin) && cosAt < sinAt + bytes && sinAt < cosAt + bytes)
    fail(TypeError, where, 'out.cos and out.sin must not overlap', 'overlapping views of one buffer');
  return pair;
}

/**
 * positions, one number per token, copied into a Float64Array before any
 * wasm work (so neither a getter nor a later growth of wasm memory can change
 * them): an Array, or a typed array of any realm (by its internal slots).
 */
function positionsOf(where, p, tokens) {
  const typed = typedArrayKind(p) !== undefined;
  if (!(Array.isArray(p) || typed)) fail(TypeError, where, 'positions must be an array of numbers, one per token', p);
  if (typed && isDetached(bufferOf(p))) fail(TypeError, where, 'positions is a view of a detached buffer', p);
  const length = typed ? lengthOfView(p) : p.length;
  if (length !== tokens) fail(RangeError, where, `positions must hold one number per token (${tokens})`, length);
  const positions = new Float64Array(tokens);
  for (let t = 0; t < tokens; t++) {
    const value = p[t];
    if (typeof value !== 'number') fail(TypeError, where, `positions[${t}] must be a number`, value);
    if (!(Math.abs(value) <= MAX_MAGNITUDE))
      fail(RangeError, where, `positions[${t}] must be a finite number of magnitude at most 2^53`, value);
    positions[t] = value;
  }
  return positions;
}

// The frequencies of the last few configurations (a pow per pair, and the
// YaRN/LongRoPE/Llama 3 adjustments), keyed by the resolved numbers (bit for
// bit: Object.is) and factor arrays, which are copies rope-options.js made.
// Bounded: at most 4 configurations of at most 8192 rotary dimensions.
const RECENT_FREQUENCIES = 4;
const MAX_KEPT_ROTARY_DIM = 8192;

/** Whether two Float64Arrays (or nulls) hold the same numbers. */
function sameNumbers(a, b) {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

// Angles rounded to a dtype are evaluated one by one (no recurrence).
const linearAngles = (resolved) => resolved.precision.positionDtype === 0 && resolved.precision.angleDtype === 0;

/** The number the module reads for a layout option (rope-options.js gives its index in ROPE_LAYOUTS). */
const layoutNumber = (index) => ENUMS.layout[ROPE_LAYOUTS[index]];

export function ropeApi(module, report) {
  // The configuration of ropeFrequencies goes through a staged block, as the encodings' (api.js).
  const stage = stager(module, report.ropeAddress, ROPE_FIELDS);
  // Kept per module, and dropped with it.
  const recentFrequencies = [];
  // The module's memory now (a new ArrayBuffer after every growth).
  const wasmMemory = () => module.HEAPU8.buffer;
  function frequencies(where, resolved) {
    const p = resolved.params;
    // The staged numbers (truncate as 0 or 1), also the key of the frequencies kept.
    const fields = new Float64Array(ROPE_FIELDS.length);
    for (let i = 0; i < fields.length; i++) fields[i] = +p[ROPE_FIELDS[i]];
    const known = recentFrequencies.find(
      (entry) =>
        sameNumbers(entry.fields, fields) &&
        sameNumbers(entry.shortFactor, resolved.shortFactor) &&
        sameNumbers(entry.longFactor, resolved.longFactor),
    );
    if (known !== undefined) return known.frequencies;
    stage(p);
    const f = module.ropeFrequencies(resolved.shortFactor, resolved.longFactor);
    if (f === null) throw outOfMemory(where);
    // Never handed to the caller (ropeFrequencies returns a copy), so never changed.
    const frequencies = { attentionFactor: f[0], invFreq: f.subarray(1) };
    if (p.rotaryDim > MAX_KEPT_ROTARY_DIM) return frequencies;
    recentFrequencies.unshift({
      fields,
      shortFactor: resolved.shortFactor,
      longFactor: resolved.longFactor,
      frequencies,
    });
    if (recentFrequencies.length > RECENT_FREQUENCIES) recentFrequencies.pop();
    return frequencies;
  }

  const api = {
    /** The inverse frequencies (rotaryDim / 2) and attention factor of a RoPE configuration, as HF computes them. */
    ropeFrequencies(opts) {
      const resolved = ropeParams('ropeFrequencies', opts);
      const f = frequencies('ropeFrequencies', resolved);
      return { invFreq: f.invFreq.slice(), attentionFactor: f.attentionFactor, rotaryDim: resolved.rotaryDim };
    },

    /** The cos and sin caches, [length x rotaryDim] each, row-major, for positions start..start+length-1. */
    ropeCache(opts) {
      const where = 'ropeCache';
      const resolved = ropeParams(where, opts);
      if (opts.length === undefined) fail(TypeError, where, 'length is required: an integer >= 1', undefined);
      const length = integer(where, 'length', opts.length, 1, MAX_BYTES);
      const start = ropePosition(where, 'start', opts.start, length);
      const layout = layoutNumber(ropeLayout(where, opts));
      const ArrayType = ropeDtype(where, opts);
      const d = resolved.rotaryDim;
      checkSize(where, `a ${length} x ${d} cache`, length * d, ArrayType);
      const out = outputPair(where, opts.out, ArrayType, length * d, wasmMemory);
      const f = frequencies(where, resolved);
      const float64 = ArrayType === Float64Array;
      // Float64 or rounded angles: sin and cos of every angle; float32: the
      // recurrence, reseeded every 1024 rows. Both: the copy.
      const direct = float64 || !linearAngles(resolved);
      const angles = (direct ? length : Math.ceil(length / RESEED_ROWS)) * (d / 2);
      const values = 2 * length * d;
      checkWork(
        where,
        `a ${length} x ${d} ${float64 ? 'float64' : 'float32'} cache at positions up to ${Math.abs(start) + length}`,
        angles * angleWork((Math.abs(start) + length) * largestOf(f.invFreq)) +
          values * (float64 ? COST.step : 2 * COST.step),
        'reduce length or headDim',
      );
      const chunkRows = Math.max(1, Math.min(length, Math.floor(CHUNK_BYTES / (2 * d * ArrayType.BYTES_PER_ELEMENT))));
      const { positionDtype, angleDtype } = resolved.precision;
      const chunks = module.ropeCacheStart(
        f.invFreq,
        f.attentionFactor,
        layout,
        start,
        chunkRows,
        float64,
        positionDtype,
        angleDtype,
      );
      if (chunks === 0) throw outOfMemory(where);
      try {
        for (let r = 0; r < length; r += chunkRows) {
          const rows = Math.min(chunkRows, length - r);
          const n = rows * d;
          // A view of wasm memory, valid only until the next call into the module:
          // the intrinsic set, as no subclass's set() may call in before the copy.
          const view = module.ropeCacheNext(chunks, rows);
          if (view === null) throw outOfMemory(where);
          writeInto(out.cos, view.subarray(0, n), r * d);
          writeInto(out.sin, view.subarray(n, 2 * n), r * d);
        }
      } finally {
        module.ropeCacheEnd(chunks);
      }
      return out;
    },

    /** x ([tokens x heads x headDim], Float32Array or Float64Array) rotated: a new array (or `out`). */
    ropeApply(x, opts) {
      const where = 'ropeApply';
      // Any realm, any subclass; no Proxy or look-alike (checked by internal slots).
      const kind = typedArrayKind(x);
      if (kind !== 'Float32Array' && kind !== 'Float64Array')
        fail(TypeError, where, 'x must be a Float32Array or Float64Array', x);
      if (isDetached(bufferOf(x)))
        fail(
          TypeError,
          where,
          'x is a view of a detached buffer (a WasmArray.array taken before the wasm memory grew, or a transferred buffer): read .array again',
          x,
        );
      const ArrayType = kind === 'Float64Array' ? Float64Array : Float32Array;
      const count = lengthOfView(x);
      const resolved = ropeParams(where, opts);
      const heads = opts.heads === undefined ? 1 : integer(where, 'heads', opts.heads, 1, MAX_BYTES);
      const headValues = heads * resolved.headDim;
      if (count === 0 || count % headValues !== 0)
        fail(RangeError, where, `x must hold tokens x heads x headDim values, a multiple of ${headValues}`, count);
      const tokens = count / headValues;
      const layout = layoutNumber(ropeLayout(where, opts));
      let positions = null;
      let farthest = 0;
      if (opts.positions !== undefined) {
        if (opts.start !== undefined) fail(TypeError, where, 'give either positions or start, not both', opts.start);
        positions = positionsOf(where, opts.positions, tokens);
        for (let t = 0; t < tokens; t++) farthest = Math.max(farthest, Math.abs(positions[t]));
      }
      const start = positions ? 0 : ropePosition(where, 'start', opts.start, tokens);
      if (!positions) farthest = Math.abs(start) + tokens;
      checkSize(where, `x of ${count} values`, count, ArrayType, 'rotate fewer tokens per call');
      const out =
        opts.out === undefined
          ? new ArrayType(count)
          : checkOutput(where, 'out', opts.out, ArrayType, count, { wasmMemory, why: ', like x' });
      const f = frequencies(where, resolved);
      checkWork(
        where,
        `${tokens} tokens x ${heads} heads x headDim ${resolved.headDim} at positions up to ${farthest}`,
        tokens * (resolved.rotaryDim / 2) * angleWork(farthest * largestOf(f.invFreq)) + 4 * count * COST.step,
        'rotate fewer tokens per call',
      );
      // A view of the module's memory would be detached by the allocation below: copy it first.
      const source = bufferOf(x) === wasmMemory() ? new ArrayType(x) : x;
      const bytes = ArrayType.BYTES_PER_ELEMENT;
      const float64 = ArrayType === Float64Array;
      const address = module.allocateArray(count, bytes);
      if (address === 0) throw outOfMemory(where);
      let positionsAddress = 0;
      try {
        if (positions) {
          positionsAddress = module.allocateArray(tokens, 8);
          if (positionsAddress === 0) throw outOfMemory(where);
          writeInto(module.view64(positionsAddress, tokens), positions);
        }
        // Views are taken right before use: any allocation may grow (and detach) the memory.
        writeInto((float64 ? module.view64 : module.view32)(address, count), source);
        if (
          !module.ropeApply(
            f.invFreq,
            f.attentionFactor,
            layout,
            resolved.headDim,
            heads,
            tokens,
            address,
            positionsAddress,
            start,
            float64,
            resolved.precision.positionDtype,
            resolved.precision.angleDtype,
          )
        )
          throw outOfMemory(where);
        writeInto(out, (float64 ? module.view64 : module.view32)(address, count));
      } finally {
        module.freeArray(address);
        if (positionsAddress !== 0) module.freeArray(positionsAddress);
      }
      return out;
    },

    /**
     * For q = k = all ones / sqrt(headDim): scores[k] = q . R(from)^T R(from + k) k
     * and RoFormer's relative upper bound (1 / rotaryDim) sum_j |S_j|, k = 0..maxOffset.
     */
    ropeScores(opts) {
      const where = 'ropeScores';
      const resolved = ropeParams(where, opts);
      if (opts.maxOffset === undefined) fail(TypeError, where, 'maxOffset is required: an integer >= 0', undefined);
      const limit = Math.floor(MAX_BYTES / 16) - 1;
      const maxOffset = integer(where, 'maxOffset', opts.maxOffset, 0, limit);
      const from = ropePosition(where, 'from', opts.from, maxOffset);
      checkWork(
        where,
        `(maxOffset + 1) × rotaryDim / 2 = ${maxOffset + 1} × ${resolved.rotaryDim / 2} pairs`,
        (maxOffset + 1) * (resolved.rotaryDim / 2) * (COST.ropeScore + (linearAngles(resolved) ? 0 : 2 * COST.rounded)),
        'reduce maxOffset or headDim',
      );
      const f = frequencies(where, resolved);
      const both = module.ropeScores(
        f.invFreq,
        f.attentionFactor,
        resolved.headDim,
        from,
        maxOffset,
        resolved.precision.positionDtype,
        resolved.precision.angleDtype,
      );
      if (both === null) throw outOfMemory(where);
      const count = maxOffset + 1;
      return { scores: both.slice(0, count), bound: both.slice(count) };
    },

    /**
     * Su Jianlin's criterion: how many leading offsets m = 0, 1, ... (at most limit) keep
     * sum_i cos(m invFreq_i) >= 0, i.e. the first m where the sum turns negative, or limit.
     */
    ropeSupportedContext(opts) {
      const where = 'ropeSupportedContext';
      const resolved = ropeParams(where, opts);
      if (opts.limit === undefined) fail(TypeError, where, 'limit is required: an integer >= 0', undefined);
      const limit = integer(where, 'limit', opts.limit, 0, MAX_CONTEXT);
      checkWork(
        where,
        `limit × rotaryDim / 2 = ${limit} × ${resolved.rotaryDim / 2} pairs`,
        limit * (resolved.rotaryDim / 2) * COST.ropeScore,
        'reduce limit or headDim',
      );
      const f = frequencies(where, resolved);
      const supported = module.ropeSupportedContext(f.invFreq, limit);
      if (supported < 0) throw outOfMemory(where);
      return supported;
    },

    /**
     * The smallest base b (1 <= b <= 1e12) for which sum_i cos(m b^(-2i/headDim)) >= 0 at every
     * offset m < context (scanned upwards on a grid of 256 steps per octave, then bisected), or
     * null when no base up to 1e12 qualifies.
     */
    ropeSmallestBase(opts) {
      const where = 'ropeSmallestBase';
      if (opts === null || typeof opts !== 'object') fail(TypeError, where, 'opts must be an object', opts);
      checkKnownKeys(where, opts, { ropeSmallestBase: new Set(['headDim', 'context']) });
      if (opts.headDim === undefined) fail(TypeError, where, 'headDim is required: an even integer >= 2', undefined);
      const headDim = integer(where, 'headDim', opts.headDim, 2, MAX_HEAD_DIM);
      if (headDim % 2 !== 0) fail(RangeError, where, 'headDim must be even (pairs of dimensions rotate)', headDim);
      if (opts.context === undefined) fail(TypeError, where, 'context is required: an integer >= 1', undefined);
      const context = integer(where, 'context', opts.context, 1, MAX_CONTEXT);
      checkWork(
        where,
        `about ${Math.round(scansOf(context))} scans × context × headDim / 2 = … × ${context} × ${headDim / 2}`,
        Math.round(scansOf(context) * context * (headDim / 2) * 2 * COST.step),
        'reduce context or headDim',
      );
      const base = module.ropeSmallestBase(headDim, context, STEPS_PER_OCTAVE);
      if (base < 0) throw outOfMemory(where);
      return Number.isNaN(base) ? null : base;
    },

    /** Options for the calls above from a parsed Hugging Face config.json, with warnings. */
    ropeFromConfig,

    /** What a cos or sin cache is: layout, kind, rope_theta, scaling, attention factor, dtype (rope-identify.js). */
    ropeIdentify: (input) => ropeIdentify(api, input),
  };
  // A module built without RoPE (load({ rope: false })): every function that
  // needs it says where to get it (ropeFromConfig is plain JavaScript).
  if (typeof module.ropeFrequencies !== 'function')
    for (const name of Object.keys(api))
      if (name !== 'ropeFromConfig')
        api[name] = () => {
          throw new Error(
            `posenc.${name}: this instance was loaded with load({ rope: false }), without the RoPE functions: use the one of await load()`,
          );
        };
  return api;
}
