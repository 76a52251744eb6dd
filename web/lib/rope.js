// The RoPE functions of one instantiated module (pe.ropeFrequencies, ropeCache,
// ropeApply, ropeScores, ropeFromConfig). Options are validated in
// rope-options.js; this file sizes outputs and copies results out of the wasm
// heap into arrays the caller owns.
import { checkSize, checkWork, COST, fail, integer, MAX_BYTES } from './options.js';
import { ropeDtype, ropeLayout, ropeParams, ropePosition } from './rope-options.js';
import { ropeFromConfig } from './rope-config.js';

// Cache rows come a chunk at a time into wasm scratch and are copied out while in cache.
const CHUNK_BYTES = 256 * 1024;

const outOfMemory = (where) => new RangeError(`posenc.${where}: not enough wasm memory for this request`);

function outputPair(where, out, ArrayType, count) {
  if (out === undefined) return { cos: new ArrayType(count), sin: new ArrayType(count) };
  if (out === null || typeof out !== 'object' || ArrayBuffer.isView(out))
    fail(TypeError, where, 'out must be an object { cos, sin } of two arrays', Object.prototype.toString.call(out));
  for (const key of ['cos', 'sin']) {
    if (!(out[key] instanceof ArrayType))
      fail(TypeError, where, `out.${key} must be a ${ArrayType.name}`, Object.prototype.toString.call(out[key]));
    if (out[key].length !== count) fail(RangeError, where, `out.${key} must have length ${count}`, out[key].length);
  }
  if (out.cos.buffer === out.sin.buffer && out.cos.byteOffset === out.sin.byteOffset)
    fail(TypeError, where, 'out.cos and out.sin must be different arrays', 'the same array');
  return { cos: out.cos, sin: out.sin };
}

export function ropeApi(module) {
  function frequencies(where, resolved) {
    const p = resolved.params;
    // The order of rope_bindings.cpp's Field.
    const fields = Float64Array.of(
      p.rotaryDim,
      p.scaling,
      p.base,
      p.factor,
      p.originalMaxPositionEmbeddings,
      p.maxPositionEmbeddings,
      p.seqLen,
      p.betaFast,
      p.betaSlow,
      p.mscale,
      p.mscaleAllDim,
      p.attentionFactor,
      p.truncate ? 1 : 0,
      p.lowFreqFactor,
      p.highFreqFactor,
    );
    const f = module.ropeFrequencies(fields, resolved.shortFactor, resolved.longFactor);
    if (f === null) throw outOfMemory(where);
    return { attentionFactor: f[0], invFreq: f.subarray(1) };
  }

  return {
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
      const layout = ropeLayout(where, opts);
      const ArrayType = ropeDtype(where, opts);
      const d = resolved.rotaryDim;
      checkSize(where, `a ${length} x ${d} cache`, length * d, ArrayType);
      const out = outputPair(where, opts.out, ArrayType, length * d);
      const f = frequencies(where, resolved);
      const chunkRows = Math.max(1, Math.min(length, Math.floor(CHUNK_BYTES / (2 * d * ArrayType.BYTES_PER_ELEMENT))));
      const float64 = ArrayType === Float64Array;
      const chunks = module.ropeCacheStart(f.invFreq, f.attentionFactor, layout, start, chunkRows, float64);
      if (chunks === 0) throw outOfMemory(where);
      try {
        for (let r = 0; r < length; r += chunkRows) {
          const rows = Math.min(chunkRows, length - r);
          const n = rows * d;
          // A view of wasm memory, valid only until the next call into the module.
          const view = module.ropeCacheNext(chunks, rows);
          out.cos.set(view.subarray(0, n), r * d);
          out.sin.set(view.subarray(n, 2 * n), r * d);
        }
      } finally {
        module.ropeCacheEnd(chunks);
      }
      return out;
    },

    /** x ([tokens x heads x headDim], Float32Array or Float64Array) rotated: a new array (or `out`). */
    ropeApply(x, opts) {
      const where = 'ropeApply';
      if (!(x instanceof Float32Array || x instanceof Float64Array))
        fail(TypeError, where, 'x must be a Float32Array or Float64Array', Object.prototype.toString.call(x));
      const resolved = ropeParams(where, opts);
      const heads = opts.heads === undefined ? 1 : integer(where, 'heads', opts.heads, 1, MAX_BYTES);
      const ArrayType = x instanceof Float64Array ? Float64Array : Float32Array;
      const headValues = heads * resolved.headDim;
      if (x.length === 0 || x.length % headValues !== 0)
        fail(RangeError, where, `x must hold tokens x heads x headDim values, a multiple of ${headValues}`, x.length);
      const tokens = x.length / headValues;
      const layout = ropeLayout(where, opts);
      let positions = null;
      if (opts.positions !== undefined) {
        if (opts.start !== undefined) fail(TypeError, where, 'give either positions or start, not both', opts.start);
        const p = opts.positions;
        if (!(Array.isArray(p) || ArrayBuffer.isView(p)) || p instanceof DataView)
          fail(TypeError, where, 'positions must be an array of numbers, one per token', p);
        if (p.length !== tokens) fail(RangeError, where, `positions must hold one number per token (${tokens})`, p);
        positions = new Float64Array(tokens);
        for (let t = 0; t < tokens; t++) {
          const value = p[t];
          if (typeof value !== 'number') fail(TypeError, where, `positions[${t}] must be a number`, value);
          if (!(Math.abs(value) <= 2 ** 53))
            fail(RangeError, where, `positions[${t}] must be a finite number of magnitude at most 2^53`, value);
          positions[t] = value;
        }
      }
      const start = positions ? 0 : ropePosition(where, 'start', opts.start, tokens);
      checkSize(where, `x of ${x.length} values`, x.length, ArrayType, 'rotate fewer tokens per call');
      let out = opts.out;
      if (out === undefined) out = new ArrayType(x.length);
      else if (!(out instanceof ArrayType))
        fail(TypeError, where, `out must be a ${ArrayType.name}, like x`, Object.prototype.toString.call(out));
      else if (out.length !== x.length) fail(RangeError, where, `out must have length ${x.length}`, out.length);
      const f = frequencies(where, resolved);
      const bytes = ArrayType.BYTES_PER_ELEMENT;
      const float64 = ArrayType === Float64Array;
      const address = module.allocateArray(x.length, bytes);
      if (address === 0) throw outOfMemory(where);
      let positionsAddress = 0;
      try {
        if (positions) {
          positionsAddress = module.allocateArray(tokens, 8);
          if (positionsAddress === 0) throw outOfMemory(where);
          module.view64(positionsAddress, tokens).set(positions);
        }
        // Views are taken right before use: any allocation may grow (and detach) the memory.
        (float64 ? module.view64 : module.view32)(address, x.length).set(x);
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
          )
        )
          throw outOfMemory(where);
        out.set((float64 ? module.view64 : module.view32)(address, x.length));
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
        '(maxOffset + 1) × rotaryDim / 2',
        (maxOffset + 1) * (resolved.rotaryDim / 2) * COST.step,
        'reduce maxOffset or headDim',
      );
      const f = frequencies(where, resolved);
      const both = module.ropeScores(f.invFreq, f.attentionFactor, resolved.headDim, from, maxOffset);
      if (both === null) throw outOfMemory(where);
      const count = maxOffset + 1;
      return { scores: both.slice(0, count), bound: both.slice(count) };
    },

    /** Options for the calls above from a parsed Hugging Face config.json, with warnings. */
    ropeFromConfig,
  };
}
