// Shared pieces of the plots: a frame (canvas + svg sized to the container,
// devicePixelRatio-aware, redrawn on resize), theme colours as CSS custom
// properties (var() in svg styles follows a light/dark switch by itself), d3
// axes, colour tables and legends.
import { axisBottom, axisLeft, axisRight } from 'd3-axis';
import { select } from 'd3-selection';

const SVG_NS = 'http://www.w3.org/2000/svg';

// Used when the embedding page defines no --posenc-* variables.
const FALLBACK = {
  fg: '#1f2328',
  muted: '#59636e',
  grid: '#d0d7de',
  bg: '#ffffff',
  accent: '#c4320a',
  'series-1': '#1f6feb',
  'series-2': '#c4320a',
  'series-3': '#1a7f37',
  'series-4': '#8250df',
};
const SERIES_COUNT = 4;

/** A CSS colour that follows the theme, for svg attributes and styles. */
export const cssColor = (name) => `var(--posenc-${name}, ${FALLBACK[name]})`;
export const seriesColor = (index) => cssColor(`series-${(index % SERIES_COUNT) + 1}`);

export function svgElement(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) {
    // var() is certain to resolve in a style, not in every browser's presentation attributes.
    if (typeof value === 'string' && value.startsWith('var(')) node.style.setProperty(key, value);
    else node.setAttribute(key, String(value));
  }
  if (parent) parent.append(node);
  return node;
}

export function htmlElement(name, className, parent = null) {
  const node = document.createElement(name);
  if (className) node.className = className;
  if (parent) parent.append(node);
  return node;
}

/**
 * Renders into `element`: a role="img" surface holding an optional canvas under
 * an svg, sized to the element's width (height from `height(width)`).
 * `render()` is called when the width changes.
 */
export function createFrame(element, { className, height, canvas = false, render }) {
  const root = htmlElement('div', `posenc-plot ${className}`);
  const surface = htmlElement('div', 'posenc-surface', root);
  surface.setAttribute('role', 'img');
  Object.assign(surface.style, { position: 'relative', width: '100%' });
  let canvasNode = null;
  if (canvas) {
    canvasNode = htmlElement('canvas', null, surface);
    Object.assign(canvasNode.style, { position: 'absolute', left: '0', top: '0' });
  }
  const svg = svgElement('svg', { 'font-size': 11, 'font-family': 'system-ui, sans-serif' }, surface);
  Object.assign(svg.style, { position: 'absolute', left: '0', top: '0', overflow: 'visible', color: cssColor('fg') });
  element.replaceChildren(root);

  const frame = {
    root,
    surface,
    svg,
    canvas: canvasNode,
    context: canvasNode ? canvasNode.getContext('2d') : null,
    width: 0,
    height: 0,
    /**
     * Sizes the plot for a container `width` (default: the last one seen, so
     * an update does not force a layout); true when the size changed.
     */
    measure(width = frame.width) {
      const newHeight = Math.round(height(width));
      if (width === frame.width && newHeight === frame.height) return false;
      frame.width = width;
      frame.height = newHeight;
      surface.style.height = `${newHeight}px`;
      svg.setAttribute('width', width);
      svg.setAttribute('height', newHeight);
      svg.setAttribute('viewBox', `0 0 ${width} ${newHeight}`);
      if (canvasNode) sizeCanvas(canvasNode, width, newHeight);
      return true;
    },
    setLabel(text) {
      surface.setAttribute('aria-label', text);
    },
    destroy() {
      observer.disconnect();
      root.remove();
    },
  };

  // Only a width change matters: the height is derived from it.
  const observer = new ResizeObserver(([entry]) => {
    if (frame.measure(Math.floor(entry.contentRect.width)) && frame.width > 0) render();
  });
  observer.observe(element);
  frame.measure(Math.floor(element.clientWidth));
  return frame;
}

/** Backing store in device pixels, drawing in CSS pixels. */
function sizeCanvas(canvas, width, height) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(width * ratio));
  canvas.height = Math.max(1, Math.round(height * ratio));
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  canvas.getContext('2d').setTransform(ratio, 0, 0, ratio, 0, 0);
}

/** Removes every child of an svg group (plots redraw their overlays whole). */
export function clear(node) {
  node.replaceChildren();
  return node;
}

const AXES = { bottom: axisBottom, left: axisLeft, right: axisRight };

/** A d3 axis in a new group at (x, y), with an optional title. */
export function drawAxis(parent, scale, side, { x = 0, y = 0, ticks, format, title, titleOffset = 32 } = {}) {
  const group = svgElement('g', { transform: `translate(${x},${y})`, class: `axis axis-${side}` }, parent);
  const axis = AXES[side](scale);
  if (ticks !== undefined) axis.ticks(...[].concat(ticks));
  if (format) axis.tickFormat(format);
  select(group).call(axis);
  group.setAttribute('font-size', 11);
  group.setAttribute('font-family', 'inherit');
  if (title) {
    const [start, end] = scale.range();
    const middle = (start + end) / 2;
    const text =
      side === 'bottom'
        ? svgElement('text', { x: middle, y: titleOffset, 'text-anchor': 'middle' }, group)
        : svgElement(
            'text',
            {
              transform: `translate(${side === 'left' ? -titleOffset : titleOffset},${middle}) rotate(-90)`,
              'text-anchor': 'middle',
            },
            group,
          );
    text.setAttribute('fill', 'currentColor');
    text.textContent = title;
  }
  return group;
}

