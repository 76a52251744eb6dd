// Repeated calls with the same options reuse what depends only on the options
// (the validated options in options.js, the table writer with its frequencies
// and first seed in cpp/src/buffers.cpp). These tests check that nothing
// reused is stale: the same options object changed between calls, option sets
// alternating beyond what is kept, errors in between, each result against a
// float64 reference written here.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { expectClose } from '../tolerance.js';

const F32 = 1.2e-7;

let pe;
beforeAll(async () => {
  pe = await load();
});

/**
 * Table row r, column j of a convention (float64), from the formulas in
 * docs/conventions.md: pair i = j // 2 (interleaved) or j mod d/2 (concat),
 * exponent 2i/d ('pair') or i/(d/2 - 1) ('half-minus-one'), angle
 * (start + r) · base^(-e), sin first unless order is 'cos-sin'; every value
 * times scale; row paddingRow all zeros. Even d only.
 */
function value(o, r, j) {
  const d = o.dModel;
  const n = d / 2;
  const concat = o.layout === 'concat';
  const pair = concat ? j % n : Math.floor(j / 2);
  const second = concat ? j >= n : j % 2 === 1;
  const e = o.exponent === 'half-minus-one' ? pair / Math.max(n - 1, 1) : (2 * pair) / d;
  const angle = ((o.start ?? 0) + r) * Math.pow(o.base ?? 10000, -e);
  const sin = second === (o.order === 'cos-sin');
  if (r === o.paddingRow) return 0;
  return (o.scale ?? 1) * (sin ? Math.sin(angle) : Math.cos(angle));
}

/** Every value of a length x dModel table against the reference, within `tolerance`. */
const expectTable = (got, o, length, tolerance = F32) => {
  expect(got).toHaveLength(length * o.dModel);
  const want = Float64Array.from({ length: length * o.dModel }, (_, k) =>
    value(o, Math.floor(k / o.dModel), k % o.dModel),
  );
  expectClose(got, want, tolerance);
};

describe('repeated calls with the same options', () => {
  it('a length-1 table into the same array, again and again, at dModel 128 and 512', () => {
    for (const dModel of [128, 512]) {
      const opts = { length: 1, dModel, start: 37, out: new Float32Array(dModel) };
      for (let i = 0; i < 5; i++) {
        opts.out.fill(9);
        expect(pe.table(opts)).toBe(opts.out);
        expectTable(opts.out, opts, 1);
      }
    }
  });

  it('tables of different lengths with one options object: each starts at row 0 (rows past a reseed too)', () => {
    const opts = { dModel: 32, base: 500 };
    // 1500 rows cross the reseed at row 1024; the length-1 tables in between
    // restart the writer at row 0 after it went down 1500 rows.
    for (const length of [1500, 1, 7, 1500, 1, 1025]) expectTable(pe.table({ ...opts, length }), opts, length);
  });

  it('float32 and float64 tables of the same options alternate', () => {
    const opts = { dModel: 64, start: 5, scale: 2 };
    for (let i = 0; i < 3; i++) {
      expectTable(pe.table({ ...opts, length: 40 }), opts, 40, 2 * F32);
      expectTable(pe.table({ ...opts, length: 40, dtype: 'float64' }), opts, 40, 1e-12);
    }
  });
});

