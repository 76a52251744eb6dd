// parseTable: a table from .npy bytes or text, whichever it is given.
import { describe, integer, MAX_D_MODEL } from './options.js';
import { isDetached } from './typed-arrays.js';
import { hasNpyMagic, parseNpy } from './npy.js';
import { parseError } from './parse-shape.js';
import { MAX_TEXT_CHARS, textEncodingOf, textTable } from './parse-text.js';

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
