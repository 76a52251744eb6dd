// The page's model (web/page/data.js), which its worker runs while a slider
// moves: results memoised by their arguments (the same arrays back), and the
// wave curves and samples still the core's values, the padding row zeroed in
// the samples only (they share one table with the curve).
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../web/lib/index.js';
import { knobs } from '../../web/page/convention.js';
import { createModel } from '../../web/page/data.js';
import { COMPUTE } from '../../web/page/section-data.js';

let pe;
let model;
beforeAll(async () => {
  pe = await load();
  model = createModel(pe);
});

const conventionOf = (preset, dModel = 24) => knobs({ preset, dModel, base: 10000, layout: null, exponent: null });

describe('page model', () => {
  it('hands back the same arrays for the same arguments', () => {
    const conv = conventionOf('vaswani', 64);
    expect(model.waves(conv, [0, 5], 3, 20)).toBe(model.waves({ ...conv }, [0, 5], 3, 20));
    expect(model.row(conv, 7)).toBe(model.row(conv, 7));
    expect(model.offsetCurves(conv, 5, 32)[1].values).toBe(model.offsetCurves(conv, 5, 32)[1].values);
    expect(model.contributions(conv, 32)).toBe(model.contributions(conv, 32));
    // The offsets shown stop at 512: past that the length changes nothing, and nothing is computed again.
    const state = { preset: 'vaswani', dModel: 64, base: 10000, layout: null, exponent: null, position: 40, offset: 3 };
    const curves = (length) => COMPUTE['offset-dots']({ model, state: { ...state, length }, conv }).curves;
    expect(curves(4096)[2].values).toBe(curves(2048)[2].values);
  });

  for (const preset of ['vaswani', 'fairseq', 'legacy-column']) {
    it(`${preset}: wave curves and samples are the core's values`, () => {
      const conv = conventionOf(preset);
      const columns = [0, 3, 13];
      const from = 0;
      const to = 12;
      const waves = model.waves(conv, columns, from, to);
      const clean = { ...conv, paddingRow: null };
      waves.forEach(({ column, curve, samples }) => {
        // Table rows (float64 recurrence) and single rows (direct) each stay within 1.2e-7 of float64.
        for (let i = 0; i < curve.positions.length; i++) {
          const expected = pe.row(curve.positions[i], clean)[column];
          expect(Math.abs(curve.values[i] - expected)).toBeLessThanOrEqual(3e-7);
        }
        for (let n = 0; n < samples.positions.length; n++) {
          expect(samples.positions[n]).toBe(from + n);
          const expected = pe.row(from + n, conv)[column];
          if (conv.paddingRow === from + n) expect(samples.values[n]).toBe(0);
          expect(Math.abs(samples.values[n] - expected)).toBeLessThanOrEqual(3e-7);
        }
      });
    });
  }
});
