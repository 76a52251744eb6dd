// The numbers of the sections on attention, sine and cosine, the training
// length and the FAQ (web/model/attention-data.js), against float64 references
// written here from the formulas: the paper's PE, s(k) = Σ cos(ω_i k), the
// rotation M_k, softmax, argmax, least squares by the normal equations. The
// random token vectors are inputs (tokenVector), checked for their own
// statistics; everything computed from them is recomputed here.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { createModel } from '../../../web/model/data.js';
import { attentionWindow, ATTENTION_COMPUTE, tokenVector } from '../../../web/model/attention-data.js';
import { ATTENTION_SECTIONS } from '../../../web/sections/attention-sections.js';
import { normalEquationsResidual } from '../reference.js';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { expectClose } from '../tolerance.js';

let model;
beforeAll(async () => {
  model = createModel(await load());
});

const TWO_PI = 2 * Math.PI;
const omega = (i, d, base) => Math.pow(base, (-2 * i) / d);
/** The paper's row at pos, pairs only (an odd d's last column zero). */
function pe(pos, d, base) {
  const row = new Float64Array(d);
  for (let i = 0; 2 * i + 1 < d; i++) {
    row[2 * i] = Math.sin(pos * omega(i, d, base));
    row[2 * i + 1] = Math.cos(pos * omega(i, d, base));
  }
  return row;
}
const s = (m, d, base) => {
  let sum = 0;
  for (let i = 0; 2 * i + 1 < d; i++) sum += Math.cos(m * omega(i, d, base));
  return sum;
};
const dot = (a, b) => a.reduce((sum, value, j) => sum + value * b[j], 0);
/** M_k·v from the formula: each pair (sin, cos) turned by ω_i k. */
function rotate(v, k, d, base) {
  const out = Float64Array.from(v);
  for (let i = 0; 2 * i + 1 < d; i++) {
    const [c, sn] = [Math.cos(omega(i, d, base) * k), Math.sin(omega(i, d, base) * k)];
    out[2 * i] = v[2 * i] * c + v[2 * i + 1] * sn;
    out[2 * i + 1] = v[2 * i + 1] * c - v[2 * i] * sn;
  }
  return out;
}
function softmax(values, temperature) {
  const largest = Math.max(...values);
  const e = values.map((v) => Math.exp((v - largest) / temperature));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / total);
}

const STATES = [
  { dModel: 64, base: 10000, length: 256, position: 10, offset: 8, dimension: 6 },
  { dModel: 33, base: 500, length: 40, position: 70, offset: 5, dimension: 32 },
];

describe('tokenVector', () => {
  it('is the same for the same position and differs between positions', () => {
    expect(tokenVector(64, 7)).toEqual(tokenVector(64, 7));
    expect(tokenVector(64, 7)).not.toEqual(tokenVector(64, 8));
  });
  it('has entries of mean 0 and standard deviation scale/√d', () => {
    const d = 256;
    const values = Array.from({ length: 200 }, (_, p) => [...tokenVector(d, p, 2)]).flat();
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const deviation = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
    // 51,200 normal samples: the mean within 4 standard errors, the deviation within 2%.
    expectClose(mean, 0, (4 * 2) / Math.sqrt(d) / Math.sqrt(values.length));
    expectClose(deviation, 2 / Math.sqrt(d), 0.02 * (2 / Math.sqrt(d)));
  });
});

