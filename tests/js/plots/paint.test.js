// The heatmaps' pixel helpers (web/plots/paint.js), which the page's worker
// runs on whole tables: the value range against a plain scan, and the painted
// pixels against an area average written here.
import { describe, expect, it } from 'vitest';
import { paintCells, valueRange } from '../../../web/plots/paint.js';

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

  // 2.28 and 4.4 columns per pixel: summed down first, and across first (paintCells picks by how many).
  for (const columns of [1024, 2000])
    it(`averages over the exact area each pixel covers (a ${columns}-column table in 450 pixels shows no beat; NaN cells count for nothing)`, () => {
      // Alternating 0 / 1 cells, black and white: every pixel covers 1.5 rows and 2.28 or 4.4 columns.
      const [rows, width, height] = [3, 450, 2];
      const values = new Float32Array(rows * columns).map((_, k) => (Math.floor(k / columns) + (k % columns)) % 2);
      for (const at of [5, 6, 7, 8, 9, 10, 11, 12, columns + 300, 2 * columns + 301]) values[at] = NaN;
      const colours = new Uint8ClampedArray([0, 0, 0, 255, 255, 255, 255, 255]);
      const pixels = paintCells(values, rows, columns, colours, 0, 1, width, height);
      let worst = 0;
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          let sum = 0;
          let weight = 0;
          for (let r = 0; r < rows; r++)
            for (let c = 0; c < columns; c++) {
              const value = values[r * columns + c];
              if (Number.isNaN(value)) continue;
              const w = coverage(r, y, rows, height) * coverage(c, x, columns, width);
              sum += w * 255 * value;
              weight += w;
            }
          worst = Math.max(worst, Math.abs(pixels[(y * width + x) * 4] - sum / weight));
          expect(pixels[(y * width + x) * 4 + 3]).toBe(255);
        }
      // Rounding of the stored channel only (whole cells per pixel were off by up to 40 levels).
      expect(worst).toBeLessThanOrEqual(1);
    });

  // The colour of value v in [low, high] through a table of n RGBA entries: the nearest entry, clamped.
  const entryOf = (v, low, high, n) => Math.min(n - 1, Math.max(0, Math.round(((v - low) / (high - low)) * (n - 1))));
  // A colour table whose entries differ in every channel and whose alpha is not 255 (the pixels' is).
  const table = (n) => new Uint8ClampedArray(n * 4).map((_, k) => [k >> 2, 255 - (k >> 2), (k * 7) % 256, 9][k % 4]);

  /** Checks every pixel of `pixels` against the cell cellAt(x, y) gives (null: transparent). */
  function expectCells(pixels, width, height, colours, cellAt) {
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const value = cellAt(x, y);
        const at = (y * width + x) * 4;
        const got = [...pixels.subarray(at, at + 4)];
        if (Number.isNaN(value)) expect(got, `pixel ${x}, ${y}`).toEqual([0, 0, 0, 0]);
        else {
          const entry = entryOf(value, -1, 1, colours.length / 4);
          expect(got, `pixel ${x}, ${y}`).toEqual([...colours.subarray(entry * 4, entry * 4 + 3), 255]);
        }
      }
  }

  it('shows the cell under each pixel when the pixels outnumber the cells (exact), NaN transparent', () => {
    const [rows, columns, width, height] = [5, 7, 23, 12];
    const values = new Float32Array(rows * columns).map((_, k) => Math.sin(k * 1.3) * 1.2);
    values[9] = NaN;
    const colours = table(33);
    const pixels = paintCells(values, rows, columns, colours, -1, 1, width, height);
    // The cell under the pixel's left (top) edge.
    const cellAt = (x, y) => values[Math.floor((y * rows) / height) * columns + Math.floor((x * columns) / width)];
    expectCells(pixels, width, height, colours, cellAt);
  });

  it('shows the cell under each pixel centre in a preview, more cells than pixels too', () => {
    const [rows, columns, width, height] = [40, 9, 13, 11];
    const values = new Float32Array(rows * columns).map((_, k) => Math.cos(k * 0.37) * 1.1);
    values[5 * columns + 2] = NaN;
    const colours = table(64);
    const pixels = paintCells(values, rows, columns, colours, -1, 1, width, height, false);
    const cellAt = (x, y) =>
      values[Math.floor(((y + 0.5) * rows) / height) * columns + Math.floor(((x + 0.5) * columns) / width)];
    expectCells(pixels, width, height, colours, cellAt);
  });

  it('writes into a given array, also one that starts at an odd byte', () => {
    const [rows, columns, width, height] = [3, 4, 10, 7];
    const values = new Float32Array(rows * columns).map((_, k) => k / 6 - 1);
    const colours = table(17);
    const backing = new Uint8ClampedArray(width * height * 4 + 2).fill(77);
    const given = backing.subarray(1, 1 + width * height * 4);
    expect(paintCells(values, rows, columns, colours, -1, 1, width, height, true, given)).toBe(given);
    const cellAt = (x, y) => values[Math.floor((y * rows) / height) * columns + Math.floor((x * columns) / width)];
    expectCells(given, width, height, colours, cellAt);
    // Nothing outside it is touched.
    expect([backing[0], backing[backing.length - 1]]).toEqual([77, 77]);
  });

  it('averages along one axis and picks along the other (more rows than pixels, fewer columns)', () => {
    const [rows, columns, width, height] = [10, 3, 8, 4];
    const values = new Float32Array(rows * columns).map((_, k) => Math.sin(k * 0.9));
    const colours = table(256);
    const pixels = paintCells(values, rows, columns, colours, -1, 1, width, height);
    let worst = 0;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const column = Math.floor((x * columns) / width);
        for (let channel = 0; channel < 3; channel++) {
          let sum = 0;
          let weight = 0;
          for (let r = 0; r < rows; r++) {
            const w = coverage(r, y, rows, height);
            const entry = entryOf(values[r * columns + column], -1, 1, 256);
            sum += w * colours[entry * 4 + channel];
            weight += w;
          }
          worst = Math.max(worst, Math.abs(pixels[(y * width + x) * 4 + channel] - sum / weight));
        }
        expect(pixels[(y * width + x) * 4 + 3]).toBe(255);
      }
    expect(worst).toBeLessThanOrEqual(1);
  });
});
