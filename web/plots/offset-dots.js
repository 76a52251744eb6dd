// s(k) = PE(p)·PE(p+k) against the offset k, one curve per starting position
// p, overlaid so that coinciding curves are visible as one; below it, the
// per-frequency contributions stacked (positive parts up, negative down) so
// that their sum, drawn as a line, is s(k).
import { scaleLinear } from 'd3-scale';
import { interpolateViridis } from './palettes.js';
import { drawAxis } from './axes.js';
import { createFrame, plotHandle } from './frame.js';
import { areaPathTenths, clamp, strokeTenths, TENTHS, tenthsAlong, valuesPathTenths } from './path-data.js';
import { clear, htmlElement, setText, svgElement, svgText } from './svg.js';
import { cssColor, seriesColor } from './theme.js';

// Later curves are dashed and thinner so an exact overlap still shows them all.
const DASHES = ['', '7 5', '2 4', '10 3 2 3'];

// Bands off screen are drawn this long after the last change (if they have not scrolled in first).
const BANDS_LATER_MS = 300;

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
 * options: { xTitle, yTitle, contributionsTitle, offsetLabel?(k): the dashed marks' label,
 *            describe?(summary), height?(width) }
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
  // The bands' paths and their sum's, and where they were drawn for: made again only when the bands or
  // their place change (a drag of p redraws the plot with the same bands).
  let bandsShown = { place: [], paths: [], sum: '' };
  // The stacked bands depend on the bands alone (not on p): computed once per set of bands.
  let stack = { bands: null, layers: [] };
  // The x of the offsets shown and of the bands, in tenths of a pixel (arrays kept for the next redraw).
  let xShown = null;
  let bandsX = null;
  // The description doubles as a visible caption: whether the curves coincide is the point.
  const caption = htmlElement('p', 'posenc-caption', frame.root);
  caption.setAttribute('aria-hidden', 'true');

  // The bands are the plot's costliest part (six polygons of a point per offset, made, parsed and
  // laid out at every step of a drag). While their part of the plot is off screen (the plot's top
  // peeking in under the one above it) they wait: they are drawn when it scrolls in, or a moment
  // after the last change (an export reads them). An empty box over them tells where they are.
  const bandsArea = htmlElement('div', null, frame.surface);
  Object.assign(bandsArea.style, { position: 'absolute', left: '0', right: '0', pointerEvents: 'none' });
  let bandsAreaPlace = '';
  let bandsInView = true;
  let bandsLater = null;
  let bandsTimer = 0;
  function drawBandsLater(drawBands) {
    bandsLater = drawBands;
    clearTimeout(bandsTimer);
    bandsTimer = setTimeout(drawBandsNow, BANDS_LATER_MS);
  }
  function drawBandsNow() {
    clearTimeout(bandsTimer);
    const drawBands = bandsLater;
    bandsLater = null;
    drawBands?.();
  }
  const bandsWatcher =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => {
          bandsInView = entries[entries.length - 1].isIntersecting;
          if (bandsInView) drawBandsNow();
        })
      : null;
  bandsWatcher?.observe(bandsArea);

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
      // (Indexed: for-of makes an iterator result per value, garbage at every step of a drag.)
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
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
    // The x of every offset shown, once for all the curves (and the bands, over the same offsets).
    const xTenths = (xShown = tenthsAlong(x, from, curves.length ? to - from + 1 : 0, xShown));
    curves.forEach(({ first, values }, index) => {
      svgElement(
        'path',
        {
          d: valuesPathTenths(xTenths.subarray(first - from), values, values.length, y),
          transform: TENTHS,
          fill: 'none',
          stroke: seriesColor(index),
          'stroke-width': strokeTenths(index === 0 ? 3 : 1.6),
          'stroke-dasharray': strokeTenths(DASHES[index % DASHES.length]),
        },
        svg,
      );
    });

    const bandsTop = margin.top + topHeight;
    const placeText = contributions ? `${bandsTop} ${frame.height - bandsTop}` : 'none';
    if (placeText !== bandsAreaPlace) {
      bandsAreaPlace = placeText;
      Object.assign(bandsArea.style, {
        display: contributions ? '' : 'none',
        top: `${bandsTop}px`,
        height: `${frame.height - bandsTop}px`,
      });
    }
    if (contributions) {
      const group = svgElement('g', {}, svg, { keepChildren: !bandsInView });
      const drawBands = () =>
        drawContributions(clear(group), contributions, x, bandsTop + 18, innerHeight - topHeight - 18, options);
      if (bandsInView) {
        bandsLater = null;
        drawBands();
      } else drawBandsLater(drawBands);
    } else bandsLater = null;
    drawAxis(svg, x, 'bottom', {
      y: frame.height - margin.bottom + 2,
      ticks: Math.max(2, frame.width / 80),
      title: options.xTitle,
    });
    // The selected offset (and its mirror), last: how many there are changes nothing before them.
    const marks = svgElement('g', {}, svg);
    // Over both plots, not across the bands' title between them.
    const spans = contributions
      ? [
          [margin.top, margin.top + topHeight],
          [margin.top + topHeight + 18, frame.height - margin.bottom],
        ]
      : [[margin.top, frame.height - margin.bottom]];
    if (Number.isFinite(data.offset) && data.offset >= from && data.offset <= to) {
      for (const k of new Set([data.offset, -data.offset])) {
        if (k < from) continue;
        for (const [y1, y2] of spans) {
          svgElement(
            'line',
            { x1: x(k), x2: x(k), y1, y2, stroke: cssColor('accent'), 'stroke-dasharray': '3 3' },
            marks,
          );
        }
        // Named, or the reader cannot tell them from the dashed curves.
        if (options.offsetLabel) {
          // (Through svgText's attributes, set only when they change: not restyled at every step of a drag.)
          svgText(marks, options.offsetLabel(k), {
            x: x(k) + (k < 0 ? -4 : 4),
            y: margin.top + 10,
            fill: cssColor('accent'),
            ...(k < 0 && { 'text-anchor': 'end' }),
          });
        }
      }
    }

    const entries = [
      ...curves.map(({ label }, index) => ({
        label,
        colour: seriesColor(index),
        kind: DASHES[index % DASHES.length] ? 'dashed' : 'solid',
      })),
      ...(contributions?.bands ?? []).map(({ label }, index, bands) => ({
        label,
        colour: bandColour(index, bands.length),
        kind: 'band',
      })),
    ];
    const kinds = entries.map(({ colour, kind }) => `${kind} ${colour}`).join('\n');
    if (kinds !== keyShown) {
      keyShown = kinds;
      key.replaceChildren(...entries.map(keyItem));
    }
    // The labels (they follow p and dModel) change in place.
    entries.forEach(({ label }, index) => {
      const text = key.children[index].lastChild;
      if (text.data !== label) text.data = label;
    });
    const description = (options.describe ?? defaultDescribe)({ curves, spread: spread(curves) });
    frame.setLabel(description);
    setText(caption, description);
  }

  function keyItem({ label, colour, kind }) {
    const item = htmlElement('li', `posenc-key-${kind}`);
    const swatch = htmlElement('span', 'posenc-swatch', item);
    swatch.setAttribute('aria-hidden', 'true');
    if (kind === 'band') swatch.style.background = colour;
    else swatch.style.borderTop = `3px ${kind} ${colour}`;
    item.append(document.createTextNode(label));
    return item;
  }

  const bandColour = (index, count) => interpolateViridis(count === 1 ? 0.5 : 0.9 - (0.8 * index) / (count - 1));

  /**
   * The bands stacked (positive parts up, negative down) and their sum; in the arrays of `previous`
   * (the stack they replace) when it has the same shape: a drag makes a new stack at every step.
   */
  function stackBands(bands, previous) {
    const count = bands[0]?.values.length ?? 0;
    const reuse = previous.count === count && previous.layers.length === bands.length;
    const array = (old) => (reuse ? old.fill(0) : new Float64Array(count));
    const up = array(previous.up);
    const down = array(previous.down);
    const total = array(previous.total);
    const layers = bands.map(({ values }, index) => {
      const lower = array(previous.layers[index]?.lower);
      const upper = array(previous.layers[index]?.upper);
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
    return { count, layers, total, low, high, up, down };
  }

  function drawContributions(group, { first, bands }, x, top, height, options) {
    const values = bands.map((band) => band.values);
    if (!stack.bands || stack.bands.length !== values.length || stack.bands.some((v, i) => v !== values[i])) {
      stack = { bands: values, ...stackBands(bands, stack) };
    }
    const { count, layers, total, low, high } = stack;
    const y = scaleLinear()
      .domain([low, high])
      .range([top + height, top]);
    // Filled areas of many points each, as svg paths: on a canvas the browser rasterises them on the
    // main thread as it commits the frame (a software canvas), an svg path is rasterised off it, by
    // the compositor.
    const place = [stack, first, ...x.domain(), ...x.range(), top, height];
    if (place.length !== bandsShown.place.length || place.some((part, i) => part !== bandsShown.place[i])) {
      bandsX = tenthsAlong(x, first, count, bandsX);
      bandsShown = {
        place,
        paths: layers.map(({ lower, upper }) => areaPathTenths(bandsX, upper, lower, count, y)),
        sum: valuesPathTenths(bandsX, total, count, y),
      };
    }
    bandsShown.paths.forEach((d, index) =>
      svgElement(
        'path',
        { d, transform: TENTHS, fill: bandColour(index, bands.length), 'fill-opacity': 0.85, stroke: 'none' },
        group,
      ),
    );
    // Their sum is a line in the svg, in the theme's colour.
    svgElement(
      'path',
      {
        d: bandsShown.sum,
        transform: TENTHS,
        fill: 'none',
        stroke: cssColor('fg'),
        'stroke-width': strokeTenths(1.2),
      },
      group,
    );
    drawAxis(group, y, 'left', { x: x.range()[0], ticks: 4 });
    if (options.contributionsTitle) {
      // Over the plot area, or from the left edge where a narrow plot would clip it (~6 px a character).
      const fits = x.range()[0] + 6 + options.contributionsTitle.length * 6 <= frame.width;
      svgText(group, options.contributionsTitle, { x: fits ? x.range()[0] + 6 : 4, y: top - 4, 'font-size': 11 });
    }
  }

  const handle = plotHandle(frame, current, render);
  return {
    ...handle,
    destroy() {
      bandsWatcher?.disconnect();
      clearTimeout(bandsTimer);
      handle.destroy();
    },
  };
}
