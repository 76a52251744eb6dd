// The export helpers (toNpy, parseTable, codeSnippet): bad arguments and
// files they cannot read get an error naming the function and the parameter,
// or saying what is wrong with the file.
import { describe, expect, it } from 'vitest';
import { codeSnippet, parseTable, toNpy } from '../../../../web/lib/export.js';

/** A .npy 1.0 file with this header text and `dataBytes` zero bytes of data. */
function npy(headerText, dataBytes = 0) {
  const padded = headerText.padEnd(117) + '\n';
  const bytes = new Uint8Array(10 + padded.length + dataBytes);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, padded.length & 255, padded.length >> 8]);
  bytes.set(new TextEncoder().encode(padded), 10);
  return bytes;
}

describe('toNpy', () => {
  it('rejects bad arguments, naming them', () => {
    expect(() => toNpy('x', 1, 1)).toThrow(/array must be a Float32Array/);
    expect(() => toNpy(new Float32Array(4), 3, 2)).toThrow(/array must hold length \* dModel = 6 values/);
    expect(() => toNpy(new Float32Array(4), 2, 0)).toThrow(RangeError);
    expect(() => toNpy(new Float32Array(4), 2, 0)).toThrow(/dModel/);
  });
});

describe('parseTable', () => {
  it('rejects Fortran order, other dtypes, other ranks and truncated files with a clear error', () => {
    expect(() => parseTable(npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16))).toThrow(
      /Fortran-order.*np.ascontiguousarray/,
    );
    expect(() => parseTable(npy("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", 16))).toThrow(
      /dtype "<i4" is not supported/,
    );
    expect(() => parseTable(npy("{'descr': '>f8', 'fortran_order': False, 'shape': (2, 2), }", 32))).toThrow(
      /dtype ">f8"/,
    );
    expect(() => parseTable(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2, 2), }", 64))).toThrow(
      /shape \(2, 2, 2\): a batch of 2 tables; save one, e.g. pe\[0\]/,
    );
    expect(() => parseTable(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", 32))).toThrow(/2-D/);
    expect(() => parseTable(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", 31))).toThrow(
      /truncated/,
    );
    expect(() =>
      parseTable(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", 32), { dModel: 3 }),
    ).toThrow(/2 columns but dModel is 3/);
  });

  it('says what is wrong with text it cannot read', () => {
    expect(() => parseTable('1,2\n3')).toThrow(/row 1 has 1 values but row 0 has 2; pass dModel/);
    expect(() => parseTable('1,2\n3,x')).toThrow(/"x" \(row 1\) is not a finite number/);
    expect(() => parseTable('1,2\nnan,4')).toThrow(/"nan" \(row 1\) is not a finite number/);
    expect(() => parseTable('[[0, 1], [2, ...]]')).toThrow(/abbreviated/);
    expect(() => parseTable('[[0, [1]]]')).toThrow(/do not nest evenly/);
    expect(() => parseTable('[[0, 1]')).toThrow(/unbalanced/);
    expect(() => parseTable('1 2 3', { dModel: 2 })).toThrow(/3 values do not fill rows of dModel = 2/);
    expect(() => parseTable('  \n')).toThrow(/no numbers/);
    expect(() => parseTable(42)).toThrow(TypeError);
    expect(() => parseTable('1', { dModel: 0 })).toThrow(/dModel/);
  });

  it('refuses .npy dtypes that are inherited keys of an object (constructor, __proto__, toString)', () => {
    for (const descr of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect(() => parseTable(npy(`{'descr': '${descr}', 'fortran_order': False, 'shape': (2, 2), }`, 32))).toThrow(
        new RegExp(`^posenc\\.parseTable: \\.npy dtype "${descr}" is not supported`),
      );
  });

  it('refuses a .npy shape that is not whole numbers', () => {
    for (const shape of ['2.5, 4', '2, 4.0', '-2, 4', '2e1, 4', '0x10, 4'])
      expect(() => parseTable(npy(`{'descr': '<f8', 'fortran_order': False, 'shape': (${shape}), }`, 1024))).toThrow(
        /^posenc\.parseTable: the \.npy shape must hold whole numbers/,
      );
  });

  it('refuses brackets nested 20,000 deep with its own error, not a stack overflow', () => {
    const deep = '['.repeat(20000) + '1' + ']'.repeat(20000);
    expect(() => parseTable(deep)).toThrow(/^posenc\.parseTable: brackets nested more than \d+ deep/);
    expect(() => parseTable(deep, { dModel: 1 })).toThrow(/^posenc\.parseTable: brackets nested/);
  });

  it('refuses a detached buffer with its own error', () => {
    const view = new TextEncoder().encode('1,2\n3,4');
    const buffer = view.buffer;
    structuredClone(buffer, { transfer: [buffer] });
    expect(() => parseTable(buffer)).toThrow(/^posenc\.parseTable: input is a detached ArrayBuffer/);
    expect(() => parseTable(view)).toThrow(/^posenc\.parseTable: input is a detached/);
  });

  it('names options and inputs that cannot be converted to text', () => {
    expect(() => parseTable(Object.create(null))).toThrow(/^posenc\.parseTable: input must be/);
    expect(() => parseTable('1', Object.create(null))).not.toThrow();
    expect(() => parseTable('1', { dModel: Object.create(null) })).toThrow(/^posenc\.parseTable: dModel must be/);
    expect(() => parseTable(Symbol('x'))).toThrow(/^posenc\.parseTable: input must be/);
  });

  it('refuses text beyond its work limit before parsing it, pointing to .npy', () => {
    const huge = '0.1,'.repeat(2 ** 23) + '1';
    expect(() => parseTable(huge)).toThrow(
      /^posenc\.parseTable: the text has \d+ characters, more than 33554432.*\.npy/,
    );
    expect(() => parseTable(new Uint8Array(2 ** 26 + 2).fill(0x31))).toThrow(/^posenc\.parseTable: the text has/);
  });
});

describe('codeSnippet', () => {
  it('rejects an unknown language or bad options, naming them', () => {
    expect(() => codeSnippet('julia', { length: 1, dModel: 2 })).toThrow(RangeError);
    expect(() => codeSnippet('julia', { length: 1, dModel: 2 })).toThrow(/language must be one of 'numpy'/);
    expect(() => codeSnippet(undefined, { length: 1, dModel: 2 })).toThrow(TypeError);
    expect(() => codeSnippet('numpy', { dModel: 2 })).toThrow(/length is required/);
    expect(() => codeSnippet('numpy', { length: 1, dModel: 2, base: 1 })).toThrow(/base must be/);
    expect(() => codeSnippet('numpy', { length: 1, dModel: 2, colour: 1 })).toThrow(/unknown option 'colour'/);
  });
});
