// The RoPE chapter's numbers (web/model/rope-data.js) and the base criterion
// of the library (ropeSupportedContext, ropeSmallestBase) against float64
// references written here with Math.cos / Math.sin: the rotation of q and k,
// RoFormer's bound, the sinusoidal s(k), Su Jianlin's sum.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { createModel } from '../../../web/model/data.js';
import { toInterleaved } from '../../../web/model/rope-data.js';
import { COMPUTE } from '../../../web/model/section-data.js';
import { defaultState } from '../../../web/model/state.js';
import { expectClose } from '../tolerance.js';

// Scores are dots of up to 64 products of q and k rotated to positions up to 1263: the module and
// the references here turn them by the same float64 frequencies, so they differ by roundings of the
// products and of sin/cos (an ulp of the angle each), far below 1e-13.
const SCORE = 1e-13;

let pe;
let model;
beforeAll(async () => {
  pe = await load();
  model = createModel(pe);
});

const ladder = (d, base) => Array.from({ length: d / 2 }, (_, i) => base ** ((-2 * i) / d));
const cosineSum = (w, m) => w.reduce((sum, x) => sum + Math.cos(m * x), 0);
function firstNegative(w, limit) {
  for (let m = 0; m < limit; m++) if (cosineSum(w, m) < 0) return m;
  return limit;
}
const holds = (d, L, base) => firstNegative(ladder(d, base), L) === L;

/** x rotated to `position`: pair i at (i, i + d/2) (half) or (2i, 2i + 1) (interleaved), turned by position * w_i. */
function rotate(x, position, base, layout) {
  const d = x.length;
  const out = new Float64Array(d);
  ladder(d, base).forEach((w, i) => {
    const [a, b] = layout === 'half' ? [i, i + d / 2] : [2 * i, 2 * i + 1];
    const [c, s] = [Math.cos(position * w), Math.sin(position * w)];
    out[a] = x[a] * c - x[b] * s;
    out[b] = x[a] * s + x[b] * c;
  });
  return out;
}
const dot = (a, b) => a.reduce((sum, v, i) => sum + v * b[i], 0);
const state = (changes) => ({ ...defaultState(), ...changes });

describe('from adding to rotating (rope-relative)', () => {
  for (const [layout, headDim, base] of [
    ['half', 64, 1e4],
    ['interleaved', 32, 5e5],
  ]) {
    it(`${layout}, d ${headDim}: each score is R(p)q · R(p + m)k of the same q and k, for every start`, () => {
      const numbers = COMPUTE['rope-relative']({
        model,
        state: state({ ropeDim: headDim, base, ropeLayout: layout, position: 7 }),
      });
      const { q, k, curves } = numbers;
      expect(curves.map((curve) => curve.start)).toEqual([7, 107, 1007]);
      for (const { start, first, values } of curves) {
        expect(first).toBe(-Math.min(256, start));
        expect(values.length).toBe(256 - first + 1);
        const rotatedQ = rotate(q, start, base, layout);
        const references = Array.from(values, (_, n) => dot(rotatedQ, rotate(k, start + first + n, base, layout)));
        expectClose(values, references, SCORE, `start ${start}`);
      }
      // The relative property: every start gives the same score at the same offset.
      expectClose(numbers.spread, 0, SCORE);
      // The other layout: equal after the permutation, different without it.
      const other = layout === 'half' ? 'interleaved' : 'half';
      const permutedQ = toInterleaved(q, layout === 'interleaved');
      const permutedK = toInterleaved(k, layout === 'interleaved');
      const start = curves[0].start;
      const reference = dot(rotate(permutedQ, start, base, other), rotate(permutedK, start + 5, base, other));
      expectClose(curves[0].values[5 - curves[0].first], reference, SCORE);
      expectClose(numbers.permutedDifference, 0, SCORE);
      expect(numbers.unpermutedDifference).toBeGreaterThan(1e-3);
    });
  }

  it('toInterleaved moves pair i from (i, i + d/2) to (2i, 2i + 1), and back', () => {
    const half = Float64Array.of(0, 1, 2, 10, 11, 12);
    expect([...toInterleaved(half)]).toEqual([0, 10, 1, 11, 2, 12]);
    expect([...toInterleaved(toInterleaved(half), true)]).toEqual([...half]);
  });
});

describe('long-term decay (rope-decay)', () => {
  it('the score, RoFormer’s relative bound and s(m)/(d/2) against their sums', () => {
    const [headDim, base] = [64, 2e4];
    const numbers = COMPUTE['rope-decay']({ model, state: state({ ropeDim: headDim, base, context: 300 }) });
    expect(numbers.window).toBe(299);
    const w = ladder(headDim, base);
    for (let m = 0; m <= numbers.window; m++) {
      const score = (2 / headDim) * cosineSum(w, m);
      let [re, im, sum] = [0, 0, 0];
      for (const x of w) {
        re += Math.cos(m * x);
        im += Math.sin(m * x);
        sum += Math.hypot(re, im);
      }
      // 32 cosines at offsets up to 299 from the float64 recurrence (reseeded every 1024 steps,
      // drifting by about m^2 1e-16) against Math.cos; the bound sums 32 partial sums' moduli.
      expectClose(numbers.scores[m], score, 1e-12, `m ${m}`);
      expectClose(numbers.sinusoid[m], score, 1e-12, `m ${m}`);
      expectClose(numbers.bound[m], sum / (headDim / 2), 1e-10, `m ${m}`);
    }
    expectClose(numbers.agreement, 0, 1e-12);
  });
});

