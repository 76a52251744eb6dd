// The [length x length] matrix of dot products PE(p)·PE(q). When the dot
// product depends only on q − p the matrix is constant along diagonals
// (Toeplitz): bands parallel to the main diagonal. Drawn by the heatmap plot
// with a symmetric colour domain and the pair (p, p + k) marked.
import { interpolatePuOr } from './palettes.js';
import { draw as drawHeatmap } from './heatmap.js';
import { clamp } from './path-data.js';
import { symmetricDomain } from './paint.js';

const ORANGE_PURPLE = (t) => interpolatePuOr(1 - t);

const defaultReadout = (p, q, value) => `PE[${p}]·PE[${q}] = ${value.toPrecision(8)}`;
const defaultDescribe = ({ rows, min, max }) =>
  `Similarity matrix of ${rows} positions, dot products from ${min.toFixed(2)} to ${max.toFixed(2)}.`;

/**
 * data: { values (length x length), length, position?: p, offset?: k, origin?: position of row 0 (0),
 *         painter?: the values' painter (heatmap.js) }
 * options: { xTitle, yTitle, legendTitle, readout?(p, q, value), readoutHint,
 *            describe?(summary), onPick?({ row, column }), height?(width) }
 */
export function draw(element, data, options = {}) {
  const heatmapData = (d) => {
    // The colour domain is symmetric so that zero is the neutral colour. A
    // painter knows the range; otherwise it takes a pass over length² values.
    const { painter } = d;
    let domain;
    if (painter) domain = symmetricDomain(painter);
    else {
      let extent = 0;
      for (let i = 0; i < d.values.length; i++) extent = Math.max(extent, Math.abs(d.values[i]));
      domain = [-(extent || 1), extent || 1];
    }
    return {
      data: {
        values: d.values,
        painter: d.painter,
        rows: d.length,
        columns: d.length,
        marks: { row: d.position, column: d.position + d.offset },
      },
      domain,
    };
  };
  const heatmapOptions = (o, domain, origin = 0) => ({
    ...o,
    domain,
    // The worker paints the next matrix of a drag in its own domain (symmetricDomain), which this asks for.
    symmetric: true,
    rowOrigin: origin,
    columnOrigin: origin,
    interpolator: ORANGE_PURPLE,
    readout: o.readout ?? defaultReadout,
    describe: o.describe ?? defaultDescribe,
    testId: 'similarity-readout',
    height: o.height ?? ((width) => clamp(width - 70, 240, 560)),
  });

  let cached = { values: null, prepared: null };
  const prepare = (d) => {
    // The extent scan is over length^2 values: only when the matrix changes.
    if (cached.values !== d.values) cached = { values: d.values, prepared: heatmapData(d) };
    const prepared = cached.prepared;
    // Position p's row, where one is at a whole position (a fractional origin has none).
    const row = d.position - (d.origin ?? 0);
    prepared.data.marks = Number.isInteger(row) ? { row, column: row + d.offset } : {};
    return prepared;
  };

  const first = prepare(data);
  const heatmap = drawHeatmap(element, first.data, heatmapOptions(options, first.domain, data.origin));
  return {
    update(nextData, nextOptions = options) {
      options = nextOptions;
      const next = prepare(nextData);
      heatmap.update({ ...next.data }, heatmapOptions(options, next.domain, nextData.origin));
    },
    destroy() {
      heatmap.destroy();
    },
  };
}
