// Work limits: every function estimates its work before it starts and
// refuses, with a RangeError naming itself and what to reduce, a call that
// would run for more than a few seconds (docs/reliability.md lists the limits
// and the times measured at them). Calls just inside the limits compute.
import { beforeAll, describe, expect, it } from 'vitest';
import { load, parseTable } from '../../web/lib/index.js';
import { maxAbsDiff, paperValue } from './reference.js';

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

  it('offsetDots: its closed forms and its real products have limits in one unit', () => {
    expect(() => pe.offsetDots({ dModel: 2 ** 20, maxOffset: 2 ** 13 })).toThrow(
      refused('offsetDots', 'maxOffset or dModel'),
    );
    expect(() => pe.offsetDots({ dModel: 4096, maxOffset: 2 ** 16, preset: 'question' })).toThrow(/ratio-power/);
  });

  it('identify refuses a search over too many columns or values, naming what to pass instead', () => {
    expect(() => pe.identify(new Float32Array(16 * 8192), 16, 8192)).toThrow(
      /^posenc\.identify: searching a 16 x 8192 table .* exceeds 8589934592.*fewer rows/,
    );
    expect(() => pe.identify(new Float32Array(2 ** 23 + 2 ** 20), 2 ** 17 + 2 ** 14, 64)).toThrow(RangeError);
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
    for (const k of [0, 1, 77, 2 ** 20 - 1]) expect(Math.abs(dots[k] - sAt(k))).toBeLessThanOrEqual(1e-8);
    const want = Float64Array.from({ length: 12 }, (_, i) => paperValue(Math.floor(i / 4), i % 4, 4));
    expect(maxAbsDiff(pe.table({ length: 3, dModel: 4, dtype: 'float64' }), want)).toBeLessThanOrEqual(1e-12);
  });
});
