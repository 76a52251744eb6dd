// The check every function taking a table makes: a row-major array of
// finite numbers whose count is length * dModel.
import { describe, integer, MAX_BYTES, MAX_D_MODEL } from './options.js';
import { isDetached, typedArrayKind } from './typed-arrays.js';

/** @typedef {Float32Array | Float64Array | number[]} TableData */

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
