// Tables in and out of the library: .npy / CSV / JSON writers, a parser for
// what people paste or upload, and code that rebuilds a table in Python.
import { ANGLES, EXPONENTS, LAYOUTS, ODD_COLUMNS, ORDERS } from './conventions.js';
import {
  describe,
  dtypeOf,
  encodingParams,
  integer,
  isDetached,
  lengthOf,
  MAX_BYTES,
  MAX_D_MODEL,
  typedArrayKind,
} from './options.js';
import { isRopeOptions, ropeSnippet } from './rope-snippet.js';

/** @typedef {Float32Array | Float64Array | number[]} TableData */

const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"
// numpy aligns the data of a .npy file to 64 bytes (header included).
const NPY_ALIGN = 64;
const NPY_DTYPES = Object.freeze({ '<f4': Float32Array, '<f8': Float64Array });
const NUMBER_TOKEN = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
// A number written with a decimal comma (0,841): semicolon-separated files and quoted fields.
const DECIMAL_COMMA_TOKEN = /^[+-]?\d*,\d+(e[+-]?\d+)?$/i;

// Work limits of parseTable (see options.js): text is parsed at roughly
// 100 ns a character on the test VM, so 2^25 characters (32 Mi: a 64 x 50,000
// table printed in full) take a few seconds; .npy bytes are read at a few ns
// a value, and the result holds at most 2^28 float64 values (2 GiB).
export const MAX_TEXT_CHARS = 2 ** 25;
export const MAX_NPY_VALUES = 2 ** 28;
// Brackets nest one level per dimension; tables have two (batches a few more).
const MAX_DEPTH = 32;

/**
 * Checks a row-major table and its shape, naming the bad parameter.
 * @param {string} where calling function, for messages
 * @param {string} name name of the table parameter
 * @param {unknown} data
 * @param {unknown} length
 * @param {unknown} dModel
 */
export function checkTable(where, name, data, length, dModel) {
  const kind = typedArrayKind(data);
  if (!(kind === 'Float32Array' || kind === 'Float64Array' || Array.isArray(data)))
    throw new TypeError(
      `posenc.${where}: ${name} must be a Float32Array, Float64Array or array of numbers (got ${describe(data)})`,
    );
  if (kind !== undefined && isDetached(data.buffer))
    throw new TypeError(
      `posenc.${where}: ${name} is a view of a detached buffer (transferred, or wasm memory that grew)`,
    );
  integer(where, 'length', length, 1, MAX_BYTES);
  integer(where, 'dModel', dModel, 1, MAX_D_MODEL);
  const count = /** @type {number} */ (length) * /** @type {number} */ (dModel);
  if (data.length !== count)
    throw new RangeError(`posenc.${where}: ${name} must hold length * dModel = ${count} values (got ${data.length})`);
  for (let k = 0; k < count; k++) {
    const v = data[k];
    if (typeof v !== 'number')
      throw new TypeError(`posenc.${where}: ${name}[${k}] must be a number (got ${describe(v)})`);
    if (!Number.isFinite(v))
      throw new RangeError(
        `posenc.${where}: ${name} must hold finite numbers (got ${v} at row ${Math.floor(k / dModel)}, column ${k % dModel})`,
      );
  }
}

/**
 * A .npy (format 1.0) file of the table: '<f4' for a Float32Array, else '<f8'; C order.
 * @param {TableData} array row-major values
 * @param {number} length rows
 * @param {number} dModel columns
 * @returns {Uint8Array}
 */