describe('attention', () => {
  for (const state of STATES) {
    const { dModel: d, base, offset: k } = state;
    it(`d ${d}: the matrix is s(q + k − p) over the window`, () => {
      const { size, map, min, max } = ATTENTION_COMPUTE.attention({ model, state });
      const { values } = map;
      expect([map.rows, map.columns]).toEqual([size, size]);
      expect(size).toBe(attentionWindow(state));
      expect(size).toBe(Math.min(state.length, 128));
      let [low, high] = [Infinity, -Infinity];
      for (let p = 0; p < size; p++)
        for (let q = 0; q < size; q++) {
          const want = s(q + k - p, d, base);
          [low, high] = [Math.min(low, want), Math.max(high, want)];
          // float32 storage of values up to d/2.
          expectClose(values[p * size + q], want, 1e-6 * d);
        }
      expectClose(min, low, 1e-6 * d);
      expectClose(max, high, 1e-6 * d);
      // The range of the map's float32 values, exactly (the worker paints the map in it).
      expect([min, max]).toEqual([Math.min(...values), Math.max(...values)]);
    });

    it(`d ${d}: one query's scores, softmax, token scores, symmetry and look-back counts`, () => {
      const numbers = ATTENTION_COMPUTE['attention-rows']({ model, state });
      const p = state.position;
      const offsets = [...numbers.offsets];
      expect(offsets[0]).toBe(-Math.min(48, p));
      expect(offsets.at(-1)).toBe(48);
      offsets.forEach((m, n) => {
        expectClose(numbers.plain[n], s(m, d, base), 1e-9 * d);
        expectClose(numbers.rotated[n], s(m + k, d, base), 1e-9 * d);
      });
      const plainWeights = softmax(
        offsets.map((m) => s(m, d, base)),
        Math.sqrt(d),
      );
      const rotatedWeights = softmax(
        offsets.map((m) => s(m + k, d, base)),
        Math.sqrt(d),
      );
      offsets.forEach((m, n) => {
        expectClose(numbers.plainWeights[n], plainWeights[n], 1e-12);
        expectClose(numbers.rotatedWeights[n], rotatedWeights[n], 1e-12);
      });
      for (const [key, scale] of [
        ['unscaled', 1],
        ['scaled', Math.sqrt(d)],
      ]) {
        const u = (position) => pe(position, d, base).map((v, j) => v + tokenVector(d, position, scale)[j]);
        offsets.forEach((m, n) => expectClose(numbers[key][n], dot(u(p), rotate(u(p + m), k, d, base)), 1e-9 * d));
      }
      expectClose(numbers.symmetry.plainBefore, s(-k, d, base), 1e-9 * d);
      expectClose(numbers.symmetry.plainAfter, s(k, d, base), 1e-9 * d);
      expectClose(numbers.symmetry.plainBefore, numbers.symmetry.plainAfter, 1e-9 * d);
      expectClose(numbers.symmetry.rotatedBefore, Math.floor(d / 2), 1e-9 * d);
      expectClose(numbers.symmetry.rotatedAfter, s(2 * k, d, base), 1e-9 * d);

      // Over the window: the best key of each query p ≥ k, by brute force.
      const size = attentionWindow(state);
      const count = (score) => {
        let [hits, itself] = [0, 0];
        for (let q0 = k; q0 < size; q0++) {
          let [best, at] = [-Infinity, -1];
          for (let q = 0; q < size; q++) if (score(q0, q) > best) [best, at] = [score(q0, q), q];
          if (at === q0 - k) hits++;
          if (at === q0) itself++;
        }
        return { hits, itself, rows: size - k };
      };
      const rows = Array.from({ length: size }, (_, q) => pe(q, d, base));
      const withTokens = (scale) => {
        const u = rows.map((row, q) => row.map((v, j) => v + tokenVector(d, q, scale)[j]));
        const keys = u.map((row) => rotate(row, k, d, base));
        return (p0, q) => dot(u[p0], keys[q]);
      };
      const expected = {
        plain: count((p0, q) => s(q - p0, d, base)),
        rotated: count((p0, q) => s(q + k - p0, d, base)),
        unscaled: count(withTokens(1)),
        scaled: count(withTokens(Math.sqrt(d))),
      };
      for (const key of Object.keys(expected)) {
        expect(numbers.fractions[key].hits, key).toBe(expected[key].hits);
        expect(numbers.fractions[key].rows, key).toBe(expected[key].rows);
        expectClose(numbers.fractions[key].fraction, expected[key].hits / expected[key].rows, 1e-15);
      }
      expect(numbers.fractions.scaled.itself).toBe(expected.scaled.itself);
      // Positions alone: M_k always finds p − k, the plain product never does (it peaks at q = p).
      expect(expected.rotated.hits).toBe(expected.rotated.rows);
      expect(expected.plain.hits).toBe(0);
    });
  }

  it('the window grows to hold k + 64 keys, up to 512 and L', () => {
    expect(attentionWindow({ length: 2048, offset: 8 })).toBe(128);
    expect(attentionWindow({ length: 2048, offset: 100 })).toBe(164);
    expect(attentionWindow({ length: 2048, offset: 2000 })).toBe(512);
    expect(attentionWindow({ length: 100, offset: 90 })).toBe(100);
  });
});

