// The heatmaps' pixel helpers (web/plots/paint.js), which the page's worker
// runs on whole tables: the value range against a plain scan, and the painted
// pixels against an area average written here.
import { describe, expect, it } from 'vitest';
import { paintCells, valueRange } from '../../web/plots/paint.js';

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

describe('paintCells', () => {
  /** The share of cell c that pixel i covers when n cells fill s pixels. */
  const coverage = (c, i, n, s) => Math.max(0, Math.min(c + 1, ((i + 1) * n) / s) - Math.max(c, (i * n) / s));

  it('averages over the exact area each pixel covers (a 1024-column table in 450 pixels shows no beat)', () => {
    // Alternating 0 / 1 cells, black and white: every pixel covers 2.28 columns and 1.5 rows.
    const [rows, columns, width, height] = [3, 1024, 450, 2];
    const values = new Float32Array(rows * columns).map((_, k) => (Math.floor(k / columns) + (k % columns)) % 2);
    const colours = new Uint8ClampedArray([0, 0, 0, 255, 255, 255, 255, 255]);
    const pixels = paintCells(values, rows, columns, colours, 0, 1, width, height);
    let worst = 0;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        let sum = 0;
        let weight = 0;
        for (let r = 0; r < rows; r++)
          for (let c = 0; c < columns; c++) {
            const w = coverage(r, y, rows, height) * coverage(c, x, columns, width);
            sum += w * 255 * values[r * columns + c];
            weight += w;
          }
        worst = Math.max(worst, Math.abs(pixels[(y * width + x) * 4] - sum / weight));
      }
    // Rounding of the stored channel only (whole cells per pixel were off by up to 40 levels).
    expect(worst).toBeLessThanOrEqual(1);
  });
});