/** Text in an svg, coloured from the theme. */
export function svgText(parent, content, attributes = {}) {
  const node = svgElement('text', { fill: 'currentColor', ...attributes }, parent);
  node.textContent = content;
  return node;
}

/** An svg path through (xs[i], ys[i]); a NaN y breaks the line. */
export function linePath(count, x, y) {
  let d = '';
  let pen = false;
  for (let i = 0; i < count; i++) {
    const py = y(i);
    if (!Number.isFinite(py)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${py.toFixed(1)}`;
    pen = true;
  }
  return d;
}

function parseColor(color) {
  if (color.startsWith('#')) return [1, 3, 5].map((at) => parseInt(color.slice(at, at + 2), 16));
  return color.match(/\d+/g).slice(0, 3).map(Number);
}

/** RGBA lookup table of `size` entries sampled from a d3 interpolator. */
export function colorTable(interpolator, size = 512) {
  const table = new Uint8ClampedArray(size * 4);
  for (let i = 0; i < size; i++) {
    table.set(parseColor(interpolator(i / (size - 1))), i * 4);
    table[i * 4 + 3] = 255;
  }
  return table;
}

/**
 * Paints a row-major [rows x columns] array into the box (CSS pixels) of a
 * canvas as one ImageData at device resolution. Values are coloured by where
 * they fall in [low, high]; NaN cells are transparent. Exact: each device
 * pixel takes the mean colour of the cells it covers (a 2048-row table in 400
 * pixels must not alias into false slow waves); otherwise the colour of the
 * cell at its centre, which costs one lookup per pixel (a preview while a
 * slider moves).
 */
export function paintValues(context, values, rows, columns, table, low, high, box, exact = true) {
  const ratio = context.getTransform().a;
  const x0 = Math.round(box.left * ratio);
  const y0 = Math.round(box.top * ratio);
  const width = Math.max(1, Math.round((box.left + box.width) * ratio) - x0);
  const height = Math.max(1, Math.round((box.top + box.height) * ratio) - y0);
  const image = context.createImageData(width, height);
  const pixels = image.data;
  const last = table.length / 4 - 1;
  const factor = high > low ? last / (high - low) : 0;
  // Cells [from[i], to[i]) are drawn into output pixel i (along one axis).
  const cells = (count, size) => {
    const from = new Int32Array(size);
    const to = new Int32Array(size);
    for (let i = 0; i < size; i++) {
      if (exact) {
        from[i] = Math.min(count - 1, Math.floor((i * count) / size));
        to[i] = Math.max(from[i] + 1, Math.min(count, Math.floor(((i + 1) * count) / size)));
      } else {
        from[i] = Math.min(count - 1, Math.floor(((i + 0.5) * count) / size));
        to[i] = from[i] + 1;
      }
    }
    return { from, to };
  };
  const across = cells(columns, width);
  const down = cells(rows, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let red = 0;
      let green = 0;
      let blue = 0;
      let count = 0;
      for (let r = down.from[y]; r < down.to[y]; r++) {
        const offset = r * columns;
        for (let c = across.from[x]; c < across.to[x]; c++) {
          const value = values[offset + c];
          if (value !== value) continue;
          const at = (value - low) * factor;
          const entry = (at <= 0 ? 0 : at >= last ? last : (at + 0.5) | 0) * 4;
          red += table[entry];
          green += table[entry + 1];
          blue += table[entry + 2];
          count++;
        }
      }
      if (count === 0) continue;
      const pixel = (y * width + x) * 4;
      pixels[pixel] = red / count;
      pixels[pixel + 1] = green / count;
      pixels[pixel + 2] = blue / count;
      pixels[pixel + 3] = 255;
    }
  }
  context.putImageData(image, x0, y0);
}

/** A vertical colour ramp on the canvas (skipped when context is null: already painted) with a d3 axis beside it. */
export function drawColorLegend(context, svg, { interpolator, scale, x, y, width, height, title }) {
  const steps = Math.max(2, Math.round(height));
  const [low, high] = scale.domain();
  for (let i = 0; context && i < steps; i++) {
    const value = high - ((high - low) * i) / (steps - 1);
    context.fillStyle = interpolator((value - low) / (high - low));
    context.fillRect(x, y + (height * i) / steps, width, height / steps + 1);
  }
  const axisScale = scale.copy().range([y + height, y]);
  drawAxis(svg, axisScale, 'right', { x: x + width, ticks: 5, title, titleOffset: 38 });
}

/** Clamps v into [low, high]. */
export const clamp = (v, low, high) => (v < low ? low : v > high ? high : v);

/** A number with `digits` significant digits, without trailing noise. */
export function formatNumber(value, digits = 3) {
  if (!Number.isFinite(value)) return String(value);
  if (value !== 0 && (Math.abs(value) >= 1e5 || Math.abs(value) < 1e-3)) return value.toExponential(digits - 1);
  return String(Number(value.toPrecision(digits)));
}
