// identify() prefers round parameter values that fit within the data's
// tolerance, and names the step of a table's computation that lost precision.
// Every table here is written in the test from the formulas, in float64, with
// float32 by Math.fround and float16 / bfloat16 by rounding bits written here.
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { load } from '../../../web/lib/index.js';
import { diagnosisWords } from '../../../web/page/check-words.js';
import { expectClose, FLOAT64_EPSILON } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const f = Math.fround;
const codes = (result) => result.diagnosis.map((d) => d.code);
const PLURAL = { angle: 'angles', position: 'positions', frequency: 'frequencies', exponent: 'exponents' };

/** A row-major [length x d] table of value(pos, j). */
function build(length, d, value, ArrayType = Float64Array) {
  const out = new ArrayType(length * d);
  for (let pos = 0; pos < length; pos++) for (let j = 0; j < d; j++) out[pos * d + j] = value(pos, j);
  return out;
}

// The paper's table in float64: interleaved sin/cos, w_i = base^(-2i/d).
const paper = (length, d, { base = 10000, scale = 1 } = {}) =>
  build(length, d, (pos, j) => {
    const angle = pos / base ** ((2 * Math.floor(j / 2)) / d);
    return scale * (j % 2 === 0 ? Math.sin(angle) : Math.cos(angle));
  });

// tensor2tensor's get_timing_signal_1d as it runs in float32: the increment
// ln(max/min)/(n-1), each exp and each product rounded to float32.
function tensor2tensorFloat32(length, channels, { base = 10000, scale = 1 } = {}) {
  const n = channels / 2;
  const increment = f(Math.log(base) / (n - 1));
  const inverse = (i) => f(Math.exp(f(i * -increment)));
  return build(
    length,
    channels,
    (pos, j) => {
      const angle = f(pos * inverse(j % n));
      return f(scale * (j < n ? Math.sin(angle) : Math.cos(angle)));
    },
    Float32Array,
  );
}

// A deterministic noise in [-1, 1] per value.
const noise = (k) => Math.sin(k * 12.9898 + 78.233) * 0.999;

describe('identify() prefers round values that fit the data', () => {
  it('a tensor2tensor table computed in float32 is base 10000, not 10000.003', () => {
    const result = pe.identify(tensor2tensorFloat32(512, 768), 512, 768);
    expect(result).toEqual(expect.objectContaining({ match: true, preset: 'tensor2tensor', float32Angle: true }));
    expect(result.options.base).toBe(10000);
    expect(codes(result)).toEqual(['float32-angle']);
  });

  it('the same table scaled by √d and by 2: those scales exactly', () => {
    for (const scale of [Math.sqrt(768), 2]) {
      const result = pe.identify(tensor2tensorFloat32(512, 768, { scale }), 512, 768);
      expect(result.match).toBe(true);
      expect(result.options).toEqual(expect.objectContaining({ base: 10000, scale, start: 0 }));
      expect(codes(result)).toEqual(['scaled', 'float32-angle']);
    }
  });

  it('a base of 500000 in float32 is 500000', () => {
    const result = pe.identify(tensor2tensorFloat32(1024, 256, { base: 500000 }), 1024, 256);
    expect(result.match).toBe(true);
    expect(result.options.base).toBe(500000);
    expect(codes(result)).toEqual(['base', 'float32-angle']);
  });

  it('noise just inside the tolerance keeps base 10000 and scale 1; noise beyond it is unexplained', () => {
    const exact = paper(256, 64);
    // float64 values: tolerance 1e-9 of the largest (1).
    const inside = exact.map((v, k) => v + 0.9e-9 * noise(k));
    const result = pe.identify(inside, 256, 64);
    expect(result).toEqual(expect.objectContaining({ match: true, preset: 'vaswani' }));
    // 1e-9 times the largest value: 1 (cos 0) plus noise of at most 0.9e-9.
    expectClose(result.tolerance, 1e-9, { relative: 1e-9 });
    expect(result.options).toEqual(expect.objectContaining({ base: 10000, scale: 1 }));
    const beyond = exact.map((v, k) => v + 3e-9 * noise(k));
    expect(pe.identify(beyond, 256, 64).match).toBe(false);
    // float32 values: 2^-21 of the largest.
    const inside32 = Float32Array.from(exact, (v, k) => v + 0.8 * 2 ** -21 * noise(k));
    const result32 = pe.identify(inside32, 256, 64);
    expect(result32).toEqual(expect.objectContaining({ match: true, preset: 'vaswani', float32Angle: false }));
    expect(result32.options).toEqual(expect.objectContaining({ base: 10000, scale: 1 }));
  });
});

