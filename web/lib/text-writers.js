// CSV and JSON text of a table, with values that read back exactly.
import { checkTable } from './check-table.js';

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
