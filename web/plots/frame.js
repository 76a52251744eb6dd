// A plot's frame: a canvas and an svg sized to the container,
// devicePixelRatio-aware, redrawn on resize; and the handle a plot returns.
import { htmlElement, svgElement } from './svg.js';
import { cssColor } from './theme.js';

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
