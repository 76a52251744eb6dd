// The heatmaps' pixel helpers (web/plots/paint.js), which the page's worker
// runs on whole tables: the value range against a plain scan.
import { describe, expect, it } from 'vitest';
import { valueRange } from '../../web/plots/paint.js';

function plainRange(values) {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (Number.isNaN(value)) continue;
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return { min, max };
}

describe('valueRange', () => {
  it('finds the extremes wherever they are, for every length modulo 4', () => {
    for (let length = 1; length <= 13; length++) {
      for (let at = 0; at < length; at++) {
        const values = new Float32Array(length).map((_, i) => Math.sin(i * 0.7) * 0.5);
        values[at] = 3;
        if (length > 1) values[(at + 1) % length] = -2;
        expect(valueRange(values)).toEqual(plainRange(values));
        expect(valueRange(values).max).toBe(3);
        if (length > 1) expect(valueRange(values).min).toBe(-2);
      }
    }
  });

  it('skips NaN and gives Infinity, -Infinity when nothing is left', () => {
    expect(valueRange(new Float32Array([NaN, 1, NaN, -4, NaN]))).toEqual({ min: -4, max: 1 });
    expect(valueRange(new Float32Array([NaN, NaN, NaN, NaN, NaN]))).toEqual({ min: Infinity, max: -Infinity });
    expect(valueRange(new Float32Array(0))).toEqual({ min: Infinity, max: -Infinity });
  });
});