describe('one options object changed between calls', () => {
  it('every knob changed in place is seen by the next call', () => {
    const opts = { length: 3, dModel: 16, out: new Float32Array(48) };
    const changes = [
      {},
      { base: 100 },
      { start: 1000 },
      { scale: 0.5 },
      { layout: 'concat' },
      { order: 'cos-sin' },
      { exponent: 'half-minus-one' },
      { paddingRow: 1 },
      { paddingRow: null },
      { base: 10000, start: 0, scale: 1 },
    ];
    for (const change of changes) {
      Object.assign(opts, change);
      pe.table(opts);
      expectTable(opts.out, opts, 3);
    }
  });

  it('dModel changed in place: the next call wants and writes the new size', () => {
    const opts = { length: 2, dModel: 8 };
    expectTable(pe.table(opts), opts, 2);
    opts.dModel = 10;
    expectTable(pe.table(opts), opts, 2);
    opts.out = new Float32Array(20);
    opts.dModel = 8;
    expect(() => pe.table(opts)).toThrow(/^posenc\.table: out must have length 16/);
    opts.dModel = 10;
    expect(pe.table(opts)).toBe(opts.out);
    expectTable(opts.out, opts, 2);
  });

  it('scale -0 is not scale 0: the signs of the zeros follow', () => {
    const opts = { length: 1, dModel: 4, scale: 0 };
    expect(Array.from(pe.table(opts), (v) => Object.is(v, 0))).toEqual([true, true, true, true]);
    opts.scale = -0;
    // sin(0) = 0 and cos(0) = 1, times -0: -0 in every column.
    expect(Array.from(pe.table(opts), (v) => Object.is(v, -0))).toEqual([true, true, true, true]);
    opts.scale = 0;
    expect(Array.from(pe.table(opts), (v) => Object.is(v, 0))).toEqual([true, true, true, true]);
  });

  it('an option inherited from a prototype that changes is seen', () => {
    const defaults = { dModel: 8, base: 10000 };
    const opts = Object.create(defaults);
    opts.length = 4;
    expectTable(pe.table(opts), { ...defaults, length: 4 }, 4);
    defaults.base = 50;
    expectTable(pe.table(opts), { ...defaults, length: 4 }, 4);
    defaults.dModel = 6;
    expectTable(pe.table(opts), { ...defaults, length: 4 }, 4);
  });

  it('a key added or removed is seen: an unknown one is refused, a removed one falls back to the preset', () => {
    const opts = { length: 2, dModel: 8, base: 100 };
    expectTable(pe.table(opts), opts, 2);
    opts.bsae = 100;
    expect(() => pe.table(opts)).toThrow(/^posenc\.table: unknown option 'bsae'/);
    delete opts.bsae;
    expectTable(pe.table(opts), opts, 2);
    opts.from = 3;
    expect(() => pe.table(opts)).toThrow(/^posenc\.table: 'from' is an option of offsetDots, not of table/);
    delete opts.from;
    delete opts.base;
    expectTable(pe.table(opts), { ...opts, base: 10000 }, 2);
  });

  it('row, frequencies and offsetDots see the change too', () => {
    const opts = { dModel: 8 };
    for (const base of [10000, 16, 10000, 3]) {
      opts.base = base;
      const row = pe.row(5, { ...opts, dtype: 'float64' });
      const sameObject = pe.row(5, Object.assign(opts, { dtype: 'float64' }));
      delete opts.dtype;
      const w = Array.from({ length: 8 }, (_, j) => Math.pow(base, -(2 * Math.floor(j / 2)) / 8));
      for (let j = 0; j < 8; j++) {
        expectClose(row[j], value(opts, 5, j), 1e-12);
        expect(sameObject[j]).toBe(row[j]);
      }
      const freq = pe.frequencies(opts);
      for (let j = 0; j < 8; j++) expect(Math.abs(freq[j] - w[j]) / w[j]).toBeLessThanOrEqual(1e-14);
      opts.maxOffset = 20;
      const dots = pe.offsetDots(opts);
      delete opts.maxOffset;
      for (const k of [0, 1, 20]) {
        let want = 0;
        for (let i = 0; i < 4; i++) want += Math.cos(w[2 * i] * k);
        expectClose(dots[k], want, 1e-12);
      }
    }
  });
});

describe('option sets alternating', () => {
  it('more sets than are kept, in turn, each time right', () => {
    // Six sets (more than the four kept in options.js and in the module),
    // differing in one knob each, cycled three times.
    const sets = [
      { dModel: 32 },
      { dModel: 32, base: 1000 },
      { dModel: 32, start: 3 },
      { dModel: 32, scale: 3 },
      { dModel: 32, layout: 'concat' },
      { dModel: 48, exponent: 'half-minus-one', order: 'cos-sin' },
    ];
    for (let round = 0; round < 3; round++)
      for (const set of sets) {
        const out = new Float32Array(5 * set.dModel);
        pe.table({ ...set, length: 5, out });
        expectTable(out, set, 5, (set.scale ?? 1) * F32);
      }
  });

  it('two objects with the same content give the same values; different objects of alternating content too', () => {
    const a = { length: 2, dModel: 8, base: 100 };
    const b = { length: 2, dModel: 8, base: 100 };
    expect(Array.from(pe.table(a))).toEqual(Array.from(pe.table(b)));
    b.base = 200;
    for (let i = 0; i < 3; i++) {
      expectTable(pe.table(a), a, 2);
      expectTable(pe.table(b), b, 2);
    }
  });
});

describe('errors between calls', () => {
  it('a bad value in a once-valid object gets its error; fixed, the next call is right', () => {
    const opts = { length: 2, dModel: 8, out: new Float32Array(16) };
    pe.table(opts);
    for (const [key, bad, error] of [
      ['dModel', 0, /^posenc\.table: dModel must be an integer in \[1, 1048576\]/],
      ['base', 1, /^posenc\.table: base must be a finite number > 1/],
      ['layout', 'split', /^posenc\.table: layout must be one of 'interleaved', 'concat'/],
      ['start', Infinity, /^posenc\.table: start must be a finite number/],
      ['dtype', 'float16', /^posenc\.table: dtype must be one of 'float32', 'float64'/],
    ]) {
      const good = opts[key];
      opts[key] = bad;
      expect(() => pe.table(opts)).toThrow(error);
      if (good === undefined) delete opts[key];
      else opts[key] = good;
      opts.out.fill(9);
      pe.table(opts);
      expectTable(opts.out, opts, 2);
    }
  });

  it('a table too large for the module in between leaves the cached calls working', () => {
    const opts = { length: 1, dModel: 512, out: new Float32Array(512) };
    pe.table(opts);
    expect(() => pe.table({ length: 1 << 20, dModel: 1 << 20 })).toThrow(RangeError);
    pe.table(opts);
    expectTable(opts.out, opts, 1);
  });
});