describe('choosing the base (rope-base) and why 10000 (why-base)', () => {
  it('rope-base: each base’s supported context is the first negative sum; the smallest base meets the criterion', () => {
    const [headDim, context] = [32, 300];
    const numbers = COMPUTE['rope-base']({ model, state: state({ ropeDim: headDim, context, base: 2500 }) });
    expect(numbers.limit).toBe(600);
    numbers.bases.forEach((base, n) => {
      if (n % 7 === 0) expect(numbers.supported[n], `base ${base}`).toBe(firstNegative(ladder(headDim, base), 600));
    });
    const { smallest } = numbers;
    expect(holds(headDim, context, smallest * (1 + 1e-7))).toBe(true);
    expect(holds(headDim, context, smallest * (1 - 1e-7))).toBe(false);
    expect(numbers.marks.map((mark) => mark.base)).toEqual([1e4, 5e5, 1e6, 2500, smallest]);
    for (const { base, supported, capped } of numbers.marks) {
      expect(supported, `base ${base}`).toBe(firstNegative(ladder(headDim, base), 2 ** 19));
      expect(capped).toBe(supported === 2 ** 19);
    }
  });

  it('why-base: the largest similarity of rows at least k apart and the slow dimensions, per base', () => {
    const [dModel, length, offset] = [33, 64, 5]; // an odd d: its 32 paired dimensions
    const numbers = COMPUTE['why-base']({ model, state: state({ dModel, length, offset, base: 300 }) });
    expect([numbers.d, numbers.length, numbers.apart]).toEqual([32, 64, 5]);
    numbers.bases.forEach((base, n) => {
      if (n % 9 !== 0 && base !== 300) return;
      const w = ladder(32, base);
      let best = -Infinity;
      for (let j = 5; j < 64; j++) best = Math.max(best, cosineSum(w, j) / 16);
      // The similarity matrix is float32: values up to 1, each within a few 2^-24.
      expectClose(numbers.similarity[n], best, 1e-6, `base ${base}`);
      const slow = 2 * w.filter((x) => 63 * x < 1).length;
      expect(numbers.slowShare[n], `base ${base}`).toBe(slow / 32);
    });
    expect(numbers.current.base).toBe(300);
    expect(holds(32, 64, numbers.smallest * (1 + 1e-7))).toBe(true);
    expect(holds(32, 64, numbers.smallest * (1 - 1e-7))).toBe(false);
  });
});

describe('ropeSupportedContext and ropeSmallestBase', () => {
  it('agree with the float64 sums', () => {
    for (const [headDim, base] of [
      [128, 1e4],
      [64, 5e5],
      [16, 30],
    ])
      expect(pe.ropeSupportedContext({ headDim, base, limit: 100000 })).toBe(
        firstNegative(ladder(headDim, base), 100000),
      );
    expect(pe.ropeSupportedContext({ headDim: 128, base: 1e6, limit: 500 })).toBe(500);
    const smallest = pe.ropeSmallestBase({ headDim: 128, context: 1024 });
    expectClose(smallest, 4300, 50); // Su Jianlin: ≈ 4.3e3, two significant digits
    expect(holds(128, 1024, smallest * (1 + 1e-7))).toBe(true);
    expect(holds(128, 1024, smallest * (1 - 1e-7))).toBe(false);
    expect(pe.ropeSmallestBase({ headDim: 8, context: 2 })).toBe(1);
  });

  it('refuse bad input naming the parameter, and keep working', () => {
    const cases = [
      [() => pe.ropeSmallestBase({ context: 100 }), TypeError, 'posenc.ropeSmallestBase: headDim'],
      [() => pe.ropeSmallestBase({ headDim: 7, context: 100 }), RangeError, 'posenc.ropeSmallestBase: headDim'],
      [() => pe.ropeSmallestBase({ headDim: 64 }), TypeError, 'posenc.ropeSmallestBase: context'],
      [() => pe.ropeSmallestBase({ headDim: 64, context: 0 }), RangeError, 'posenc.ropeSmallestBase: context'],
      [() => pe.ropeSmallestBase({ headDim: 64, context: 2 ** 21 }), RangeError, 'posenc.ropeSmallestBase: context'],
      [() => pe.ropeSmallestBase({ headDim: 64, context: 10, base: 3 }), TypeError, 'posenc.ropeSmallestBase:'],
      [() => pe.ropeSmallestBase({ headDim: 1024, context: 32768 }), RangeError, 'posenc.ropeSmallestBase:'],
      [() => pe.ropeSmallestBase(null), TypeError, 'posenc.ropeSmallestBase: opts'],
      [() => pe.ropeSupportedContext({ headDim: 64, base: 1e4 }), TypeError, 'posenc.ropeSupportedContext: limit'],
      [() => pe.ropeSupportedContext({ headDim: 64, limit: -1 }), RangeError, 'posenc.ropeSupportedContext: limit'],
      [() => pe.ropeSupportedContext({ headDim: 64, limit: 1.5 }), RangeError, 'posenc.ropeSupportedContext: limit'],
      [() => pe.ropeSupportedContext({ base: 1e4, limit: 10 }), TypeError, 'posenc.ropeSupportedContext:'],
      [() => pe.ropeSupportedContext({ headDim: 64, limit: 10, maxOffset: 3 }), TypeError, 'ropeScores'],
    ];
    for (const [call, ErrorType, start] of cases) {
      expect(call).toThrow(ErrorType);
      expect(call).toThrow(start);
    }
    expect(pe.ropeSupportedContext({ headDim: 128, base: 1e4, limit: 5000 })).toBe(1707);
  });
});
