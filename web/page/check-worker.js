// Reads and identifies a table off the main thread: parseTable, then
// pe.identify (0.1 s at 128 columns, seconds for big tables), and the
// difference of the table from a preset for the heatmap. One table at a
// time: the page terminates this worker and starts another when a new table
// arrives before the answer. Messages:
//   in:  { id, input: ArrayBuffer | string, dModel? }  or  { id, table: { data, length, dModel } }
//        { id, difference: presetName }  (of the table of request `id`)
//   out: { id, phase: 'parsed', length, dModel }, then
//        { id, phase: 'done', identification, length, dModel, fit }  or  { id, phase: 'error', message }
//        { id, phase: 'difference', preset, values, power, largest, worst, first }
import { load, parseTable } from '../lib/index.js';

const posenc = load();
// The last table identified, kept for the differences asked for next.
let last = null;

/**
 * Largest |data − table of the found options| (float64 angles) and where:
 * the size of the float32-angle error, or of the misfit when nothing explains
 * the table.
 */
function worstFit(pe, data, length, dModel, options) {
  const table = pe.table({ ...options, length, dModel, dtype: 'float64' });
  let error = 0;
  let at = 0;
  for (let k = 0; k < data.length; k++) {
    const difference = Math.abs(data[k] - table[k]);
    if (difference > error) [error, at] = [difference, k];
  }
  return { error, row: Math.floor(at / dModel), column: at % dModel };
}

/**
 * data − the preset's float64 table, in units of 10^power (tiny differences
 * get a legible legend): the largest difference, the first beyond the
 * tolerance (-1 for none), both as flat indices.
 */
function differenceFrom(pe, { data, length, dModel, tolerance }, preset) {
  const table = pe.table({ preset, length, dModel, dtype: 'float64' });
  let largest = 0;
  let worst = 0;
  let first = -1;
  for (let k = 0; k < data.length; k++) {
    const size = Math.abs(data[k] - table[k]);
    if (size > largest) [largest, worst] = [size, k];
    if (first < 0 && size > tolerance) first = k;
  }
  let power = largest > 0 ? Math.floor(Math.log10(largest)) : 0;
  if (power >= -1 && power <= 1) power = 0;
  const unit = 10 ** power;
  const values = new Float64Array(data.length);
  for (let k = 0; k < data.length; k++) values[k] = (data[k] - table[k]) / unit;
  return { preset, values, power, largest, worst, first };
}

self.onmessage = async ({ data: request }) => {
  const { id } = request;
  try {
    const pe = await posenc;
    if (request.difference) {
      if (last?.id !== id) return;
      const difference = differenceFrom(pe, last, request.difference);
      self.postMessage({ id, phase: 'difference', ...difference }, [difference.values.buffer]);
      return;
    }
    last = null;
    const table = request.table ?? parseTable(request.input, request.dModel ? { dModel: request.dModel } : {});
    const { length, dModel } = table;
    self.postMessage({ id, phase: 'parsed', length, dModel });
    const data = Float64Array.from(table.data);
    const identification = pe.identify(data, length, dModel);
    const fit = worstFit(pe, data, length, dModel, identification.options);
    last = { id, data, length, dModel, tolerance: identification.tolerance };
    self.postMessage({ id, phase: 'done', identification, length, dModel, fit });
  } catch (error) {
    self.postMessage({ id, phase: 'error', message: String(error?.message ?? error) });
  }
};
