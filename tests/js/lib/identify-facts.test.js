// identify()'s diagnoses as facts (code, knob, preset, found, expected, where),
// and the page's wording of each from those facts in both languages.
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { load } from '../../../web/lib/index.js';
import { diagnosisWords } from '../../../web/page/check-words.js';
import { expectClose, FLOAT64_EPSILON } from '../tolerance.js';

/** A sinusoidal table in float64, written here from the formulas (not by posenc). */
function reference(length, d, knobs = {}) {
  const { layout = 'interleaved', exponent = 'pair', order = 'sin-cos', base = 10000, start = 0 } = knobs;
  const { paddingRow = null, scale = 1, oddColumn = 'formula' } = knobs;
  const n = Math.floor(d / 2);
  const out = new Float64Array(length * d);
  const e = (i) => (exponent === 'pair' ? (2 * i) / d : i / Math.max(n - 1, 1));
  const [first, second] = order === 'sin-cos' ? [Math.sin, Math.cos] : [Math.cos, Math.sin];
  for (let r = 0; r < length; r++) {
    if (r === paddingRow) continue;
    const pos = start + r;
    for (let i = 0; i < n; i++) {
      const angle = pos * base ** -e(i);
      const [a, b] = layout === 'concat' ? [i, n + i] : [2 * i, 2 * i + 1];
      out[r * d + a] = scale * first(angle);
      out[r * d + b] = scale * second(angle);
    }
    if (d % 2 === 1 && oddColumn === 'formula') out[r * d + d - 1] = scale * first(pos * base ** -e(n));
  }
  return out;
}

let pe;
beforeAll(async () => {
  pe = await load();
});

const found = (data, length, dModel) => pe.identify(data, length, dModel);
const entry = (id, code) => id.diagnosis.find((d) => d.code === code);

