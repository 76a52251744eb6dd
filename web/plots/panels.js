// Curves over one shared x axis, in stacked panels with their own y ranges:
// each series a line (optionally with dots at its points), vertical marker
// lines with labels, a key of the series under the plot and notes below it
// (the numbers the text refers to). Used by the sections on attention, sine
// and cosine, the training length and the FAQ.
import { scaleLinear } from 'd3-scale';
import { drawAxis } from './axes.js';
import { createFrame, plotHandle } from './frame.js';
import { affine, clamp, dotsPathTenths, linePathTenths, strokeTenths, TENTHS } from './path-data.js';
import { clear, htmlElement, notesContainer, showNotes, svgElement, svgText } from './svg.js';
import { cssColor, seriesColor } from './theme.js';

const PANEL_GAP = 14;
// Room above each panel's curves for its label.
const LABEL_BAND = 16;
const DASH = '6 4';

// Text widths from a canvas, in the svg's font: measuring the svg text itself
// would force a style and layout pass of the whole page at every redraw.
const LABEL_FONT = '11px system-ui, sans-serif';
let measuring = null;
function textWidth(text) {
  measuring ??= document.createElement('canvas').getContext('2d');
  if (!measuring) return 0;
  measuring.font = LABEL_FONT;
  return measuring.measureText(text).width;
}

const defaultDescribe = ({ panels }) =>
  `${panels.length} panels of curves: ${panels.map((panel) => panel.label).join('; ')}.`;

/** [low, high] of the series' values (finite ones), widened a little; [-1, 1] when there is none. */
function valueSpan(series) {
  let low = Infinity;
  let high = -Infinity;
  for (const { y } of series)
    for (const value of y) {
      if (!Number.isFinite(value)) continue;
      low = Math.min(low, value);
      high = Math.max(high, value);
    }
  if (low > high) return [-1, 1];
  const pad = (high - low) * 0.08 || Math.abs(high) * 0.1 || 1;
  return [low - pad, high + pad];
}

/**
 * data: { xDomain?: [low, high],
 *         panels: [{ label, yDomain?: [low, high], markers?: [{ x, label? }],
 *                    series: [{ label, x, y, colour?: index, dots?: boolean, dashed?: boolean,
 *                               thin?: boolean (a hairline, for a jagged series drawn over another) }] }],
 *         notes?: [{ text, testId? }] }
 * options: { xTitle, describe?(data), height?(width) }
 */
