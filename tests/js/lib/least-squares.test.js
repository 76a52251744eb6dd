// pe.leastSquaresResiduals against the normal equations solved here (on
// well-conditioned problems, where they are accurate), rank-deficient cases
// with known answers. Its refusals of bad input: bad-input/least-squares.test.js.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { normalEquationsResidual } from '../reference.js';
import { expectClose, FLOAT64_EPSILON } from '../tolerance.js';

let modules;
beforeAll(async () => {
  modules = { simd: await load({ simd: true }), scalar: await load({ simd: false }) };
});

/** A seeded stream of numbers in [-1, 1). */
function randoms(seed) {
  let state = seed;
  return () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
}

/** Column c of a row-major rows × columns array. */
const columnOf = (array, rows, columns, c) => Array.from({ length: rows }, (_, r) => array[r * columns + c]);

describe('leastSquaresResiduals', () => {
  // Ranks with every remainder of 4 (the core applies four reflections at a time), odd rows.
  for (const [rows, inputs, targets] of [
    [40, 5, 3],
    [61, 21, 19],
    [9, 1, 2],
    [200, 8, 1],
  ])
    for (const kind of ['simd', 'scalar'])
      it(`${kind}: what the normal equations leave, ${rows} × ${inputs} → ${targets}`, () => {
        const random = randoms(rows * 31 + inputs);
        const x = Float64Array.from({ length: rows * inputs }, random);
        const y = Float64Array.from({ length: rows * targets }, random);
        const [xBefore, yBefore] = [x.slice(), y.slice()];
        const { residuals, rank } = modules[kind].leastSquaresResiduals({ inputs: x, targets: y, rows });
        expect(rank).toBe(inputs);
        const inputColumns = Array.from({ length: inputs }, (_, c) => columnOf(x, rows, inputs, c));
        for (let t = 0; t < targets; t++) {
          const expected = normalEquationsResidual(inputColumns, columnOf(y, rows, targets, t));
          expectClose(residuals[t], expected, 1e-10 * expected);
        }
        // What the caller gave is left as it was.
        expect(x).toEqual(xBefore);
        expect(y).toEqual(yBefore);
      });

  it('reaches a target in the span of the inputs, and counts a repeated input once; arrays and Float32Arrays too', () => {
    const rows = 30;
    const inputs = [];
    for (let r = 0; r < rows; r++) inputs.push(r, r * r, 2 * r);
    const targets = [];
    for (let r = 0; r < rows; r++) targets.push(3 * r - r * r, Math.cos(r));
    for (const pe of Object.values(modules))
      for (const [x, y] of [
        [inputs, targets],
        [Float32Array.from(inputs), Float32Array.from(targets)],
      ]) {
        const { residuals, rank } = pe.leastSquaresResiduals({ inputs: x, targets: y, rows });
        expect(rank).toBe(2);
        // Target column 0 is 3 x0 - x1 (integers, exact in float32 too), in the inputs' span: what is
        // left is rounding.
        expectClose(residuals[0], 0, 1e-9 * Math.hypot(...columnOf(y, rows, 2, 0)));
        const two = [0, 1].map((c) => columnOf(x, rows, 3, c));
        const expected = normalEquationsResidual(two, columnOf(y, rows, 2, 1));
        expectClose(residuals[1], expected, 1e-10 * expected);
      }
  });

  it('rankTolerance stops the fit where what is left is smaller', () => {
    const rows = 40;
    const random = randoms(5);
    const inputs = [];
    for (let r = 0; r < rows; r++) {
      const value = random();
      inputs.push(value, value + 1e-7 * random());
    }
    const targets = Array.from({ length: rows }, random);
    const pe = modules.simd;
    expect(pe.leastSquaresResiduals({ inputs, targets, rows }).rank).toBe(2);
    expect(pe.leastSquaresResiduals({ inputs, targets, rows, rankTolerance: 1e-6 }).rank).toBe(1);
    // No inputs: nothing is reached.
    const none = pe.leastSquaresResiduals({ inputs: [], targets, rows });
    expect(none.rank).toBe(0);
    // The norm of the targets: a sum of rows squares, a rounding per term, then a square root.
    expectClose(none.residuals[0], Math.hypot(...targets), { relative: rows * FLOAT64_EPSILON });
  });
});
