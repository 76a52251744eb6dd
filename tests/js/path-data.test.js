// The curves' path data (TenthsPath, linePathTenths in web/plots/common.js): read back by an
// SVG path-data reader written here, the points are exactly the inputs rounded to tenths of a
// pixel, a curve breaks where y is not finite, and the data is shorter than absolute pairs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linePathTenths, TenthsPath } from '../../web/plots/common.js';

/**
 * The subpaths of path data made of M (absolute), l (relative, pairs repeated without the
 * letter) and Z, as lists of absolute [x, y] points; any other command is an error.
 */
function readPath(d) {
  const tokens = d.match(/[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/g) ?? [];
  expect(tokens.join('').length, 'only commands, numbers and separators').toBe(d.replace(/[ ,]/g, '').length);
  const subpaths = [];
  let command = null;
  let at = [0, 0];
  for (let i = 0; i < tokens.length;) {
    if (/[A-Za-z]/.test(tokens[i])) {
      command = tokens[i++];
      if (command === 'Z') continue;
      if (command !== 'M' && command !== 'l') throw new Error(`unexpected command ${command} in ${d}`);
    }
    const [x, y] = [Number(tokens[i]), Number(tokens[i + 1])];
    i += 2;
    if (command === 'M') {
      at = [x, y];
      subpaths.push([at]);
      command = 'l'; // pairs after a move's first are lines (SVG 1.1, 'moveto')
      continue;
    }
    at = [at[0] + x, at[1] + y];
    subpaths.at(-1).push(at);
  }
  return subpaths;
}

const round10 = (value) => Math.round(value * 10) + 0; // + 0: -0 reads back as 0

describe('path data in tenths of a pixel', () => {
  it('reads back as the points rounded to tenths, broken where y is not finite', () => {
    const coordinate = fc.double({ min: -2000, max: 2000, noNaN: true });
    const y = fc.oneof({ weight: 5, arbitrary: coordinate }, fc.constantFrom(NaN, Infinity, -Infinity));
    fc.assert(
      fc.property(fc.array(fc.tuple(coordinate, y), { maxLength: 60 }), (points) => {
        const expected = [];
        let pen = false;
        for (const [px, py] of points) {
          if (!Number.isFinite(py)) {
            pen = false;
            continue;
          }
          if (!pen) expected.push([]);
          expected.at(-1).push([round10(px), round10(py)]);
          pen = true;
        }
        const d = linePathTenths(
          points.length,
          (i) => points[i][0],
          (i) => points[i][1],
        );
        expect(readPath(d).map((subpath) => subpath.map(([a, b]) => [a + 0, b + 0]))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('writes a step of a curve in a few characters, about half of an absolute pair', () => {
    const count = 1025;
    const x = (i) => 40 + i * 0.62;
    const y = (i) => 200 + 80 * Math.sin(i * 0.37);
    const d = linePathTenths(count, x, y);
    let absolute = '';
    for (let i = 0; i < count; i++) absolute += `${i ? 'L' : 'M'}${round10(x(i))},${round10(y(i))}`;
    expect(d.length).toBeLessThan(0.65 * absolute.length);
    expect(d.startsWith(`M${round10(x(0))},${round10(y(0))}l`)).toBe(true);
  });

  it('starts a closed area with a move and ends it with Z after the way back', () => {
    const path = new TenthsPath();
    path.moveTo(1, 2);
    path.lineTo(1.5, 1.96);
    path.lineTo(1.5, 3);
    path.lineTo(1, 3.04);
    expect(`${path.d}Z`).toBe('M10,20l5 0 0 10-5 0Z');
    expect(readPath(`${path.d}Z`)).toEqual([
      [
        [10, 20],
        [15, 20],
        [15, 30],
        [10, 30],
      ],
    ]);
  });
});