export function toNpy(array, length, dModel) {
  checkTable('toNpy', 'array', array, length, dModel);
  const float32 = typedArrayKind(array) === 'Float32Array';
  const size = float32 ? 4 : 8;
  let header = `{'descr': '${float32 ? '<f4' : '<f8'}', 'fortran_order': False, 'shape': (${length}, ${dModel}), }`;
  // Magic (6) + version (2) + header length (2) + header, ending in '\n'.
  header = header.padEnd(Math.ceil((10 + header.length + 1) / NPY_ALIGN) * NPY_ALIGN - 10 - 1) + '\n';
  const bytes = new Uint8Array(10 + header.length + array.length * size);
  bytes.set(NPY_MAGIC);
  bytes[6] = 1;
  const view = new DataView(bytes.buffer);
  view.setUint16(8, header.length, true);
  for (let k = 0; k < header.length; k++) bytes[10 + k] = header.charCodeAt(k);
  let offset = 10 + header.length;
  for (let k = 0; k < array.length; k++, offset += size) {
    if (float32) view.setFloat32(offset, array[k], true);
    else view.setFloat64(offset, array[k], true);
  }
  return bytes;
}

// The shortest text that reads back to the same float64 is also exact for a
// float32 widened to float64; '-0' keeps the sign String() drops.
const formatValue = (v) => (Object.is(v, -0) ? '-0' : String(v));

function formatRows(array, length, dModel, open, separator, close) {
  const rows = new Array(length);
  const row = new Array(dModel);
  for (let r = 0; r < length; r++) {
    for (let j = 0; j < dModel; j++) row[j] = formatValue(array[r * dModel + j]);
    rows[r] = open + row.join(',') + close;
  }
  return rows.join(separator);
}

/**
 * CSV text: one line per row, values that read back exactly, no header.
 * @param {TableData} array
 * @param {number} length
 * @param {number} dModel
 * @returns {string}
 */
export function toCsv(array, length, dModel) {
  checkTable('toCsv', 'array', array, length, dModel);
  return formatRows(array, length, dModel, '', '\n', '') + '\n';
}

/**
 * JSON text of nested arrays, one inner array per row; values read back exactly.
 * @param {TableData} array
 * @param {number} length
 * @param {number} dModel
 * @returns {string}
 */
export function toJson(array, length, dModel) {
  checkTable('toJson', 'array', array, length, dModel);
  return '[' + formatRows(array, length, dModel, '[', ',', ']') + ']';
}

function parseError(message) {
  return new RangeError(`posenc.parseTable: ${message}`);
}

/**
 * The shape without its size-1 dimensions while more than two remain
 * (PyTorch's [L, 1, d] buffer, [1, L, d], [L, 1, 1] of d = 1): the values keep
 * their C order.
 */
function squeezed(shape) {
  // The first (length - 2) ones go, in one pass (a shape may have 300,000 of them).
  let ones = Math.min(shape.length - 2, shape.filter((n) => n === 1).length);
  return shape.filter((n) => !(n === 1 && ones-- > 0));
}

function hasNpyMagic(bytes) {
  return bytes.length >= NPY_MAGIC.length && NPY_MAGIC.every((b, k) => bytes[k] === b);
}

function parseNpy(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const major = bytes[6];
  if (major !== 1 && major !== 2 && major !== 3) throw parseError(`unsupported .npy format version ${major}`);
  // Version 1 stores the header length in 2 bytes, versions 2 and 3 in 4.
  const headerStart = major === 1 ? 10 : 12;
  if (bytes.length < headerStart) throw parseError('the .npy file is truncated (no header)');
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  if (bytes.length < headerStart + headerLength) throw parseError('the .npy file is truncated (header)');
  const header = new TextDecoder().decode(bytes.subarray(headerStart, headerStart + headerLength));

  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  // Own keys only: 'constructor' or 'toString' are no dtypes.
  if (descr === undefined || !Object.hasOwn(NPY_DTYPES, descr))
    throw parseError(
      `.npy dtype ${describe(descr)} is not supported: save float32 ('<f4') or float64 ('<f8'), little-endian`,
    );
  if (!/'fortran_order'\s*:\s*False/.test(header))
    throw parseError(
      'Fortran-order (column-major) .npy files are not supported: save np.ascontiguousarray(table) instead',
    );
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (shapeText === undefined) throw parseError('the .npy header has no shape');
  const dimensions = shapeText
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = dimensions.find((s) => !/^\d{1,15}$/.test(s));
  if (bad !== undefined)
    throw parseError(`the .npy shape must hold whole numbers; got ${describe(bad)} in (${describe(shapeText)})`);
  const shape = dimensions.map(Number);
  const kept = squeezed(shape);
  if (kept.length > 2)
    throw parseError(`the .npy array has shape (${shapeText}): a batch of ${kept[0]} tables; save one, e.g. pe[0]`);
  if (kept.length !== 2) throw parseError(`the .npy array must be 2-D (length, dModel); got shape (${shapeText})`);
  const [length, dModel] = kept;
  if (!(length >= 1 && dModel >= 1)) throw parseError(`the .npy array is empty: shape (${shapeText})`);

  const size = NPY_DTYPES[descr].BYTES_PER_ELEMENT;
  const dataStart = headerStart + headerLength;
  const count = length * dModel;
  if (count > MAX_NPY_VALUES)
    throw parseError(`the .npy array holds ${count} values, more than ${MAX_NPY_VALUES} (2 GiB as float64)`);
  if (bytes.length < dataStart + count * size)
    throw parseError(`the .npy file is truncated: shape (${length}, ${dModel}) needs ${count * size} data bytes`);
  const data = new Float64Array(count);
  for (let k = 0, offset = dataStart; k < count; k++, offset += size)
    data[k] = size === 4 ? view.getFloat32(offset, true) : view.getFloat64(offset, true);
  return { data, length, dModel, read: { format: 'npy', shape, dtype: descr } };
}

