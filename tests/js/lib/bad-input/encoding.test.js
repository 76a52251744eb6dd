// Every bad input gets a TypeError or RangeError whose message names the
// parameter, and the module keeps computing correct values afterwards.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../../web/lib/index.js';
import { paperValue } from '../../reference.js';
import { maxAbsDiff } from '../../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const GOOD = { length: 8, dModel: 6 };

// [description, options override, error type, text the message must contain]
const BAD_OPTIONS = [
  ['missing dModel', { dModel: undefined }, TypeError, 'dModel'],
  ['null dModel', { dModel: null }, TypeError, 'dModel'],
  ['NaN dModel', { dModel: NaN }, RangeError, 'dModel'],
  ['Infinity dModel', { dModel: Infinity }, RangeError, 'dModel'],
  ['negative dModel', { dModel: -4 }, RangeError, 'dModel'],
  ['zero dModel', { dModel: 0 }, RangeError, 'dModel'],
  ['fractional dModel', { dModel: 6.5 }, RangeError, 'dModel'],
  ['string dModel', { dModel: '6' }, TypeError, 'dModel'],
  ['absurd dModel', { dModel: 2 ** 30 }, RangeError, 'dModel'],
  ['NaN base', { base: NaN }, RangeError, 'base'],
  ['base 1', { base: 1 }, RangeError, 'base'],
  ['base 0.5', { base: 0.5 }, RangeError, 'base'],
  ['negative base', { base: -10 }, RangeError, 'base'],
  ['string base', { base: '10000' }, TypeError, 'base'],
  ['base and timescale', { base: 100, maxTimescale: 100 }, TypeError, 'base'],
  ['minTimescale 0', { minTimescale: 0 }, RangeError, 'minTimescale'],
  ['maxTimescale below min', { minTimescale: 10, maxTimescale: 5 }, RangeError, 'maxTimescale'],
  ['unknown preset', { preset: 'bert' }, RangeError, 'preset'],
  ['non-string preset', { preset: 3 }, TypeError, 'preset'],
  ['unknown layout', { layout: 'blocked' }, RangeError, 'layout'],
  ['unknown exponent', { exponent: 'dim' }, RangeError, 'exponent'],
  ['unknown order', { order: 'cos-first' }, RangeError, 'order'],
  ['unknown angle', { angle: 'power' }, RangeError, 'angle'],
  ['unknown oddColumn', { oddColumn: 'pad' }, RangeError, 'oddColumn'],
  ['boolean oddColumn', { oddColumn: true }, TypeError, 'oddColumn'],
  ['unknown dtype', { dtype: 'float16' }, RangeError, 'dtype'],
  ['NaN start', { start: NaN }, RangeError, 'start'],
  ['absurd start', { start: 1e300 }, RangeError, 'start'],
  ['string start', { start: '1' }, TypeError, 'start'],
  ['fractional paddingRow', { paddingRow: 1.5 }, RangeError, 'paddingRow'],
  ['negative paddingRow', { paddingRow: -1 }, RangeError, 'paddingRow'],
  ['Infinity scale', { scale: Infinity }, RangeError, 'scale'],
  ['absurd scale', { scale: -(2 ** 60) }, RangeError, 'scale'],
  ['absurd minTimescale', { minTimescale: 1e300, maxTimescale: 1e301 }, RangeError, 'minTimescale'],
  ['unknown option', { lenght: 5 }, TypeError, 'lenght'],
];

// GOOD's length is ignored by the functions without one (one options object serves them all).
const CALLS = {
  table: (o) => pe.table(o),
  row: (o) => pe.row(3, o),
  frequencies: (o) => pe.frequencies(o),
  offsetDots: (o) => pe.offsetDots({ maxOffset: 4, ...o }),
  similarity: (o) => pe.similarity(o),
};

function expectStillWorks() {
  const got = pe.table({ length: 5, dModel: 4, dtype: 'float64' });
  const want = Float64Array.from({ length: 20 }, (_, i) => paperValue(Math.floor(i / 4), i % 4, 4));
  expect(maxAbsDiff(got, want)).toBeLessThanOrEqual(1e-12);
}

