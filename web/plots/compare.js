// Two conventions side by side: the same [positions x dimensions] heatmap for
// each, and a third of their difference (left − right), so that what a
// convention moves (columns reordered, frequencies changed) stands out.
// When both tables are held off the main thread, so is their difference: the
// difference panel keeps its last image until the new one is computed.
import { interpolateBrBG } from './palettes.js';
import { draw as drawHeatmap } from './heatmap.js';
import { clamp } from './path-data.js';
import { htmlElement, setText } from './svg.js';

const BROWN_GREEN = (t) => interpolateBrBG(1 - t);

/**
 * data: { rows, columns, left: { label, values, painter? }, right: { label, values, painter? } }
 *   painter: the table's painter (heatmap.js)
 * options: { xTitle, yTitle, rowOrigin?, differenceLabel, amplitude?: largest |value| of a table (1),
 *            readout?(row, column, value), differenceReadout?(row, column, value) (default: readout),
 *            readoutHint, describe?(side, summary), height?(width) }
 */
export function draw(element, data, options = {}) {
  const grid = htmlElement('div', 'posenc-compare');
  element.replaceChildren(grid);
  const panels = ['left', 'right', 'difference'].map((side) => {
    const panel = htmlElement('div', 'posenc-compare-panel', grid);
    const title = htmlElement('p', 'posenc-panel-title', panel);
    const body = htmlElement('div', null, panel);
    return { side, title, body, plot: null };
  });

  let current = { data, options };
  let destroyed = false;
  // The latest difference and the tables (and shape) it is of; the pair being subtracted elsewhere.
  let difference = { left: null, right: null, values: null, painter: null, rows: 0, columns: 0 };
  let subtracting = null;

  function differenceOf({ left, right, rows, columns }) {
    if (difference.left === left.values && difference.right === right.values) return difference;
    if (left.painter?.subtract && right.painter?.subtract) {
      if (subtracting?.left !== left.values || subtracting.right !== right.values) {
        const pair = { left: left.values, right: right.values, values: null, painter: null, rows, columns };
        subtracting = pair;
        left.painter.subtract(right.painter, grid).then(
          (answer) => {
            // Answers come in request order: a superseded one still shows progress.
            if (!answer || destroyed) return;
            difference = { ...pair, values: answer.values, painter: answer.painter };
            if (subtracting === pair) subtracting = null;
            render(current.data, current.options);
          },
          (error) => console.error(error),
        );
      }
      return difference;
    }
    const values = new Float32Array(left.values.length);
    for (let i = 0; i < values.length; i++) values[i] = left.values[i] - right.values[i];
    difference = { left: left.values, right: right.values, values, painter: null, rows, columns };
    return difference;
  }

  function render(data, options) {
    const {
      values: differenceValues,
      painter: differencePainter,
      rows: differenceRows,
      columns: differenceColumns,
    } = differenceOf(data);
    const tables = {
      left: { values: data.left.values, painter: data.left.painter, rows: data.rows, columns: data.columns },
      right: { values: data.right.values, painter: data.right.painter, rows: data.rows, columns: data.columns },
      difference: {
        values: differenceValues,
        painter: differencePainter,
        rows: differenceRows,
        columns: differenceColumns,
      },
    };
    const labels = {
      left: data.left.label,
      right: data.right.label,
      difference: options.differenceLabel ?? 'left − right',
    };
    for (const panel of panels) {
      setText(panel.title, labels[panel.side]);
      // The first difference may still be on its way.
      if (!tables[panel.side].values) continue;
      const heatmapData = tables[panel.side];
      const heatmapOptions = {
        xTitle: options.xTitle,
        yTitle: options.yTitle,
        rowOrigin: options.rowOrigin,
        readout: panel.side === 'difference' ? (options.differenceReadout ?? options.readout) : options.readout,
        readoutHint: options.readoutHint,
        domain: [-1, 1].map((end) => end * (options.amplitude ?? 1) * (panel.side === 'difference' ? 2 : 1)),
        interpolator: panel.side === 'difference' ? BROWN_GREEN : undefined,
        describe: options.describe && ((summary) => options.describe(labels[panel.side], summary)),
        testId: `compare-readout-${panel.side}`,
        height: options.height ?? ((width) => clamp(width * 1.1, 220, 380)),
      };
      if (panel.plot) panel.plot.update(heatmapData, heatmapOptions);
      else panel.plot = drawHeatmap(panel.body, heatmapData, heatmapOptions);
    }
  }

  render(data, options);
  return {
    update(nextData, nextOptions = current.options) {
      current = { data: nextData, options: nextOptions };
      render(nextData, nextOptions);
    },
    destroy() {
      destroyed = true;
      for (const panel of panels) panel.plot?.destroy();
      grid.remove();
    },
  };
}
