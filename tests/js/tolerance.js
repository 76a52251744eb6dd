// Every float comparison of the tests goes through here, so that a bound reads
// the same in every file: |got − want| <= absolute + relative·|want|, element by
// element. NaN is never within any bound (a NaN difference counts as Infinity).
import { expect } from 'vitest';

// The gap above 1 of each format: a value rounded once to it is within half of
// this, relatively. Bounds are written as a small multiple of it, the factor
// counting the roundings (or the terms) between the two values compared.
export const FLOAT64_EPSILON = Number.EPSILON; // 2^-52
export const FLOAT32_EPSILON = 2 ** -23;

const worstOf = (got, want, differenceAt) => {
  if (got.length !== want.length) throw new Error(`length ${got.length} != ${want.length}`);
  let worst = 0;
  for (let i = 0; i < want.length; i++) {
    const difference = differenceAt(i);
    if (!(difference <= worst)) worst = Number.isNaN(difference) ? Infinity : difference;
  }
  return worst;
};

/** Largest |got[i] − want[i]| over two equal-length arrays. */
export const maxAbsDiff = (got, want) => worstOf(got, want, (i) => Math.abs(got[i] - want[i]));

/** Largest |got[i] − want[i]| / |want[i]| over two equal-length arrays (|want[i]| taken as at least 1e-300). */
export const maxRelDiff = (got, want) =>
  worstOf(got, want, (i) => Math.abs(got[i] - want[i]) / Math.max(Math.abs(want[i]), 1e-300));

/**
 * Asserts |got − want| <= absolute + relative·|want| for two numbers, or for
 * each element of two equal-length arrays (naming the first one off).
 * tolerance: the absolute bound, or { absolute = 0, relative = 0 }.
 */
export function expectClose(got, want, tolerance, message = '') {
  const { absolute = 0, relative = 0 } = typeof tolerance === 'number' ? { absolute: tolerance } : tolerance;
  const prefix = message ? `${message}: ` : '';
  if (typeof want === 'number') {
    const bound = absolute + relative * Math.abs(want);
    expect(Math.abs(got - want), `${prefix}got ${got}, want ${want} within ${bound}`).toBeLessThanOrEqual(bound);
    return;
  }
  expect(got.length, `${prefix}length`).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    const bound = absolute + relative * Math.abs(want[i]);
    const error = Math.abs(got[i] - want[i]);
    if (!(error <= bound))
      expect(error, `${prefix}index ${i}: got ${got[i]}, want ${want[i]} within ${bound}`).toBeLessThanOrEqual(bound);
  }
}
