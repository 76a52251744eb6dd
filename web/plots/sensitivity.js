// How much each dimension moves when the position steps by one: the measured
// |PE(p+1, j) − PE(p, j)| as dots against its bound w_j (a sinusoid of angular
// frequency w cannot change faster than w per unit step), on a log scale.
import { scaleLinear, scaleLog } from 'd3-scale';
import { drawAxis } from './axes.js';
import { createFrame, plotHandle } from './frame.js';
import { clamp, dotsPathTenths, linePathTenths, strokeTenths, TENTHS } from './path-data.js';
import { clear, svgElement, svgText } from './svg.js';
import { cssColor } from './theme.js';

// Values below this are drawn on the floor of the log axis.
const FLOOR = 1e-9;

// A change over the bound by more than this fraction of the largest bound is
// no rounding error (of float64 rows) but a broken bound (e.g. a padding row).
const BOUND_SLACK = 1e-9;

/** Decades only, as 0.01 … 100 or 1e-5 (not SI prefixes: "10m" reads as metres). */
function powerOfTen(value) {
  const exponent = Math.round(Math.log10(value));
  if (Math.abs(value / 10 ** exponent - 1) > 1e-9) return '';
  return exponent >= -2 && exponent <= 3 ? String(10 ** exponent) : `1e${exponent}`;
}

const defaultDescribe = ({ columns, largest, smallest }) =>
  `Change per unit step of ${columns} dimensions, from ${largest.toExponential(2)} down to ${smallest.toExponential(2)}.`;

/**
 * data: { change: per-column |Δ|, bound?: per-column w (NaN or 0: not drawn), dimension? }
 * options: { xTitle, yTitle, changeLabel, boundLabel, describe?(summary), height?(width) }
 * summary: { columns, largest, smallest, withinBound: true/false, or null without a bound }
 */
export function draw(element, data, options = {}) {
  const current = { data, options };
  const frame = createFrame(element, {
    className: 'posenc-sensitivity',
    height: (width) => current.options.height?.(width) ?? clamp(width * 0.45, 200, 320),
    render,
  });

  function render() {
    if (frame.width === 0) return;
    const { data, options } = current;
    const svg = clear(frame.svg);
    const margin = { top: 12, right: 16, bottom: 42, left: 62 };
    const { change } = data;
    // A convention without fixed frequencies (NaN) has no bound to draw or to key.
    const bound = data.bound?.some((w) => w > 0) ? data.bound : null;
    let withinBound = bound ? true : null;
    const slack = bound ? BOUND_SLACK * Math.max(...bound.filter(Number.isFinite)) : 0;
    let largest = FLOOR;
    let smallest = Infinity;
    for (let i = 0; i < change.length; i++) {
      largest = Math.max(largest, change[i], bound && Number.isFinite(bound[i]) ? bound[i] : 0);
      if (change[i] > 0) smallest = Math.min(smallest, change[i]);
      if (bound && change[i] > bound[i] + slack) withinBound = false;
    }
    const bottom = Math.max(FLOOR, Math.min(smallest, largest) / 3);
    const x = scaleLinear()
      .domain([-0.5, change.length - 0.5])
      .range([margin.left, frame.width - margin.right]);
    const y = scaleLog()
      .domain([bottom, largest * 2])
      .range([frame.height - margin.bottom, margin.top])
      .clamp(true);
    drawAxis(svg, x, 'bottom', {
      y: frame.height - margin.bottom,
      ticks: Math.max(2, frame.width / 70),
      format: (v) => (Number.isInteger(v) ? String(v) : ''),
      title: options.xTitle,
    });
    drawAxis(svg, y, 'left', { x: margin.left, ticks: 4, format: powerOfTen, title: options.yTitle, titleOffset: 50 });

    // Paths in tenths of a pixel (see TENTHS): a point per dimension, redrawn while a slider moves.
    if (bound) {
      const d = linePathTenths(
        bound.length,
        (i) => x(i),
        (i) => (bound[i] > 0 ? y(bound[i]) : NaN),
      );
      const style = { fill: 'none', stroke: cssColor('series-2'), 'stroke-width': strokeTenths(2) };
      svgElement('path', { d, transform: TENTHS, ...style }, svg);
    }
    const radius = clamp((x(1) - x(0)) / 2.5, 1, 3);
    const dots = dotsPathTenths(
      change.length,
      (i) => x(i),
      (i) => y(Math.max(change[i], bottom)),
      radius,
    );
    svgElement('path', { d: dots, transform: TENTHS, fill: cssColor('series-1') }, svg);

    const selected = data.dimension;
    if (Number.isInteger(selected) && selected >= 0 && selected < change.length) {
      svgElement(
        'circle',
        {
          cx: x(selected),
          cy: y(Math.max(change[selected], bottom)),
          r: radius + 3,
          fill: 'none',
          stroke: cssColor('accent'),
          'stroke-width': 2,
        },
        svg,
      );
    }
    // A small key: dots are measured, the line is the bound.
    const key = svgElement('g', { transform: `translate(${frame.width - margin.right - 8},${margin.top + 6})` }, svg);
    svgElement('circle', { cx: -6, cy: -4, r: 3, fill: cssColor('series-1') }, key);
    svgText(key, options.changeLabel ?? '|ΔPE|', { x: -14, 'text-anchor': 'end' });
    if (bound) {
      svgElement('line', { x1: -12, x2: 0, y1: 12, y2: 12, stroke: cssColor('series-2'), 'stroke-width': 2 }, key);
      svgText(key, options.boundLabel ?? 'w', { x: -16, y: 16, 'text-anchor': 'end' });
    }
    frame.setLabel((options.describe ?? defaultDescribe)({ columns: change.length, largest, smallest, withinBound }));
  }

  return plotHandle(frame, current, render);
}
