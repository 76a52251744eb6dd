import { beforeAll, describe, expect, it } from 'vitest';
import { load, PRESET_NAMES, PRESETS } from '../../../web/lib/index.js';
import {
  dot,
  fairseq,
  huggingFace,
  kerasSinePositionEncoding,
  legacyColumn,
  paperValue,
  pytorchTutorial,
  question,
  rowOf,
  tensor2tensor,
  tfTutorial,
} from '../reference.js';
import { expectClose, FLOAT32_EPSILON, FLOAT64_EPSILON, maxAbsDiff } from '../tolerance.js';

// s(k) from the core's float64 recurrence (reseeded every 1024 steps) against a dot of two float64
// rows: up to 128 terms with angles up to 200 rad, each angle within about 200 ulps, and the
// recurrence's drift over up to 100 steps: 1e-11 holds both with room.
const DOT = 1e-11;

// float32 output is the float64 value rounded: |error| <= 2^-25 for |v| <= 1,
// bounded by the 1.2e-7.
const F32 = 1.2e-7;

let pe;
beforeAll(async () => {
  pe = await load();
});

function paperTable(length, d, start = 0) {
  const out = new Float64Array(length * d);
  for (let r = 0; r < length; r++) for (let j = 0; j < d; j++) out[r * d + j] = paperValue(start + r, j, d);
  return out;
}

