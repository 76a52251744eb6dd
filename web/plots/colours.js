// Colour tables sampled from a colour map, and the heatmaps' colour legend.
import { drawAxis } from './axes.js';
import { deviceBox } from './frame.js';

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
 * A vertical colour ramp on the canvas from the colour table `colours` (colorTable: its first entry
 * at the bottom, the domain's low end), as one image in device pixels, skipped when context is null
 * (already painted); a d3 axis beside it. One image, not a fillRect per row with a CSS colour
 * string each: that would weigh on a heatmap's first draw.
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