describe('sine and cosine', () => {
  for (const state of STATES) {
    const { dModel: d, base, offset: k, position: p } = state;
    it(`d ${d}: s(k) of the sine-only encoding from p, p + 100, p + 1000`, () => {
      const { curves } = ATTENTION_COMPUTE['sine-only']({ model, state });
      const window = Math.min(state.length - 1, 512);
      curves.forEach((curve, c) => {
        const start = p + [0, 100, 1000][c];
        expect(curve.start).toBe(start);
        expect(curve.first).toBe(-Math.min(window, start));
        expect(curve.values.length).toBe(Math.min(window, start) + window + 1);
        curve.values.forEach((value, n) => {
          const m = curve.first + n;
          let want = 0;
          for (let i = 0; 2 * i + 1 < d; i++)
            want += Math.sin(start * omega(i, d, base)) * Math.sin((start + m) * omega(i, d, base));
          expectClose(value, want, 1e-9 * d);
        });
      });
    });

    it(`d ${d}: the fits, the zero row, the spread and the mirror angle`, () => {
      const numbers = ATTENTION_COMPUTE['sine-fit']({ model, state });
      const pairs = Math.floor(d / 2);
      const positions = Math.min(state.length - k, 1024);
      expect(numbers.positions).toBe(positions);
      // sin and cos: M_k maps every row exactly.
      // Residuals of float64 fits of values up to 1: roundings only.
      expectClose(numbers.both.overall, 0, 1e-12);
      expectClose(numbers.both.relative, new Array(numbers.both.relative.length).fill(0), 1e-12);
      // Row 0 of the sines is zero: what no matrix reaches.
      let zero = 0;
      for (let i = 0; i < pairs; i++) zero += Math.sin(k * omega(i, d, base)) ** 2;
      expectClose(numbers.zeroTarget, Math.sqrt(zero), 1e-12);
      expect(numbers.underdetermined).toBe(positions <= pairs);
      if (!numbers.underdetermined) {
        // Whatever the map, the row p = 0 alone leaves |PE_sin(k)|: a lower bound of the overall miss.
        let total = 0;
        for (let q = 0; q < positions; q++)
          for (let i = 0; i < pairs; i++) total += Math.sin((q + k) * omega(i, d, base)) ** 2;
        expect(numbers.sine.overall).toBeGreaterThanOrEqual(Math.sqrt(zero / total) - 1e-12);
        for (const value of numbers.sine.relative) expect(value).toBeGreaterThanOrEqual(0);
        for (const value of numbers.sine.relative) expect(value).toBeLessThanOrEqual(1 + 1e-12);
      }
      // s(k) from p and p + 100 part by the largest |½ Σ cos(ω(2p+m)) − cos(ω(2p+200+m))| over shared offsets.
      const window = Math.min(state.length - 1, 512);
      let worst = 0;
      for (let m = -Math.min(window, p); m <= window; m++) {
        let difference = 0;
        for (let i = 0; 2 * i + 1 < d; i++) {
          const w = omega(i, d, base);
          difference += (Math.cos(w * (2 * p + m)) - Math.cos(w * (2 * p + 200 + m))) / 2;
        }
        worst = Math.max(worst, Math.abs(difference));
      }
      expectClose(numbers.spread.sine, worst, 1e-9 * d);
      expectClose(numbers.spread.cosine, worst, 1e-9 * d);
      // The pair of dimension j, its angle at p and the position of π − θ: the same sine there.
      const pair = Math.min(Math.floor(state.dimension / 2), pairs - 1);
      const w = omega(pair, d, base);
      expect(numbers.mirror.pair).toBe(pair);
      expectClose(numbers.mirror.angle, (w * p) % TWO_PI, 1e-9);
      expectClose(Math.sin(w * numbers.mirror.mirrorPosition), Math.sin(w * p), 1e-9);
      expect(numbers.mirror.mirrorPosition).toBeGreaterThanOrEqual(0);
      expect(numbers.mirror.mirrorPosition).toBeLessThan(TWO_PI / w);
    });
  }

  // sine-fit keeps the part of a fit that depends on neither the offset nor the position;
  // a run of settings as a drag makes them, each against the normal equations solved here.
  it('sine-fit: each half fit is the least-squares residual, along a drag of the offset, the position and the base', () => {
    const drag = [
      { dModel: 8, base: 100, length: 1100, position: 3, offset: 5, dimension: 0 },
      { dModel: 8, base: 100, length: 1100, position: 3, offset: 60, dimension: 0 },
      { dModel: 8, base: 100, length: 1100, position: 40, offset: 60, dimension: 0 },
      { dModel: 8, base: 1000, length: 1100, position: 40, offset: 60, dimension: 0 },
      { dModel: 8, base: 100, length: 1100, position: 3, offset: 5, dimension: 0 },
      { dModel: 8, base: 100, length: 1040, position: 3, offset: 60, dimension: 0 },
    ];
    for (const state of drag) {
      const { dModel: d, base, offset: k } = state;
      const numbers = ATTENTION_COMPUTE['sine-fit']({ model, state });
      const positions = Math.min(state.length - k, 1024);
      expect(numbers.positions).toBe(positions);
      for (const [key, f] of [
        ['sine', Math.sin],
        ['cosine', Math.cos],
      ]) {
        const column = (i, shift) => Array.from({ length: positions }, (_, p) => f((p + shift) * omega(i, d, base)));
        const inputs = Array.from({ length: d / 2 }, (_, i) => column(i, 0));
        let [left, total] = [0, 0];
        for (let i = 0; i < d / 2; i++) {
          const target = column(i, k);
          const residual = normalEquationsResidual(inputs, target);
          const norm = Math.hypot(...target);
          expectClose(numbers[key].relative[i], residual / norm, 1e-9);
          [left, total] = [left + residual ** 2, total + norm ** 2];
        }
        expectClose(numbers[key].overall, Math.sqrt(left / total), 1e-9);
        expect(numbers[key].rank, `${key} ${JSON.stringify(state)}`).toBe(d / 2);
      }
    }
  });
});

