// Reads and identifies a table off the main thread: the file (read here, with
// progress), parseTable, then pe.identify (0.1 s at 128 columns, seconds for
// big tables), the difference of the table from a preset, and the pixels of
// its heatmap, so that the page's main thread only puts an image of the
// plot's size, whatever the table's. One table at a time: the page terminates
// this worker and starts another when a new table arrives before the answer.
// Messages:
//   in:  { id, file: File, dModel? } | { id, input: string, dModel? } | { id, table: { data, length, dModel } }
//        { id, difference: presetName }  (of the table of request `id`)
//        { id, paint: request, preset, seq }  (request as for paintCells; of that difference)
//   out: { phase: 'core' } once the core is loaded, or { phase: 'core', error } if it could not be;
//        { id, phase: 'reading', loaded, total }, { id, phase: 'parsing' },
//        { id, phase: 'parsed', length, dModel }, then
//        { id, phase: 'done', identification, length, dModel }
//        or { id, phase: 'error', stage: 'read' | 'parse' | 'identify' | 'difference', message };
//        { id, phase: 'difference', preset, values, power, largest, worst, first, min, max }
//        { id, phase: 'pixels', seq, pixels, width, height, aggregated }  (pixels null: not this difference)
// A RoPE cos or sin cache (the RoPE chapter's "Check my RoPE"), read and named by ropeIdentify here too:
//   in:  { id, ropeCache: { file: File } | { input: string } }
//   out: the same 'reading', 'parsing' and 'error' phases, then
//        { id, phase: 'rope', length, dModel, result }  (result: ropeIdentify's answer)
import { load, parseTable } from '../lib/index.js';
import { paintCells, valueRange } from '../plots/paint.js';

const posenc = load();
posenc.then(
  () => self.postMessage({ phase: 'core' }),
  (error) => self.postMessage({ phase: 'core', error: String(error?.message ?? error) }),
);
// The last table identified, kept for the differences asked for next, and the last difference, for its pixels.
let last = null;
let lastDifference = null;

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
  return { preset, values, power, largest, worst, first, ...valueRange(values) };
}

/** Where each of `size` pixels starts along an axis of `count` cells (count > size): paintCells' exact ranges. */
function pixelStarts(count, size) {
  const starts = new Int32Array(size + 1);
  for (let i = 0; i <= size; i++) starts[i] = Math.floor((i * count) / size);
  return starts;
}

/**
 * The values reduced to at most one cell per pixel: each keeps the value of
 * largest size among the cells the pixel covers (a difference confined to
 * one row of a million must still show; a mean would wash it out). One pass
 * over the values, so a 1,000,000-row table paints in milliseconds.
 */
function largestPerPixel(values, rows, columns, height, width) {
  const outRows = Math.min(rows, height);
  const outColumns = Math.min(columns, width);
  if (outRows === rows && outColumns === columns) return { values, rows, columns, aggregated: false };
  const rowStarts = pixelStarts(rows, outRows);
  const columnOf = new Int32Array(columns);
  if (outColumns === columns) columnOf.forEach((_, c) => (columnOf[c] = c));
  else {
    const starts = pixelStarts(columns, outColumns);
    for (let x = 0; x < outColumns; x++) columnOf.fill(x, starts[x], starts[x + 1]);
  }
  const out = new Float64Array(outRows * outColumns);
  for (let y = 0; y < outRows; y++) {
    const base = y * outColumns;
    for (let r = rowStarts[y]; r < rowStarts[y + 1]; r++) {
      const offset = r * columns;
      for (let c = 0; c < columns; c++) {
        const value = values[offset + c];
        const k = base + columnOf[c];
        if (Math.abs(value) > Math.abs(out[k])) out[k] = value;
      }
    }
  }
  return { values: out, rows: outRows, columns: outColumns, aggregated: true };
}

