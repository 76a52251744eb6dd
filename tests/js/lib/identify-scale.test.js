// identify() answers for any finite input: a table scaled by any finite
// factor is either matched with that scale or called too large to be a
// positional encoding (|value| <= scale <= 2^53), never an internal error.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { paperValue } from '../reference.js';
import { expectClose } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const [LENGTH, D] = [12, 6];
const paper = Float64Array.from({ length: LENGTH * D }, (_, k) => paperValue(Math.floor(k / D), k % D, D));

describe('identify on values of any magnitude', () => {
  it('the red team cases: × 1e16, × 1e150, × 1e154 and Number.MAX_VALUE are too large, not internal errors', () => {
    for (const factor of [1e16, 1e150, 1e154, 1e300]) {
      const result = pe.identify(
        paper.map((v) => v * factor),
        LENGTH,
        D,
      );
      expect(result.match).toBe(false);
      expect(result.diagnosis[0].code).toBe('too-large');
      expect(result.diagnosis[0].message).toMatch(/too large to be a positional encoding/);
    }
    const withMax = paper.slice();
    withMax[7] = Number.MAX_VALUE;
    expect(pe.identify(withMax, LENGTH, D).diagnosis[0].code).toBe('too-large');
  });

  it('property: any finite scale gives the scaled match (|scale| < 2^52) or "too large" (beyond 2^53)', () => {
    fc.assert(
      fc.property(fc.double({ min: -308, max: 308, noNaN: true }), fc.boolean(), (exponent, negative) => {
        const scale = (negative ? -1 : 1) * 10 ** exponent;
        fc.pre(Number.isFinite(scale) && scale !== 0);
        const result = pe.identify(
          paper.map((v) => v * scale),
          LENGTH,
          D,
        );
        if (Math.abs(scale) > 2 ** 53) {
          expect(result.diagnosis[0].code).toBe('too-large');
        } else if (Math.abs(scale) < 2 ** 52 && Math.abs(scale) > 1e-300) {
          expect(result.match).toBe(true);
          expectClose(result.options.scale / scale, 1, 1e-6);
        } else expect(typeof result.match).toBe('boolean');
      }),
      { numRuns: 60, seed: 18 },
    );
  });
});
