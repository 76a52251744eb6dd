// The tests' one tolerance helper (tests/js/tolerance.js) fails where it must: a value off by more
// than its bound, NaN, arrays of different lengths.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectClose, FLOAT32_EPSILON, FLOAT64_EPSILON, maxAbsDiff, maxRelDiff } from './tolerance.js';

const testsDir = fileURLToPath(new URL('.', import.meta.url));
const sourcesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourcesUnder(join(dir, entry.name))
      : /\.(js|mjs)$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );

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

  it("the epsilons are the formats' gaps above 1", () => {
    expect(1 + FLOAT64_EPSILON).toBeGreaterThan(1);
    expect(1 + FLOAT64_EPSILON / 2).toBe(1);
    expect(Math.fround(1 + FLOAT32_EPSILON)).toBeGreaterThan(1);
    expect(Math.fround(1 + FLOAT32_EPSILON / 2)).toBe(1);
  });

  it("no test in tests/js compares floats with Vitest's closeness matcher (decimal digits, not a bound that says why)", () => {
    // Built from parts, so that this file does not name it.
    const matcher = ['toBe', 'Close', 'To'].join('');
    const users = sourcesUnder(testsDir).filter((file) => readFileSync(file, 'utf8').includes(matcher));
    expect(users.map((file) => file.slice(testsDir.length))).toEqual([]);
  });
});
