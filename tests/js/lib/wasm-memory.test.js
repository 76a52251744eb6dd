// A full wasm heap: every function answers with a RangeError naming itself
// (never "Aborted()"), small calls still compute, and after free() everything
// works again. WasmArrays dropped without free(): a clear error in a
// synchronous loop, their memory back after a garbage collection.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { paperValue } from '../reference.js';
import { cacheReference, frequenciesReference, ladder } from '../rope-reference.js';
import { expectClose, FLOAT32_EPSILON, FLOAT64_EPSILON, maxAbsDiff } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const paperTable = (length, d) =>
  Float64Array.from({ length: length * d }, (_, k) => paperValue(Math.floor(k / d), k % d, d));

/** Allocates until nothing more fits, halving the request down to 16 values; returns what it holds. */
function fillHeap() {
  const held = [];
  for (let count = 2 ** 27; count >= 16;) {
    try {
      held.push(pe.allocate(count));
    } catch (error) {
      expect(error).toBeInstanceOf(RangeError);
      count /= 2;
    }
  }
  return held;
}

// Calls that need more memory than a full heap has left (megabytes of scratch or results).
const LARGE_CALLS = {
  table: () => pe.table({ length: 4000, dModel: 1000 }),
  row: () => pe.row(5, { dModel: 2 ** 20, dtype: 'float64' }),
  frequencies: () => pe.frequencies({ dModel: 2 ** 20 }),
  offsetDots: () => pe.offsetDots({ dModel: 8, maxOffset: 2 ** 22 }),
  similarity: () => pe.similarity({ length: 3000, dModel: 8, preset: 'legacy-column' }),
};

describe('a full wasm heap', () => {
  it('every function throws a RangeError naming itself, small calls compute, and free() restores everything', () => {
    const printed = [];
    const warn = console.warn;
    console.warn = (text) => printed.push(String(text));
    const held = fillHeap();
    try {
      expect(held.length).toBeGreaterThan(10);
      for (const [name, call] of Object.entries(LARGE_CALLS))
        expect(call, name).toThrow(new RegExp(`^posenc\\.${name}: not enough wasm memory`));
      // Small calls need no more than the headroom allocate() keeps.
      expect(maxAbsDiff(pe.table({ length: 3, dModel: 4, dtype: 'float64' }), paperTable(3, 4))).toBeLessThanOrEqual(
        1e-12,
      );
      const row = pe.row(2, { dModel: 4, dtype: 'float64' });
      expect(maxAbsDiff(row, paperTable(3, 4).subarray(8))).toBeLessThanOrEqual(1e-12);
      // Bounds: a pow (within an ulp); sums of n terms, n roundings; float32 results, 2^-23.
      expectClose(pe.frequencies({ dModel: 4 })[2], 1 / 100, { relative: 2 * FLOAT64_EPSILON });
      expectClose(pe.offsetDots({ dModel: 4, maxOffset: 2 })[0], 2, { relative: 2 * FLOAT64_EPSILON });
      expectClose(pe.similarity({ length: 3, dModel: 4 })[4], 2, { relative: FLOAT32_EPSILON });
      expect(printed).toEqual([]);
    } finally {
      for (const array of held) array.free();
      console.warn = warn;
    }
    // Everything again, with values: the module was never aborted.
    const table = LARGE_CALLS.table();
    expectClose(table[1999 * 1000 + 6], paperValue(1999, 6, 1000), FLOAT32_EPSILON);
    expectClose(LARGE_CALLS.row()[0], Math.sin(5), { relative: 2 * FLOAT64_EPSILON });
    expect(LARGE_CALLS.frequencies()).toHaveLength(2 ** 20);
    expectClose(LARGE_CALLS.offsetDots()[0], 4, { relative: 4 * FLOAT64_EPSILON });
    expect(LARGE_CALLS.similarity()).toHaveLength(9e6);
    expect(pe.allocate(2 ** 20).free()).toBeUndefined();
  });
});

// RoPE calls whose frequencies, factors, scratch or results need more than the headroom:
// a head of 2^16 dims has 2^15 frequencies (256 KiB in wasm memory for each array of them).
const WIDE = 2 ** 16;
const WIDE_LONGROPE = {
  headDim: WIDE,
  scaling: {
    type: 'longrope',
    factor: 4,
    originalMaxPositionEmbeddings: 4096,
    shortFactor: new Float64Array(WIDE / 2).fill(2),
    longFactor: new Float64Array(WIDE / 2).fill(3),
  },
};
const LARGE_ROPE_CALLS = {
  ropeFrequencies: () => pe.ropeFrequencies(WIDE_LONGROPE),
  ropeCache: () => pe.ropeCache({ headDim: WIDE, length: 2 }),
  ropeApply: () => pe.ropeApply(new Float32Array(WIDE * 2), { headDim: WIDE }),
  ropeScores: () => pe.ropeScores({ headDim: WIDE, maxOffset: 2 }),
  ropeSupportedContext: () => pe.ropeSupportedContext({ headDim: WIDE, base: 1e4, limit: 2 }),
  ropeSmallestBase: () => pe.ropeSmallestBase({ headDim: WIDE, context: 2 }),
};