function parseNumber(rawToken, row) {
  // A quoted field ("0.5", '0,5'): its text, a decimal comma read as a point.
  const quoted = /^(["'])(.*)\1$/.exec(rawToken);
  const token = quoted && DECIMAL_COMMA_TOKEN.test(quoted[2]) ? quoted[2].replace(',', '.') : (quoted?.[2] ?? rawToken);
  if (token === '...')
    throw parseError(
      "the text is abbreviated ('...'): print the whole table (np.set_printoptions(threshold=np.inf)) or export a file",
    );
  if (!NUMBER_TOKEN.test(token)) throw parseError(`${describe(token)} (row ${row}) is not a finite number`);
  return Number(token);
}

// Bracketed text: JSON nested arrays, or numpy / PyTorch / JAX printouts
// ("array([[...]], dtype=float32)", "tensor([[...]])"): the array starts at the
// printout's "(" or the first "[[", so that text before it ("torch.Size([64,
// 16])", "Out[3]:") is skipped, and ends where that array closes (text after
// it is ignored); plain lists ("[0, 1]\n[0.84, 0.54]") run to the last "]".
// Dimensions of size 1 are dropped ([L, 1, d] and [1, L, d] buffers are 2-D
// tables); a batch of several tables is refused with what to pass instead.
// With dModel given, the numbers are taken in order, whatever the brackets say.
function bracketRows(text, dModel) {
  const printout = /\b(?:array|tensor|Array|Tensor)\(\s*\[/.exec(text);
  const nested = /\[\s*\[/.exec(text);
  const single = printout !== null || nested !== null;
  const first = printout ? printout.index + printout[0].length - 1 : nested ? nested.index : text.indexOf('[');
  const body = text.slice(first, text.lastIndexOf(']') + 1);
  const root = [];
  const stack = [root];
  // Rows read so far (innermost lists closed), for error messages.
  let rowsRead = 0;
  for (const token of body.match(/\[|\]|[^\s,[\]]+/g) ?? []) {
    if (token === '[') {
      if (stack.length > MAX_DEPTH)
        throw parseError(`brackets nested more than ${MAX_DEPTH} deep: a table has two dimensions`);
      const list = [];
      stack[stack.length - 1].push(list);
      stack.push(list);
    } else if (token === ']') {
      if (stack.length === 1) throw parseError('unbalanced brackets');
      const closed = stack.pop();
      if (closed.length > 0 && !Array.isArray(closed[0])) rowsRead++;
      if (single && stack.length === 1) break;
    } else {
      if (stack.length === 1) throw parseError(`${describe(token)} stands outside the brackets`);
      stack[stack.length - 1].push(parseNumber(token, rowsRead));
    }
  }
  if (stack.length !== 1) throw parseError('unbalanced brackets');
  if (dModel !== undefined) return { rows: [root.flat(Infinity)], shape: undefined };
  // The shape, checked to be rectangular, then without its size-1 dimensions.
  const array = root.length === 1 ? root[0] : root;
  const shape = [];
  for (let level = array; Array.isArray(level); level = level[0]) shape.push(level.length);
  const check = (node, depth) => {
    if (depth === shape.length) {
      if (Array.isArray(node)) throw parseError('the brackets do not nest evenly');
      return;
    }
    if (!Array.isArray(node)) throw parseError('the brackets do not nest evenly');
    if (node.length !== shape[depth])
      throw parseError(`rows of different lengths (${node.length} and ${shape[depth]}); pass dModel to reshape`);
    for (const child of node) check(child, depth + 1);
  };
  check(array, 0);
  if (shape.length === 1) return { rows: [array], shape };
  const kept = squeezed(shape);
  if (kept.length > 2)
    throw parseError(`the array has shape (${kept.join(', ')}): a batch of ${kept[0]} tables; give one, e.g. pe[0]`);
  // Rows of the last dimension, in C order: what dropping size-1 dimensions leaves.
  const values = array.flat(Infinity);
  return { rows: Array.from({ length: kept[0] }, (_, r) => values.slice(r * kept[1], (r + 1) * kept[1])), shape };
}

/** Whether the tokens count 0, 1, 2, … (a header of column numbers, or an index column). */
const counts = (tokens) => tokens.length > 0 && tokens.every((t, k) => t === String(k) || Number(t) === k);

// Plain text: one row per line (\n, \r\n or \r), values split by commas
// and/or whitespace, or by semicolons where any line has one (then a comma in
// a number is its decimal point: 0,841;0,540, as spreadsheets in many locales
// export). Quoted fields are read without their quotes; empty fields (a
// trailing comma) are skipped. A first line without any number is a CSV header
// and skipped, and so is one that counts the columns 0, 1, 2, … (numpy/pandas);
// a first column that counts the rows (pandas' index, DataFrame.to_csv()) is dropped.
function lineRows(text) {
  const lines = text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  const semicolons = lines.some((line) => line.includes(';'));
  const field = semicolons ? /"[^"]*"|'[^']*'|[^\s;]+/g : /"[^"]*"|'[^']*'|[^\s,]+/g;
  const decimalComma = (t) => (semicolons && DECIMAL_COMMA_TOKEN.test(t) ? t.replace(',', '.') : t);
  const tokens = lines.map((line) => (line.match(field) ?? []).map(decimalComma));
  const leading = (line) => (semicolons ? /^\s*[;\t]/ : /^[,\t]/).test(line);
  // pandas' header over its index column: an empty first field where the rows
  // have their index, so the rows are one field longer.
  const pandas =
    tokens.length > 1 && leading(lines[0]) && !leading(lines[1]) && tokens[1].length === tokens[0].length + 1;
  const isNumber = (t) => NUMBER_TOKEN.test(t) || NUMBER_TOKEN.test(t.replace(/^(["'])(.*)\1$/, '$2'));
  // (Not "0,1" alone: that is row 0 of every two-column sin/cos table.)
  const header =
    tokens.length > 1 &&
    (pandas || !tokens[0].some(isNumber) || (tokens[0].length >= 3 && counts(tokens[0]) && !counts(tokens[1])));
  const skipped = header ? 1 : 0;
  if (header) tokens.shift();
  // Row numbers in messages count the lines of the text, the header included.
  const rows = tokens.map((row, r) => row.map((t) => parseNumber(t, r + skipped)));
  const indexed =
    pandas || (rows.length >= 3 && rows.every((row) => row.length > 1) && counts(rows.map((row) => String(row[0]))));
  return {
    rows: indexed ? rows.map((row) => row.slice(1)) : rows,
    read: { header, indexColumn: indexed, separator: semicolons ? ';' : ',', decimalComma: semicolons },
  };
}

function textTable(text, dModel) {
  if (text.length > MAX_TEXT_CHARS)
    throw parseError(
      `the text has ${text.length} characters, more than ${MAX_TEXT_CHARS} (2^25), the most one call parses in a few seconds; save the table as .npy (np.save), which has no such limit`,
    );
  // A byte-order mark the decoding left (a string pasted or read as such).
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let rows;
  let read;
  if (text.includes('[')) {
    const brackets = bracketRows(text, dModel);
    rows = brackets.rows;
    read = { format: 'brackets', shape: brackets.shape };
  } else {
    const lines = lineRows(text);
    rows = lines.rows;
    read = { format: 'lines', ...lines.read };
  }
  if (rows.length === 0 || rows.every((row) => row.length === 0)) throw parseError('no numbers found');
  if (dModel !== undefined) {
    // Rows of dModel values, whatever the lines or brackets said.
    const values = rows.flat();
    if (values.length % dModel !== 0)
      throw parseError(`${values.length} values do not fill rows of dModel = ${dModel}`);
    return { data: Float64Array.from(values), length: values.length / dModel, dModel, read };
  }
  const width = rows[0].length;
  rows.forEach((row, r) => {
    if (row.length !== width)
      throw parseError(`row ${r} has ${row.length} values but row 0 has ${width}; pass dModel to reshape`);
  });
  if (width === 0) throw parseError('the rows are empty');
  return { data: Float64Array.from(rows.flat()), length: rows.length, dModel: width, read };
}

const BYTE_LENGTH = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
/** Whether x is an ArrayBuffer of any realm (a brand check). */
function isArrayBuffer(x) {
  try {
    BYTE_LENGTH.call(x);
    return true;
  } catch {
    return false;
  }
}

/** The text encoding of bytes that are no .npy: a byte-order mark, else ASCII seen as UTF-16, else UTF-8. */
function textEncodingOf(bytes) {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  // No mark: digits and separators in UTF-16 have a zero byte in every pair.
  const head = bytes.subarray(0, Math.min(bytes.length, 64) & ~1);
  if (head.length >= 4) {
    let [evenZero, oddZero] = [true, true];
    for (let k = 0; k < head.length; k += 2)
      [evenZero, oddZero] = [evenZero && head[k] === 0, oddZero && head[k + 1] === 0];
    if (oddZero && !evenZero) return 'utf-16le';
    if (evenZero && !oddZero) return 'utf-16be';
  }
  return 'utf-8';
}

/**
 * Reads a table from a .npy file (ArrayBuffer / typed array: 2-D, '<f4' or '<f8',
 * C order), or from text: CSV, JSON nested arrays, a numpy/PyTorch printout, or
 * numbers separated by commas/whitespace (one row per line, or reshaped to
 * `dModel` columns when given). Bytes without the .npy magic are read as text:
 * UTF-8, or UTF-16 (a byte-order mark, or ASCII with a zero in every byte pair).
 * At most MAX_TEXT_CHARS characters of text and MAX_NPY_VALUES .npy values.
 * The result says what was read: `length` rows × `dModel` columns, and in
 * `read` the format, the file's shape and what was skipped (index.d.ts, ParsedTable).
 * @param {ArrayBuffer | ArrayBufferView | string} input
 * @param {{ dModel?: number }} [options]
 * @returns {import('./index.js').ParsedTable}
 */
export function parseTable(input, options = {}) {
  if (options === null || typeof options !== 'object')
    throw new TypeError(`posenc.parseTable: options must be an object (got ${describe(options)})`);
  const { dModel } = options;
  if (dModel !== undefined) integer('parseTable', 'dModel', dModel, 1, MAX_D_MODEL);
  let table;
  if (typeof input === 'string') table = textTable(input, dModel);
  else if (isArrayBuffer(input) || ArrayBuffer.isView(input)) {
    const buffer = isArrayBuffer(input) ? input : input.buffer;
    if (isDetached(buffer))
      throw new TypeError(
        'posenc.parseTable: input is a detached ArrayBuffer (transferred to a worker, or wasm memory that grew): pass the bytes again',
      );
    const bytes = isArrayBuffer(input)
      ? new Uint8Array(input)
      : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    if (hasNpyMagic(bytes)) table = parseNpy(bytes);
    else {
      // (UTF-16 takes two bytes a character: bytes beyond twice the limit are text beyond it.)
      if (bytes.length > 2 * MAX_TEXT_CHARS)
        throw parseError(
          `the text has ${bytes.length} bytes, more than ${2 * MAX_TEXT_CHARS}: more than the ${MAX_TEXT_CHARS} characters one call parses in a few seconds; save the table as .npy (np.save), which has no such limit`,
        );
      const encoding = textEncodingOf(bytes);
      table = textTable(new TextDecoder(encoding).decode(bytes), dModel);
      table.read.encoding = encoding;
    }
  } else
    throw new TypeError(
      `posenc.parseTable: input must be .npy bytes (ArrayBuffer or Uint8Array) or text (got ${describe(input)})`,
    );
  if (dModel !== undefined && table.dModel !== dModel)
    throw parseError(`the file has ${table.dModel} columns but dModel is ${dModel}`);
  for (let k = 0; k < table.data.length; k++)
    if (!Number.isFinite(table.data[k]))
      throw parseError(
        `the table must hold finite numbers (got ${table.data[k]} at row ${Math.floor(k / table.dModel)}, column ${k % table.dModel})`,
      );
  return table;
}

// What differs between the three array libraries; the arithmetic is the same text.
const LANGUAGES = Object.freeze({
  numpy: {
    imports: ['import numpy as np'],
    xp: 'np',
    set: (index, value) => `pe[${index}] = ${value}`,
    toFloat32: 'pe = pe.astype(np.float32)',
  },
  pytorch: {
    imports: ['import torch'],
    xp: 'torch',
    set: (index, value) => `pe[${index}] = ${value}`,
    toFloat32: 'pe = pe.to(torch.float32)',
  },
  jax: {
    // JAX computes in float32 unless x64 is enabled before any array exists.
    imports: ['import jax', "jax.config.update('jax_enable_x64', True)", 'import jax.numpy as jnp'],
    xp: 'jnp',
    set: (index, value) => `pe = pe.at[${index}].set(${value})`,
    toFloat32: 'pe = pe.astype(jnp.float32)',
  },
});

/** A Python float literal that reads back to exactly x. */
function pyFloat(x) {
  const text = String(x);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/**
 * Python code (numpy, PyTorch or JAX) that builds exactly the table of these
 * options, in float64 arithmetic in the library's order of operations, then
 * casts to float32 (kept float64 for dtype 'float64'). The result is `pe`.
 * @param {'numpy' | 'pytorch' | 'jax'} language
 * @param {import('./index.js').TableOptions} options
 * @returns {string}
 */
export function codeSnippet(language, options) {
  if (typeof language !== 'string')
    throw new TypeError(
      `posenc.codeSnippet: language must be one of 'numpy', 'pytorch', 'jax' (got ${describe(language)})`,
    );
  if (!Object.hasOwn(LANGUAGES, language))
    throw new RangeError(
      `posenc.codeSnippet: language must be one of 'numpy', 'pytorch', 'jax' (got ${describe(language)})`,
    );
  // RoPE options (headDim, scaling, ...): their own snippet (rope-snippet.js).
  if (isRopeOptions(options)) return ropeSnippet(language, options);
  const lang = LANGUAGES[language];
  const p = encodingParams('codeSnippet', options);
  const length = lengthOf('codeSnippet', options);
  const float64 = dtypeOf('codeSnippet', options) === Float64Array;
  const knobs = {
    layout: LAYOUTS[p.layout],
    exponent: EXPONENTS[p.exponent],
    order: ORDERS[p.order],
    angle: ANGLES[p.angle],
  };
  const { xp } = lang;
  const base = pyFloat(p.base);
  const concat = knobs.layout === 'concat';
  const [firstFn, secondFn] = knobs.order === 'sin-cos' ? ['sin', 'cos'] : ['cos', 'sin'];
  const paddingRow = p.paddingRow < 0 ? null : p.paddingRow;
  const odd = p.dModel % 2 === 1;
  const oddColumn = ODD_COLUMNS[p.oddColumn];
  const resolved = { length, dModel: p.dModel, ...knobs, base: p.base, start: p.start, paddingRow, scale: p.scale };
  if (odd) resolved.oddColumn = oddColumn;
  if (p.frequencyScale !== 1) resolved.minTimescale = p.frequencyScale;

  const lines = [
    `# Positional encodings (posenc): ${JSON.stringify(resolved)}`,
    ...lang.imports,
    '',
    `length, d_model = ${length}, ${p.dModel}`,
    `n = d_model // 2  # pairs${!odd ? '' : oddColumn === 'zero' ? '; the odd last column stays zero' : '; the odd last column is set below'}`,
    p.start === 0
      ? `pos = ${xp}.arange(length, dtype=${xp}.float64)[:, None]  # position of each row`
      : `pos = (${pyFloat(p.start)} + ${xp}.arange(length, dtype=${xp}.float64))[:, None]  # position of each row`,
    `i = ${xp}.arange(n, dtype=${xp}.float64)  # pair index`,
  ];
  // The angle of one member of each pair, from its exponent e (w = base ** -e).
  const angleOf = (e) => {
    if (knobs.angle === 'ratio-power') return `(pos / ${base}) ** ${e}`;
    return p.frequencyScale === 1
      ? `pos * ${base} ** -${e}`
      : `pos * (${pyFloat(p.frequencyScale)} * ${base} ** -${e})`;
  };
  let firstAngle = 'angle';
  let secondAngle = 'angle';
  if (knobs.exponent === 'column') {
    // Each column j gets its own exponent 2j/d: the two members of a pair differ.
    const [firstColumn, secondColumn] = concat ? ['i', '(n + i)'] : ['(2 * i)', '(2 * i + 1)'];
    lines.push(
      `e_first = 2 * ${firstColumn} / d_model  # exponent of each pair's first column`,
      `e_second = 2 * ${secondColumn} / d_model  # and of its second column`,
      `angle_first = ${angleOf('e_first')}`,
      `angle_second = ${angleOf('e_second')}`,
    );
    [firstAngle, secondAngle] = ['angle_first', 'angle_second'];
  } else {
    lines.push(
      knobs.exponent === 'pair'
        ? 'e = 2 * i / d_model  # frequency exponent'
        : 'e = i / max(n - 1, 1)  # frequency exponent',
      `angle = ${angleOf('e')}`,
    );
  }
  const [firstColumns, secondColumns] = concat ? [':, :n', ':, n:2 * n'] : [':, 0:2 * n:2', ':, 1:2 * n:2'];
  lines.push(
    `pe = ${xp}.zeros((length, d_model), dtype=${xp}.float64)`,
    lang.set(firstColumns, `${xp}.${firstFn}(${firstAngle})`),
    lang.set(secondColumns, `${xp}.${secondFn}(${secondAngle})`),
  );
  if (odd && oddColumn === 'formula') {
    // PE(pos, 2i) continued to 2i = d - 1: pair n's first function, alone.
    const exponent = {
      pair: '2 * n / d_model',
      'half-minus-one': 'n / max(n - 1, 1)',
      column: '2 * (d_model - 1) / d_model',
    };
    lines.push(
      `e_last = ${exponent[knobs.exponent]}  # the last column's exponent, as if pair n were complete`,
      lang.set(':, 2 * n:', `${xp}.${firstFn}(${angleOf('e_last')})`),
    );
  }
  if (p.paddingRow >= 0) lines.push(`${lang.set(`${p.paddingRow}:${p.paddingRow + 1}`, '0.0')}  # padding row`);
  if (p.scale !== 1) {
    const note = p.scale === Math.sqrt(p.dModel) ? '  # sqrt(d_model)' : '';
    lines.push(`pe = ${pyFloat(p.scale)} * pe${note}`);
  }
  if (!float64) lines.push(lang.toFloat32);
  return lines.join('\n') + '\n';
}
