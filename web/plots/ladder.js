// The wavelength 2π/w of every column on a log scale: a geometric ladder from
// 2π to 2π·base is a straight line. Columns without a fixed frequency (w = 0 or
// NaN) are left out, and a note says so when none has one.
import { scaleLinear, scaleLog } from 'd3-scale';
import { formatNumber } from '../i18n/number.js';
import { drawAxis } from './axes.js';
import { createFrame, plotHandle } from './frame.js';
import { clamp, dotsPathTenths, TENTHS } from './path-data.js';
import { clear, svgElement, svgText } from './svg.js';
import { cssColor } from './theme.js';

const defaultDescribe = ({ shortest, longest, count }) =>
  count === 0
    ? 'No column has a fixed wavelength.'
    : `Wavelengths of ${count} columns on a log scale, from ${formatNumber(shortest)} to ${formatNumber(longest)}.`;

/**
 * data: { wavelengths: Float64Array (per column), dimension?: selected column,
 *         guides?: [{ value, label }] }
 * options: { xTitle, yTitle, emptyText, describe?(summary), height?(width) }
 */
export function draw(element, data, options = {}) {
  const current = { data, options };
  const frame = createFrame(element, {
    className: 'posenc-ladder',
    height: (width) => current.options.height?.(width) ?? clamp(width * 0.45, 200, 320),
    render,
  });

  function render() {
    if (frame.width === 0) return;
    const { data, options } = current;
    const svg = clear(frame.svg);
    const { wavelengths } = data;
    const margin = { top: 12, right: 16, bottom: 42, left: 62 };
    const guides = data.guides ?? [];
    let shortest = Infinity;
    let longest = 0;
    let count = 0;
    for (const value of wavelengths) {
      if (!(value > 0 && Number.isFinite(value))) continue;
      shortest = Math.min(shortest, value);
      longest = Math.max(longest, value);
      count++;
    }
    const x = scaleLinear()
      .domain([-0.5, wavelengths.length - 0.5])
      .range([margin.left, frame.width - margin.right]);
    drawAxis(svg, x, 'bottom', {
      y: frame.height - margin.bottom,
      ticks: Math.max(2, frame.width / 70),
      format: (v) => (Number.isInteger(v) ? String(v) : ''),
      title: options.xTitle,
    });
    if (count === 0) {
      svgText(svg, options.emptyText ?? 'No fixed wavelength', {
        x: (margin.left + frame.width) / 2,
        y: frame.height / 2,
        'text-anchor': 'middle',
      });
      frame.setLabel((options.describe ?? defaultDescribe)({ shortest: NaN, longest: NaN, count }));
      return;
    }
    const low = Math.min(shortest, ...guides.map((g) => g.value)) / 1.5;
    const high = Math.max(longest, ...guides.map((g) => g.value)) * 1.5;
    const y = scaleLog()
      .domain([low, high])
      .range([frame.height - margin.bottom, margin.top]);
    // d3's log tick format labels only the ticks that fit.
    drawAxis(svg, y, 'left', { x: margin.left, ticks: 5, title: options.yTitle, titleOffset: 50 });

    for (const { value, label } of guides) {
      svgElement(
        'line',
        {
          x1: x.range()[0],
          x2: x.range()[1],
          y1: y(value),
          y2: y(value),
          stroke: cssColor('muted'),
          'stroke-dasharray': '5 4',
        },
        svg,
      );
      // The dots rise to the right: a guide in the lower half is labelled at
      // its right end, one in the upper half at its left end, clear of them.
      const low = y(value) > (margin.top + frame.height - margin.bottom) / 2;
      svgText(svg, label, {
        x: low ? x.range()[1] - 4 : x.range()[0] + 4,
        y: y(value) - 4,
        'text-anchor': low ? 'end' : 'start',
        'font-size': 11,
        fill: cssColor('muted'),
      });
    }

    const radius = clamp((x(1) - x(0)) / 2.5, 1, 3);
    const d = dotsPathTenths(
      wavelengths.length,
      (column) => x(column),
      (column) => (wavelengths[column] > 0 && Number.isFinite(wavelengths[column]) ? y(wavelengths[column]) : NaN),
      radius,
    );
    svgElement('path', { d, transform: TENTHS, fill: cssColor('series-1') }, svg);

    const selected = data.dimension;
    if (Number.isInteger(selected) && wavelengths[selected] > 0 && Number.isFinite(wavelengths[selected])) {
      const cx = x(selected);
      const cy = y(wavelengths[selected]);
      svgElement('circle', { cx, cy, r: radius + 3, fill: 'none', stroke: cssColor('accent'), 'stroke-width': 2 }, svg);
      // In the top left corner, which the rising dots leave free (a label by the dot
      // would cross them or a guide line); the accent colour ties it to the ring.
      svgText(svg, `j = ${selected}: ${formatNumber(wavelengths[selected], 4)}`, {
        x: x.range()[0] + 4,
        y: margin.top + 30,
        'text-anchor': 'start',
        'paint-order': 'stroke',
        stroke: cssColor('bg'),
        'stroke-width': 3,
        fill: cssColor('accent'),
      });
    }
    frame.setLabel((options.describe ?? defaultDescribe)({ shortest, longest, count }));
  }

  return plotHandle(frame, current, render);
}
