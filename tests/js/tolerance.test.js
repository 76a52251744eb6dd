// The tests' one tolerance helper (tests/js/tolerance.js) fails where it must: a value off by more
// than its bound, NaN, arrays of different lengths.
import { describe, expect, it } from 'vitest';
import { expectClose, maxAbsDiff, maxRelDiff } from './tolerance.js';

describe('tolerance helper', () => {
  it('expectClose: |got - want| <= absolute + relative * |want|, for numbers and arrays', () => {
    expectClose(1 + 2 ** -30, 1, 2 ** -30);
    expect(() => expectClose(1 + 2 ** -29, 1, 2 ** -30)).toThrow(/want 1 within/);
    expectClose([100, -200], [100.5, -201], { relative: 0.005 });
    expect(() => expectClose([100, -200], [100.5, -202], { relative: 0.005 })).toThrow(/index 1/);
    expectClose([1, 2], [1.25, 2.25], { absolute: 0.125, relative: 0.125 });
    expect(() => expectClose([1, 2], [1.5, 2], { absolute: 0.125, relative: 0.125 })).toThrow(/index 0/);
  });

  it('NaN is never close, and lengths must agree', () => {
    expect(() => expectClose(NaN, 0, Infinity)).toThrow();
    expect(() => expectClose([0, NaN], [0, 0], 1)).toThrow(/index 1/);
    expect(() => expectClose([0], [0, 0], 1)).toThrow(/length/);
    expect(maxAbsDiff([0, NaN], [0, 0])).toBe(Infinity);
    expect(maxRelDiff([1, NaN], [1, 1])).toBe(Infinity);
    expect(() => maxAbsDiff([1], [1, 2])).toThrow(/length 1 != 2/);
  });

  it('maxAbsDiff and maxRelDiff give the worst difference', () => {
    expect(maxAbsDiff([1, 5, -3], [1.5, 5, -1])).toBe(2);
    expect(maxRelDiff([1, 11, -3], [2, 10, -3])).toBe(0.5);
    expect(maxRelDiff([1e-310], [0])).toBe(1e-310 / 1e-300);
  });
});
