// Whole rows of the encoding, one stem chart per row: the value of every
// dimension at one position.
import { scaleLinear } from 'd3-scale';
import { drawAxis } from './axes.js';
import { createFrame, plotHandle } from './frame.js';
import { affine, clamp, strokeTenths, tenths, TENTHS, TenthsPath } from './path-data.js';
import { clear, svgElement, svgText } from './svg.js';
import { cssColor, seriesColor } from './theme.js';

const PANEL_GAP = 10;
// Room above each chart for its label.
const LABEL_BAND = 15;

const defaultDescribe = ({ rows }) => `Stem charts of ${rows.length} rows: ${rows.map((r) => r.label).join('; ')}.`;

/**
 * data: { rows: [{ label, values }], dimension?: selected column }
 * options: { xTitle, yDomain?: [low, high], describe?(data), height?(width) }
 */
export function draw(element, data, options = {}) {
  const current = { data, options };
  const frame = createFrame(element, {
    className: 'posenc-row',
    height: (width) =>
      current.options.height?.(width) ??
      current.data.rows.length * (clamp(width * 0.14, 64, 100) + LABEL_BAND + PANEL_GAP) + 40,
    render,
  });

  function render() {
    if (frame.width === 0) return;
    const { data, options } = current;
    const svg = clear(frame.svg);
    const margin = { top: 4, right: 16, bottom: 40, left: 40 };
    const columns = data.rows[0]?.values.length ?? 0;
    const x = scaleLinear()
      .domain([-0.5, columns - 0.5])
      .range([margin.left, frame.width - margin.right]);
    const [low, high] = options.yDomain ?? [-1.1, 1.1];
    const height = (frame.height - margin.top - margin.bottom) / data.rows.length - PANEL_GAP;
    const dotted = x(1) - x(0) >= 5;

    data.rows.forEach(({ label, values }, index) => {
      const top = margin.top + index * (height + PANEL_GAP);
      const y = scaleLinear()
        .domain([low, high])
        .range([top + height, top + LABEL_BAND]);
      const group = svgElement('g', {}, svg);
      drawAxis(group, y, 'left', { x: margin.left, ticks: 3 });
      svgElement('line', { x1: x.range()[0], x2: x.range()[1], y1: y(0), y2: y(0), stroke: cssColor('grid') }, group);
      // In tenths of a pixel (see TENTHS): 3 x 512 stems are redrawn while a slider moves.
      const stemsPath = new TenthsPath();
      const dotsPath = new TenthsPath();
      const zero = tenths(y(0));
      const [px, py] = [affine(x), affine(y)];
      for (let column = 0; column < values.length; column++) {
        const cx = tenths(px(column));
        const cy = tenths(py(clamp(values[column], low, high)));
        stemsPath.moveToTenths(cx, zero);
        stemsPath.append('V');
        stemsPath.appendNumber(cy);
        if (dotted) {
          dotsPath.moveToTenths(cx, cy);
          dotsPath.append('h0');
        }
      }
      const [stems, dots] = [stemsPath.finish(), dotsPath.finish()];
      const colour = seriesColor(index);
      const stemWidth = strokeTenths(clamp((x(1) - x(0)) * 0.5, 0.6, 2));
      svgElement(
        'path',
        { d: stems, transform: TENTHS, stroke: colour, 'stroke-width': stemWidth, fill: 'none' },
        group,
      );
      if (dotted) {
        const style = { stroke: colour, 'stroke-width': strokeTenths(5), 'stroke-linecap': 'round' };
        svgElement('path', { d: dots, transform: TENTHS, ...style }, group);
      }
      svgText(group, label, { x: margin.left + 6, y: top + 11, fill: colour });
    });

    const selected = data.dimension;
    if (Number.isInteger(selected) && selected >= 0 && selected < columns) {
      svgElement(
        'rect',
        {
          x: x(selected - 0.5),
          width: Math.max(2, x(1) - x(0)),
          y: margin.top,
          height: frame.height - margin.top - margin.bottom,
          fill: cssColor('accent'),
          'fill-opacity': 0.15,
          'pointer-events': 'none',
        },
        svg,
      );
    }
    drawAxis(svg, x, 'bottom', {
      y: frame.height - margin.bottom + 2,
      ticks: Math.max(2, frame.width / 70),
      format: (v) => (Number.isInteger(v) ? String(v) : ''),
      title: options.xTitle,
    });
    frame.setLabel((options.describe ?? defaultDescribe)(data));
  }

  return plotHandle(frame, current, render);
}
