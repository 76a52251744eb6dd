// parseTable on what spreadsheets and scripts export, and on a hostile .npy
// shape: each table is read with the rows × columns it holds (checked against
// values written here). The files it refuses: bad-input/export.test.js.
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

describe('parseTable: hostile files it still reads', () => {
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
});
