// s(k) = PE(p)·PE(p+k) against the offset k, one curve per starting position
// p, overlaid so that coinciding curves are visible as one; below it, the
// per-frequency contributions stacked (positive parts up, negative down) so
// that their sum, drawn as a line, is s(k).
import { scaleLinear } from 'd3-scale';
import { interpolateViridis } from 'd3-scale-chromatic';
import {
  clamp,
  clear,
  createFrame,
  cssColor,
  drawAxis,
  htmlElement,
  linePathTenths,
  plotHandle,
  seriesColor,
  strokeTenths,
  svgElement,
  svgText,
  TENTHS,
} from './common.js';

// Later curves are dashed and thinner so an exact overlap still shows them all.
const DASHES = ['', '7 5', '2 4', '10 3 2 3'];

function spread(curves) {
  // Largest disagreement between the curves at offsets they share.
  let worst = 0;
  const [reference, ...others] = curves;
  for (const curve of others) {
    for (let i = 0; i < curve.values.length; i++) {
      const at = curve.first + i - reference.first;
      if (at < 0 || at >= reference.values.length) continue;
      worst = Math.max(worst, Math.abs(curve.values[i] - reference.values[at]));
    }
  }
  return worst;
}

const defaultDescribe = ({ curves, spread: worst }) =>
  `s(k) from ${curves.length} starting positions; largest disagreement ${worst.toExponential(2)}.`;

/**
 * data: { curves: [{ label, first, values }], offset?: selected k,
 *         contributions?: { first, bands: [{ label, values }] } }
 * options: { xTitle, yTitle, contributionsTitle, describe?(summary), height?(width) }
 */