/**
 * x rounded to nearest, ties to even, to `fractionBits` fraction bits with no
 * exponent below `minExponent` (subnormals) and ±Infinity beyond `largest`:
 * worked on the bits of the float64 (BigInt), independently of posenc.
 */
function roundBits(x, fractionBits, minExponent, largest) {
  if (x === 0 || !Number.isFinite(x)) return x;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  // Significand with its leading one (x is a normal float64 here), x = significand * 2^(exponent - 52).
  const significand = (bits & ((1n << 52n) - 1n)) | (1n << 52n);
  const exponent = biased - 1023;
  const kept = Math.max(exponent, minExponent);
  const drop = BigInt(52 - fractionBits + (kept - exponent));
  let q = significand >> drop;
  const rest = significand & ((1n << drop) - 1n);
  const half = 1n << (drop - 1n);
  if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  const value = Number(q) * 2 ** (kept - fractionBits);
  const rounded = value > largest ? Infinity : value;
  return negative ? -rounded : rounded;
}
const ROUND = {
  float16: (x) => roundBits(x, 10, -14, 65504),
  bfloat16: (x) => roundBits(x, 7, -126, 3.3895313892515355e38),
  float32: Math.fround,
  float64: (x) => x,
};

/**
 * The paper's table (interleaved sin/cos, w_i = 10000^(-2i/d)) with each step
 * rounded as given: the exponent 2i/d, the frequency, the position, the
 * angle position * w. Stored in float32.
 */
function paperRounded(
  length,
  d,
  { exponent = 'float64', frequency = 'float64', position = 'float64', angle = 'float64' },
) {
  const w = Array.from({ length: d / 2 }, (_, i) => ROUND[frequency](10000 ** -ROUND[exponent]((2 * i) / d)));
  return build(
    length,
    d,
    (pos, j) => {
      const a = ROUND[angle](ROUND[position](pos) * w[Math.floor(j / 2)]);
      return j % 2 === 0 ? Math.sin(a) : Math.cos(a);
    },
    Float32Array,
  );
}

/** Largest |data - the paper's float64 table| and its cell. */
function errorFromExact(data, length, d) {
  const exact = paper(length, d);
  let [error, at] = [0, 0];
  for (let k = 0; k < data.length; k++)
    if (Math.abs(data[k] - exact[k]) > error) [error, at] = [Math.abs(data[k] - exact[k]), k];
  return { error, where: { row: Math.floor(at / d), column: at % d } };
}

