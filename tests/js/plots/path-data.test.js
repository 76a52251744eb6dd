// The curves' path data (TenthsPath, linePathTenths in web/plots/path-data.js): read back by an
// SVG path-data reader written here, the points are exactly the inputs rounded to tenths of a
// pixel, a curve breaks where y is not finite, and the data is shorter than absolute pairs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scaleLinear } from 'd3-scale';
import {
  affine,
  areaPathTenths,
  dotsPathTenths,
  linePathTenths,
  tenthsAlong,
  TenthsPath,
  valuesPathTenths,
} from '../../../web/plots/path-data.js';

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
    path.close();
    const d = path.finish();
    expect(d).toBe('M10,20l5 0 0 10-5 0Z');
    expect(readPath(d)).toEqual([
      [
        [10, 20],
        [15, 20],
        [15, 30],
        [10, 30],
      ],
    ]);
  });

  it('writes every step as String() would: one to three digits, signs, larger numbers, NaN', () => {
    const steps = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 12345, -1, -9, -10, -99, -100, -999, -1000, -54321];
    const path = new TenthsPath();
    path.moveToTenths(0, 0);
    let [x, y] = [0, 0];
    let expected = 'M0,0l';
    steps.forEach((step, index) => {
      [x, y] = [x + step, y - step];
      path.lineToTenths(x, y);
      expected += `${index > 0 && step >= 0 ? ' ' : ''}${step}${-step >= 0 ? ' ' : ''}${-step}`;
    });
    path.lineToTenths(NaN, y);
    expected += ' NaN 0';
    expect(path.finish()).toBe(expected);
  });

  it('keeps two paths written at once apart, and grows past its first buffer', () => {
    const first = new TenthsPath();
    const second = new TenthsPath();
    const count = 5000;
    first.moveToTenths(0, 0);
    second.moveToTenths(0, 0);
    for (let i = 1; i < count; i++) {
      first.lineToTenths(i * 7, (i * 13) % 1000);
      second.lineToTenths(-i * 3, -((i * 17) % 2000));
    }
    const [a, b] = [readPath(first.finish()), readPath(second.finish())];
    expect(a[0]).toHaveLength(count);
    expect(b[0]).toHaveLength(count);
    expect(a[0].at(-1)).toEqual([(count - 1) * 7, ((count - 1) * 13) % 1000]);
    expect(b[0].at(-1)).toEqual([-(count - 1) * 3, -(((count - 1) * 17) % 2000)]);
    // A third, after both are done, is written from the start of a buffer again.
    const third = new TenthsPath();
    third.moveTo(1, 2);
    expect(third.finish()).toBe('M10,20');
  });

  it('from arrays (valuesPathTenths, areaPathTenths), is the same data as from functions of each point', () => {
    const value = fc.double({ min: -1e4, max: 1e4, noNaN: true });
    const withGaps = fc.oneof({ weight: 6, arbitrary: value }, fc.constantFrom(NaN, Infinity, -Infinity));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(withGaps, value, value), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: -5000, max: 5000 }),
        fc.tuple(value, value, value, value),
        (points, from, [x0, x1, y0, y1]) => {
          const x = scaleLinear()
            .domain([from, from + points.length])
            .range([x0, x1]);
          const y = scaleLinear().domain([-3, 7]).range([y0, y1]);
          const [px, py] = [affine(x), affine(y)];
          const line = points.map(([v]) => v);
          const [upper, lower] = [points.map(([, u]) => u), points.map(([, , l]) => l)];
          const xs = tenthsAlong(x, from, points.length);
          expect(valuesPathTenths(xs, line, points.length, y)).toBe(
            linePathTenths(
              points.length,
              (i) => px(from + i),
              (i) => py(line[i]),
            ),
          );
          const path = new TenthsPath();
          path.moveTo(px(from), py(upper[0]));
          for (let i = 1; i < points.length; i++) path.lineTo(px(from + i), py(upper[i]));
          for (let i = points.length - 1; i >= 0; i--) path.lineTo(px(from + i), py(lower[i]));
          path.close();
          expect(areaPathTenths(xs, upper, lower, points.length, y)).toBe(path.finish());
        },
      ),
      { numRuns: 300 },
    );
    // A scale of one point maps everything to the middle of its range, as affine() does.
    const flat = scaleLinear().domain([2, 2]).range([0, 10]);
    expect(valuesPathTenths(tenthsAlong(flat, 0, 2), [1, Infinity], 2, flat)).toBe('M50,50l0 0');
  });

  it('writes dots and free commands (append, appendNumber) as template strings would', () => {
    const coordinate = fc.double({ min: -3000, max: 3000, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coordinate, fc.oneof({ weight: 5, arbitrary: coordinate }, fc.constant(NaN))), {
          maxLength: 50,
        }),
        fc.double({ min: 0.5, max: 12, noNaN: true }),
        (points, r) => {
          const radius = round10(r);
          const arcs = `a${radius},${radius} 0 1,0 ${2 * radius},0a${radius},${radius} 0 1,0 ${-2 * radius},0`;
          const expected = points
            .filter(([, y]) => Number.isFinite(y))
            .map(([x, y]) => `M${Math.round(x * 10) - radius},${Math.round(y * 10)}${arcs}`)
            .join('');
          expect(
            dotsPathTenths(
              points.length,
              (i) => points[i][0],
              (i) => points[i][1],
              r,
            ),
          ).toBe(expected);
          // The row plot's stems: a move, then 'V' and a number.
          const stems = new TenthsPath();
          let written = '';
          for (const [x, y] of points) {
            const [cx, cy] = [Math.round(x * 10), Math.round(y * 10)];
            stems.moveToTenths(cx, 0);
            stems.append('V');
            stems.appendNumber(cy);
            written += `M${cx},0V${cy}`;
          }
          expect(stems.finish()).toBe(written);
        },
      ),
      { numRuns: 200 },
    );
  });
});
