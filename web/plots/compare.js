// Two conventions side by side: the same [positions x dimensions] heatmap for
// each, and a third of their difference (left − right), so that what a
// convention moves (columns reordered, frequencies changed) stands out.
import { interpolateBrBG } from 'd3-scale-chromatic';
import { draw as drawHeatmap } from './heatmap.js';
import { clamp, htmlElement } from './common.js';

const BROWN_GREEN = (t) => interpolateBrBG(1 - t);

/**
 * data: { rows, columns, left: { label, values }, right: { label, values } }
 * options: { xTitle, yTitle, differenceLabel, readout?(row, column, value),
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

  let difference = { left: null, right: null, values: null };
  function differenceOf({ left, right }) {
    if (difference.left !== left.values || difference.right !== right.values) {
      const values = new Float32Array(left.values.length);
      for (let i = 0; i < values.length; i++) values[i] = left.values[i] - right.values[i];
      difference = { left: left.values, right: right.values, values };
    }
    return difference.values;
  }

  function render(data, options) {
    const tables = {
      left: data.left.values,
      right: data.right.values,
      difference: differenceOf(data),
    };
    const labels = {
      left: data.left.label,
      right: data.right.label,
      difference: options.differenceLabel ?? 'left − right',
    };
    for (const panel of panels) {
      panel.title.textContent = labels[panel.side];
      const heatmapData = { values: tables[panel.side], rows: data.rows, columns: data.columns };
      const heatmapOptions = {
        xTitle: options.xTitle,
        yTitle: options.yTitle,
        readout: options.readout,
        readoutHint: options.readoutHint,
        domain: panel.side === 'difference' ? [-2, 2] : [-1, 1],
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
    update(nextData, nextOptions = options) {
      options = nextOptions;
      render(nextData, nextOptions);
    },
    destroy() {
      for (const panel of panels) panel.plot.destroy();
      grid.remove();
    },
  };
}