describe('a full wasm heap and the RoPE functions', () => {
  it('each throws a RangeError naming itself, nothing prints Aborted(), small calls compute, free() restores them', () => {
    const printed = [];
    const [warn, error] = [console.warn, console.error];
    console.warn = console.error = (text) => printed.push(String(text));
    const held = fillHeap();
    try {
      expect(held.length).toBeGreaterThan(10);
      for (const [name, call] of Object.entries(LARGE_ROPE_CALLS))
        expect(call, name).toThrow(new RegExp(`^posenc\\.${name}: not enough wasm memory`));
      for (const [name, call] of Object.entries(LARGE_ROPE_CALLS)) expect(() => call(), name).toThrow(RangeError);
      const w = ladder(8, 10000);
      expect(maxAbsDiff(pe.ropeFrequencies({ headDim: 8 }).invFreq, w)).toBeLessThanOrEqual(1e-18);
      const cache = pe.ropeCache({ headDim: 8, length: 3, start: 4 });
      expect(maxAbsDiff(cache.sin, cacheReference(w, 1, 'half', 4, 3).sin)).toBeLessThanOrEqual(1.2e-7);
      const rotated = pe.ropeApply(Float64Array.of(1, 0), { headDim: 2, start: 3 });
      expect(maxAbsDiff(rotated, [Math.cos(3), Math.sin(3)])).toBeLessThanOrEqual(1e-15);
      expectClose(pe.ropeScores({ headDim: 8, maxOffset: 1 }).scores[0], 1, { relative: 4 * FLOAT64_EPSILON });
      expect(pe.ropeFromConfig({ head_dim: 8, rope_theta: 1e4 }).options).toEqual({ headDim: 8, base: 1e4 });
      // One pair of frequency 1: cos m first turns negative at m = 2.
      expect(pe.ropeSupportedContext({ headDim: 2, base: 1e4, limit: 10 })).toBe(2);
      expect(printed).toEqual([]);
    } finally {
      for (const array of held) array.free();
      [console.warn, console.error] = [warn, error];
    }
    // Every call again, with values: the module was never aborted.
    const wide = frequenciesReference(WIDE_LONGROPE);
    const f = LARGE_ROPE_CALLS.ropeFrequencies();
    expect(maxAbsDiff(f.invFreq, wide.invFreq)).toBeLessThanOrEqual(1e-15);
    // log, sqrt and a division in the core and the reference: a few ulps.
    expectClose(f.attentionFactor, wide.attentionFactor, { relative: 4 * FLOAT64_EPSILON });
    const plain = ladder(WIDE, 10000);
    const c = LARGE_ROPE_CALLS.ropeCache();
    expect(maxAbsDiff(c.cos.subarray(WIDE), cacheReference(plain, 1, 'half', 1, 1).cos)).toBeLessThanOrEqual(1.2e-7);
    expect(LARGE_ROPE_CALLS.ropeApply()).toHaveLength(WIDE * 2);
    // A sum over 2^15 pairs, a rounding per term at most.
    expectClose(LARGE_ROPE_CALLS.ropeScores().scores[0], 1, { relative: 2 ** 15 * FLOAT64_EPSILON });
    // m = 0 and 1: cos 0 and cos(1 * w) > 0 for every w <= 1.
    expect(LARGE_ROPE_CALLS.ropeSupportedContext()).toBe(2);
    expect(LARGE_ROPE_CALLS.ropeSmallestBase()).toBe(1);
  });
});

describe('WasmArrays dropped without free()', () => {
  it('a synchronous loop that never frees gets a RangeError saying so, not an abort', () => {
    const before = pe.heapBytes();
    let error;
    let iterations = 0;
    try {
      // The red team's loop wrote a 1024 x 1024 table into each array; 16 MiB
      // arrays dropped unwritten fill the heap as surely, in a fraction of the time.
      for (;;) {
        pe.allocate(2 ** 22);
        pe.table({ length: 4, dModel: 8 });
        iterations++;
      }
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/^posenc\.allocate: count 4194304: not enough wasm memory/);
    expect(error.message).toMatch(/\d+ WasmArrays hold \d+ bytes: free\(\) your WasmArrays/);
    expect(iterations).toBeGreaterThan(50);
    expect(pe.heapBytes()).toBeGreaterThan(before + iterations * 2 ** 24 - 1);
  });

  it('their memory comes back once they are collected (after the loop, between tasks)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc');
    const fullAt = pe.heapBytes();
    // Collections and the registry's callbacks run between tasks: give them a few.
    for (let round = 0; round < 50 && pe.heapBytes() > fullAt / 2; round++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(pe.heapBytes()).toBeLessThan(2 ** 24);
    const a = pe.allocate(2 ** 20);
    expect(maxAbsDiff(pe.table({ length: 4, dModel: 2 ** 18, out: a }).subarray(0, 4), [0, 1, 0, 1])).toBe(0);
    a.free();
  });
});
