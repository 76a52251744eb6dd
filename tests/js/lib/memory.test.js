// The wasm heap returns to where it was: nothing a call allocates outlives it,
// whether it succeeds or throws, and huge requests fail cleanly.
import { beforeAll, describe, expect, it } from 'vitest';
import { load, PRESET_NAMES } from '../../../web/lib/index.js';
import { paperValue } from '../reference.js';
import { maxAbsDiff } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

function everyFunction(i) {
  const preset = PRESET_NAMES[i % PRESET_NAMES.length];
  const dModel = 1 + ((i * 7) % 97);
  const length = 1 + ((i * 13) % 61);
  switch (i % 6) {
    case 0:
      return pe.table({ length, dModel, preset, dtype: i % 12 ? 'float32' : 'float64' });
    case 1:
      return pe.row(i * 0.37, { dModel, preset });
    case 2:
      return pe.frequencies({ dModel, preset });
    case 3:
      return pe.offsetDots({ dModel, preset, maxOffset: length, from: i % 5 });
    case 4:
      return pe.similarity({ length, dModel, preset });
    default:
      // A failing call must not leak either.
      try {
        pe.table({ length: -i, dModel });
      } catch {
        return null;
      }
      throw new Error('expected a RangeError');
  }
}

describe('memory', () => {
  it('10,000 alternating calls of every function leave the heap where it was', () => {
    for (let i = 0; i < 600; i++) everyFunction(i); // warm-up: the allocator settles
    const before = pe.heapBytes();
    for (let i = 0; i < 10000; i++) everyFunction(i);
    expect(pe.heapBytes()).toBe(before);
  });

  it('large scratch is released, huge requests are refused before reaching wasm, the module keeps working', () => {
    const before = pe.heapBytes();
    // 64 MiB of float64 scratch for the real products of a 'ratio-power' similarity.
    expect(pe.similarity({ length: 8, dModel: 1 << 20, preset: 'question' })).toHaveLength(64);
    expect(() => pe.similarity({ length: 24000, dModel: 1024, preset: 'question' })).toThrow(RangeError);
    expect(() => pe.table({ length: 1 << 20, dModel: 1 << 20 })).toThrow(RangeError);
    expect(pe.heapBytes()).toBe(before);
    const got = pe.table({ length: 3, dModel: 4, dtype: 'float64' });
    const want = Float64Array.from({ length: 12 }, (_, i) => paperValue(Math.floor(i / 4), i % 4, 4));
    expect(maxAbsDiff(got, want)).toBeLessThanOrEqual(1e-12);
  });
});
