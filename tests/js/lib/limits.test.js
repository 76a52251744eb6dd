// Work limits: every function estimates its work before it starts and
// refuses, with a RangeError naming itself and what to reduce, a call that
// would run for more than a few seconds (docs/reliability.md lists the limits
// and the times measured at them). Calls just inside the limits compute.
import { beforeAll, describe, expect, it } from 'vitest';
import { load, parseTable } from '../../../web/lib/index.js';
import { paperValue } from '../reference.js';
import { expectClose, maxAbsDiff } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const refused = (where, advice) => new RegExp(`^posenc\\.${where}: .* work units exceeds 4294967296.*${advice}`);

describe('work limits', () => {
  it("similarity: the red team's 46-second and 13-second calls are refused before any work", () => {
    expect(() => pe.similarity({ length: 23000, dModel: 2 ** 20, preset: 'legacy-column' })).toThrow(
      refused('similarity', 'reduce length or dModel'),
    );
    expect(() => pe.similarity({ length: 16384, dModel: 2 ** 20 })).toThrow(RangeError);
    expect(() => pe.similarity({ length: 4096, dModel: 2 ** 20 })).toThrow(refused('similarity', 'length or dModel'));
    expect(() => pe.similarity({ length: 1024, dModel: 2048, preset: 'question' })).toThrow(/ratio-power/);
  });

  it('table: direct evaluation and ratio-power are limited by their work, not only by their size', () => {
    // 2^28 values of sin(pos^e): about 11 s; 2^27 float64 values of the column exponent: about 2 s (allowed).
    expect(() => pe.table({ length: 2 ** 14, dModel: 2 ** 14, preset: 'question' })).toThrow(
      refused('table', 'reduce length or dModel'),
    );
    expect(() => pe.table({ length: 2 ** 14 + 1, dModel: 2 ** 14, preset: 'legacy-column' })).toThrow(
      refused('table', ''),
    );
  });

  it('table: float64 values far from position 0 cost the slow sin/cos of angles beyond 2^20', () => {
    // 2^27 float64 values: allowed near position 0 (about 2 s), but at start 2^40 every
    // angle takes musl's slow argument reduction (6x slower, measured): refused.
    expect(() => pe.table({ length: 2 ** 17, dModel: 1024, dtype: 'float64', start: 2 ** 40 })).toThrow(
      refused('table', 'reduce length or dModel'),
    );
    // A small far table still computes, against the float64 reference.
    const far = pe.table({ length: 4, dModel: 8, dtype: 'float64', start: 2 ** 40 });
    const reference = Float64Array.from({ length: 32 }, (_, i) => paperValue(2 ** 40 + Math.floor(i / 8), i % 8, 8));
    // Angles near 2^40 rad: an ulp of the angle is 2^-12, and a frequency an ulp apart moves it by
    // 2^40 x 2^-53 of the frequency: a few of those.
    expectClose(far, reference, 1e-3);
  });

  it('offsetDots: its closed forms and its real products have limits in one unit', () => {
    expect(() => pe.offsetDots({ dModel: 2 ** 20, maxOffset: 2 ** 13 })).toThrow(
      refused('offsetDots', 'maxOffset or dModel'),
    );
    expect(() => pe.offsetDots({ dModel: 4096, maxOffset: 2 ** 16, preset: 'question' })).toThrow(/ratio-power/);
  });

  it('identify refuses a search over too many columns or values, naming what to pass instead', () => {
    // The estimate in ns (docs/precision.md): 2.75 ms a column + 150 ns a value, against 12 s.
    // 16 x 8192: 8192 * 2750000 + 131072 * 150 = 22547660800; 64 x 8192: 22528000000 + 78643200.
    expect(() => pe.identify(new Float32Array(16 * 8192), 16, 8192)).toThrow(
      /^posenc\.identify: searching a 16 x 8192 table .*a bound of 12 s\) = 22547660800 work units exceeds 12000000000.*fewer rows/,
    );
    expect(() => pe.identify(new Float32Array(64 * 8192), 64, 8192)).toThrow(/= 22606643200 work units exceeds/);
    // The widest table: 4363 columns (4363 * 2750150 = 11998904450 ns), not 4364.
    expect(() => pe.identify(new Float32Array(4364), 1, 4364)).toThrow(/= 12001654600 work units exceeds/);
    expect(pe.identify(new Float32Array(4363), 1, 4363).options.scale).toBe(0);
  });

  it('identify searches tables the current search handles within its bound (the old estimate refused them)', () => {
    // Measured (docs/precision.md, CPU time under load 11-19): 8192 x 1024 took 0.7-1.4 s
    // when it matched and 3.0 s of noise. The old estimate (dModel * 1.5 * 2^20 + values *
    // 2^10 against 2^33) refused it: 1.02e10. Now: 1024 * 2.75e6 + 2^23 * 150 = 4074291200 ns.
    const zeros = new Float32Array(8192 * 1024); // all zero: answered without a search
    const result = pe.identify(zeros, 8192, 1024);
    expect(result.options.scale).toBe(0);
    expect(result.diagnosis[0].code).toBe('all-zero');
  });

  it('parseTable refuses text beyond 2^25 characters', () => {
    expect(() => parseTable(' '.repeat(2 ** 25 + 1))).toThrow(/^posenc\.parseTable: the text has 33554433 characters/);
  });

  it('calls inside the limits compute correct values, and the module works after the refusals', () => {
    // 2^31 work units of the paper's closed form: allowed.
    const dots = pe.offsetDots({ dModel: 2 ** 11, maxOffset: 2 ** 20 - 1 });
    expect(dots).toHaveLength(2 ** 20);
    // s(k) = sum over pairs of cos(w_i k), in float64 here.
    const sAt = (k) => {
      let sum = 0;
      for (let i = 0; i < 2 ** 10; i++) sum += Math.cos(k / 10000 ** ((2 * i) / 2 ** 11));
      return sum;
    };
    for (const k of [0, 1, 77, 2 ** 20 - 1]) expectClose(dots[k], sAt(k), 1e-8);
    const want = Float64Array.from({ length: 12 }, (_, i) => paperValue(Math.floor(i / 4), i % 4, 4));
    expect(maxAbsDiff(pe.table({ length: 3, dModel: 4, dtype: 'float64' }), want)).toBeLessThanOrEqual(1e-12);
  });
});