describe('identify() names the step whose dtype lost precision', () => {
  const cases = [
    // [step, format, length, d]: positions are exact in float16 below 2048, in bfloat16 below 256.
    ['angle', 'float16', 512, 64],
    ['angle', 'bfloat16', 512, 64],
    ['position', 'float16', 4096, 32],
    ['position', 'bfloat16', 1024, 32],
    ['frequency', 'float16', 512, 64],
    ['frequency', 'bfloat16', 512, 64],
    ['frequency', 'float32', 2048, 64],
    // 2i/96 = i/48 has no exact binary value: float32 exponents change the frequencies.
    ['exponent', 'float32', 2048, 96],
    ['exponent', 'float16', 512, 96],
  ];
  for (const [step, format, length, d] of cases)
    it(`${PLURAL[step]} in ${format} (${length} x ${d})`, () => {
      const data = paperRounded(length, d, { [step]: format });
      const result = pe.identify(data, length, d);
      const knob = `${step}Dtype`;
      expect(result).toEqual(expect.objectContaining({ match: true, nearestPreset: 'vaswani' }));
      expect(result.options).toEqual(expect.objectContaining({ base: 10000, scale: 1, start: 0, [knob]: format }));
      expect(codes(result)).toEqual([`${step}-dtype`]);
      const { error, where } = errorFromExact(data, length, d);
      expect(result.diagnosis[0]).toMatchObject({ knob, found: format, expected: 'float64', where });
      // The library's float64 table and the test's: frequencies an ulp apart, times positions up to length.
      expectClose(result.diagnosis[0].error, error, length * FLOAT64_EPSILON);
      expect(result.diagnosis[0].message).toContain(format);
      // The options reproduce the data.
      const table = pe.table({ ...result.options, length, dModel: d });
      expectClose(data, table, result.tolerance);
    });

  it('a model run in float16 throughout: the steps that lose precision at 512 positions (angles and frequencies)', () => {
    const all = { exponent: 'float16', frequency: 'float16', position: 'float16', angle: 'float16' };
    const result = pe.identify(paperRounded(512, 64, all), 512, 64);
    expect(result.match).toBe(true);
    expect(codes(result)).toEqual(['angle-dtype', 'frequency-dtype']);
    expect(result.options).toEqual(expect.objectContaining({ angleDtype: 'float16', frequencyDtype: 'float16' }));
  });

  it('float16 angles with noise just inside the float32 tolerance: still named; beyond it, unexplained', () => {
    const data = paperRounded(512, 64, { angle: 'float16' });
    const inside = data.map((v, k) => v + 0.8 * 2 ** -21 * noise(k));
    const result = pe.identify(inside, 512, 64);
    expect(result.match).toBe(true);
    expect(codes(result)).toEqual(['angle-dtype']);
    const beyond = data.map((v, k) => v + 4 * 2 ** -21 * noise(k));
    expect(pe.identify(beyond, 512, 64).match).toBe(false);
  });

  it('a float32 table of float64 angles names no step', () => {
    const result = pe.identify(paperRounded(512, 64, {}), 512, 64);
    expect(result).toEqual(expect.objectContaining({ match: true, preset: 'vaswani', float32Angle: false }));
    expect(result.diagnosis).toEqual([]);
  });
});

describe('the page says in words which step lost precision, in English and Chinese', () => {
  const steps = [
    ['angle', 'float16', 512, 64, /angles were rounded to float16.*11 significant bits/, /角度被舍入到 float16.*11 位/],
    ['position', 'bfloat16', 1024, 32, /positions were rounded to bfloat16.*up to 256/, /位置被舍入到 bfloat16.*256/],
    ['frequency', 'float16', 512, 64, /frequencies were rounded to float16 \(11/, /频率被舍入到 float16（11/],
    ['exponent', 'float32', 2048, 96, /exponents \(such as 2i\/d\) were computed in float32/, /指数.*float32 计算/],
  ];
  for (const [step, format, length, d, english, chinese] of steps)
    it(`${PLURAL[step]} in ${format}`, () => {
      const id = pe.identify(paperRounded(length, d, { [step]: format }), length, d);
      const [dx] = id.diagnosis;
      const words = diagnosisWords(dx, { identification: id, length, dModel: d });
      const sentences = [en, zh].map((strings) => strings[`check.dx.${dx.code}`](words));
      for (const sentence of sentences) {
        expect(sentence).not.toMatch(/undefined|NaN|null|\[object/);
        expect(sentence).toContain(String(dx.where.row));
      }
      expect(sentences[0]).toMatch(english);
      expect(sentences[1]).toMatch(chinese);
      const steps = [{ knob: `${step}Dtype`, format }];
      expect(en['check.verdict.presetRounded']('vaswani', steps)).toBe(
        `This is the vaswani table, with its ${PLURAL[step]} in ${format}.`,
      );
      expect(zh['check.verdict.presetRounded']('vaswani', steps)).toContain(format);
    });
});
