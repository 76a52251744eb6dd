// parseTable on what spreadsheets and scripts export, and on hostile files:
// each table is read with the rows × columns it holds (checked against values
// written here), and each file it cannot read gets a posenc.parseTable error.
import { describe, expect, it } from 'vitest';
import { parseTable } from '../../../web/lib/export.js';

/** A 16 x 8 table of distinct values, and its text with the given row and value separators. */
const TABLE = Array.from({ length: 16 }, (_, r) => Array.from({ length: 8 }, (_, j) => r + j / 8 + 0.25));
const text = (rowSeparator, valueSeparator = ',', format = String) =>
  TABLE.map((row) => row.map(format).join(valueSeparator)).join(rowSeparator);
const expectTable = (parsed) => {
  expect([parsed.length, parsed.dModel]).toEqual([16, 8]);
  expect(Array.from(parsed.data)).toEqual(TABLE.flat());
};

/** A .npy 1.0 file with this header text and `dataBytes` zero bytes of data. */
function npy(headerText, dataBytes = 0) {
  const padded = headerText.padEnd(117) + '\n';
  const bytes = new Uint8Array(10 + padded.length + dataBytes);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, padded.length & 255, padded.length >> 8]);
  bytes.set(new TextEncoder().encode(padded), 10);
  return bytes;
}

describe('parseTable: line endings, separators and encodings people export', () => {
  it('reads CR-only line endings (classic Mac, some spreadsheet exports) as rows', () => {
    expectTable(parseTable(text('\r')));
    expectTable(parseTable(text('\r') + '\r'));
  });

  it('reads quoted numbers and trailing commas', () => {
    expectTable(parseTable(text('\n', ',', (v) => `"${v}"`)));
    expectTable(parseTable(text(',\n') + ','));
    expectTable(parseTable('"a","b","c","d","e","f","g","h"\n' + text('\n', ',', (v) => `"${v}"`)));
  });

  it('reads semicolon-separated values with decimal commas (spreadsheets in many locales)', () => {
    const decimalComma = (v) => String(v).replace('.', ',');
    const parsed = parseTable(text('\r\n', ';', decimalComma));
    expectTable(parsed);
    expect(parsed.read).toMatchObject({ format: 'lines', separator: ';', decimalComma: true });
    expectTable(parseTable(text('\n', ';')));
    expectTable(parseTable(text('\n', ';', (v) => `"${decimalComma(v)}"`)));
  });

  it('reads UTF-16 text, with a byte-order mark (little and big endian) or without one', () => {
    const utf16 = (string, littleEndian, mark) => {
      const bytes = new Uint8Array(2 * (string.length + (mark ? 1 : 0)));
      const view = new DataView(bytes.buffer);
      const chars = (mark ? '\ufeff' : '') + string;
      for (let k = 0; k < chars.length; k++) view.setUint16(2 * k, chars.charCodeAt(k), littleEndian);
      return bytes;
    };
    for (const littleEndian of [true, false])
      for (const mark of [true, false]) {
        const parsed = parseTable(utf16(text('\r\n', '\t'), littleEndian, mark));
        expectTable(parsed);
        expect(parsed.read.encoding).toBe(littleEndian ? 'utf-16le' : 'utf-16be');
      }
    // UTF-8 with a byte-order mark, as bytes and as a string that kept it.
    expectTable(parseTable(new TextEncoder().encode('\ufeff' + text('\n'))));
    expectTable(parseTable('\ufeff' + text('\n')));
  });

  it('says what it read: rows × columns, the format and what it skipped', () => {
    expect(parseTable('c0,c1\n1,2\n3,4').read).toMatchObject({ format: 'lines', header: true, indexColumn: false });
    const pandas = parseTable(',0,1\n0,0.5,0.25\n1,0.3,0.2\n2,0.1,0.7');
    expect([pandas.length, pandas.dModel]).toEqual([3, 2]);
    expect(pandas.read).toMatchObject({ header: true, indexColumn: true });
    const nested = parseTable('[[[0, 1]], [[2, 3]], [[4, 5]]]');
    expect([nested.length, nested.dModel]).toEqual([3, 2]);
    expect(nested.read).toEqual({ format: 'brackets', shape: [3, 1, 2] });
  });
});

describe('parseTable: hostile files get a posenc.parseTable error', () => {
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

  it('reads a .npy shape of 300,000 size-1 dimensions in linear time', () => {
    const ones = '1, '.repeat(300000);
    const headerText = `{'descr': '<f8', 'fortran_order': False, 'shape': (${ones}2, 3), }\n`;
    const headerLength = Math.ceil((12 + headerText.length) / 64) * 64 - 12;
    const bytes = new Uint8Array(12 + headerLength + 48);
    bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 2, 0]);
    new DataView(bytes.buffer).setUint32(8, headerLength, true);
    bytes.set(new TextEncoder().encode(headerText.slice(0, -1).padEnd(headerLength - 1) + '\n'), 12);
    const values = new Float64Array(bytes.buffer, 12 + headerLength, 6);
    values.set([0, 1, 2, 3, 4, 5]);
    const parsed = parseTable(bytes);
    expect([parsed.length, parsed.dModel]).toEqual([2, 3]);
    expect(Array.from(parsed.data)).toEqual([0, 1, 2, 3, 4, 5]);
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
