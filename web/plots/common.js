// Shared pieces of the plots: a frame (canvas + svg sized to the container,
// devicePixelRatio-aware, redrawn on resize), theme colours as CSS custom
// properties (var() in svg styles follows a light/dark switch by itself), axes
// (d3-axis's markup, updated in place), colour tables and legends.

export { formatNumber } from '../i18n/number.js';
export { averagesCells, paintCells, valueRange } from './paint.js';

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

// Plots redraw their svg whole at every render (clear(), then draw everything
// again), but its nodes are kept: clear() marks a node's children for reuse,
// and svgElement, svgText and drawAxis take its next child in drawing order
// when it is of the same kind, setting only the attributes that differ. A
// redraw that moves a marker then changes one attribute, and the browser
// restyles, lays out and repaints that alone (a slider drag redraws the plots
// on screen at every step). Children left over are removed once the render's
// task is done (a microtask).
// Parent -> index of its next child to reuse.
const reuse = new Map();
let trimQueued = false;
// Nodes whose children are drawn by svgElement (so they may be reused in order).
const CONTAINERS = new Set(['g', 'defs', 'marker']);

function trim() {
  trimQueued = false;
  for (const [parent, at] of reuse) while (parent.childNodes.length > at) parent.lastChild.remove();
  reuse.clear();
}

/** Starts a redraw of `node`'s children: they are reused in order, the rest removed afterwards. */
export function clear(node) {
  reuse.set(node, 0);
  if (!trimQueued) {
    trimQueued = true;
    queueMicrotask(trim);
  }
  return node;
}

/** The child of `parent` a redraw may reuse next, if it is a `name` (and passes `accept`), else null. */
function reusable(parent, name, accept = () => true) {
  const at = reuse.get(parent);
  if (at === undefined) return null;
  const candidate = parent.childNodes[at];
  return candidate?.localName === name && accept(candidate) ? candidate : null;
}

/** Puts `node` at the reuse position of `parent` (or last) and moves that position past it. */
function place(parent, node) {
  const at = reuse.get(parent);
  if (at === undefined) {
    if (node.parentNode !== parent) parent.append(node);
    return;
  }
  const current = parent.childNodes[at] ?? null;
  if (current !== node) parent.insertBefore(node, current);
  reuse.set(parent, at + 1);
}

// Per node: the attributes and styles svgElement set last ('attr:x', 'style:fill').
const applied = new WeakMap();

function setAttributes(node, attributes) {
  const before = applied.get(node);
  const after = new Map();
  for (const [key, value] of Object.entries(attributes)) {
    // var() is certain to resolve in a style, not in every browser's presentation attributes.
    const style = typeof value === 'string' && value.startsWith('var(');
    const text = String(value);
    const slot = `${style ? 'style' : 'attr'}:${key}`;
    after.set(slot, text);
    if (before?.get(slot) === text) continue;
    if (style) node.style.setProperty(key, text);
    else node.setAttribute(key, text);
  }
  for (const key of before?.keys() ?? []) {
    if (after.has(key)) continue;
    const [kind, name] = key.split(/:(.*)/);
    if (kind === 'style') node.style.removeProperty(name);
    else node.removeAttribute(name);
  }
  applied.set(node, after);
}

/**
 * The next child of `parent` in drawing order (see clear()). A container kept from the last redraw
 * starts a redraw of its own children, unless `keepChildren`: a part of the plot not redrawn this
 * time keeps what it shows.
 */
export function svgElement(name, attributes = {}, parent = null, { keepChildren = false } = {}) {
  const kept = parent && reusable(parent, name, (node) => node.dataset.axis === undefined);
  const node = kept ?? document.createElementNS(SVG_NS, name);
  setAttributes(node, attributes);
  if (parent) place(parent, node);
  if (kept && CONTAINERS.has(name) && !keepChildren) clear(node);
  return node;
}

export function htmlElement(name, className, parent = null) {
  const node = document.createElement(name);
  if (className) node.className = className;
  if (parent) parent.append(node);
  return node;
}

/**
 * Renders into `element`: a role="img" surface (plots with a keyboard cursor
 * make it an application) holding an optional canvas under
 * an svg, sized to the element's width (height from `height(width)`).
 * `render()` is called when the width changes.
 */