describe('RoPE with the same options', () => {
  // HF's default inverse frequencies 1 / base^(2i/d), i < d/2.
  const ladder = (d, base) => Array.from({ length: d / 2 }, (_, i) => 1 / Math.pow(base, (2 * i) / d));

  it('base and factors changed in place (a factor array element included) are seen', () => {
    const scaling = {
      type: 'longrope',
      originalMaxPositionEmbeddings: 4096,
      maxPositionEmbeddings: 131072,
      shortFactor: [1, 1.1, 1.5, 2],
      longFactor: [1.2, 3, 9, 30],
    };
    const opts = { headDim: 8, scaling };
    for (const [base, factor0] of [
      [10000, 1],
      [10000, 4],
      [500, 4],
      [10000, 1],
    ]) {
      opts.base = base;
      scaling.shortFactor[0] = factor0;
      const want = ladder(8, base).map((w, i) => w / scaling.shortFactor[i]);
      for (let i = 0; i < 2; i++)
        expectClose(pe.ropeFrequencies(opts).invFreq, want, { relative: 1e-15, absolute: 1e-300 });
    }
  });

  it('ropeCache rows with the options changed between calls, and with six configurations in turn', () => {
    const check = (opts) => {
      const { cos, sin } = pe.ropeCache({ ...opts, length: 3, dtype: 'float64' });
      const w = ladder(opts.headDim, opts.base);
      const n = opts.headDim / 2;
      for (let p = 0; p < 3; p++)
        for (let j = 0; j < opts.headDim; j++) {
          const angle = p * w[j % n];
          expectClose(cos[p * opts.headDim + j], Math.cos(angle), 1e-15);
          expectClose(sin[p * opts.headDim + j], Math.sin(angle), 1e-15);
        }
    };
    const opts = { headDim: 16, base: 10000 };
    for (const base of [10000, 50, 10000]) check(Object.assign(opts, { base }));
    const sets = [8, 16, 32].flatMap((headDim) => [10000, 77].map((base) => ({ headDim, base })));
    for (let round = 0; round < 2; round++) for (const set of sets) check(set);
    // The frequencies handed out are copies: changing them changes nothing kept.
    pe.ropeFrequencies(opts).invFreq.fill(0);
    check(opts);
  });
});

describe('options differing only by a precision dtype', () => {
  // Angle of pair i at row r with position and angle rounded to their formats,
  // the frequency exact: round(round(start + r) · base^(-2i/d)), as
  // docs/precision.md states it.
  const ROUND = { float64: (x) => x, float32: Math.fround };
  function roundedValue(o, r, j) {
    const pair = Math.floor(j / 2);
    const position = ROUND[o.positionDtype ?? 'float64'](o.start + r);
    const angle = ROUND[o.angleDtype ?? 'float64'](position * Math.pow(10000, (-2 * pair) / o.dModel));
    return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
  }
  function expectRoundedTable(got, o) {
    expect(got).toHaveLength(o.length * o.dModel);
    let worst = 0;
    for (let r = 0; r < o.length; r++)
      for (let j = 0; j < o.dModel; j++)
        worst = Math.max(worst, Math.abs(got[r * o.dModel + j] - roundedValue(o, r, j)));
    expect(worst).toBeLessThanOrEqual(1e-12);
  }

  it('angleDtype alone changed: each call gets its own table (the kept writers are keyed by it)', () => {
    const exact = { dModel: 64, length: 16, start: 3001, dtype: 'float64' };
    const rounded = { ...exact, angleDtype: 'float32' };
    // float32 angles near 3000 are off by up to 1.2e-4: the tables must differ.
    const a = pe.table(exact);
    const b = pe.table(rounded);
    expect(Math.max(...a.map((x, i) => Math.abs(x - b[i])))).toBeGreaterThan(1e-6);
    for (let i = 0; i < 3; i++) {
      expectRoundedTable(pe.table(exact), exact);
      expectRoundedTable(pe.table(rounded), rounded);
    }
    // The same object with its angleDtype changed in place, and positionDtype too.
    const opts = { ...exact };
    for (const [angleDtype, positionDtype] of [
      ['float32', undefined],
      ['float64', undefined],
      ['float64', 'float32'],
      ['float32', 'float32'],
    ]) {
      opts.angleDtype = angleDtype;
      if (positionDtype === undefined) delete opts.positionDtype;
      else opts.positionDtype = positionDtype;
      opts.start = 3001.25; // a position float32 rounds
      expectRoundedTable(pe.table(opts), opts);
      const row = pe.row(opts.start + 5, { dModel: 64, dtype: 'float64', angleDtype, positionDtype });
      expectRoundedTable(row, { ...opts, start: opts.start + 5, length: 1 });
    }
  });
});
