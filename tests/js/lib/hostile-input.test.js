// Values a message cannot print, outputs that only look like typed arrays,
// arrays of another realm, views of wasm memory and subclasses whose set()
// calls back into posenc: each gets posenc's own error naming the function
// and parameter, or is handled with correct values.
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeSnippet, load, parseTable } from '../../../web/lib/index.js';
import { paperValue } from '../reference.js';
import { maxAbsDiff } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const paperTable = (length, d) =>
  Float64Array.from({ length: length * d }, (_, k) => paperValue(Math.floor(k / d), k % d, d));

const CALLS = {
  table: (o) => pe.table({ length: 4, dModel: 6, ...o }),
  row: (o) => pe.row(1, { dModel: 6, ...o }),
  frequencies: (o) => pe.frequencies({ dModel: 6, ...o }),
  offsetDots: (o) => pe.offsetDots({ dModel: 6, maxOffset: 3, ...o }),
  similarity: (o) => pe.similarity({ length: 4, dModel: 6, ...o }),
  codeSnippet: (o) => codeSnippet('numpy', { length: 4, dModel: 6, ...o }),
};

describe('values with no text', () => {
  const noText = [
    Object.create(null),
    {
      toString() {
        throw new Error('no');
      },
    },
  ];
  it('every option of every function: a TypeError naming function and option, not the formatter failing', () => {
    for (const [where, call] of Object.entries(CALLS))
      for (const option of ['dModel', 'preset', 'base', 'layout', 'start', 'scale', 'oddColumn', 'dtype', 'colour'])
        for (const value of noText)
          expect(() => call({ [option]: value }), `${where} ${option}`).toThrow(
            new RegExp(`^posenc\\.${where}: .*'?${option}'?.*\\(got \\[object Object\\]\\)$`),
          );
    expect(() => pe.row(Object.create(null), { dModel: 2 })).toThrow(/^posenc\.row: position must be a number/);
    expect(() => pe.allocate(Object.create(null))).toThrow(/^posenc\.allocate: count must be a number/);
    expect(() => pe.allocate(4, { dtype: Object.create(null) })).toThrow(/^posenc\.allocate: dtype must be one of/);
    expect(() => pe.allocate(4, Object.create(null))).not.toThrow();
    expect(() => codeSnippet(Object.create(null), { length: 1, dModel: 2 })).toThrow(
      /^posenc\.codeSnippet: language must be/,
    );
    expect(() => parseTable('1', { dModel: Object.create(null) })).toThrow(/^posenc\.parseTable: dModel must be/);
    expect(maxAbsDiff(pe.table({ length: 2, dModel: 4, dtype: 'float64' }), paperTable(2, 4))).toBeLessThanOrEqual(
      1e-12,
    );
  });
});

describe('out', () => {
  it('a Proxy of a Float32Array, or an object that claims to be one, is refused with posenc.<fn>: out', () => {
    const fakes = [
      new Proxy(new Float32Array(24), {}),
      { [Symbol.toStringTag]: 'Float32Array', length: 24, set() {} },
      Object.setPrototypeOf({ length: 24 }, Float32Array.prototype),
    ];
    for (const [where, call] of Object.entries(CALLS))
      if (where !== 'codeSnippet')
        for (const out of fakes)
          expect(() => call({ out }), where).toThrow(new RegExp(`^posenc\\.${where}: out must be a Float(32|64)Array`));
    expect(() => pe.table({ length: 4, dModel: 6, out: new Proxy(pe.allocate(24), {}) })).toThrow(
      /^posenc\.table: out must be a Float32Array or a WasmArray/,
    );
  });

  it('a Float32Array/Float64Array of another realm (node:vm) is accepted and written', () => {
    const out32 = runInNewContext('new Float32Array(24)');
    const out64 = runInNewContext('new Float64Array(24)');
    expect(out32).not.toBeInstanceOf(Float32Array);
    expect(pe.table({ length: 4, dModel: 6, out: out32 })).toBe(out32);
    expect(maxAbsDiff(Array.from(out32), paperTable(4, 6))).toBeLessThanOrEqual(1e-7);
    pe.table({ length: 4, dModel: 6, dtype: 'float64', out: out64 });
    expect(maxAbsDiff(Array.from(out64), paperTable(4, 6))).toBeLessThanOrEqual(1e-12);
    const row = runInNewContext('new Float64Array(6)');
    pe.row(3, { dModel: 6, dtype: 'float64', out: row });
    expect(maxAbsDiff(Array.from(row), paperTable(4, 6).subarray(18))).toBeLessThanOrEqual(1e-12);
    expect(
      pe.identify(
        runInNewContext('new Float64Array(24)').map((_, k) => out64[k]),
        4,
        6,
      ).preset,
    ).toBe('vaswani');
  });

  it('a view of wasm memory (WasmArray.array) is refused before any work, so no result is lost', () => {
    const a = pe.allocate(4096 * 64);
    try {
      for (const [where, call, count] of [
        ['table', (out) => pe.table({ length: 4096, dModel: 64, out }), 4096 * 64],
        ['similarity', (out) => pe.similarity({ length: 512, dModel: 64, out }), 512 * 512],
        ['row', (out) => pe.row(1, { dModel: 64, out }), 64],
      ]) {
        const view = a.array.subarray(0, count);
        expect(() => call(view), where).toThrow(
          new RegExp(`^posenc\\.${where}: out is a view of the module's own memory`),
        );
      }
      // The WasmArray itself is written in place; a view taken before the memory grew is named as such.
      const stale = a.array;
      const grow = pe.allocate(2 ** 26);
      grow.free();
      if (stale.length === 0)
        expect(() => pe.table({ length: 4096, dModel: 64, out: stale })).toThrow(
          /^posenc\.table: out is a view of a detached buffer/,
        );
      pe.table({ length: 4096, dModel: 64, out: a });
      expect(maxAbsDiff(a.array.subarray(0, 64 * 3), paperTable(3, 64))).toBeLessThanOrEqual(1e-7);
    } finally {
      a.free();
    }
  });

  it('a subclass whose set() calls posenc gets correct values (the intrinsic set is used)', () => {
    let calls = 0;
    class Reentrant extends Float32Array {
      set(values, offset) {
        calls++;
        pe.table({ length: 4, dModel: 4 });
        pe.row(7, { dModel: 4096 });
        return super.set(values, offset);
      }
    }
    for (const [length, d] of [
      [4, 4],
      [600, 200],
    ]) {
      const out = new Reentrant(length * d);
      pe.table({ length, dModel: d, out });
      expect(maxAbsDiff(out, paperTable(length, d))).toBeLessThanOrEqual(2e-6);
    }
    const sim = new Reentrant(16);
    pe.similarity({ length: 4, dModel: 4, out: sim });
    // PE(p) . PE(q) = sum over pairs of cos(w_i (p - q)).
    const s = (k) => Math.cos(k) + Math.cos(k / 100);
    expect(
      maxAbsDiff(
        sim,
        Float64Array.from({ length: 16 }, (_, k) => s((k >> 2) - (k & 3))),
      ),
    ).toBeLessThanOrEqual(1e-6);
    // Its own set() was never what wrote the values.
    expect(calls).toBe(0);
  });
});