export function createFrame(element, { className, height, canvas = false, render }) {
  const root = htmlElement('div', `posenc-plot ${className}`);
  const surface = htmlElement('div', 'posenc-surface', root);
  surface.setAttribute('role', 'img');
  Object.assign(surface.style, { position: 'relative', width: '100%' });
  const svg = svgElement('svg', { 'font-size': 11, 'font-family': 'system-ui, sans-serif' }, surface);
  Object.assign(svg.style, { position: 'absolute', left: '0', top: '0', overflow: 'visible', color: cssColor('fg') });
  element.replaceChildren(root);
  let label = null;

  const frame = {
    root,
    surface,
    svg,
    canvas: null,
    context: null,
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
      if (frame.canvas) sizeCanvas(frame.canvas, width, newHeight);
      return true;
    },
    /** Adds the canvas under the svg (on: true) or removes it: for a plot that paints only sometimes. */
    useCanvas(on) {
      if (on === Boolean(frame.canvas)) return;
      if (on) {
        frame.canvas = htmlElement('canvas', null);
        Object.assign(frame.canvas.style, { position: 'absolute', left: '0', top: '0' });
        surface.insertBefore(frame.canvas, svg);
        frame.context = frame.canvas.getContext('2d');
        sizeCanvas(frame.canvas, frame.width, frame.height);
      } else {
        frame.canvas.remove();
        frame.canvas = null;
        frame.context = null;
      }
    },
    setLabel(text) {
      if (text !== label) surface.setAttribute('aria-label', text);
      label = text;
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
  frame.measure(Math.floor(contentWidth(element)));
  if (canvas) frame.useCanvas(true);
  return frame;
}

/**
 * The width of `element`'s content box, fractions kept: what its ResizeObserver reports
 * (contentRect). clientWidth is rounded (576.56 px gave 577, then the observer's first report
 * 576): every plot at a fractional width was rendered, and its image painted, twice on first draw.
 */
function contentWidth(element) {
  const style = getComputedStyle(element);
  let width = parseFloat(style.width);
  if (!Number.isFinite(width)) return element.clientWidth;
  if (style.boxSizing === 'border-box') {
    for (const side of ['Left', 'Right'])
      width -= parseFloat(style[`padding${side}`]) + parseFloat(style[`border${side}Width`]);
  }
  return Math.max(0, width);
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

/** Sets an attribute only when its value changes (setting it anyway marks the element for restyling). */
function setChanged(node, name, value) {
  if (node.getAttribute(name) !== String(value)) node.setAttribute(name, value);
}

/**
 * Draws the axis of `scale` on `side` ('bottom', 'left', 'right') into `group` as d3-axis does
 * (its markup, tick sizes, offsets and labels: the same picture), but in place: a tick kept from
 * the last draw changes only the attributes and the label that differ. d3-axis sets every tick's
 * attributes and replaces every label's text node at each call: in a slider drag, whose every
 * step changes a domain, that was most of the elements restyled and laid out per frame.
 */
function renderAxis(group, scale, side, ticks, format) {
  const vertical = side !== 'bottom';
  const k = side === 'left' ? -1 : 1;
  const across = vertical ? 'x' : 'y';
  const tickArguments = ticks === undefined ? [] : [].concat(ticks);
  const values = scale.ticks ? scale.ticks(...tickArguments) : scale.domain();
  const label = format ?? (scale.tickFormat ? scale.tickFormat(...tickArguments) : (value) => value);
  const [inner, outer, padding] = [6, 6, 3];
  const offset = window.devicePixelRatio > 1 ? 0 : 0.5;
  const range = scale.range();
  const [range0, range1] = [+range[0] + offset, +range[range.length - 1] + offset];
  let position = (value) => +scale(value);
  if (scale.bandwidth) {
    let shift = Math.max(0, scale.bandwidth() - offset * 2) / 2;
    if (scale.round()) shift = Math.round(shift);
    position = (value) => +scale(value) + shift;
  }
  if (!group.hasAttribute('text-anchor')) {
    // What d3-axis sets on a new axis only.
    group.setAttribute('fill', 'none');
    group.setAttribute('font-family', 'sans-serif');
    group.setAttribute('text-anchor', side === 'right' ? 'start' : side === 'left' ? 'end' : 'middle');
  }
  let domain = group.querySelector(':scope > path.domain');
  if (!domain) {
    domain = document.createElementNS(SVG_NS, 'path');
    domain.setAttribute('class', 'domain');
    domain.setAttribute('stroke', 'currentColor');
    group.prepend(domain);
  }
  setChanged(
    domain,
    'd',
    vertical
      ? `M${k * outer},${range0}H${offset}V${range1}H${k * outer}`
      : `M${range0},${k * outer}V${offset}H${range1}V${k * outer}`,
  );
  const kept = [...group.querySelectorAll(':scope > g.tick')];
  let before = domain;
  values.forEach((value, i) => {
    let tick = kept[i];
    if (!tick) {
      tick = document.createElementNS(SVG_NS, 'g');
      tick.setAttribute('class', 'tick');
      tick.setAttribute('opacity', 1);
      const line = document.createElementNS(SVG_NS, 'line');
      line.setAttribute('stroke', 'currentColor');
      line.setAttribute(`${across}2`, k * inner);
      const text = document.createElementNS(SVG_NS, 'text');
      text.setAttribute('fill', 'currentColor');
      text.setAttribute(across, k * (inner + padding));
      text.setAttribute('dy', vertical ? '0.32em' : '0.71em');
      tick.append(line, text);
      before.after(tick);
    }
    before = tick;
    const at = position(value) + offset;
    setChanged(tick, 'transform', vertical ? `translate(0,${at})` : `translate(${at},0)`);
    const text = tick.lastChild;
    const named = label(value, i);
    const content = named == null ? '' : String(named);
    setText(text, content);
  });
  for (const tick of kept.slice(values.length)) tick.remove();
}

/**
 * What an axis shows: where each tick goes, its label, the line, the title.
 * Without a format the labels follow from the scale's domain and tick count.
 */
function axisKey(scale, side, { x, y, ticks, format, title, titleOffset }) {
  const args = ticks === undefined ? [] : [].concat(ticks);
  const values = scale.ticks ? scale.ticks(...args) : scale.domain();
  const labels = format ? values.map(format).join(';') : `${scale.domain()}|${args}`;
  // d3 offsets by half a pixel at devicePixelRatio 1.
  return `${side}|${x},${y}|${scale.range()}|${window.devicePixelRatio}|${title}|${titleOffset}|${values.map(scale)}|${labels}`;
}

/**
 * A d3 axis in a group at (x, y), with an optional title. A redraw reuses the
 * group: untouched when the axis shows the same, else d3 updates its ticks in
 * place.
 */
export function drawAxis(parent, scale, side, { x = 0, y = 0, ticks, format, title, titleOffset = 32 } = {}) {
  const key = axisKey(scale, side, { x, y, ticks, format, title, titleOffset });
  const kept = reusable(parent, 'g', (node) => node.dataset.side === side);
  const group = kept ?? document.createElementNS(SVG_NS, 'g');
  place(parent, group);
  if (group.dataset.axis === key) return group;
  group.dataset.axis = key;
  if (group.dataset.side !== side) group.dataset.side = side;
  setChanged(group, 'transform', `translate(${x},${y})`);
  setChanged(group, 'class', `axis axis-${side}`);
  renderAxis(group, scale, side, ticks, format);
  setChanged(group, 'font-size', 11);
  setChanged(group, 'font-family', 'inherit');
  let text = group.querySelector(':scope > text.axis-title');
  if (!title) {
    text?.remove();
    return group;
  }
  if (!text) {
    text = document.createElementNS(SVG_NS, 'text');
    text.setAttribute('class', 'axis-title');
    text.setAttribute('fill', 'currentColor');
    text.setAttribute('text-anchor', 'middle');
    group.append(text);
  }
  const [start, end] = scale.range();
  const middle = (start + end) / 2;
  if (side === 'bottom') {
    setChanged(text, 'x', middle);
    setChanged(text, 'y', titleOffset);
  } else {
    setChanged(text, 'transform', `translate(${side === 'left' ? -titleOffset : titleOffset},${middle}) rotate(-90)`);
  }
  setText(text, title);
  return group;
}

/**
 * Sets an element's text. Where it holds a single text node, that node's data
 * changes: `textContent =` replaces it, and Chromium lays a new text node out
 * anew (a drag sets labels and notes at every step).
 */
export function setText(element, text) {
  const only = element.firstChild;
  if (only !== null && only === element.lastChild && only.nodeType === Node.TEXT_NODE) {
    if (only.data !== text) only.data = text;
  } else if (element.textContent !== text) element.textContent = text;
}

/**
 * Shows `notes` ([{ text, testId? }]) as the paragraphs of `container`, in
 * place: a drag rewords them at every step, and new paragraphs would be laid
 * out anew.
 */
export function showNotes(container, notes) {
  while (container.children.length > notes.length) container.lastChild.remove();
  notes.forEach(({ text, testId }, index) => {
    const line = container.children[index] ?? htmlElement('p', null, container);
    setText(line, text);
    if (testId && line.dataset.testid !== testId) line.dataset.testid = testId;
    else if (!testId && line.dataset.testid !== undefined) delete line.dataset.testid;
  });
}

/** Text in an svg, coloured from the theme (or by a fill attribute). */
export function svgText(parent, content, attributes = {}) {
  const node = svgElement('text', { fill: 'currentColor', ...attributes }, parent);
  setText(node, content);
  return node;
}

/**
 * Path coordinates in tenths of a pixel, as integers: they print several
 * times faster than toFixed(1) decimals, which matters for paths of thousands
 * of points redrawn while a slider moves. Such paths are drawn under the
 * transform TENTHS, with their stroke sizes times ten (strokeTenths).
 */
export const TENTHS = 'scale(0.1)';
export const tenths = (value) => Math.round(value * 10);
/** A stroke width or dash array ('7 5') for a path drawn under TENTHS. */
export const strokeTenths = (value) =>
  typeof value === 'number'
    ? value * 10
    : value
        .split(' ')
        .filter(Boolean)
        .map((part) => Number(part) * 10)
        .join(' ');

// Path data is written as ASCII bytes into a buffer and read out once, as one string. Joined from a
// few short strings a point, the curves and bands of the offset-dots view allocated 1.4 MB at every
// step of a dModel drag, and the young generation's collections fell into the heaviest frames.
// Finished paths leave their buffers to the next ones; a few, as a plot may write several paths at
// once (the row plot's stems and dots).
const spareBytes = [];
const SPARE_BUFFERS = 4;
const ascii = new TextDecoder();

/**
 * Path data in tenths of a pixel (see TENTHS): absolute moves, then relative lines whose steps are
 * a few characters each ('l6-31 6 8': one command letter, no separator before a minus sign) instead
 * of an absolute pair's ten or so. Curves of ~1000 points are made again at every step of a drag;
 * shorter data is quicker to make and for the browser to parse. The steps are differences of the
 * rounded points, so the points drawn are exactly those of absolute data. finish() gives the data.
 */
export class TenthsPath {
  #bytes = spareBytes.pop() ?? new Uint8Array(1 << 14);
  #length = 0;
  #x = 0;
  #y = 0;
  #joined = false;

  moveTo(x, y) {
    this.moveToTenths(tenths(x), tenths(y));
  }

  lineTo(x, y) {
    this.lineToTenths(tenths(x), tenths(y));
  }

  /** moveTo with the point already in tenths (integers). */
  moveToTenths(x, y) {
    this.#room();
    this.#bytes[this.#length++] = 77; // M
    this.#number(x);
    this.#bytes[this.#length++] = 44; // ,
    this.#number(y);
    this.#x = x;
    this.#y = y;
    this.#joined = false;
  }

  /** lineTo with the point already in tenths (integers). */
  lineToTenths(x, y) {
    this.#room();
    const dx = x - this.#x;
    const dy = y - this.#y;
    if (!this.#joined)
      this.#bytes[this.#length++] = 108; // l
    else if (!(dx < 0)) this.#bytes[this.#length++] = 32;
    this.#number(dx);
    if (!(dy < 0)) this.#bytes[this.#length++] = 32;
    this.#number(dy);
    this.#x = x;
    this.#y = y;
    this.#joined = true;
  }

  close() {
    this.#room();
    this.#bytes[this.#length++] = 90; // Z
  }

  /** Appends `text` (ASCII: commands and numbers written out, such as 'V' or 'h0') as it is. */
  append(text) {
    this.#room(text.length);
    for (let i = 0; i < text.length; i++) this.#bytes[this.#length++] = text.charCodeAt(i);
  }

  /** Appends a number (an integer of tenths) as String() writes it. */
  appendNumber(value) {
    this.#room();
    this.#number(value);
  }

  /** The path data, as a string; the path is done with (its buffer serves the next one). */
  finish() {
    const d = ascii.decode(this.#bytes.subarray(0, this.#length));
    if (spareBytes.length < SPARE_BUFFERS) spareBytes.push(this.#bytes);
    this.#bytes = null;
    return d;
  }

  // Room for a point (two numbers of up to 24 characters and three more), and `more` bytes.
  #room(more = 0) {
    if (this.#length + more + 64 <= this.#bytes.length) return;
    const grown = new Uint8Array(2 * (this.#bytes.length + more));
    grown.set(this.#bytes);
    this.#bytes = grown;
  }

  // As String(value) writes it: the steps of a curve are mostly one to three digits.
  #number(value) {
    const bytes = this.#bytes;
    let at = this.#length;
    // (-0 passes as 0, as String writes it.)
    if (value > -1000 && value < 1000 && Math.floor(value) === value) {
      let v = value;
      if (v < 0) {
        bytes[at++] = 45; // -
        v = -v;
      }
      if (v >= 100) bytes[at++] = 48 + Math.floor(v / 100);
      if (v >= 10) bytes[at++] = 48 + (Math.floor(v / 10) % 10);
      bytes[at++] = 48 + (v % 10);
    } else {
      // Larger (a move), or not a number at all ('NaN' as before: the browser stops the path there).
      const text = String(value);
      for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    }
    this.#length = at;
  }
}

/** linePath in tenths of a pixel (see TENTHS): a gap where y(i) is not finite. */
export function linePathTenths(count, x, y) {
  const path = new TenthsPath();
  let pen = false;
  for (let i = 0; i < count; i++) {
    const py = y(i);
    if (!Number.isFinite(py)) {
      pen = false;
      continue;
    }
    if (pen) path.lineTo(x(i), py);
    else path.moveTo(x(i), py);
    pen = true;
  }
  return path.finish();
}

/**
 * [d0, r0, k] of a d3 linear scale, as affine() maps: scale(v) = r0 + (v − d0)·k, or r0 alone
 * where the domain is one point (k null; as affine, the middle of the range).
 */
function linearParts(scale) {
  const [d0, d1] = scale.domain();
  const [r0, r1] = scale.range();
  return d1 === d0 ? [0, (r0 + r1) / 2, null] : [d0, r0, (r1 - r0) / (d1 - d0)];
}

/**
 * The x of points from, from + 1, … in integer tenths of a pixel: tenths(scale(from + i)), i <
 * count, into `out` (a new array if it is shorter). For valuesPathTenths and areaPathTenths.
 */
export function tenthsAlong(scale, from, count, out = null) {
  const xs = out && out.length >= count ? out : new Float64Array(count);
  const [d0, r0, k] = linearParts(scale);
  for (let i = 0; i < count; i++) xs[i] = Math.round((k === null ? r0 : r0 + (from + i - d0) * k) * 10);
  return xs;
}

/**
 * linePathTenths of the points (xTenths[i] in tenths, scale(values[i])), i < count, without a
 * function call a point: the same data.
 */
export function valuesPathTenths(xTenths, values, count, scale) {
  const [d0, r0, k] = linearParts(scale);
  const path = new TenthsPath();
  let pen = false;
  for (let i = 0; i < count; i++) {
    const y = k === null ? r0 : r0 + (values[i] - d0) * k;
    if (!Number.isFinite(y)) {
      pen = false;
      continue;
    }
    if (pen) path.lineToTenths(xTenths[i], Math.round(y * 10));
    else path.moveToTenths(xTenths[i], Math.round(y * 10));
    pen = true;
  }
  return path.finish();
}

/**
 * The area between the curves (xTenths[i], scale(upper[i])) and (xTenths[i], scale(lower[i])),
 * i < count, in tenths of a pixel (see TENTHS): along the upper, back along the lower, closed.
 */
export function areaPathTenths(xTenths, upper, lower, count, scale) {
  if (count === 0) return '';
  const map = affine(scale);
  const y = (v) => tenths(map(v));
  const path = new TenthsPath();
  path.moveToTenths(xTenths[0], y(upper[0]));
  for (let i = 1; i < count; i++) path.lineToTenths(xTenths[i], y(upper[i]));
  for (let i = count - 1; i >= 0; i--) path.lineToTenths(xTenths[i], y(lower[i]));
  path.close();
  return path.finish();
}

/** Path data of filled circles of radius r at (cx(i), cy(i)), in tenths of a pixel (see TENTHS). */
export function dotsPathTenths(count, cx, cy, r) {
  const radius = tenths(r);
  const arcs = `a${radius},${radius} 0 1,0 ${2 * radius},0a${radius},${radius} 0 1,0 ${-2 * radius},0`;
  const path = new TenthsPath();
  for (let i = 0; i < count; i++) {
    const y = cy(i);
    if (!Number.isFinite(y)) continue;
    path.moveToTenths(tenths(cx(i)) - radius, tenths(y));
    path.append(arcs);
  }
  return path.finish();
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

// Arrays also held off the main thread, by whoever made them (see setPainter).
const painters = new WeakMap();

/**
 * Declares that `values` is also held off the main thread (e.g. in the
 * worker that computed it), so that plots ask there for pixels and the value
 * range instead of reading the whole array on the main thread. painter:
 *   min, max: the value range;
 *   paint(request, owner) -> Promise<{ pixels, width, height, exact, superseded? } | null>,
 *     request as for paintCells: { rows, columns, colours, low, high, width, height, exact,
 *     symmetric? }; null when a later request of the same owner superseded it; superseded:
 *     a preview of values that newer ones already replace (no refinement needed);
 *   subtract?(otherPainter, owner) -> Promise<Float32Array | null>: values − other's
 *     (other: a painter with subtract too, from the same maker), itself held
 *     off the main thread;
 *   retain?(owner), release?(owner): a plot that may still read `values` (a
 *     readout) holds them; the maker may reuse an array nobody holds.
 */
export function setPainter(values, painter) {
  painters.set(values, painter);
}

/** The painter declared for `values`, or null: the plot then does the work itself. */
export const painterOf = (values) => painters.get(values) ?? null;

/** The device-pixel rectangle a box (CSS pixels) covers on a canvas. */
export function deviceBox(context, box) {
  const ratio = context.getTransform().a;
  const x = Math.round(box.left * ratio);
  const y = Math.round(box.top * ratio);
  const width = Math.max(1, Math.round((box.left + box.width) * ratio) - x);
  const height = Math.max(1, Math.round((box.top + box.height) * ratio) - y);
  return { x, y, width, height };
}

/**
 * A vertical colour ramp on the canvas from the colour table `colours` (colorTable: its first entry
 * at the bottom, the domain's low end), as one image in device pixels, skipped when context is null
 * (already painted); a d3 axis beside it. (A fillRect per row, its colour a CSS string from the
 * interpolator, took 5-7 ms of a heatmap's first draw.)
 */
export function drawColorLegend(context, svg, { colours, scale, x, y, width, height, title }) {
  if (context) {
    const device = deviceBox(context, { left: x, top: y, width, height });
    const image = context.createImageData(device.width, device.height);
    const last = colours.length / 4 - 1;
    for (let row = 0; row < device.height; row++) {
      const entry = Math.round((1 - row / Math.max(1, device.height - 1)) * last) * 4;
      for (let column = 0; column < device.width; column++)
        image.data.set(colours.subarray(entry, entry + 4), (row * device.width + column) * 4);
    }
    context.putImageData(image, device.x, device.y);
  }
  const axisScale = scale.copy().range([y + height, y]);
  drawAxis(svg, axisScale, 'right', { x: x + width, ticks: 5, title, titleOffset: 38 });
}

/**
 * A d3 linear scale as a plain function (the same map, a few times faster):
 * for the loops over every point of a curve.
 */
export function affine(scale) {
  const [d0, r0, k] = linearParts(scale);
  return k === null ? () => r0 : (v) => r0 + (v - d0) * k;
}

/** Clamps v into [low, high]. */
export const clamp = (v, low, high) => (v < low ? low : v > high ? high : v);

/**
 * What a plot drawn by `render` from `current` returns, after drawing it once:
 * update stores new data (keeping the options unless new ones are given),
 * re-measures the container and redraws; destroy removes the frame.
 */
export function plotHandle(frame, current, render) {
  render();
  return {
    update(data, options = current.options) {
      current.data = data;
      current.options = options;
      frame.measure();
      render();
    },
    destroy() {
      frame.destroy();
    },
  };
}