describe('load', () => {
  it('is idempotent and reports the SIMD build', async () => {
    expect(await load()).toBe(pe);
    expect(pe.simd).toBe(true);
  });

  it('gives the same values from the scalar build, bit for bit', async () => {
    const scalar = await load({ simd: false });
    expect(scalar.simd).toBe(false);
    for (const preset of PRESET_NAMES) {
      const opts = { length: 300, dModel: 37, preset };
      expect(scalar.table(opts)).toEqual(pe.table(opts));
      expect(scalar.offsetDots({ ...opts, maxOffset: 50 })).toEqual(pe.offsetDots({ ...opts, maxOffset: 50 }));
    }
  });

  it('resolves a relative wasmUrl against the working directory in Node, and names what failed', async () => {
    const { mkdtemp, copyFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join, relative } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'posenc-'));
    try {
      const copy = join(dir, 'copy.wasm');
      await copyFile(new URL('../../../web/lib/wasm/posenc-simd.wasm', import.meta.url), copy);
      const loaded = await load({ wasmUrl: relative(process.cwd(), copy), simd: true });
      // A float32 row: sin(1) rounded once.
      expectClose(loaded.row(1, { dModel: 2 })[0], Math.sin(1), { relative: FLOAT32_EPSILON });
      await expect(load({ wasmUrl: relative(process.cwd(), join(dir, 'missing.wasm')) })).rejects.toThrow(
        /^posenc\.load: could not instantiate the WebAssembly module from file:.*missing\.wasm: .*ENOENT/,
      );
      await expect(load({ wasmBinary: new Uint8Array([0, 97, 115, 109, 9, 9]) })).rejects.toThrow(
        /^posenc\.load: could not instantiate the WebAssembly module from the wasmBinary bytes/,
      );
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});

describe('table matches each framework it mirrors', () => {
  it("vaswani = the paper = PyTorch's tutorial", () => {
    for (const d of [2, 6, 64, 512]) {
      const got = pe.table({ length: 200, dModel: d });
      expect(maxAbsDiff(got, pytorchTutorial(200, d))).toBeLessThanOrEqual(F32);
      expect(maxAbsDiff(got, paperTable(200, d))).toBeLessThanOrEqual(F32);
    }
  });

  it('vaswani at an odd width = the paper = Hugging Face = Keras-NLP: the last column is a sine alone', () => {
    for (const d of [1, 7, 33]) {
      const got = pe.table({ length: 1500, dModel: d }); // past a reseed of the recurrence
      expect(maxAbsDiff(got, huggingFace(1500, d))).toBeLessThanOrEqual(F32);
      expect(maxAbsDiff(got, kerasSinePositionEncoding(1500, d))).toBeLessThanOrEqual(F32);
      expect(
        maxAbsDiff(pe.table({ length: 1500, dModel: d, dtype: 'float64' }), huggingFace(1500, d)),
      ).toBeLessThanOrEqual(1e-12);
    }
    // Zeroed on request, as tensor2tensor and fairseq pad.
    const zeroed = pe.table({ length: 50, dModel: 7, oddColumn: 'zero' });
    for (let r = 0; r < 50; r++) expect(zeroed[r * 7 + 6]).toBe(0);
    expect(maxAbsDiff(zeroed.subarray(0, 6), huggingFace(1, 7).subarray(0, 6))).toBe(0);
  });

  it('tensor2tensor, including odd channels and timescales', () => {
    for (const d of [4, 7, 128]) {
      expect(
        maxAbsDiff(pe.table({ length: 100, dModel: d, preset: 'tensor2tensor' }), tensor2tensor(100, d)),
      ).toBeLessThanOrEqual(F32);
    }
    const opts = { length: 50, dModel: 16, preset: 'tensor2tensor', minTimescale: 2, maxTimescale: 5e4, start: 3 };
    const want = tensor2tensor(50, 16, { minTimescale: 2, maxTimescale: 5e4, startIndex: 3 });
    expect(maxAbsDiff(pe.table({ ...opts, dtype: 'float64' }), want)).toBeLessThanOrEqual(1e-12);
  });

  it('tf-tutorial', () => {
    expect(
      maxAbsDiff(pe.table({ length: 128, dModel: 512, preset: 'tf-tutorial' }), tfTutorial(128, 512)),
    ).toBeLessThanOrEqual(F32);
  });

  it('fairseq, with its zero padding row 1 and odd embedding_dim', () => {
    for (const d of [8, 9, 256]) {
      const got = pe.table({ length: 64, dModel: d, preset: 'fairseq' });
      expect(maxAbsDiff(got, fairseq(64, d))).toBeLessThanOrEqual(F32);
      expect([...rowOf(got, d, 1)].every((v) => v === 0)).toBe(true);
    }
  });

  it('legacy-column and the question attempt, at even and odd widths', () => {
    for (const d of [20, 21]) {
      expect(
        maxAbsDiff(pe.table({ length: 64, dModel: d, preset: 'legacy-column' }), legacyColumn(64, d)),
      ).toBeLessThanOrEqual(F32);
      expect(maxAbsDiff(pe.table({ length: 64, dModel: d, preset: 'question' }), question(64, d))).toBeLessThanOrEqual(
        F32,
      );
    }
  });

  it('explicit knobs override the preset', () => {
    const got = pe.table({
      length: 10,
      dModel: 8,
      preset: 'fairseq',
      paddingRow: null,
      layout: 'interleaved',
      exponent: 'pair',
    });
    expect(maxAbsDiff(got, paperTable(10, 8))).toBeLessThanOrEqual(F32);
    const scaled = pe.table({ length: 10, dModel: 8, scale: Math.sqrt(8), dtype: 'float64' });
    expect(
      maxAbsDiff(
        scaled,
        paperTable(10, 8).map((v) => v * Math.sqrt(8)),
      ),
    ).toBeLessThanOrEqual(1e-12);
  });

  it('presets are frozen data', () => {
    expect(Object.isFrozen(PRESETS.vaswani)).toBe(true);
    expect(PRESETS.fairseq.paddingRow).toBe(1);
  });
});

describe('accuracy', () => {
  it('float32 is the rounded float64 value up to position 2^20 at dModel 4096', () => {
    const length = 64;
    const start = 2 ** 20 - length + 1;
    const got = pe.table({ length, dModel: 4096, start });
    expect(maxAbsDiff(got, paperTable(length, 4096, start))).toBeLessThanOrEqual(F32);
    expect(maxAbsDiff(pe.row(2 ** 20, { dModel: 4096 }), paperTable(1, 4096, 2 ** 20))).toBeLessThanOrEqual(F32);
  });

  it('a float32 angle (what most frameworks do) would fail that bound', () => {
    let worst = 0;
    for (let i = 0; i < 256; i++) {
      const angle = Math.fround(8191 * Math.fround(Math.pow(10000, (-2 * i) / 512)));
      worst = Math.max(worst, Math.abs(Math.sin(angle) - paperValue(8191, 2 * i, 512)));
    }
    expect(worst).toBeGreaterThan(1e-4);
  });

  it('float64 is within 1e-12', () => {
    const got = pe.table({ length: 4096, dModel: 64, dtype: 'float64' });
    expect(got).toBeInstanceOf(Float64Array);
    expect(maxAbsDiff(got, paperTable(4096, 64))).toBeLessThanOrEqual(1e-12);
  });
});

describe('row', () => {
  it('position 0 alternates 0, 1', () => {
    expect([...pe.row(0, { dModel: 8 })]).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
  });

  it('any real position, including negative and beyond the table', () => {
    for (const pos of [0.5, -7.25, 4000.125, 1e5 + 0.125]) {
      const got = pe.row(pos, { dModel: 33, dtype: 'float64' });
      const want = Float64Array.from({ length: 33 }, (_, j) => paperValue(pos, j, 33));
      // Beyond |angle| ~ 2^12 float64 itself only pins the angle to ~|angle| * 2^-52
      // (pos / base^e and pos * base^-e differ by that much).
      expect(maxAbsDiff(got, want)).toBeLessThanOrEqual(Math.max(1e-12, Math.abs(pos) * 2 ** -50));
    }
  });

  it('equals the table row at the same position', () => {
    const table = pe.table({ length: 40, dModel: 10, preset: 'fairseq', start: 5 });
    for (const r of [0, 1, 39])
      expect(
        maxAbsDiff(pe.row(5 + r, { dModel: 10, preset: 'fairseq', start: 5 }), rowOf(table, 10, r)),
      ).toBeLessThanOrEqual(F32);
  });
});

describe('the padding row with a fractional start', () => {
  // 0.1 + 4 is 4.1, but 4.1 - 0.1 is not 4: table row 4 (position start + 4) is the
  // padding row in every function, and only it.
  for (const [start, paddingRow] of [
    [0.1, 4],
    [0.3, 2],
    [0.7, 8],
    [1.1, 3],
  ]) {
    it(`start ${start}, paddingRow ${paddingRow}`, () => {
      const opts = { dModel: 6, start, paddingRow };
      const length = 10;
      const table = pe.table({ ...opts, length, dtype: 'float64' });
      for (let r = 0; r < length; r++) {
        const want = Float64Array.from({ length: 6 }, (_, j) => (r === paddingRow ? 0 : paperValue(start + r, j, 6)));
        expect(maxAbsDiff(rowOf(table, 6, r), want)).toBeLessThanOrEqual(1e-12);
      }
      expect([...pe.row(start + paddingRow, opts)]).toEqual([0, 0, 0, 0, 0, 0]);
      const dots = pe.offsetDots({ ...opts, from: start, maxOffset: length - 1 });
      const similarity = pe.similarity({ ...opts, length });
      for (let k = 0; k < length; k++) {
        const want = dot(rowOf(table, 6, 0), rowOf(table, 6, k));
        expectClose(dots[k], want, 1e-12);
        expectClose(similarity[k], want, 1e-6);
      }
      expect(dots[paddingRow]).toBe(0);
    });
  }
});

describe('frequencies', () => {
  it('fall geometrically from 1 to about 1/base; both members of a pair share one', () => {
    const w = pe.frequencies({ dModel: 512 });
    expect(w[0]).toBe(1);
    // One pow each, within an ulp.
    for (let j = 0; j < 512; j++)
      expectClose(w[j], Math.pow(10000, (-2 * Math.floor(j / 2)) / 512), { relative: 2 * FLOAT64_EPSILON });
    expect((2 * Math.PI) / w[511]).toBeGreaterThan(2 * Math.PI * 10000 * 0.9);
  });

  it('0 for a zero odd column, NaN where there is no frequency', () => {
    expectClose(pe.frequencies({ dModel: 5 })[4], 10000 ** (-4 / 5), { relative: 2 * FLOAT64_EPSILON });
    expect(pe.frequencies({ dModel: 5, preset: 'tensor2tensor' })[4]).toBe(0);
    expect(Number.isNaN(pe.frequencies({ dModel: 4, preset: 'question' })[1])).toBe(true);
    const w = pe.frequencies({ dModel: 8, preset: 'legacy-column' });
    expect(w[1]).not.toBe(w[0]);
  });
});

describe('offsetDots', () => {
  /** From each start, s(k) for k = 0..maxOffset equals the products of `table`'s reference rows. */
  function expectProductsOfRows(table, options, starts, maxOffset = 399) {
    const d = options.dModel;
    for (const from of starts) {
      const got = pe.offsetDots({ ...options, maxOffset, from });
      const want = Float64Array.from({ length: maxOffset + 1 }, (_, k) =>
        dot(rowOf(table, d, from), rowOf(table, d, from + k)),
      );
      expect(maxAbsDiff(got, want), `from ${from}`).toBeLessThanOrEqual(1e-10);
    }
  }

  it('equals brute-force products of reference rows, from any start', () => {
    expectProductsOfRows(paperTable(700, 64), { dModel: 64 }, [0, 17, 300]);
  });

  it('is the same curve from every start and symmetric in ±k for the paper', () => {
    const a = pe.offsetDots({ dModel: 128, maxOffset: 100, from: 0 });
    const b = pe.offsetDots({ dModel: 128, maxOffset: 100, from: 5000.5 });
    expect(maxAbsDiff(a, b)).toBeLessThanOrEqual(1e-11);
    // 64 pairs' cos^2 + sin^2 summed, a rounding per term.
    expectClose(a[0], 64, { relative: 64 * FLOAT64_EPSILON });
    const p = pe.row(200, { dModel: 128, dtype: 'float64' });
    for (const k of [1, 10, 100])
      // A dot of rows against the core's recurrence (DOT).
      expectClose(dot(p, pe.row(200 - k, { dModel: 128, dtype: 'float64' })), a[k], DOT);
  });

  it('depends on the start at an odd width: the lone last sine adds sin(w p) sin(w (p + k))', () => {
    const d = 63;
    expectProductsOfRows(huggingFace(2000, d), { dModel: d }, [0, 17, 1500]);
    const a = pe.offsetDots({ dModel: d, maxOffset: 20, from: 0 });
    const b = pe.offsetDots({ dModel: d, maxOffset: 20, from: 1500 });
    expect(maxAbsDiff(a, b)).toBeGreaterThan(1e-3);
    // Without it, the pairs alone: the same curve from every start.
    const zeroed = (from) => pe.offsetDots({ dModel: d, maxOffset: 20, from, oddColumn: 'zero' });
    expect(maxAbsDiff(zeroed(0), zeroed(1500))).toBeLessThanOrEqual(1e-11);
  });

  it('depends on the start for the column exponent (real products)', () => {
    expectProductsOfRows(legacyColumn(200, 16), { dModel: 16, preset: 'legacy-column' }, [1, 50], 100);
    const a = pe.offsetDots({ dModel: 16, preset: 'legacy-column', maxOffset: 20, from: 1 });
    const b = pe.offsetDots({ dModel: 16, preset: 'legacy-column', maxOffset: 20, from: 50 });
    expect(maxAbsDiff(a, b)).toBeGreaterThan(1e-3);
  });

  it('is zero at the padding row (fairseq)', () => {
    const got = pe.offsetDots({ dModel: 8, preset: 'fairseq', maxOffset: 5, from: 0 });
    expect(got[1]).toBe(0);
    expectClose(got[0], 4, { relative: 8 * FLOAT64_EPSILON });
  });
});

describe('similarity', () => {
  it('equals row products, is symmetric and Toeplitz for every preset', () => {
    const length = 48;
    for (const preset of PRESET_NAMES)
      for (const d of [12, 13]) {
        const table = pe.table({ length, dModel: d, preset, dtype: 'float64' });
        const sim = pe.similarity({ length, dModel: d, preset });
        let worst = 0;
        for (let p = 0; p < length; p++)
          for (let q = 0; q < length; q++) {
            worst = Math.max(worst, Math.abs(sim[p * length + q] - dot(rowOf(table, d, p), rowOf(table, d, q))));
            expect(sim[p * length + q]).toBe(sim[q * length + p]);
          }
        expect(worst, `${preset} d=${d}`).toBeLessThanOrEqual(1e-6);
      }
    const sim = pe.similarity({ length, dModel: 32 });
    for (let p = 1; p < length; p++)
      for (let q = 1; q < length; q++) expect(sim[p * length + q]).toBe(sim[(p - 1) * length + q - 1]);
  });

  it('matches the independent reference at the large sizes the page uses', () => {
    const length = 512;
    const d = 64;
    const table = paperTable(length, d);
    const sim = pe.similarity({ length, dModel: d });
    let worst = 0;
    for (let p = 0; p < length; p += 37)
      for (let q = 0; q < length; q++)
        worst = Math.max(worst, Math.abs(sim[p * length + q] - dot(rowOf(table, d, p), rowOf(table, d, q))));
    expect(worst).toBeLessThanOrEqual(4e-6);
  });
});

describe('outputs are owned by the caller', () => {
  it('returned arrays are not views of wasm memory and survive later calls', () => {
    const first = pe.table({ length: 3, dModel: 4 });
    const copy = Float32Array.from(first);
    pe.table({ length: 5000, dModel: 512 });
    pe.similarity({ length: 1000, dModel: 8 });
    expect(first).toEqual(copy);
    expect(first.buffer.byteLength).toBe(first.byteLength);
  });

  it('fills opts.out in place', () => {
    const out = new Float32Array(20 * 16);
    expect(pe.table({ length: 20, dModel: 16, out })).toBe(out);
    expect(maxAbsDiff(out, paperTable(20, 16))).toBeLessThanOrEqual(F32);
    const sim = new Float32Array(9);
    expect(pe.similarity({ length: 3, dModel: 4, out: sim })).toBe(sim);
  });

  it('fills an out at any offset in its buffer, across many chunks, and nothing around it', () => {
    // 1000 rows of 300 values come through the wasm scratch in 256 KB chunks
    // (218 rows), each placed by where it lands in out (mod 4 KB).
    const [length, d] = [1000, 300];
    const want = paperTable(length, d);
    for (const offsetValues of [0, 1, 3, 509, 1024]) {
      const buffer = new ArrayBuffer((length * d + offsetValues + 4) * 4);
      new Float32Array(buffer).fill(7);
      const out = new Float32Array(buffer, offsetValues * 4, length * d);
      pe.table({ length, dModel: d, out });
      expect(maxAbsDiff(out, want)).toBeLessThanOrEqual(F32);
      const around = new Float32Array(buffer);
      expect(Array.from(around.subarray(0, offsetValues))).toEqual(new Array(offsetValues).fill(7));
      expect(Array.from(around.subarray(offsetValues + length * d))).toEqual([7, 7, 7, 7]);
    }
    // The similarity matrix goes through the same chunks.
    const sim = new Float32Array(new ArrayBuffer((700 * 700 + 3) * 4), 12, 700 * 700);
    pe.similarity({ length: 700, dModel: 8, out: sim });
    const table = paperTable(700, 8);
    for (const [p, q] of [
      [0, 0],
      [1, 699],
      [350, 17],
      [699, 698],
      [123, 456],
    ])
      expectClose(sim[p * 700 + q], dot(rowOf(table, 8, p), rowOf(table, 8, q)), 1e-5);
  });

  it('leaves the wasm heap where it was', () => {
    for (let i = 0; i < 20; i++) pe.table({ length: 64, dModel: 64 });
    const before = pe.heapBytes();
    for (let i = 0; i < 200; i++) {
      pe.table({ length: 64 + i, dModel: 32 + (i % 7) });
      pe.similarity({ length: 32 + i, dModel: 16, preset: i % 2 ? 'question' : 'vaswani' });
      pe.offsetDots({ dModel: 16, maxOffset: i, preset: i % 2 ? 'legacy-column' : 'fairseq' });
      pe.row(i, { dModel: 9 });
      pe.frequencies({ dModel: 9 });
    }
    expect(pe.heapBytes()).toBe(before);
  });
});

describe('pe.identify', () => {
  it('names the convention of a table computed elsewhere', () => {
    const id = pe.identify(Float32Array.from(fairseq(40, 16)), 40, 16);
    expect(id.match).toBe(true);
    expect(id.preset).toBe('fairseq');
  });
});

describe('offsetDots with negative offsets', () => {
  it('gives PE(from)·PE(from + k) for k < 0 too, symmetric for the paper', () => {
    const got = pe.offsetDots({ dModel: 32, minOffset: -50, maxOffset: 50, from: 100 });
    expect(got).toHaveLength(101);
    for (const k of [-50, -7, 0, 7, 50]) {
      const want = dot(
        pe.row(100, { dModel: 32, dtype: 'float64' }),
        pe.row(100 + k, { dModel: 32, dtype: 'float64' }),
      );
      expectClose(got[k + 50], want, DOT);
      expectClose(got[k + 50], got[-k + 50], DOT);
    }
  });

  it('is not symmetric for the column exponent, and matches the reference', () => {
    const table = legacyColumn(200, 16);
    const got = pe.offsetDots({ dModel: 16, preset: 'legacy-column', minOffset: -40, maxOffset: 40, from: 100 });
    const want = Float64Array.from({ length: 81 }, (_, i) => dot(rowOf(table, 16, 100), rowOf(table, 16, 60 + i)));
    expect(maxAbsDiff(got, want)).toBeLessThanOrEqual(1e-10);
  });

  it('rejects minOffset above maxOffset', () => {
    expect(() => pe.offsetDots({ dModel: 8, minOffset: 5, maxOffset: 4 })).toThrow(/maxOffset/);
    expect(() => pe.offsetDots({ dModel: 8, minOffset: 0.5, maxOffset: 4 })).toThrow(/minOffset/);
  });
});