describe('beyond the training length', () => {
  for (const state of [...STATES, { ...STATES[0], position: 400 }]) {
    const { dModel: d, base, length: L, position: p } = state;
    it(`d ${d}, L ${L}, p ${p}: per pair, the fraction of the circle seen and reached`, () => {
      const numbers = ATTENTION_COMPUTE.extrapolation({ model, state });
      const pairs = Math.floor(d / 2);
      let [incomplete, first, unseen] = [0, -1, 0];
      for (let i = 0; i < pairs; i++) {
        const w = omega(i, d, base);
        expectClose(numbers.seen[i], Math.min(1, (w * (L - 1)) / TWO_PI), 1e-12);
        expectClose(numbers.reached[i], Math.min(1, (w * p) / TWO_PI), 1e-12);
        if (w * (L - 1) < TWO_PI) {
          incomplete++;
          if (first < 0) first = i;
          // Positions 0 … L − 1 cover the angles [0, w (L − 1)]: p's angle outside them was never seen.
          const angle = w * p - TWO_PI * Math.floor((w * p) / TWO_PI);
          if (angle > w * (L - 1)) unseen++;
        }
      }
      expect(numbers.incomplete).toBe(incomplete);
      expect(numbers.firstIncomplete).toBe(first);
      expect(numbers.unseenAtP).toBe(unseen);
      if (p < L) expect(unseen).toBe(0);
      expectClose(numbers.slowestSeenDegrees, Math.min(1, (omega(pairs - 1, d, base) * (L - 1)) / TWO_PI) * 360, 1e-9);
    });
  }
});

describe('FAQ sizes', () => {
  for (const state of STATES) {
    const { dModel: d, base, position: p } = state;
    it(`d ${d}: |PE(p)| = √⌊d/2⌋, the token's norms, their cosine, 1/(p + 1)`, () => {
      const numbers = ATTENTION_COMPUTE['token-scale']({ model, state });
      expectClose(numbers.peNorm, Math.sqrt(Math.floor(d / 2)), 1e-12);
      const token = tokenVector(d, p, 1);
      const norm = Math.sqrt(dot(token, token));
      expectClose(numbers.tokenNorm, norm, 1e-12);
      expectClose(numbers.scaledNorm, norm * Math.sqrt(d), 1e-9);
      const row = pe(p, d, base);
      expectClose(numbers.cosine, dot(row, token) / (Math.sqrt(dot(row, row)) * norm), 1e-12);
      expectClose(numbers.uniformWeight, 1 / (p + 1), 1e-15);
      numbers.row.forEach((value, j) => expectClose(value, row[j], 1e-12));
    });
  }
});

describe('the sections', () => {
  const translators = {
    en: (key, ...args) => (typeof en[key] === 'function' ? en[key](...args) : en[key]),
    zh: (key, ...args) => (typeof zh[key] === 'function' ? zh[key](...args) : zh[key]),
  };
  for (const [language, t] of Object.entries(translators)) {
    it(`${language}: every section builds its data, with its notes' numbers, in both languages`, () => {
      const state = STATES[0];
      for (const section of ATTENTION_SECTIONS) {
        const built = section.build({ model, state, t, pick: () => {} });
        expect(built.data, section.name).toBeTruthy();
        for (const note of built.data.notes ?? []) {
          expect(note.text, `${section.name} ${note.testId}`).not.toMatch(/undefined|NaN/);
          if (language === 'zh') expect(note.text).toMatch(/[\u4e00-\u9fff]/);
        }
      }
      // A value from the notes: the look-back count of M_k with positions alone is every query.
      const rows = ATTENTION_SECTIONS.find((s) => s.name === 'attention-rows').build({
        model,
        state,
        t,
        pick: () => {},
      });
      const fractions = rows.data.notes.find((n) => n.testId === 'attention-fractions').text;
      expect(fractions).toContain(`${attentionWindow(state) - state.offset}`);
    });
  }
});