function paint({ id, paint: request, preset, seq }) {
  if (lastDifference?.id !== id || lastDifference.preset !== preset) {
    self.postMessage({ id, phase: 'pixels', seq, pixels: null });
    return;
  }
  const { colours, low, high, width, height, exact } = request;
  const reduced = largestPerPixel(lastDifference.values, request.rows, request.columns, height, width);
  const pixels = paintCells(reduced.values, reduced.rows, reduced.columns, colours, low, high, width, height, exact);
  self.postMessage({ id, phase: 'pixels', seq, pixels, width, height, aggregated: reduced.aggregated }, [
    pixels.buffer,
  ]);
}

/** The file's bytes, read in chunks so that the page can show how far it got. */
async function readFile(id, file) {
  const bytes = new Uint8Array(file.size);
  const reader = file.stream().getReader();
  let loaded = 0;
  let told = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes.set(value, loaded);
    loaded += value.length;
    // About every 2% (each message costs the page a status update).
    if (loaded - told >= file.size / 50) {
      told = loaded;
      self.postMessage({ id, phase: 'reading', loaded, total: file.size });
    }
  }
  return bytes;
}

/** Runs `step`; a failure is reported as an error of `stage` (the page says what it means). */
async function stage(name, step) {
  try {
    return await step();
  } catch (error) {
    throw Object.assign(new Error(String(error?.message ?? error)), { stage: name });
  }
}

/** The cache's rows, columns and ropeIdentify's answer; the dtype of a .npy is its own (text is float64). */
async function identifyCache(id, { file, input }) {
  const source = file ? await stage('read', () => readFile(id, file)) : input;
  self.postMessage({ id, phase: 'parsing' });
  const table = await stage('parse', () => parseTable(source));
  const pe = await stage('load', () => posenc);
  const dtype = table.read.format === 'npy' ? { '<f4': 'float32', '<f8': 'float64' }[table.read.dtype] : undefined;
  const result = await stage('identify', () =>
    pe.ropeIdentify({ values: table.data, rows: table.length, columns: table.dModel, dtype }),
  );
  return { length: table.length, dModel: table.dModel, result };
}

self.onmessage = async ({ data: request }) => {
  const { id } = request;
  if (request.paint) {
    paint(request);
    return;
  }
  if (request.ropeCache) {
    try {
      self.postMessage({ id, phase: 'rope', ...(await identifyCache(id, request.ropeCache)) });
    } catch (error) {
      self.postMessage({ id, phase: 'error', stage: error.stage ?? 'identify', message: error.message });
    }
    return;
  }
  try {
    if (request.difference) {
      const pe = await stage('load', () => posenc);
      if (last?.id !== id) return;
      const difference = await stage('difference', () => differenceFrom(pe, last, request.difference));
      lastDifference = { id, preset: difference.preset, values: difference.values };
      // The page gets its own copy (for the readout under the pointer); this one is painted here.
      const values = difference.values.slice();
      self.postMessage({ id, phase: 'difference', ...difference, values }, [values.buffer]);
      return;
    }
    last = null;
    lastDifference = null;
    const input = request.file ? await stage('read', () => readFile(id, request.file)) : request.input;
    self.postMessage({ id, phase: 'parsing' });
    const options = request.dModel ? { dModel: request.dModel } : {};
    const table = request.table ?? (await stage('parse', () => parseTable(input, options)));
    const { length, dModel } = table;
    self.postMessage({ id, phase: 'parsed', length, dModel });
    const pe = await stage('load', () => posenc);
    const data = Float64Array.from(table.data);
    // Its diagnoses carry the cells the page shows (the worst misfit, the float32 angles' largest error).
    const identification = await stage('identify', () => pe.identify(data, length, dModel));
    last = { id, data, length, dModel, tolerance: identification.tolerance };
    self.postMessage({ id, phase: 'done', identification, length, dModel });
  } catch (error) {
    self.postMessage({ id, phase: 'error', stage: error.stage ?? 'identify', message: error.message });
  }
};
