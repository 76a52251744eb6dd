// Tables as people paste or save them as text: CSV/TSV lines, JSON nested
// arrays, numpy / PyTorch / JAX printouts; and the encoding of text bytes.
import { describe } from './options.js';
import { parseError, squeezed } from './parse-shape.js';

const NUMBER_TOKEN = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
// A number written with a decimal comma (0,841): semicolon-separated files and quoted fields.
const DECIMAL_COMMA_TOKEN = /^[+-]?\d*,\d+(e[+-]?\d+)?$/i;

// Work limit of parseTable (see options.js): text is parsed at roughly 100 ns
// a character on the test VM, so 2^25 characters (32 Mi: a 64 x 50,000 table
// printed in full) take a few seconds.
export const MAX_TEXT_CHARS = 2 ** 25;
// Brackets nest one level per dimension; tables have two (batches a few more).
const MAX_DEPTH = 32;

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

/** The table of the text: rows of lines or brackets, or of dModel values when given. */
export function textTable(text, dModel) {
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

/** The text encoding of bytes that are no .npy: a byte-order mark, else ASCII seen as UTF-16, else UTF-8. */
export function textEncodingOf(bytes) {
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
