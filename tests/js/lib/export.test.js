import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from '../../../web/lib/index.js';
import { codeSnippet, parseTable, toCsv, toJson, toNpy } from '../../../web/lib/export.js';

/** The first interpreter that imports NumPy: $PYTHON, Debian's (python3-numpy installs there), python3 on PATH. */
function pythonWithNumpy() {
  for (const python of [process.env.PYTHON, '/usr/bin/python3', 'python3'].filter(Boolean)) {
    try {
      execFileSync(python, ['-c', 'import numpy'], { stdio: 'ignore' });
      return python;
    } catch {
      // not this one
    }
  }
  // A failure, not a skip: the snippets must be checked by running them.
  throw new Error('the snippet tests need python3 with NumPy: apt-get install -y python3-numpy');
}

const header = (bytes) => new TextDecoder().decode(bytes.subarray(10, 10 + (bytes[8] | (bytes[9] << 8))));

describe('export', () => {
  let pe;
  beforeAll(async () => {
    pe = await load();
  });

  describe('toNpy', () => {
    it('writes a .npy 1.0 header numpy reads: magic, dtype, C order, shape, 64-byte alignment', () => {
      const bytes = toNpy(pe.table({ length: 3, dModel: 5 }), 3, 5);
      expect([...bytes.subarray(0, 8)]).toEqual([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
      const text = header(bytes);
      expect(text).toMatch(/^\{'descr': '<f4', 'fortran_order': False, 'shape': \(3, 5\), \} *\n$/);
      expect((10 + text.length) % 64).toBe(0);
      expect(bytes.length).toBe(10 + text.length + 3 * 5 * 4);
      expect(header(toNpy(new Float64Array(2), 1, 2))).toContain("'descr': '<f8'");
      expect(header(toNpy([1, 2], 1, 2))).toContain("'descr': '<f8'");
    });

    it('round-trips exactly through parseTable (float32 and float64)', () => {
      for (const dtype of ['float32', 'float64']) {
        const table = pe.table({ length: 7, dModel: 9, preset: 'fairseq', dtype, scale: 3 });
        const parsed = parseTable(toNpy(table, 7, 9));
        expect(parsed).toMatchObject({ data: Float64Array.from(table), length: 7, dModel: 9 });
        // An ArrayBuffer works as well as a Uint8Array.
        expect(parseTable(toNpy(table, 7, 9).slice().buffer).data).toEqual(Float64Array.from(table));
      }
    });
  });

  describe('parseTable of .npy files', () => {
    const npy = (headerText, dataBytes = 0) => {
      const padded = headerText.padEnd(117) + '\n';
      const bytes = new Uint8Array(10 + padded.length + dataBytes);
      bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, padded.length, 0]);
      bytes.set(new TextEncoder().encode(padded), 10);
      return bytes;
    };

    it("reads PyTorch's [L, 1, d] and [1, L, d] buffers as the [L, d] table", () => {
      const column = npy(`{'descr': '<f8', 'fortran_order': False, 'shape': (3, 1, 1), }`, 24);
      expect([parseTable(column).length, parseTable(column).dModel]).toEqual([3, 1]);
      for (const shape of ['(3, 1, 2)', '(1, 3, 2)']) {
        const bytes = npy(`{'descr': '<f8', 'fortran_order': False, 'shape': ${shape}, }`, 48);
        new DataView(bytes.buffer).setFloat64(128 + 8 * 5, 0.625, true);
        const table = parseTable(bytes);
        expect([table.length, table.dModel]).toEqual([3, 2]);
        expect(table.data[5]).toBe(0.625);
      }
    });
  });

  describe('what people paste', () => {
    const read = (text) => {
      const { data, length, dModel } = parseTable(text);
      return [length, dModel, [...data]];
    };
    it('skips a numeric header and a pandas index column (DataFrame.to_csv)', () => {
      expect(read('0,1,2\n0.5,0.25,0.125\n0.1,0.2,0.3')).toEqual([2, 3, [0.5, 0.25, 0.125, 0.1, 0.2, 0.3]]);
      const pandas = [0.5, 0.25, 0.3, 0.2, 0.1, 0.7];
      expect(read(',0,1\n0,0.5,0.25\n1,0.3,0.2\n2,0.1,0.7')).toEqual([3, 2, pandas]);
      expect(read('\t0\t1\n0\t0.5\t0.25\n1\t0.3\t0.2\n2\t0.1\t0.7')).toEqual([3, 2, pandas]);
      expect(read('0,0.5,0.25\n1,0.3,0.2\n2,0.1,0.7')).toEqual([3, 2, pandas]);
      // Row 0 of a two-column sin/cos table is "0,1": data, not a header.
      expect(read('0,1\n0.841471,0.540302')).toEqual([2, 2, [0, 1, 0.841471, 0.540302]]);
    });
    it('skips what stands before a printout, squeezes size-1 dimensions, refuses a batch', () => {
      const six = [0, 1, 2, 3, 4, 5];
      expect(read('torch.Size([3, 2])\ntensor([[0., 1.],\n        [2., 3.],\n        [4., 5.]])')).toEqual([3, 2, six]);
      expect(read('In [3]: pe\nOut[3]:\narray([[0., 1.],\n       [2., 3.],\n       [4., 5.]])')).toEqual([3, 2, six]);
      expect(read('[[[0, 1]], [[2, 3]], [[4, 5]]]')).toEqual([3, 2, six]);
      expect(read('tensor([[[0., 1.], [2., 3.], [4., 5.]]])')).toEqual([3, 2, six]);
      expect(() => parseTable('[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]')).toThrow(
        /a batch of 2 tables; give one, e.g. pe\[0\]/,
      );
      expect(() => parseTable('[[0, 1], [2]]')).toThrow(/rows of different lengths/);
      // Text after the printout is not read; plain lists, one per line, still are.
      expect(read('tensor([[0., 1.], [2., 3.]])\ntorch.Size([2, 2])')).toEqual([2, 2, [0, 1, 2, 3]]);
      expect(read('[0, 1]\n[2, 3]')).toEqual([2, 2, [0, 1, 2, 3]]);
      // With dModel, the numbers in order, whatever the brackets say; errors count rows.
      expect(parseTable('[[0, 1, 2, 3], [4, 5]]', { dModel: 2 }).length).toBe(3);
      expect(() => parseTable('[[0, 1], [2, 3], [4, x]]')).toThrow(/"x" \(row 2\)/);
    });
    it('keeps data that merely starts with a separator, and drops the index of a short pandas CSV', () => {
      // A leading empty column on every line (a spreadsheet's): no header among them.
      expect(read('\t0\t1\n\t0.5\t0.25\n\t0.3\t0.2')).toEqual([3, 2, [0, 1, 0.5, 0.25, 0.3, 0.2]]);
      expect(read(',0,1,2\n0,0.5,0.25,0.125')).toEqual([1, 3, [0.5, 0.25, 0.125]]);
    });
  });

  describe('CSV and JSON', () => {
    // [table, length, dModel]
    const tables = () => [
      [pe.table({ length: 6, dModel: 7, preset: 'question' }), 6, 7],
      [pe.table({ length: 6, dModel: 7, preset: 'legacy-column', dtype: 'float64', scale: Math.sqrt(7) }), 6, 7],
      [Float64Array.from([-0, 1e-300, -1.5e300, 0.1, 1 / 3, 2 ** -1074]), 2, 3],
    ];

    it('round-trip exactly, float32 and float64, signed zero included', () => {
      for (const [table, length, dModel] of tables()) {
        const expected = { data: Float64Array.from(table), length, dModel };
        expect(parseTable(toCsv(table, length, dModel))).toMatchObject(expected);
        expect(parseTable(toJson(table, length, dModel))).toMatchObject(expected);
        // Float32 text reads back to the same float32 values.
        if (table instanceof Float32Array)
          expect(Float32Array.from(parseTable(toCsv(table, length, dModel)).data)).toEqual(table);
      }
    });

    it('write one line per row (CSV) and nested arrays (JSON)', () => {
      const table = Float32Array.from([0, 1, 0.8414709848078965, 0.5403023058681398]);
      expect(toCsv(table, 2, 2)).toBe('0,1\n0.8414709568023682,0.5403022766113281\n');
      expect(JSON.parse(toJson(table, 2, 2))).toEqual([
        [0, 1],
        [0.8414709568023682, 0.5403022766113281],
      ]);
      expect(toJson([1, -0], 1, 2)).toBe('[[1,-0]]');
    });
  });

  describe('parseTable of text', () => {
    it('reads a numpy printout, a PyTorch printout and pasted numbers reshaped to dModel', () => {
      const numpy =
        'array([[ 0.        ,  1.        ,  0.        ],\n       [ 0.84147096,  0.5403023 ,  0.00999983]], dtype=float32)';
      expect(parseTable(numpy)).toMatchObject({
        data: Float64Array.from([0, 1, 0, 0.84147096, 0.5403023, 0.00999983]),
        length: 2,
        dModel: 3,
      });
      expect(parseTable('tensor([[0., 1.],\n        [0.8415, 0.5403]])').length).toBe(2);
      expect(parseTable('0 1 0 1\n0.84 0.54, 0.01 0.99\n-1e-3 .5', { dModel: 2 })).toMatchObject({
        data: Float64Array.from([0, 1, 0, 1, 0.84, 0.54, 0.01, 0.99, -1e-3, 0.5]),
        length: 5,
        dModel: 2,
      });
      expect(parseTable('[0, 1, 0, 1, 2, 3]', { dModel: 3 }).length).toBe(2);
    });

    it('skips a CSV header and accepts CRLF, tabs and a UTF-8 file given as bytes', () => {
      expect(parseTable('c0,c1\r\n1,2\r\n3,4\r\n')).toMatchObject({
        data: Float64Array.from([1, 2, 3, 4]),
        length: 2,
        dModel: 2,
      });
      expect(parseTable('1\t2\n3\t4').dModel).toBe(2);
      expect(parseTable(new TextEncoder().encode('1,2\n3,4')).length).toBe(2);
    });
  });

  describe('codeSnippet', () => {
    const optionSets = [
      { length: 64, dModel: 32 },
      { length: 50, dModel: 33, preset: 'tensor2tensor' },
      { length: 40, dModel: 16, preset: 'tensor2tensor', minTimescale: 2, maxTimescale: 5000 },
      { length: 40, dModel: 24, preset: 'tf-tutorial', base: 500, start: 3, scale: Math.sqrt(24) },
      { length: 30, dModel: 20, preset: 'fairseq' },
      { length: 30, dModel: 21, preset: 'legacy-column', order: 'cos-sin', layout: 'concat' },
      { length: 64, dModel: 32, preset: 'question' },
      { length: 20, dModel: 10, preset: 'question', start: 1, paddingRow: 4, scale: -2.5 },
      { length: 300, dModel: 64, dtype: 'float64' },
      { length: 3, dModel: 1 },
      // The odd last column continued under each exponent and angle.
      { length: 1100, dModel: 33 },
      { length: 12, dModel: 9, preset: 'tensor2tensor', oddColumn: 'formula', minTimescale: 2, maxTimescale: 500 },
      { length: 10, dModel: 7, preset: 'question', start: 2 },
      { length: 20, dModel: 11, preset: 'tf-tutorial', exponent: 'column', oddColumn: 'formula', order: 'cos-sin' },
      { length: 20, dModel: 11, exponent: 'half-minus-one', base: 500 },
    ];
    let dir;
    let setupError;
    beforeAll(() => {
      try {
        const python = pythonWithNumpy();
        dir = mkdtempSync(join(tmpdir(), 'posenc-snippet-'));
        // Each snippet is its own script that saves its table; one interpreter
        // runs them all (importing NumPy once keeps the suite fast).
        const scripts = optionSets.map((options, k) => {
          const script = join(dir, `snippet${k}.py`);
          const save = `np.save(${JSON.stringify(join(dir, `table${k}.npy`))}, pe)`;
          writeFileSync(script, `${codeSnippet('numpy', options)}${save}\n`);
          return script;
        });
        execFileSync(python, ['-c', 'import runpy, sys\nfor path in sys.argv[1:]: runpy.run_path(path)', ...scripts]);
      } catch (error) {
        // Reported by every snippet test below: they fail, they do not skip.
        setupError = error;
      }
    });
    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    for (const [k, options] of optionSets.entries())
      it(`numpy, run by python3, reproduces pe.table(${JSON.stringify(options)})`, () => {
        if (setupError) throw setupError;
        const npy = readFileSync(join(dir, `table${k}.npy`));
        expect(header(npy)).toContain(options.dtype === 'float64' ? "'<f8'" : "'<f4'");
        const parsed = parseTable(npy);
        const expected = pe.table(options);
        expect(parsed.length).toBe(options.length);
        expect(parsed.dModel).toBe(options.dModel);
        // float32: within 1e-7 of a unit-scale value (one float32 ulp); float64: float64 noise.
        const tolerance = (options.dtype === 'float64' ? 1e-12 : 1e-7) * Math.max(1, Math.abs(options.scale ?? 1));
        const worst = parsed.data.reduce((max, v, i) => Math.max(max, Math.abs(v - expected[i])), 0);
        expect(worst).toBeLessThanOrEqual(tolerance);
      });

    // PyTorch and JAX are not installable here, so their snippets are checked
    // structurally: the same numbers and the same steps as the numpy snippet
    // (which is run above), in each library's spelling.
    const numbersIn = (code) =>
      code
        .split('\n')
        .filter((line) => !line.startsWith('#'))
        .join('\n')
        .match(/(?<![\w.])-?\d+(\.\d+)?(e[+-]?\d+)?/g)
        .sort();
    for (const options of optionSets)
      it(`pytorch and jax carry the numpy snippet's constants and steps: ${JSON.stringify(options)}`, () => {
        const numpy = codeSnippet('numpy', options);
        const torch = codeSnippet('pytorch', options);
        const jax = codeSnippet('jax', options);
        expect(numbersIn(torch)).toEqual(numbersIn(numpy));
        expect(numbersIn(jax)).toEqual(numbersIn(numpy));
        const steps = (code, xp) =>
          code.replaceAll(`${xp}.`, 'xp.').replace(/pe = pe\.at\[(.*)\]\.set\((.*)\)/g, 'pe[$1] = $2');
        const body = (code) => code.split('\n').filter((line) => !/import|jax\.config|float32\)$|^#/.test(line));
        expect(body(steps(torch, 'torch'))).toEqual(body(steps(numpy, 'np')));
        expect(body(steps(jax, 'jnp'))).toEqual(body(steps(numpy, 'np')));
        expect(torch).toContain('dtype=torch.float64');
        expect(jax).toContain("jax.config.update('jax_enable_x64', True)");
        if (options.dtype !== 'float64') {
          expect(torch).toMatch(/pe = pe\.to\(torch\.float32\)\n$/);
          expect(jax).toMatch(/pe = pe\.astype\(jnp\.float32\)\n$/);
        }
      });
  });
});
