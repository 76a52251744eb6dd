// pe.allocate(): arrays in the module's own memory that table() and
// similarity() write in place. Their values against float64 references, their
// views surviving the memory growing, and a freed one failing clearly (bad
// arguments: bad-input/wasm-array.test.js).
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { dot, fairseq, paperValue, rowOf, tensor2tensor } from '../reference.js';
import { maxAbsDiff } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

function paperTable(length, d) {
  const out = new Float64Array(length * d);
  for (let pos = 0; pos < length; pos++) for (let j = 0; j < d; j++) out[pos * d + j] = paperValue(pos, j, d);
  return out;
}

describe('pe.allocate', () => {
  it('table in place: the float64 reference, float32 and float64', () => {
    for (const [length, d] of [
      [1, 1],
      [37, 6],
      [300, 130],
      [1030, 64],
    ]) {
      const want = paperTable(length, d);
      const f32 = pe.allocate(length * d);
      const f64 = pe.allocate(length * d, { dtype: 'float64' });
      try {
        const got32 = pe.table({ length, dModel: d, out: f32 });
        expect(got32).toBeInstanceOf(Float32Array);
        expect(got32.length).toBe(length * d);
        // Rounding to float32 (half an ulp below 1) plus the recurrence's float64 error.
        expect(maxAbsDiff(got32, want)).toBeLessThanOrEqual(1.2e-7);
        const got64 = pe.table({ length, dModel: d, dtype: 'float64', out: f64 });
        expect(got64).toBeInstanceOf(Float64Array);
        expect(maxAbsDiff(got64, want)).toBeLessThanOrEqual(1e-12);
        // The same values as into a caller's array.
        expect(Array.from(f32.array)).toEqual(Array.from(pe.table({ length, dModel: d })));
      } finally {
        f32.free();
        f64.free();
      }
    }
  });

  it('table in place in the other conventions: tensor2tensor and fairseq', () => {
    const [length, d] = [50, 16];
    const out = pe.allocate(length * d, { dtype: 'float64' });
    try {
      pe.table({ length, dModel: d, preset: 'tensor2tensor', dtype: 'float64', out });
      expect(maxAbsDiff(out.array, tensor2tensor(length, d))).toBeLessThanOrEqual(1e-12);
      pe.table({ length, dModel: d, preset: 'fairseq', dtype: 'float64', out });
      expect(maxAbsDiff(out.array, fairseq(length, d))).toBeLessThanOrEqual(1e-9);
    } finally {
      out.free();
    }
  });

  it('similarity in place: entry (p, q) = PE(p) . PE(q)', () => {
    const [length, d] = [70, 24];
    const table = paperTable(length, d);
    const out = pe.allocate(length * length);
    try {
      const got = pe.similarity({ length, dModel: d, out });
      let worst = 0;
      for (let p = 0; p < length; p++)
        for (let q = 0; q < length; q++)
          worst = Math.max(worst, Math.abs(got[p * length + q] - dot(rowOf(table, d, p), rowOf(table, d, q))));
      expect(worst).toBeLessThanOrEqual(1e-5);
    } finally {
      out.free();
    }
  });

  it('.array is a fresh view after the memory grew; the values stay', () => {
    const small = pe.allocate(64);
    const before = small.array;
    pe.table({ length: 8, dModel: 8, out: small });
    const kept = Array.from(before);
    // 64 MB more than the heap holds now: the memory must grow, detaching every old view.
    const big = pe.allocate(16 * 1024 * 1024);
    try {
      expect(before.length).toBe(0);
      expect(small.array.length).toBe(64);
      expect(Array.from(small.array)).toEqual(kept);
      expect(kept[1]).toBe(1); // PE(0, 1) = cos 0
    } finally {
      big.free();
      small.free();
    }
  });

  it('free() gives the memory back, once; a freed array cannot be used', () => {
    const heap = pe.heapBytes();
    const out = pe.allocate(1000, { dtype: 'float64' });
    expect(pe.heapBytes()).toBeGreaterThanOrEqual(heap + 8000);
    expect(out.length).toBe(1000);
    expect(out.dtype).toBe('float64');
    out.free();
    out.free();
    expect(out.freed).toBe(true);
    expect(pe.heapBytes()).toBe(heap);
    expect(() => out.array).toThrow(/freed/);
    expect(() => pe.table({ length: 10, dModel: 100, dtype: 'float64', out })).toThrow(
      /out is a WasmArray that was freed/,
    );
  });
});