export function draw(element, data, options = {}) {
  const current = { data, options };
  const panelHeight = (width) => clamp(width * 0.22, 90, 150) + LABEL_BAND;
  const frame = createFrame(element, {
    className: 'posenc-curves',
    height: (width) =>
      current.options.height?.(width) ?? current.data.panels.length * (panelHeight(width) + PANEL_GAP) + 40,
    render,
  });
  const key = htmlElement('ul', 'posenc-key', frame.root);
  const notes = notesContainer(frame.root, options);
  let keyShown = null;

  function render() {
    if (frame.width === 0) return;
    const { data, options } = current;
    const svg = clear(frame.svg);
    const margin = { top: 4, right: 16, bottom: 40, left: 48 };
    const xs = data.panels.flatMap((panel) => panel.series.flatMap(({ x }) => [x[0], x[x.length - 1]]));
    const [xLow, xHigh] = data.xDomain ?? [Math.min(...xs), Math.max(...xs)];
    const x = scaleLinear()
      .domain([xLow, xHigh === xLow ? xLow + 1 : xHigh])
      .range([margin.left, frame.width - margin.right]);
    const height = (frame.height - margin.top - margin.bottom) / data.panels.length - PANEL_GAP;

    data.panels.forEach((panel, index) => {
      const top = margin.top + index * (height + PANEL_GAP);
      const [low, high] = panel.yDomain ?? valueSpan(panel.series);
      const y = scaleLinear()
        .domain([low, high])
        .range([top + height, top + LABEL_BAND]);
      const group = svgElement('g', {}, svg);
      if (low < 0 && high > 0)
        svgElement('line', { x1: x.range()[0], x2: x.range()[1], y1: y(0), y2: y(0), stroke: cssColor('grid') }, group);
      drawAxis(group, y, 'left', { x: margin.left, ticks: 3 });
      const [px, py] = [affine(x), affine(y)];
      panel.series.forEach((series, s) => {
        const colour = seriesColor(series.colour ?? s);
        const inside = (i) => Number.isFinite(series.y[i]);
        svgElement(
          'path',
          {
            d: linePathTenths(
              series.x.length,
              (i) => px(series.x[i]),
              (i) => py(clamp(inside(i) ? series.y[i] : low, low, high)),
            ),
            transform: TENTHS,
            fill: 'none',
            stroke: colour,
            'stroke-width': strokeTenths(series.thin ? 0.8 : series.dashed ? 1.2 : 1.6),
            'stroke-dasharray': series.dashed ? DASH : 'none',
          },
          group,
        );
        if (series.dots) {
          const step = series.x.length > 1 ? Math.abs(x(series.x[1]) - x(series.x[0])) : 6;
          svgElement(
            'path',
            {
              d: dotsPathTenths(
                series.x.length,
                (i) => px(series.x[i]),
                (i) => py(clamp(series.y[i], low, high)),
                clamp(step / 3, 0.8, 2.5),
              ),
              transform: TENTHS,
              fill: colour,
              stroke: cssColor('bg'),
              'stroke-width': strokeTenths(0.5),
            },
            group,
          );
        }
      });
      for (const marker of panel.markers ?? []) {
        if (!(marker.x >= x.domain()[0] && marker.x <= x.domain()[1])) continue;
        const at = x(marker.x);
        svgElement(
          'line',
          { x1: at, x2: at, y1: top + LABEL_BAND, y2: top + height, stroke: cssColor('fg'), 'stroke-dasharray': '4 3' },
          group,
        );
        if (marker.label) {
          const right = at > (x.range()[0] + x.range()[1]) / 2;
          svgText(group, marker.label, {
            x: at + (right ? -4 : 4),
            y: top + LABEL_BAND + 10,
            'text-anchor': right ? 'end' : 'start',
            'paint-order': 'stroke',
            stroke: cssColor('bg'),
            'stroke-width': 3,
          });
        }
      }
      // A label longer than a narrow plot (a phone, a long translation) is squeezed to fit, never cut or spilled.
      const room = frame.width - margin.left - margin.right - 6;
      const squeeze = textWidth(panel.label) > room ? { textLength: room, lengthAdjust: 'spacingAndGlyphs' } : {};
      svgText(group, panel.label, { x: margin.left + 6, y: top + 11, fill: 'currentColor', ...squeeze });
    });

    drawAxis(svg, x, 'bottom', {
      y: frame.height - margin.bottom + 2,
      ticks: Math.max(2, frame.width / 80),
      title: options.xTitle,
    });

    // Series names go in a key under the plot, where they can wrap; each once, in its colour.
    const entries = new Map();
    for (const panel of data.panels)
      panel.series.forEach((series, s) => {
        if (series.label && !entries.has(series.label))
          entries.set(series.label, { colour: series.colour ?? s, dashed: series.dashed });
      });
    // Rebuilt only when the swatches change; the labels (they follow the sliders) change in place.
    const swatches = JSON.stringify([...entries.values()]);
    if (swatches !== keyShown) {
      keyShown = swatches;
      key.replaceChildren();
      for (const { colour, dashed } of entries.values()) {
        const item = htmlElement('li', dashed ? 'posenc-key-dashed' : 'posenc-key-solid', key);
        const swatch = htmlElement('span', 'posenc-swatch', item);
        swatch.setAttribute('aria-hidden', 'true');
        swatch.style.borderTop = `3px ${dashed ? 'dashed' : 'solid'} ${seriesColor(colour)}`;
        item.append('');
      }
    }
    [...entries.keys()].forEach((label, index) => {
      const text = key.children[index].lastChild;
      if (text.data !== label) text.data = label;
    });
    // Likewise the notes.
    showNotes(notes, data.notes ?? []);
    frame.setLabel((options.describe ?? defaultDescribe)(data));
  }

  return plotHandle(frame, current, render);
}
