// The explanations beside the plots (web/i18n rich texts) worded from the facts
// of the current settings and of the numbers each plot shows: every variant
// says what the plot shows, checked against float64 references written here.
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { formatNumber } from '../../../web/i18n/number.js';
import { load } from '../../../web/lib/index.js';
import { knobs } from '../../../web/model/convention.js';
import { createModel } from '../../../web/model/data.js';
import { SECTIONS } from '../../../web/sections/sections.js';
import { DEFAULTS } from '../../../web/model/state.js';
import { textFacts } from '../../../web/model/text-facts.js';
import { expectClose, FLOAT32_EPSILON, FLOAT64_EPSILON } from '../tolerance.js';

let pe;
let model;
beforeAll(async () => {
  pe = await load();
  model = createModel(pe);
});

const t = (key, ...args) => (typeof en[key] === 'function' ? en[key](...args) : en[key]);

/** The facts a section's texts are worded from, as the page builds them (knobs + the plot's numbers). */
function factsOf(name, changes = {}) {
  const state = { ...DEFAULTS, ...changes };
  const conv = knobs(state);
  const section = SECTIONS.find((s) => s.name === name);
  const computed = {};
  if (name === 'heatmap') {
    const options = { ...conv, length: state.length, dtype: 'float32' };
    computed.table = { values: pe.table(options), options };
  }
  const context = { model, state, t, conv, computed, pick: () => {} };
  const built = section.compute ? section.present(section.compute(context), context) : section.build(context);
  return { ...textFacts(state), ...built?.text };
}

const RICH = {
  heatmap: ['heatmap.text'],
  waves: ['waves.text'],
  ladder: ['ladder.text'],
  row: ['row.text'],
  sensitivity: ['sensitivity.text'],
  'offset-dots': ['offset.text'],
  similarity: ['similarity.text'],
  'mistake-order': ['question.three'],
};

