// pe.leastSquaresResiduals: bad input gets a TypeError or RangeError naming
// the function and the parameter, and the module keeps working.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../../web/lib/index.js';
import { expectClose, FLOAT64_EPSILON } from '../../tolerance.js';

let modules;
beforeAll(async () => {
  modules = { simd: await load({ simd: true }) };
});

describe('leastSquaresResiduals', () => {
  it('refuses bad input with the function and the parameter named, and keeps working', () => {
    const pe = modules.simd;
    const ok = { inputs: [1, 2, 3, 4], targets: [1, 0], rows: 2 };
    const cases = [
      [undefined, TypeError, /options must be an object/],
      [{ ...ok, rows: undefined }, TypeError, /rows is required/],
      [{ ...ok, rows: 1.5 }, RangeError, /rows/],
      [{ ...ok, inputs: 'abc' }, TypeError, /inputs must be an array/],
      [{ ...ok, inputs: [1, 2, 3] }, RangeError, /inputs must hold rows × columns values/],
      [{ ...ok, targets: [1, NaN] }, RangeError, /targets\[1\] must be a finite number/],
      [{ ...ok, targets: [1, '2'] }, TypeError, /targets\[1\] must be a number/],
      [{ ...ok, inputs: new BigInt64Array(4) }, TypeError, /inputs must hold numbers/],
      [{ ...ok, rankTolerance: 1 }, RangeError, /rankTolerance must be a number in \[0, 1\)/],
      [{ ...ok, rankTolerance: '0' }, TypeError, /rankTolerance must be a number/],
      [{ ...ok, extra: 1 }, TypeError, /unknown option 'extra'/],
    ];
    for (const [opts, ErrorType, message] of cases) {
      let thrown = null;
      try {
        pe.leastSquaresResiduals(opts);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(message)).toBeInstanceOf(ErrorType);
      expect(thrown.message).toMatch(/^posenc\.leastSquaresResiduals: /);
      expect(thrown.message).toMatch(message);
    }
    // More work than one call may do is refused before any is done.
    const rows = 4096;
    const wide = new Float64Array(rows * 1024);
    expect(() => pe.leastSquaresResiduals({ inputs: wide, targets: wide, rows })).toThrow(
      /posenc\.leastSquaresResiduals: .* exceeds/,
    );
    const heap = pe.heapBytes();
    const { residuals } = pe.leastSquaresResiduals(ok);
    // [1, 0] on the span of (1, 3) and (2, 4), which is everything: 0.
    // A 2 x 2 Householder QR of values up to 4: a few ulps.
    expectClose(residuals[0], 0, 8 * FLOAT64_EPSILON);
    expect(pe.heapBytes()).toBe(heap);
  });
});
