// The numbers of the chapter "the same sinusoids elsewhere" (elsewhere-data.js)
// against float64 formulas written here: diffusers' timestep embedding, MAE's
// 2-D grid, the paper's table at ESPnet's positions.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { ELSEWHERE_COMPUTE, relativePositions, timestepsOf } from '../../../web/model/elsewhere-data.js';
import { defaultState } from '../../../web/model/state.js';
import { expectClose, FLOAT64_EPSILON } from '../tolerance.js';

let model;
beforeAll(async () => {
  model = { core: await load() };
});
const compute = (name, changes) => ELSEWHERE_COMPUTE[name]({ model, state: { ...defaultState(), ...changes } });

/** diffusers' get_timestep_embedding in float64: [sin | cos] (or flipped) of t · P^(−i / (h − s)). */
function embedding(t, dim, { maxPeriod, flip, shift }) {
  const h = Math.floor(dim / 2);
  const row = new Float64Array(dim);
  for (let i = 0; i < h; i++) {
    const angle = t * Math.exp((-Math.log(maxPeriod) * i) / (h - shift));
    row[(flip ? h : 0) + i] = Math.sin(angle);
    row[(flip ? 0 : h) + i] = Math.cos(angle);
  }
  return row;
}
const dot = (a, b) => a.reduce((sum, x, j) => sum + x * b[j], 0);
const cosine = (a, b) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));

/** MAE's patch (r, c) of width dim: [row of c | row of r] (w-h) or the other way, each [sin | cos]. */
function patch(r, c, dim, order = 'w-h') {
  const axis = (x) => {
    const q = dim / 4;
    const out = new Float64Array(dim / 2);
    for (let i = 0; i < q; i++) {
      out[i] = Math.sin(x * 10000 ** (-i / q));
      out[q + i] = Math.cos(x * 10000 ** (-i / q));
    }
    return out;
  };
  return Float64Array.from(order === 'w-h' ? [...axis(c), ...axis(r)] : [...axis(r), ...axis(c)]);
}

describe('timestep embeddings', () => {
  it.each([
    ['diffusers, 0 … 1000', { tsRange: '1000' }, { maxPeriod: 10000, flip: false, shift: 1 }],
    ['DiT, 0 … 1, dim 33', { tsRange: '1', tsPreset: 'dit', dModel: 33 }, { maxPeriod: 10000, flip: true, shift: 0 }],
    [
      'shift 0 override, max_period 1000',
      { freqShift: 0, maxPeriod: 1000 },
      { maxPeriod: 1000, flip: false, shift: 0 },
    ],
  ])('%s: the heatmap is the formula in float32', (_, changes, knobs) => {
    const got = compute('timestep-embedding', changes);
    const dim = changes.dModel ?? 128;
    const timesteps = timestepsOf(changes.tsRange ?? '1000');
    expect([got.rows, got.columns]).toEqual([101, dim]);
    timesteps.forEach((t, k) =>
      expectClose(got.values.subarray(k * dim, (k + 1) * dim), embedding(t, dim, knobs), 2 ** -23 + t * 2 ** -45),
    );
  });

  it('the similarity readouts are the float64 cosines of the formula', () => {
    const got = compute('timestep-similarity', {});
    const knobs = { maxPeriod: 10000, flip: false, shift: 1 };
    // Both in float64: the angles up to t = 1000 agree to 1000·ε, a few roundings over.
    const bound = 4 * 1000 * FLOAT64_EPSILON;
    for (const [range, last] of [
      ['1000', 1000],
      ['1', 1],
    ]) {
      const ends = cosine(embedding(0, 128, knobs), embedding(last, 128, knobs));
      expectClose(got.ranges[range].ends, ends, bound, `${range}: ends`);
      const step = last / 100;
      let neighbours = Infinity;
      for (let k = 1; k <= 100; k++)
        neighbours = Math.min(
          neighbours,
          cosine(embedding((k - 1) * step, 128, knobs), embedding(k * step, 128, knobs)),
        );
      expectClose(got.ranges[range].neighbours, neighbours, bound, `${range}: neighbours`);
    }
    // t in 0 … 1 at max_period 10000: nearly constant embeddings; 0 … 1000: far apart.
    expect(got.ranges['1'].ends).toBeGreaterThan(0.95);
    expect(got.ranges['1000'].ends).toBeLessThan(0.5);
  });
});

describe('the 2-D grid', () => {
  it('a column as an image is the formula at each patch, and says its axis', () => {
    for (const axisOrder of ['w-h', 'h-w']) {
      const got = compute('grid-column', { dModel: 32, gridHeight: 3, gridWidth: 5, gridColumn: 5, axisOrder });
      const want = Float64Array.from({ length: 15 }, (_, p) => patch(Math.floor(p / 5), p % 5, 32, axisOrder)[5]);
      expectClose(got.values, want, 2 ** -23);
      expect(got.axis).toBe(axisOrder === 'w-h' ? 'width' : 'height');
    }
  });

  it('dot products from a patch depend only on the 2-D offset; with h and w swapped they do not', () => {
    const got = compute('grid-dots', { dModel: 32, gridHeight: 3, gridWidth: 5, gridPatch: 7 });
    const from = patch(1, 2, 32);
    const want = Float64Array.from({ length: 15 }, (_, q) => dot(from, patch(Math.floor(q / 5), q % 5, 32)));
    expectClose(got.values, want, 1e-12);
    expect(got.spread).toBeLessThan(1e-12);
    // Built for 5 × 3 (rows of 3 patches), read as 3 × 5: patch q holds the coordinates (q div 3, q mod 3).
    const swappedFrom = patch(Math.floor(7 / 3), 7 % 3, 32);
    const swapped = Float64Array.from({ length: 15 }, (_, q) => dot(swappedFrom, patch(Math.floor(q / 3), q % 3, 32)));
    expectClose(got.swappedValues, swapped, 1e-12);
    expect(got.swappedSpread).toBeGreaterThan(0.1);
    expect(compute('grid-dots', { gridHeight: 4, gridWidth: 4 }).swappedSpread).toBeLessThan(1e-12);
  });
});

describe('relative tables', () => {
  it("ESPnet's positions are rows of the table from 0; the chunk is a slice of it", () => {
    const got = compute('relative-table', { dModel: 16, relLength: 5, chunkStart: 64 });
    const positions = relativePositions(5);
    expect(Array.from(positions)).toEqual([4, 3, 2, 1, 0, -1, -2, -3, -4]);
    const want = Float64Array.from(
      Array.from(positions).flatMap((p) =>
        Array.from({ length: 16 }, (_, j) => {
          const angle = p * 10000 ** (-(2 * Math.floor(j / 2)) / 16);
          return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
        }),
      ),
    );
    expectClose(got.values, want, 2 ** -23);
    expect(got.relativeDifference).toBeLessThan(2 ** -23);
    expect(got.chunkDifference).toBe(0);
  });
});
