// Columns of the table as functions of position: one small panel per
// dimension, the continuous curve drawn through fractional positions with the
// integer positions (the table's actual rows) marked on it.
import { scaleLinear } from 'd3-scale';
import { drawAxis } from './axes.js';
import { createFrame, plotHandle } from './frame.js';
import { affine, clamp, dotsPathTenths, linePathTenths, strokeTenths, TENTHS } from './path-data.js';
import { clear, htmlElement, svgElement, svgText } from './svg.js';
import { cssColor, seriesColor } from './theme.js';

const PANEL_GAP = 10;
// Room above each panel's curves for its label.
const LABEL_BAND = 15;

const defaultDescribe = ({ panels, from, to }) =>
  `${panels.length} curves of the encoding against position ${from} to ${to}: ${panels.map((p) => p.label).join('; ')}.`;

/**
 * data: { from, to, marker?: position,
 *         panels: [{ label, emphasis?: boolean,
 *                    series: [{ label?, curve: { positions, values }, samples?: { positions, values } }] }] }
 * options: { xTitle, yDomain?: [low, high], describe?(data), height?(width) }
 */
export function draw(element, data, options = {}) {
  const current = { data, options };
  const panelHeight = (width) => clamp(width * 0.12, 56, 84) + LABEL_BAND;
  const frame = createFrame(element, {
    className: 'posenc-waves',
    height: (width) =>
      current.options.height?.(width) ?? current.data.panels.length * (panelHeight(width) + PANEL_GAP) + 40,
    render,
  });
  const key = htmlElement('ul', 'posenc-key', frame.root);
  let keyShown = null;

  function render() {
    if (frame.width === 0) return;
    const { data, options } = current;
    const svg = clear(frame.svg);
    const margin = { top: 4, right: 16, bottom: 40, left: 40 };
    const x = scaleLinear()
      .domain([data.from, data.to])
      .range([margin.left, frame.width - margin.right]);
    const height = (frame.height - margin.top - margin.bottom) / data.panels.length - PANEL_GAP;
    const [low, high] = options.yDomain ?? [-1.1, 1.1];

    data.panels.forEach((panel, index) => {
      const top = margin.top + index * (height + PANEL_GAP);
      const y = scaleLinear()
        .domain([low, high])
        .range([top + height, top + LABEL_BAND]);
      const group = svgElement('g', {}, svg);
      svgElement('line', { x1: x.range()[0], x2: x.range()[1], y1: y(0), y2: y(0), stroke: cssColor('grid') }, group);
      drawAxis(group, y, 'left', { x: margin.left, ticks: 3 });
      const [px, py] = [affine(x), affine(y)];
      panel.series.forEach((series, s) => {
        const colour = panel.emphasis ? cssColor('accent') : seriesColor(s);
        const { positions, values } = series.curve;
        svgElement(
          'path',
          {
            d: linePathTenths(
              positions.length,
              (i) => px(positions[i]),
              (i) => py(clamp(values[i], low, high)),
            ),
            transform: TENTHS,
            fill: 'none',
            stroke: colour,
            'stroke-width': strokeTenths(1.5),
          },
          group,
        );
        if (series.samples) {
          const { positions: at, values: sampled } = series.samples;
          // Past a few pixels per position the dots would merge into a bar.
          const radius = clamp((x(data.from + 1) - x(data.from)) / 3, 0.8, 2.5);
          const d = dotsPathTenths(
            at.length,
            (i) => px(at[i]),
            (i) => py(clamp(sampled[i], low, high)),
            radius,
          );
          svgElement(
            'path',
            { d, transform: TENTHS, fill: colour, stroke: cssColor('bg'), 'stroke-width': strokeTenths(0.5) },
            group,
          );
        }
      });
      svgText(group, panel.label, {
        x: margin.left + 6,
        y: top + 11,
        fill: panel.emphasis ? cssColor('accent') : 'currentColor',
      });
    });

    // Series names (the same in every panel) go in a key under the plot, where they can wrap.
    // Rewritten only when they change: a slider drag leaves them as they are.
    const labels = (data.panels[0]?.series ?? []).map(({ label }) => label ?? '');
    if (labels.join('\n') !== keyShown) {
      keyShown = labels.join('\n');
      key.replaceChildren();
      labels.forEach((label, s) => {
        if (!label) return;
        const item = htmlElement('li', 'posenc-key-solid', key);
        const swatch = htmlElement('span', 'posenc-swatch', item);
        swatch.setAttribute('aria-hidden', 'true');
        swatch.style.borderTop = `3px solid ${seriesColor(s)}`;
        item.append(label);
      });
    }

    if (Number.isFinite(data.marker) && data.marker >= data.from && data.marker <= data.to) {
      const at = x(data.marker);
      svgElement(
        'line',
        {
          x1: at,
          x2: at,
          y1: margin.top,
          y2: frame.height - margin.bottom,
          stroke: cssColor('fg'),
          'stroke-dasharray': '4 3',
          'stroke-width': 1,
        },
        svg,
      );
    }
    drawAxis(svg, x, 'bottom', {
      y: frame.height - margin.bottom + 2,
      ticks: Math.max(2, frame.width / 80),
      title: options.xTitle,
    });
    frame.setLabel((options.describe ?? defaultDescribe)(data));
  }

  return plotHandle(frame, current, render);
}
