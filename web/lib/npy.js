// .npy files (numpy's format): the writer, and the reader parseTable uses.
import { checkTable } from './check-table.js';
import { describe } from './options.js';
import { typedArrayKind } from './typed-arrays.js';
import { parseError, squeezed } from './parse-shape.js';

const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"
// numpy aligns the data of a .npy file to 64 bytes (header included).
const NPY_ALIGN = 64;
const NPY_DTYPES = Object.freeze({ '<f4': Float32Array, '<f8': Float64Array });
// A .npy file is read at a few ns a value; the result holds at most 2^28
// float64 values (2 GiB): a work limit of parseTable (see options.js).
export const MAX_NPY_VALUES = 2 ** 28;

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

/** Whether the bytes start with the .npy magic string. */
export function hasNpyMagic(bytes) {
  return bytes.length >= NPY_MAGIC.length && NPY_MAGIC.every((b, k) => bytes[k] === b);
}

/** The table of a .npy file (format 1.0, 2.0 or 3.0; '<f4' or '<f8'; C order). */
export function parseNpy(bytes) {
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