describe.each(Object.entries(CALLS))('%s', (name, call) => {
  it.each(BAD_OPTIONS)('rejects %s', (_, override, ErrorType, text) => {
    const opts = { ...GOOD, ...override };
    for (const key of Object.keys(override)) if (override[key] === undefined) delete opts[key];
    let error;
    try {
      call(opts);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ErrorType);
    expect(error.message).toContain(text);
    expect(error.message).toContain(`posenc.${name}`);
    expectStillWorks();
  });

  it('rejects a non-object options argument', () => {
    for (const bad of [null, 5, 'x', []]) expect(() => call(bad)).toThrow(TypeError);
    expectStillWorks();
  });
});

describe('sizes and per-function parameters', () => {
  it('length: missing, NaN, negative, fractional, string', () => {
    for (const fn of ['table', 'similarity']) {
      expect(() => pe[fn]({ dModel: 4 })).toThrow(/length is required/);
      expect(() => pe[fn]({ dModel: 4, length: NaN })).toThrow(RangeError);
      expect(() => pe[fn]({ dModel: 4, length: -3 })).toThrow(/length must be an integer/);
      expect(() => pe[fn]({ dModel: 4, length: 2.5 })).toThrow(RangeError);
      expect(() => pe[fn]({ dModel: 4, length: '3' })).toThrow(TypeError);
    }
    expectStillWorks();
  });

  it('a result over what wasm32 can hold', () => {
    expect(() => pe.table({ length: 2 ** 20, dModel: 1024 })).toThrow(/2147483647/);
    expect(() => pe.table({ length: 2 ** 19, dModel: 1024, dtype: 'float64' })).toThrow(/length or dModel/);
    expect(() => pe.similarity({ length: 30000, dModel: 4 })).toThrow(/matrix needs .* reduce length$/);
    expectStillWorks();
  });

  it('row position, offsetDots maxOffset and from', () => {
    for (const position of [NaN, Infinity, undefined])
      expect(() => pe.row(position, { dModel: 4 })).toThrow(/position/);
    expect(() => pe.row('1', { dModel: 4 })).toThrow(TypeError);
    expect(() => pe.offsetDots({ dModel: 4 })).toThrow(/maxOffset is required/);
    expect(() => pe.offsetDots({ dModel: 4, maxOffset: -1 })).toThrow(/maxOffset/);
    expect(() => pe.offsetDots({ dModel: 4, maxOffset: 1.5 })).toThrow(RangeError);
    expect(() => pe.offsetDots({ dModel: 4, maxOffset: 3, from: NaN })).toThrow(/from/);
    // Beyond 2^53 positions are no integers and products overflow: refused, not NaN.
    expect(() => pe.row(1e300, { dModel: 4 })).toThrow(
      /row: position must be a finite number of magnitude at most 2\^53/,
    );
    expect(() => pe.offsetDots({ dModel: 4, maxOffset: 3, from: -(2 ** 54) })).toThrow(RangeError);
    expect(pe.row(2 ** 53, { dModel: 4, dtype: 'float64' }).every(Number.isFinite)).toBe(true);
    expect(() => pe.similarity({ dModel: 4, length: 3, dtype: 'float64' })).toThrow(/dtype/);
    expectStillWorks();
  });

  it('an option of another function is refused, naming the functions it belongs to', () => {
    const cases = [
      [() => pe.table({ length: 4, dModel: 8, from: 5 }), 'table', 'from', 'offsetDots'],
      [() => pe.table({ length: 4, dModel: 8, maxOffset: 3 }), 'table', 'maxOffset', 'offsetDots'],
      [() => pe.row(1, { dModel: 4, from: 5 }), 'row', 'from', 'offsetDots'],
      [() => pe.similarity({ length: 3, dModel: 4, from: 2 }), 'similarity', 'from', 'offsetDots'],
      [() => pe.frequencies({ dModel: 4, minOffset: 1 }), 'frequencies', 'minOffset', 'offsetDots'],
    ];
    for (const [call, where, option, owners] of cases) {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(`posenc.${where}: '${option}' is an option of ${owners}, not of ${where}`);
    }
    // length alone is shared: ignored where there is none.
    expect(pe.row(1, { dModel: 4, length: 5 })).toEqual(pe.row(1, { dModel: 4 }));
    expectStillWorks();
  });

  it('dtype must name the type of functions with one output type', () => {
    expect(() => pe.frequencies({ dModel: 4, dtype: 'float32' })).toThrow(/frequencies: dtype must be 'float64'/);
    expect(() => pe.offsetDots({ dModel: 4, maxOffset: 2, dtype: 'float32' })).toThrow(
      /offsetDots: dtype must be 'float64'/,
    );
    expect(pe.frequencies({ dModel: 4, dtype: 'float64' })).toBeInstanceOf(Float64Array);
    expect(pe.offsetDots({ dModel: 4, maxOffset: 2, dtype: 'float64' })).toBeInstanceOf(Float64Array);
    expect(pe.similarity({ dModel: 4, length: 2, dtype: 'float32' })).toBeInstanceOf(Float32Array);
    expectStillWorks();
  });

  it("'ratio-power' refuses negative positions, where (pos / base)^e is no real number", () => {
    const question = { preset: 'question', dModel: 4 };
    expect(() => pe.table({ ...question, length: 3, start: -2 })).toThrow(
      /table: start must be >= 0 with angle 'ratio-power'/,
    );
    expect(() => pe.similarity({ ...question, length: 3, start: -0.5 })).toThrow(/similarity: start must be >= 0/);
    expect(() => pe.row(-1.5, question)).toThrow(/row: position must be >= 0/);
    expect(() => pe.offsetDots({ ...question, maxOffset: 2, from: -2 })).toThrow(/offsetDots: from must be >= 0/);
    expect(() => pe.offsetDots({ ...question, minOffset: -3, maxOffset: 2, from: 2 })).toThrow(
      /offsetDots: from \+ minOffset must be >= 0/,
    );
    // Position 0 is fine ((0 / base)^e = 0, and 0^0 = 1), and so is every other convention at negative positions.
    expect(pe.table({ ...question, length: 3, start: 0 }).every(Number.isFinite)).toBe(true);
    expect(pe.table({ dModel: 4, length: 3, start: -2 }).every(Number.isFinite)).toBe(true);
    expectStillWorks();
  });

  it('out of the wrong type or length', () => {
    expect(() => pe.table({ length: 2, dModel: 2, out: new Float64Array(4) })).toThrow(/out must be a Float32Array/);
    expect(() => pe.table({ length: 2, dModel: 2, out: new Float32Array(5) })).toThrow(/out must have length 4/);
    expect(() => pe.table({ length: 2, dModel: 2, out: [0, 0, 0, 0] })).toThrow(TypeError);
    const float64 = pe.allocate(4, { dtype: 'float64' });
    expect(() => pe.table({ length: 2, dModel: 2, out: float64 })).toThrow(
      /out must be a float32 WasmArray, as dtype is 'float32'/,
    );
    float64.free();
    expect(() => pe.table([])).toThrow('options must be an object (got an array of length 0)');
    expectStillWorks();
  });
});

describe('work limits', () => {
  it('rejects calls that would run for hours, naming the parameters', () => {
    expect(() => pe.offsetDots({ dModel: 1 << 20, maxOffset: 2 ** 26 })).toThrow(/maxOffset or dModel/);
    expect(() => pe.offsetDots({ dModel: 4096, maxOffset: 2 ** 20, preset: 'question' })).toThrow(/ratio-power/);
    expect(() => pe.similarity({ dModel: 4096, length: 4096, preset: 'question' })).toThrow(/length or dModel/);
    expectStillWorks();
  });

  it('computes the large legacy-column matrix by its closed form instead', () => {
    const sim = pe.similarity({ dModel: 1024, length: 4096, preset: 'legacy-column' });
    expect(sim.length).toBe(4096 * 4096);
  });
});