describe('explanations worded from the settings', () => {
  it('row 0: the paper alternates 0, 1; concat splits in halves; legacy-column and fairseq have a padding row', () => {
    expect(en['heatmap.text'](factsOf('heatmap'))).toContain('0, 1, 0, 1');
    const concat = en['heatmap.text'](factsOf('heatmap', { layout: 'concat' }));
    expect(concat).not.toContain('0, 1, 0, 1');
    expect(concat).toContain('first half');
    expect(concat).toContain('In each half');
    const legacy = factsOf('heatmap', { preset: 'legacy-column' });
    expect(en['heatmap.text'](legacy)).toContain('Row 0 is all zeros');
    expect(zh['heatmap.text'](legacy)).toContain('第 0 行全为零');
    expect(en['row.text'](factsOf('row', { preset: 'legacy-column' }))).toContain('all zeros');
    expect(en['heatmap.text'](factsOf('heatmap', { preset: 'fairseq' }))).toContain('Row 1 is all zeros');
  });

  it('the slow pairs still near (0, 1) at p: counted as a float64 reference counts them', () => {
    for (const [dModel, base, position] of [
      [128, 10000, 10],
      [64, 10000, 300],
      [128, 2, 10],
    ]) {
      // Pair i turns by p·base^(-2i/d); near (0, 1) below 0.1 rad.
      let still = 0;
      for (let i = 0; i < dModel / 2; i++) if (position * Math.pow(base, (-2 * i) / dModel) < 0.1) still++;
      const facts = factsOf('row', { dModel, base, position });
      expect(facts.stillPairs).toBe(still);
      const text = en['row.text'](facts);
      if (still > 0) expect(text).toContain(`the slowest ${still} of the ${dModel / 2} pairs`);
      else expect(text).toContain('no pair is still near');
      expect(zh['row.text'](facts)).toContain(still > 0 ? `最慢的 ${still} 对` : '没有哪一对仍接近');
    }
  });

  it('the heatmap calls the right side slow only when the slowest sine stays small over L', () => {
    // d = 128, L = 256: the slowest sine is sin(255 · 10000^(-126/128)) ≈ 0.029; at base 2 it swings fully.
    const paper = factsOf('heatmap');
    // A value of the float32 table: within 2^-24 of its float64 value.
    expectClose(paper.slowLargest, Math.sin(255 * Math.pow(10000, -126 / 128)), FLOAT32_EPSILON);
    expect(en['heatmap.text'](paper)).toContain('barely change');
    const small = en['heatmap.text'](factsOf('heatmap', { base: 2 }));
    expect(small).not.toContain('barely change');
    expect(small).toContain('no dimension is slow');
  });

  it('the lower branch of §5: the columns changing by less than a tenth of their bound', () => {
    const dModel = 128;
    const position = 10;
    let lower = 0;
    for (let j = 0; j < dModel; j++) {
      const w = Math.pow(10000, (-2 * Math.floor(j / 2)) / dModel);
      const f = j % 2 === 0 ? Math.sin : Math.cos;
      if (Math.abs(f(w * (position + 1)) - f(w * position)) < 0.1 * w) lower++;
    }
    const facts = factsOf('sensitivity', { dModel, position });
    expect(facts.lowerBranch).toBe(lower);
    expect(lower).toBeGreaterThan(0);
    expect(en['sensitivity.text'](facts)).toContain(`${lower} of the ${dModel} columns`);
    expect(en['sensitivity.text'](facts)).toContain('two branches');
  });

  it('s(k): the peak is d/2 for the paper, and the curves part for legacy-column', () => {
    const paper = factsOf('offset-dots', { dModel: 64 });
    // s(0): 32 pairs' cos^2 + sin^2 summed, a rounding per term.
    expectClose(paper.peak, 32, { relative: 64 * FLOAT64_EPSILON });
    expect(en['offset.text'](paper)).toContain('$|PE(p)|^2$ = 32 = $d/2$');
    expect(en['offset.text'](paper)).toContain('they coincide');
    const legacy = en['offset.text'](factsOf('offset-dots', { preset: 'legacy-column' }));
    expect(legacy).toContain('here they part');
    expect(legacy).not.toContain('= $d/2$');
  });

  it('the similarity matrix is called Toeplitz only when it is, and its padding row is named', () => {
    const facts = (changes) => textFacts({ ...DEFAULTS, ...changes });
    expect(en['similarity.text'](facts({}))).toContain('Since they depend only on');
    expect(en['similarity.text'](facts({ preset: 'legacy-column' }))).toContain('with the current preset they do not');
    expect(en['similarity.text'](facts({ preset: 'fairseq' }))).toContain('except row and column 1');
    expect(zh['similarity.text'](facts({ preset: 'fairseq' }))).toContain('第 1 行和第 1 列');
  });

  it('the slowest column separates distant rows only when its period is longer than the table', () => {
    for (const [base, length] of [
      [10000, 256],
      [10, 256],
      [10, 32],
      [100, 1024],
    ]) {
      const dModel = 128;
      // Slowest pair of the paper's table: ω = base^(−2·63/128); its period 2π/ω.
      const period = (2 * Math.PI) / Math.pow(base, (-2 * 63) / dModel);
      const facts = factsOf('sensitivity', { base, length, dModel });
      expectClose(facts.slowestPeriod, period, { relative: 1e-9 });
      const shown = formatNumber(period);
      for (const [strings, separates, wraps] of [
        [en, 'without wrapping around', 'wraps around within the table'],
        [zh, '不绕圈', '在表内也会绕圈'],
      ]) {
        const text = strings['sensitivity.text'](facts);
        expect(text, `base ${base}, L ${length}`).toContain(period >= length ? separates : wraps);
        expect(text, `base ${base}, L ${length}`).not.toContain(period >= length ? wraps : separates);
        expect(text).toContain(shown);
      }
    }
  });

  it('the ladder under the question preset (no fixed frequency) says nothing about the top of a ladder', () => {
    const facts = factsOf('ladder', { preset: 'question' });
    expect(facts.periodic).toBe(false);
    expect(en['ladder.text'](facts)).toContain('no ladder to draw');
    expect(en['ladder.text'](facts)).not.toContain('ladder;');
    expect(en['ladder.text'](facts)).not.toContain('Change the base');
    expect(zh['ladder.text'](facts)).not.toContain('阶梯顶端');
    expect(en['ladder.text'](factsOf('ladder'))).toContain('Change the base to move the top of the ladder');
  });

  it('the ladder under the column exponent falls to 1/base² (answer 2 of the Q&A)', () => {
    const facts = factsOf('ladder', { exponent: 'column', dModel: 64 });
    // A pow, then 2 pi / (2 pi / w): a few ulps.
    expectClose(facts.slowest, Math.pow(10000, (-2 * 63) / 64), { relative: 4 * FLOAT64_EPSILON });
    expect(en['ladder.text'](facts)).toContain(String.raw`1/\text{base}^2`);
    expect(en['ladder.text'](factsOf('ladder'))).not.toContain(String.raw`1/\text{base}^2`);
  });

  it('§10.3 shows the first 16 dimensions at d = 128, and says so', () => {
    const state = { ...DEFAULTS, dModel: 128 };
    const section = SECTIONS.find((s) => s.name === 'mistake-order');
    const context = { model, state, t, conv: knobs(state), computed: {} };
    const { data } = section.build(context);
    expect(data.rows.map((row) => row.values.length)).toEqual([16, 16, 16]);
    // Position 0: the paper 0, 1, 0, 1; swapped 1, 0, 1, 0.
    expect(Array.from(data.rows[0].values.slice(0, 4))).toEqual([0, 1, 0, 1]);
    expect(Array.from(data.rows[1].values.slice(0, 4))).toEqual([1, 0, 1, 0]);
    expect(en['question.three'](factsOf('mistake-order'))).toContain('first 16 of the 128 dimensions');
  });

  it('ties back to the Q&A: answer 1 is legacy-column with its padding row, answer 2 lets i reach hidden_units', () => {
    for (const strings of [en, zh]) {
      expect(strings['compare.text']).toContain('*legacy-column*');
      expect(strings['compare.text']).toContain('keep dim 0 for padding token');
      expect(strings['question.two']).toContain(String.raw`\text{hidden\_units}`);
      expect(strings['question.two']).toContain(String.raw`1/\text{base}^2`);
    }
    expect(en['preset.legacy-column']).toMatch(/^answer 1 of the Q&A/);
  });

  it('every variant in both languages: no undefined, NaN or [object', () => {
    const variants = [
      {},
      { layout: 'concat' },
      { exponent: 'column' },
      { exponent: 'half-minus-one' },
      { preset: 'question' },
      { preset: 'legacy-column' },
      { preset: 'fairseq', dModel: 33 },
      { preset: 'tensor2tensor', position: 0 },
      { base: 2, position: 500 },
    ];
    for (const changes of variants)
      for (const [name, keys] of Object.entries(RICH)) {
        const facts = factsOf(name, changes);
        for (const strings of [en, zh])
          for (const key of keys) {
            const text = strings[key](facts);
            expect(text, `${key} ${JSON.stringify(changes)}`).not.toMatch(/undefined|NaN|\[object|null/);
            // Also before the plot's numbers arrive: the knobs' facts alone.
            expect(strings[key]({ ...textFacts({ ...DEFAULTS, ...changes }) })).not.toMatch(/undefined|NaN/);
          }
      }
  });
});
