// English strings of the plots of the chapter "the same sinusoids elsewhere"
// (elements and embed.html show them too); plots.en.js spreads them in.
import { formatDifference as tiny, formatNumber as n } from './number.js';

const range = (last) => (last === 1 ? 't in 0 … 1' : 't in 0 … 1000');

export default {
  'timestep.yTitle': (last) => (last === 1 ? 'row k: t = k / 100' : 'row k: t = 10 k'),
  'timestep.legend': 'embedding value',
  'timestep.describe': ({ rows, columns, min, max, last }) =>
    `Heatmap of the timestep embedding: ${rows} timesteps (${range(last)}) by ${columns} dimensions, values from ${min.toFixed(3)} to ${max.toFixed(3)}.`,
  'readout.timestep': ({ t, column, value }) => `emb[t = ${t}, ${column}] = ${value.toPrecision(8)}`,

  'timestepSimilarity.series': (last) => (last === 1 ? 'timesteps 0 … 1' : 'timesteps 0 … 1000'),
  'timestepSimilarity.xTitle': 't as a share of its range',
  'timestepSimilarity.yTitle': 'cosine similarity to t = 0',
  'timestepSimilarity.note': ({ last, ends, neighbours, step, maxPeriod }) =>
    `${range(last)}, max_period ${maxPeriod}: the embeddings of t = 0 and t = ${last} have cosine similarity ${n(ends, 6)}; neighbouring timesteps (${step} apart) at least ${n(neighbours, 6)}.`,
  'timestepSimilarity.describe': (dim) =>
    `Cosine similarity of the embedding at t to the one at t = 0, dimension ${dim}, for timesteps 0 … 1000 and 0 … 1 on the same axis (t divided by the end of its range).`,

  'grid.xTitle': 'patch column c (width)',
  'grid.yTitle': 'patch row r (height)',
  'gridColumn.legend': (column) => `column ${column}`,
  'gridColumn.note': ({ column, dim, axis, fn, pair, frequency }) =>
    `Column ${column} of ${dim}: ${fn} of the ${axis === 'width' ? 'column index c' : 'row index r'} at frequency ${n(frequency, 4)} (pair ${pair} of its half); it is constant along the ${axis === 'width' ? 'columns' : 'rows'} of patches.`,
  'gridColumn.describe': ({ rows, columns, min, max, column }) =>
    `Column ${column} of the grid's embedding as an image of ${rows} by ${columns} patches, values from ${min.toFixed(3)} to ${max.toFixed(3)}.`,
  'readout.gridValue': ({ row, column, index, value }) =>
    `patch (${row}, ${column}), column ${index}: ${value.toPrecision(8)}`,

  'gridDots.legend': 'dot product',
  'gridDots.hint': 'Hover or tap a patch, or focus the image and use the arrow keys; Enter or a click chooses it.',
  'gridDots.note': ({ spread }) =>
    `Pairs of patches the same rows and columns apart have dot products within ${tiny(spread)} of each other: they depend only on the 2-D offset.`,
  'gridSwapped.note': ({ spread, rows, columns }) =>
    rows === columns
      ? `A square grid (${rows} × ${columns}): swapping height and width changes nothing (largest difference at equal offsets ${tiny(spread)}). Make it non-square to see the bug.`
      : `Built for ${columns} × ${rows} and read as ${rows} × ${columns}, patches at equal offsets differ by up to ${n(spread, 4)}: the products no longer depend only on the offset.`,
  'gridDots.describe': ({ rows, columns, min, max, row, column, swapped }) =>
    `Dot products of patch (${row}, ${column}) with every patch of a ${rows} by ${columns} grid${swapped ? ' whose height and width were swapped' : ''}, from ${min.toFixed(2)} to ${max.toFixed(2)}.`,
  'readout.gridDot': ({ row, column, r, c, value }) => `PE(${row}, ${column})·PE(${r}, ${c}) = ${value.toPrecision(8)}`,

  'relativeTable.yTitle': (first) => `row k: position ${first} − k`,
  'relativeTable.noteRelative': ({ first, relativeDifference }) =>
    `Positions ${first} … −${first}: each row at p ≥ 0 is row p of the table from 0, each row at −p is row p with its sines negated (sin(−x) = −sin x), to within ${tiny(relativeDifference)}.`,
  'relativeTable.noteChunk': ({ chunkStart, chunkRows, chunkDifference }) =>
    `The streaming chunk at positions ${chunkStart} … ${chunkStart + chunkRows - 1} equals rows ${chunkStart} … ${chunkStart + chunkRows - 1} of the table from 0 to within ${tiny(chunkDifference)}.`,
  'relativeTable.describe': ({ rows, columns, min, max, first }) =>
    `Heatmap of the relative table: ${rows} rows at positions ${first} down to −${first}, ${columns} dimensions, values from ${min.toFixed(3)} to ${max.toFixed(3)}.`,
};