describe('identify() diagnoses are facts', () => {
  it('a tensor2tensor table with base 5000: base 5000 where 10000 is expected', () => {
    const id = found(reference(64, 16, { layout: 'concat', exponent: 'half-minus-one', base: 5000 }), 64, 16);
    expect(id.nearestPreset).toBe('tensor2tensor');
    expect(entry(id, 'base')).toMatchObject({
      code: 'base',
      knob: 'base',
      preset: 'tensor2tensor',
      found: 5000,
      expected: 10000,
      where: null,
    });
    expect(entry(id, 'base').message).toBe('The base is 5000, not 10000.');
  });

  it('order, start, scale and padding row: the found and the expected value of the knob', () => {
    let id = found(reference(48, 16, { order: 'cos-sin' }), 48, 16);
    expect(entry(id, 'sin-cos-swapped')).toMatchObject({ knob: 'order', found: 'cos-sin', expected: 'sin-cos' });
    id = found(reference(48, 16, { start: 1 }), 48, 16);
    expect(entry(id, 'start-off-by-one')).toMatchObject({ knob: 'start', found: 1, expected: 0, where: { row: 0 } });
    id = found(reference(48, 16, { scale: 4 }), 48, 16);
    expect(entry(id, 'scaled')).toMatchObject({ knob: 'scale', found: 4, expected: 1, preset: 'vaswani' });
    id = found(reference(48, 16, { paddingRow: 0, start: 1 }), 48, 16);
    expect(entry(id, 'unexpected-padding-row')).toMatchObject({
      knob: 'paddingRow',
      found: 0,
      expected: null,
      where: { row: 0 },
    });
  });

  it("an odd width's zero last column names that column", () => {
    const id = found(reference(40, 7, { oddColumn: 'zero' }), 40, 7);
    expect(id.nearestPreset).toBe('vaswani');
    expect(entry(id, 'odd-column-zero')).toMatchObject({
      knob: 'oddColumn',
      found: 'zero',
      expected: 'formula',
      where: { column: 6 },
    });
  });

  it('float32 angles: the error and its row are the largest difference from the float64 table', () => {
    const [length, d] = [2048, 16];
    const data = new Float32Array(length * d);
    const step = Math.fround(-Math.log(10000) / d);
    for (let p = 0; p < length; p++)
      for (let i = 0; i < d / 2; i++) {
        const angle = Math.fround(Math.fround(p) * Math.fround(Math.exp(Math.fround(2 * i * step))));
        data[p * d + 2 * i] = Math.sin(angle);
        data[p * d + 2 * i + 1] = Math.cos(angle);
      }
    const exact = reference(length, d);
    let [error, at] = [0, 0];
    for (let k = 0; k < data.length; k++)
      if (Math.abs(data[k] - exact[k]) > error) [error, at] = [Math.abs(data[k] - exact[k]), k];
    const id = found(data, length, d);
    const dx = entry(id, 'float32-angle');
    expect(dx).toMatchObject({ knob: null, found: 'float32', expected: 'float64' });
    // The library's float64 table and this one: frequencies an ulp apart, times positions up to length.
    expectClose(dx.error, error, length * FLOAT64_EPSILON);
    expect(dx.where).toEqual({ row: Math.floor(at / d), column: at % d });
  });

  it('unexplained (far: noise): the worst cell and misfit the check worker used to recompute', () => {
    const [length, d] = [8, 8];
    const data = Float64Array.from({ length: length * d }, (_, k) => Math.sin(k * k * 1.7) * 3);
    const id = found(data, length, d);
    const dx = entry(id, 'unexplained-far');
    // What check-worker.js computed before: the largest |data − table of the found options| (float64).
    const table = pe.table({ ...id.options, length, dModel: d, dtype: 'float64' });
    let [error, at] = [0, 0];
    for (let k = 0; k < data.length; k++)
      if (Math.abs(data[k] - table[k]) > error) [error, at] = [Math.abs(data[k] - table[k]), k];
    expect(dx.found).toBe(error);
    expect(dx.found).toBe(id.maxAbsError);
    expect(dx.expected).toBe(id.tolerance);
    expect(dx.where).toEqual({ row: Math.floor(at / d), column: at % d });
  });

  it('all-zero, too-large and transposed tables', () => {
    expect(found(new Float64Array(12), 3, 4).diagnosis[0]).toMatchObject({ code: 'all-zero', found: 0 });
    expect(found([1, 0, 2 ** 60, 1], 2, 2).diagnosis[0]).toMatchObject({
      code: 'too-large',
      found: 2 ** 60,
      expected: 2 ** 53,
      where: { row: 1, column: 0 },
    });
    const table = reference(16, 40);
    const turned = new Float64Array(table.length);
    for (let r = 0; r < 16; r++) for (let j = 0; j < 40; j++) turned[j * 16 + r] = table[r * 40 + j];
    expect(found(turned, 40, 16).diagnosis[0]).toMatchObject({
      code: 'transposed',
      preset: 'vaswani',
      found: { length: 40, dModel: 16 },
      expected: { length: 16, dModel: 40 },
      changes: [],
    });
  });
});

describe('the page words every diagnosis from its facts, in English and Chinese', () => {
  const tables = () => [
    [reference(64, 16, { layout: 'concat', exponent: 'half-minus-one', base: 5000 }), 64, 16],
    [reference(48, 16, { order: 'cos-sin', start: 3, scale: 4 }), 48, 16],
    [reference(48, 16, { paddingRow: 0, start: 1 }), 48, 16],
    [reference(40, 7, { oddColumn: 'zero' }), 40, 7],
    [reference(40, 9, { layout: 'concat', exponent: 'half-minus-one', paddingRow: 1, oddColumn: 'formula' }), 40, 9],
    [Float64Array.from({ length: 64 }, (_, k) => Math.sin(k * k * 1.7) * 3), 8, 8],
    [new Float64Array(12), 3, 4],
    [[1, 0, 2 ** 60, 1], 2, 2],
  ];
  it('every sentence holds its numbers and nothing undefined', () => {
    const codes = new Set();
    for (const [data, length, dModel] of tables()) {
      const id = found(data, length, dModel);
      for (const dx of id.diagnosis) {
        codes.add(dx.code);
        const words = diagnosisWords(dx, { identification: id, length, dModel });
        for (const strings of [en, zh]) {
          const sentence = strings[`check.dx.${dx.code}`](words);
          expect(sentence, `${dx.code}: ${sentence}`).not.toMatch(/undefined|NaN|null|\[object/);
          if (dx.knob === 'base') expect(sentence).toContain('5000');
          if (dx.code.startsWith('unexplained')) expect(sentence).toContain(`${dx.where.row}`);
          if (dx.knob === 'start') expect(sentence).toContain(`${dx.found}`);
        }
      }
    }
    expect(codes.size).toBeGreaterThanOrEqual(9);
  });
});
