// @vitest-environment jsdom
// The heatmaps' colour legend (web/plots/colours.js drawColorLegend): a ramp
// in device pixels from the plot's colour table, the domain's high end at the
// top, each row the colour of its place in the domain, checked against the
// interpolator itself at every row, at device pixel ratios 1 and 2.
import { describe, expect, it } from 'vitest';
import { scaleLinear } from 'd3-scale';
import { colorTable, drawColorLegend } from '../../../web/plots/colours.js';

// A ramp whose channels are linear in t: the expected colour of any row is known exactly.
const channels = (t) => [255 * t, 40, 255 * (1 - t)];
const interpolator = (t) => `rgb(${channels(t).map(Math.round).join(', ')})`;

function legendImage(ratio) {
  const puts = [];
  const context = {
    getTransform: () => ({ a: ratio }),
    createImageData: (width, height) => ({ width, height, data: new Uint8ClampedArray(width * height * 4) }),
    putImageData: (image, x, y) => puts.push({ image, x, y }),
  };
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  document.body.append(svg);
  drawColorLegend(context, svg, {
    colours: colorTable(interpolator),
    scale: scaleLinear().domain([-1, 1]),
    x: 300.5,
    y: 8,
    width: 12,
    height: 150,
    title: 'value',
  });
  expect(puts).toHaveLength(1);
  return puts[0];
}

describe('drawColorLegend', () => {
  for (const ratio of [1, 2]) {
    it(`paints the ramp in device pixels, high end on top, at a device pixel ratio of ${ratio}`, () => {
      const { image, x, y } = legendImage(ratio);
      // The box in device pixels: its edges rounded.
      expect([x, y]).toEqual([Math.round(300.5 * ratio), 8 * ratio]);
      expect([image.width, image.height]).toEqual([Math.round(312.5 * ratio) - Math.round(300.5 * ratio), 150 * ratio]);
      let worst = 0;
      for (let row = 0; row < image.height; row++) {
        const expected = channels(1 - row / (image.height - 1));
        for (let column = 0; column < image.width; column++) {
          const at = (row * image.width + column) * 4;
          for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(image.data[at + c] - expected[c]));
          expect(image.data[at + 3]).toBe(255);
        }
      }
      // The table's 512 entries and the rounding of each channel: within a level and a half.
      expect(worst).toBeLessThanOrEqual(1.5);
    });
  }
});
