// identify() prefers round parameter values that fit within the data's
// tolerance, and names the step of a table's computation that lost precision.
// Every table here is written in the test from the formulas, in float64, with
// float32 by Math.fround and float16 / bfloat16 by rounding bits written here.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../web/lib/index.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const f = Math.fround;
const codes = (result) => result.diagnosis.map((d) => d.code);

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
    expect(result.tolerance).toBeCloseTo(1e-9, 15);
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
