// The page's model (web/page/data.js), which its worker runs while a slider
// moves: results memoised by their arguments (the same arrays back), and the
// wave curves and samples still the core's values, the padding row zeroed in
// the samples only (they share one table with the curve).
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { knobs } from '../../../web/model/convention.js';
import { createModel } from '../../../web/model/data.js';
import { COMPUTE } from '../../../web/model/section-data.js';
import { SECTIONS } from '../../../web/sections/sections.js';
import { expectClose, FLOAT64_EPSILON } from '../tolerance.js';

// A scale of 4 times sin/cos of angles up to 14 rad, computed from frequencies that may be an ulp
// apart: 4 (14 + 2) ulps of 1.
const ROTATED = 4 * 16 * FLOAT64_EPSILON;

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
          expectClose(curve.values[i], expected, 3e-7);
        }
        for (let n = 0; n < samples.positions.length; n++) {
          expect(samples.positions[n]).toBe(from + n);
          const expected = pe.row(from + n, conv)[column];
          if (conv.paddingRow === from + n) expect(samples.values[n]).toBe(0);
          expectClose(samples.values[n], expected, 3e-7);
        }
      });
    });
  }
});

// What the plots of a scaled or shifted convention are given (the elements'
// scale and start attributes): ranges, bounds and the rotation check follow
// |scale|, table axes count positions from start. References in float64 here.
describe('sections with scale, start and odd d', () => {
  const t = (key, ...args) => (args.length ? `${key}(${JSON.stringify(args)})` : key);
  const state = {
    preset: 'vaswani',
    dModel: 24,
    base: 10000,
    layout: null,
    exponent: null,
    length: 16,
    position: 9,
    offset: 5,
    dimension: 6,
    versus: 'question',
  };
  const section = (name) => SECTIONS.find((s) => s.name === name);
  const build = (name, conv, computed = {}, picks = []) =>
    section(name).build({ model, state, t, conv, computed, pick: (selection) => picks.push(selection) });
  const omega = (pair, d = state.dModel) => 10000 ** ((-2 * pair) / d);

  it('rotation: the circle has radius |scale| and PE(p+k) = M_k·PE(p) still holds', () => {
    const conv = { ...conventionOf('vaswani'), scale: -4 };
    const { data, options } = build('rotation', conv);
    expect(data.radius).toBe(4);
    const w = omega(3);
    // (cos, sin) of pair 3 times the scale, from Math.sin / Math.cos.
    expectClose(data.start[0], -4 * Math.cos(w * 9), ROTATED);
    expectClose(data.start[1], -4 * Math.sin(w * 9), ROTATED);
    expectClose(data.end[1], -4 * Math.sin(w * 14), ROTATED);
    // The rotation applied to PE(p) in float64 (a 2 x 2 product) against PE(p + k).
    expectClose(model.rotation(conv, 9, 5, 6).residual, 0, 1e-13);
    expect(options.describe(data)).toContain('rotation.describe');
  });

  it('rotation: the last column of an odd d shows the last pair, and says what it is', () => {
    const context = { state: { ...state, dModel: 25, dimension: 24 }, t };
    // The paper's formula: column 24 is sin(pos w_12), alone; the check covers the 24 paired columns.
    const conv = conventionOf('vaswani', 25);
    const turn = model.rotation(conv, 9, 5, 24);
    expect(turn.pair).toBe(11);
    expect(turn.columns).toEqual({ sin: 22, cos: 23 });
    expectClose(turn.start[1], Math.sin(omega(11, 25) * 9), ROTATED);
    expectClose(turn.residual, 0, 1e-13);
    const built = section('rotation').present(turn, { ...context, conv });
    expect(built.data.notes[0].text).toContain('rotation.loneColumn');
    expect(built.data.notes[0].text).toContain('"fn":"sin"');
    expect(built.data.notes[2].text).toContain('"lone":"sin"');
    // tensor2tensor pads with a zero column: nothing is left out of the check.
    const padded = conventionOf('tensor2tensor', 25);
    const zeroTurn = model.rotation(padded, 9, 5, 24);
    const zeroBuilt = section('rotation').present(zeroTurn, { ...context, conv: padded });
    expect(zeroBuilt.data.notes[0].text).toContain('rotation.zeroColumn');
    expect(zeroBuilt.data.notes[2].text).toContain('"lone":null');
  });

  it('waves: an odd last column is labelled by what it holds', () => {
    const odd = { ...state, dModel: 25, dimension: 24 };
    const kindOfLast = (preset) =>
      COMPUTE.waves({ model, state: odd, conv: conventionOf(preset, 25) }).panels.find((p) => p.column === 24).kind;
    expect(kindOfLast('vaswani')).toBe('sin');
    expect(kindOfLast('question')).toBe('cos');
    expect(kindOfLast('tensor2tensor')).toBe('zero');
  });

  it('sensitivity: the bound is |scale|·w and the float64 changes stay under it', () => {
    const conv = { ...conventionOf('vaswani'), scale: 2.5 };
    const { change, bound } = COMPUTE.sensitivity({ model, state, conv });
    for (let j = 0; j < state.dModel; j++) {
      const w = omega(Math.floor(j / 2));
      // 2.5 w: the frequency's pow (an ulp) and a product.
      expectClose(bound[j], 2.5 * w, { relative: 2 * FLOAT64_EPSILON });
      const trig = j % 2 ? Math.cos : Math.sin;
      // Two sines of angles up to 10 rad, each within (angle + 1) ulps, times 2.5.
      expectClose(change[j], 2.5 * Math.abs(trig(w * 10) - trig(w * 9)), 2.5 * 32 * FLOAT64_EPSILON);
      expect(change[j]).toBeLessThanOrEqual(bound[j]);
    }
  });

  it('value ranges follow |scale|: heatmap colours, row and wave axes, compare panels', () => {
    const conv = { ...conventionOf('vaswani'), scale: 3 };
    const table = { options: { ...conv, length: 16 }, values: new Float32Array(16 * 24) };
    expect(build('heatmap', conv, { table }).options.domain).toEqual([-3, 3]);
    for (const name of ['row', 'waves']) {
      const [low, high] = build(name, conv).options.yDomain;
      // 3 x 1.1, one product.
      expectClose(low, -3.3, { relative: 2 * FLOAT64_EPSILON });
      expectClose(high, 3.3, { relative: 2 * FLOAT64_EPSILON });
    }
    const compare = build('compare', conv, { table, versus: table });
    expect(compare.options.amplitude).toBe(3);
  });

  it('start: table rows are positions start + r in marks, readouts and picks', () => {
    const conv = { ...conventionOf('vaswani'), start: 4 };
    const table = { options: { ...conv, length: 16 }, values: new Float32Array(16 * 24) };
    const picks = [];
    const { data, options } = build('heatmap', conv, { table }, picks);
    expect(data.marks).toEqual({ row: 5, column: 6 });
    expect(options.rowOrigin).toBe(4);
    expect(options.readout(0, 2, 0.5)).toBe('readout.table([4,2,0.5])');
    options.onPick({ row: 3, column: 7 });
    expect(picks.pop()).toEqual({ position: 7, dimension: 7 });

    const similarity = { options: { ...conv, length: 16 }, values: new Float32Array(16 * 16) };
    const sim = build('similarity', conv, { similarity }, picks);
    expect(sim.data.origin).toBe(4);
    expect(sim.options.readout(1, 3, 2)).toBe('readout.similarity([5,7,2])');
    // Below the diagonal (p > q) the pick is the same pair seen from q: (q, p − q).
    sim.options.onPick({ row: 10, column: 2 });
    expect(picks.pop()).toEqual({ position: 6, offset: 8 });
    // A start that puts the row at no whole position selects the offset only.
    build('similarity', { ...conv, start: 0.5 }, { similarity }, picks).options.onPick({ row: 1, column: 4 });
    expect(picks.pop()).toEqual({ offset: 3 });
  });

  it('mistake 1 names sin or cos after the column it shows', () => {
    const numbers = COMPUTE['mistake-ratio']({ model, state: { ...state, dimension: 7 } });
    expect(numbers.columns).toEqual([7, 12]);
    expect(numbers.kinds).toEqual(['cos', 'sin']);
    const { data } = section('mistake-ratio').present(numbers, { state, t });
    expect(data.panels[0].series[0].label).toBe('question.paper(["cos"])');
  });
});
