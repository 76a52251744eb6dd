// English strings of the plots, the elements and embed.html: everything the
// elements bundle shows (labels, readouts, descriptions, messages). The page's
// own prose is in en.js, which includes these. Functions build the labels and
// descriptions that carry live numbers.
import attention from './attention-plots.en.js';
import { formatDifference, formatNumber as n } from './number.js';
import precisionPlots from './precision-plots.en.js';
import ropePlots from './rope-plots.en.js';
import elsewherePlots from './elsewhere-plots.en.js';
import ropeLab from './rope-lab-plots.en.js';

/** An angle in degrees, and past how many whole turns where it made any. */
function turns(angle) {
  const whole = Math.floor(angle / (2 * Math.PI));
  const degrees = n(((angle / (2 * Math.PI)) % 1) * 360, 3);
  return whole === 0 ? `${degrees}°` : `${whole} whole turn${whole === 1 ? '' : 's'} and ${degrees}°`;
}

const kinds = { sin: 'sin', cos: 'cos', zero: 'zero column' };

export default {
  ...precisionPlots(n),
  ...elsewherePlots,
  ...ropePlots,
  ...ropeLab,
  ...attention,
  'heatmap.legend': 'PE value',
  'heatmap.hint': 'Hover or tap the table, or focus it and use the arrow keys.',
  'heatmap.describe': ({ rows, columns, min, max, sinusoidal, layout }) =>
    `Heatmap of the positional-encoding table: ${rows} positions (rows) by ${columns} dimensions (columns), values from ${n(min)} to ${n(max)}.${sinusoidal ? ` ${layout === 'concat' ? 'In each half, low' : 'Low'} dimensions alternate quickly down the rows, high dimensions change slowly.` : ''}`,

  'heatmap.cover': ({ rows, columns }) =>
    `The table has more cells than the picture has pixels: each pixel shows the mean colour of the ${rows === 1 ? '' : `${rows} rows × `}${columns === 1 ? '1 column' : `${columns} columns`} it covers${rows > 1 ? ', so a column that swings between −1 and 1 within those rows averages to a flat middle tone (hover to read the cells, or lower L to see it change row by row)' : ''}.`,
  'waves.panel': ({ column, kind, wavelength }) =>
    `j = ${column} · ${kinds[kind]}${Number.isFinite(wavelength) ? ` · period ${n(wavelength, 4)}` : ''}`,
  'waves.describe': ({ panels, from, to, sinusoidal }) =>
    `Columns of the table as curves over positions ${from} to ${to}: ${panels.map((p) => p.label).join('; ')}.${sinusoidal === false ? '' : ' Low dimensions oscillate fast, high dimensions barely move.'}`,

  'ladder.empty': 'This convention gives no column a fixed frequency.',
  'ladder.describe': ({ shortest, longest, count, layout }) =>
    count === 0
      ? 'No column has a fixed wavelength in this convention.'
      : `Wavelength of each of ${count} columns on a log scale, from ${n(shortest)} to ${n(longest)}, rising in a straight line${layout === 'concat' ? ' in each half' : ''}: a geometric progression.`,

  'row.zero': 'position 0',
  'row.at': (p, beyond) => `p = ${p}${beyond ? ' (beyond L: extrapolated)' : ''}`,
  'row.beyond': (q, length) => `p + L = ${q} (beyond L = ${length})`,
  'row.describe': ({ rows }) =>
    `Stem charts of ${rows.length} rows of the encoding, value per dimension: ${rows.map((r) => r.label).join('; ')}.`,

  'sensitivity.change': (p) => `|PE(${p + 1}, j) − PE(${p}, j)|`,
  'sensitivity.bound': (amplitude = 1) => (amplitude === 1 ? 'bound ω_j' : `bound ${n(amplitude)}·ω_j`),
  'sensitivity.describe': ({ columns, largest, smallest, withinBound }) =>
    `Change of each of ${columns} dimensions for one step in position, on a log scale from ${n(largest)} down to ${n(smallest)}${
      withinBound === null
        ? '; this convention gives the columns no fixed frequency, so there is no bound to compare with.'
        : withinBound
          ? '; it stays under the bound set by the angular frequency of the dimension.'
          : '; some dimensions exceed the bound set by their angular frequency.'
    }`,

  'rotation.start': (p) => `p = ${p}`,
  'rotation.end': (q) => `p + k = ${q}`,
  'rotation.angle': ({ pair, frequency, offset, angle }) =>
    `Pair i = ${pair}, ω_i = ${n(frequency, 4)}: k = ${offset} turns it by ω_i·k = ${n(angle, 4)} rad (${turns(angle)}).`,
  'rotation.noAngle': ({ pair }) =>
    `Pair i = ${pair}: its sin and cos do not share one frequency in this convention, so there is no single angle.`,
  'rotation.residual': ({ residual, dModel, radius = 1, lone = null }) =>
    `max |PE(p+k) − M_k·PE(p)| over ${lone ? `the ${dModel - 1} paired dimensions` : `all ${dModel} dimensions`} = ${formatDifference(residual, 3)} ${residual < 1e-5 * radius ? '— rounding error: the identity holds.' : '— far from zero: the identity fails here.'}${lone ? ` Dimension ${dModel - 1}, the last of an odd d, is a ${lone} without its partner: no rotation maps it, so there PE(p+k) is not M_k·PE(p).` : ''}`,
  'rotation.zeroColumn': ({ column, pair }) =>
    `Column ${column} is the zero column of an odd d and belongs to no pair; shown: pair i = ${pair}.`,
  'rotation.loneColumn': ({ column, fn, pair }) =>
    `Column ${column}, the last of an odd d, is a ${fn} without its partner; shown: pair i = ${pair}.`,
  'rotation.describe': ({ start, end, radius = 1 }) =>
    `One pair of the encoding as a point on ${radius === 1 ? 'the unit circle' : `a circle of radius ${n(radius)}`}, at (${n(start[0])}, ${n(start[1])}) for position p and (${n(end[0])}, ${n(end[1])}) for p + k.`,

  'offset.from': (start) => `from position ${start}`,
  'offset.band': ({ first, last, shortest, longest }) =>
    `pairs ${first}–${last} (periods ${n(shortest)}–${n(longest)})`,
  'offset.mark': (k) => `k = ${k < 0 ? `−${-k}` : k}`,
  'offset.contributions': 'Σ cos(ω_i k) by bands of pairs, fast to slow',
  'offset.describe': ({ curves, spread }) =>
    `s(k) against the offset k from ${curves.length} starting positions; largest difference between the curves ${formatDifference(spread)}${spread < 1e-3 ? ': they coincide' : ': they do not coincide'}.`,

  'similarity.hint': 'Hover or tap the matrix, or focus it and use the arrow keys.',
  'similarity.legend': 'PE(p)·PE(q)',
  'similarity.describe': ({ rows, min, max }) =>
    `Similarity matrix of ${rows} positions: dot products from ${n(min)} to ${n(max)}, constant along diagonals when the convention is relative.`,

  'compare.difference': 'difference (left − right)',
  'compare.describe': (label, { rows, columns, min, max }) =>
    `Heatmap ${label}: ${rows} positions by ${columns} dimensions, values from ${n(min)} to ${n(max)}.`,
  'question.paper': (kind = 'sin') => `paper: ${kind === 'zero' ? '0 (zero column)' : `${kind}(pos / base^(2i/d))`}`,
  'question.ratio': (kind = 'sin') =>
    `attempt: ${kind === 'zero' ? '0 (zero column)' : `${kind}((pos / base)^(2i/d))`}`,
  'question.paperRow': 'paper, position 0: sin, cos',
  'question.swappedRow': 'cos and sin swapped, position 0',
  'question.attemptRow': 'the whole attempt, position 0',
  'question.describeRatio': ({ panels, from, to }) =>
    `The paper's columns against the attempt's over positions ${from} to ${to}, for ${panels.map((p) => p.label).join(' and ')}: the paper's are sinusoids of position; the attempt's jump at position 0 and then change slowly, with no fixed frequency.`,
  'question.zoomAxis': (shown, dModel) =>
    shown < dModel ? `dimension j (the first ${shown} of ${dModel})` : 'dimension j',
  'question.columnCurves': (start) => `exponent on the column index, from position ${start}`,

  'axis.position': 'position',
  'axis.dimension': 'dimension j',
  'axis.wavelength': 'period 2π/ω (positions)',
  'axis.change': 'change per step',
  'axis.offset': 'offset k',
  'axis.dot': 's(k)',
  'axis.positionQ': 'position q',
  'axis.positionP': 'position p',
  'readout.table': (position, column, value) => `PE[${position}, ${column}] = ${value.toPrecision(8)}`,
  'readout.difference': (position, column, value) => `(left − right)[${position}, ${column}] = ${value.toPrecision(8)}`,
  'readout.similarity': (p, q, value) => `PE[${p}]·PE[${q}] = ${value.toPrecision(8)}`,

  // The elements' and the embed's own messages (web/elements, web/embed).
  'element.loading': 'Loading the WebAssembly core…',
  // What an attribute's value should have been (web/model/params.js ParamError's facts).
  'param.expected': ({ kind, low, high, allowed }, given) =>
    `expected ${
      kind === 'oneOf'
        ? `one of ${allowed.join(', ')}`
        : kind === 'magnitude'
          ? `a number from ${low} to ${high} or from -${high} to -${low}`
          : kind === 'rowOrNone'
            ? `none or an integer from ${low} to ${high}`
            : kind === 'evenInteger'
              ? `an even integer from ${low} to ${high}`
              : `${kind === 'integer' ? 'an integer' : 'a number'} from ${low} to ${high}`
    }, got ${given}`,
  'element.invalid': (tag, attribute, message) => `<${tag}>: invalid ${attribute}: ${message}.`,
  'element.slow': (seconds) =>
    `The WebAssembly core has not arrived after ${seconds} s: the connection may be slow or down. Still waiting; Retry asks again.`,
  'element.loadFailed': (tag) =>
    `<${tag}>: the WebAssembly core could not be loaded (the connection may be down, or the file blocked). Check the connection, then Retry.`,
  'element.retry': 'Retry',
  'element.failed': (tag, message) => `<${tag}>: ${message}`,
  'embed.explainer': 'posenc · open in the explainer',
  'embed.unknownPlot': (shown, plots) => `Unknown plot “${shown}”: plot must be one of ${plots.join(', ')}.`,
};