export function draw(element, data, options = {}) {
  const current = { data, options };
  const frame = createFrame(element, {
    className: 'posenc-offset-dots',
    height: (width) =>
      current.options.height?.(width) ?? clamp(width * 0.42, 190, 300) * (current.data.contributions ? 1.9 : 1),
    render,
  });
  const key = htmlElement('ul', 'posenc-key', frame.root);
  let keyShown = null;
  // The stacked bands depend on the bands alone (not on p): drawn once per set
  // of bands in (index, value) units and placed by a transform.
  let stack = { bands: null, group: null };
  // The description doubles as a visible caption: whether the curves coincide is the point.
  const caption = htmlElement('p', 'posenc-caption', frame.root);
  caption.setAttribute('aria-hidden', 'true');

  function render() {
    if (frame.width === 0) return;
    const { data, options } = current;
    const svg = clear(frame.svg);
    const margin = { top: 10, right: 14, bottom: 40, left: 58 };
    const { curves, contributions } = data;
    let from = Infinity;
    let to = -Infinity;
    let low = 0;
    let high = 0;
    for (const { first, values } of curves) {
      from = Math.min(from, first);
      to = Math.max(to, first + values.length - 1);
      for (const v of values) {
        if (v < low) low = v;
        if (v > high) high = v;
      }
    }
    const x = scaleLinear()
      .domain([from, to])
      .range([margin.left, frame.width - margin.right]);
    const innerHeight = frame.height - margin.top - margin.bottom;
    const topHeight = contributions ? innerHeight * 0.5 : innerHeight;
    const pad = (high - low) * 0.06 || 1;
    const y = scaleLinear()
      .domain([low - pad, high + pad])
      .range([margin.top + topHeight, margin.top]);

    svgElement('line', { x1: x.range()[0], x2: x.range()[1], y1: y(0), y2: y(0), stroke: cssColor('grid') }, svg);
    drawAxis(svg, y, 'left', { x: margin.left, ticks: 4, title: options.yTitle, titleOffset: 44 });
    curves.forEach(({ first, values }, index) => {
      svgElement(
        'path',
        {
          d: linePathTenths(
            values.length,
            (i) => x(first + i),
            (i) => y(values[i]),
          ),
          transform: TENTHS,
          fill: 'none',
          stroke: seriesColor(index),
          'stroke-width': strokeTenths(index === 0 ? 3 : 1.6),
          'stroke-dasharray': strokeTenths(DASHES[index % DASHES.length]),
        },
        svg,
      );
    });
    if (Number.isFinite(data.offset) && data.offset >= from && data.offset <= to) {
      for (const k of new Set([data.offset, -data.offset])) {
        if (k < from) continue;
        svgElement(
          'line',
          {
            x1: x(k),
            x2: x(k),
            y1: margin.top,
            y2: frame.height - margin.bottom,
            stroke: cssColor('accent'),
            'stroke-dasharray': '3 3',
          },
          svg,
        );
      }
    }

    if (contributions)
      drawContributions(svg, contributions, x, margin.top + topHeight + 18, innerHeight - topHeight - 18, options);
    drawAxis(svg, x, 'bottom', {
      y: frame.height - margin.bottom + 2,
      ticks: Math.max(2, frame.width / 80),
      title: options.xTitle,
    });

    const labels = [...curves, ...(contributions?.bands ?? [])].map(({ label }) => label).join('\n');
    if (labels !== keyShown) {
      keyShown = labels;
      key.replaceChildren();
      curves.forEach(({ label }, index) =>
        addKey(label, seriesColor(index), DASHES[index % DASHES.length] ? 'dashed' : 'solid'),
      );
      contributions?.bands.forEach(({ label }, index) =>
        addKey(label, bandColour(index, contributions.bands.length), 'band'),
      );
    }
    const description = (options.describe ?? defaultDescribe)({ curves, spread: spread(curves) });
    frame.setLabel(description);
    caption.textContent = description;
  }

  function addKey(label, colour, kind) {
    const item = htmlElement('li', `posenc-key-${kind}`, key);
    const swatch = htmlElement('span', 'posenc-swatch', item);
    swatch.setAttribute('aria-hidden', 'true');
    if (kind === 'band') swatch.style.background = colour;
    else swatch.style.borderTop = `3px ${kind} ${colour}`;
    item.append(label);
  }

  const bandColour = (index, count) => interpolateViridis(count === 1 ? 0.5 : 0.9 - (0.8 * index) / (count - 1));

  /** The bands stacked (positive parts up, negative down) and their sum, as paths in (index, value × scale) units. */
  function stackBands(bands) {
    const count = bands[0]?.values.length ?? 0;
    const up = new Float64Array(count);
    const down = new Float64Array(count);
    const total = new Float64Array(count);
    const layers = bands.map(({ values }) => {
      const lower = new Float64Array(count);
      const upper = new Float64Array(count);
      for (let i = 0; i < count; i++) {
        const v = values[i];
        const base = v >= 0 ? up : down;
        lower[i] = base[i];
        base[i] += v;
        upper[i] = base[i];
        total[i] += v;
      }
      return { lower, upper };
    });
    let low = 0;
    let high = 0;
    for (let i = 0; i < count; i++) {
      low = Math.min(low, down[i]);
      high = Math.max(high, up[i]);
    }
    if (high === 0) high = 1;
    // Values as integers (they print fast) on a grid far finer than a pixel.
    const scale = 1e4 / (high - low);
    const at = (v) => Math.round(v * scale);
    const group = svgElement('g', {});
    layers.forEach(({ lower, upper }, index) => {
      let d = '';
      for (let i = 0; i < count; i++) d += `${i ? 'L' : 'M'}${i},${at(upper[i])}`;
      for (let i = count - 1; i >= 0; i--) d += `L${i},${at(lower[i])}`;
      svgElement('path', { d: `${d}Z`, fill: bandColour(index, bands.length), 'fill-opacity': 0.85 }, group);
    });
    let d = '';
    for (let i = 0; i < count; i++) d += `${i ? 'L' : 'M'}${i},${at(total[i])}`;
    // The transform stretches x and y unequally: the line keeps its width on screen.
    svgElement(
      'path',
      { d, fill: 'none', stroke: cssColor('fg'), 'stroke-width': 1.2, 'vector-effect': 'non-scaling-stroke' },
      group,
    );
    return { group, low, high, scale };
  }

  function drawContributions(svg, { first, bands }, x, top, height, options) {
    const values = bands.map((band) => band.values);
    if (!stack.bands || stack.bands.length !== values.length || stack.bands.some((v, i) => v !== values[i])) {
      stack = { bands: values, ...stackBands(bands) };
    }
    const { group, low, high, scale } = stack;
    const y = scaleLinear()
      .domain([low, high])
      .range([top + height, top]);
    // (i, v × scale) -> (x(first + i), y(v)); both scales are linear.
    const xStep = x(first + 1) - x(first);
    const yStep = (y(1) - y(0)) / scale;
    group.setAttribute('transform', `matrix(${xStep},0,0,${yStep},${x(first)},${y(0)})`);
    svg.append(group);
    drawAxis(svg, y, 'left', { x: x.range()[0], ticks: 4 });
    if (options.contributionsTitle)
      svgText(svg, options.contributionsTitle, { x: x.range()[0] + 6, y: top - 4, 'font-size': 11 });
  }

  return plotHandle(frame, current, render);
}
