// @vitest-environment jsdom
// A heatmap whose values no worker holds paints on the main thread: previews
// (the cell under each pixel's centre) while its data changes faster than
// SETTLE_MS, and the exact image (area-averaged) once the changes pause: the
// image a drag stops on is exact within 100 ms of its last change (issue #21's
// settle target). With no more cells than pixels the exact image costs what a
// preview does, and is painted at once. The pixels themselves are checked in paint.test.js.
// Also: an update that says the same leaves the note under the map untouched.
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { draw } from '../../../web/plots/heatmap.js';
import { colorTable } from '../../../web/plots/colours.js';
import { paintCells } from '../../../web/plots/paint.js';

const WIDTH = 640;
// The images put into the canvas, copied.
const puts = [];

beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    disconnect() {}
  };
  // jsdom has no canvas: a 2d context that records the images put, and does nothing else.
  const context = new Proxy(
    {
      measureText: (text) => ({ width: 6 * text.length }),
      getTransform: () => ({ a: 1 }),
      createImageData: (width, height) => ({ width, height, data: new Uint8ClampedArray(width * height * 4) }),
      // The cells' images (the colour legend's ramp, 12 px wide, is an image too).
      putImageData: (image) =>
        image.width > 100 && puts.push({ width: image.width, height: image.height, data: image.data.slice() }),
    },
    { get: (target, key) => target[key] ?? (() => {}), set: () => true },
  );
  HTMLCanvasElement.prototype.getContext = () => context;
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  puts.length = 0;
});

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

const [ROWS, COLUMNS] = [40, 1500];
// More columns than the plot has pixels, changing from one column to the next: exact and preview differ.
const data = (phase) => ({
  rows: ROWS,
  columns: COLUMNS,
  values: Float32Array.from({ length: ROWS * COLUMNS }, (_, k) => Math.sin((k % COLUMNS) * 2.1 + phase + k / COLUMNS)),
});
const interpolator = (t) => `rgb(${Math.round(255 * t)}, 40, ${Math.round(255 * (1 - t))})`;
const options = { interpolator, domain: [-1, 1], xTitle: 'dimension', yTitle: 'position' };

function container() {
  const element = document.createElement('div');
  Object.defineProperty(element, 'clientWidth', { value: WIDTH });
  document.body.append(element);
  return element;
}

// Compared byte by byte (toEqual on arrays of 80,000 bytes takes seconds).
const same = (a, b) => a.length === b.length && a.every((value, i) => value === b[i]);

/** The image a paint of `values` at the last put's size gives, exact or preview. */
const painted = ({ values }, exact) => {
  const { width, height } = puts.at(-1);
  return paintCells(values, ROWS, COLUMNS, colorTable(interpolator), -1, 1, width, height, exact);
};

it('paints previews while its data changes quickly, and the exact image within 100 ms of the last change', () => {
  const plot = draw(container(), data(0), options);
  expect(puts.length).toBe(1);
  // The next values 16 ms later, as at every frame of a drag: a preview.
  vi.advanceTimersByTime(16);
  const last = data(1);
  plot.update(last, options);
  expect(puts.length).toBe(2);
  expect(puts[1].width).toBeLessThan(COLUMNS);
  expect(same(puts[1].data, painted(last, false))).toBe(true);
  expect(same(puts[1].data, painted(last, true))).toBe(false);
  // The drag stops: within 100 ms the plot shows the exact image (it came after 150 ms).
  vi.advanceTimersByTime(100);
  expect(puts.length).toBe(3);
  expect(same(puts[2].data, painted(last, true))).toBe(true);
});

it('paints no exact image while the changes keep coming a frame apart, even at 4x CPU throttling', () => {
  const plot = draw(container(), data(0), options);
  // Frames 50 ms apart (a throttled drag): every image a preview, none refined in between.
  for (let step = 1; step <= 6; step++) {
    vi.advanceTimersByTime(50);
    plot.update(data(step), options);
  }
  expect(puts.length).toBe(7);
  expect(same(puts[6].data, painted(data(6), false))).toBe(true);
  vi.advanceTimersByTime(100);
  expect(puts.length).toBe(8);
  expect(same(puts[7].data, painted(data(6), true))).toBe(true);
});

it('paints a table with no more cells than pixels exact at every change: nothing to refine after a drag', () => {
  // 40 rows by 300 columns in a plot wider than 300 pixels: each pixel shows one cell, exact or not.
  const small = (phase) => ({
    rows: ROWS,
    columns: 300,
    values: Float32Array.from({ length: ROWS * 300 }, (_, k) => Math.sin((k % 300) * 2.1 + phase + k / 300)),
  });
  const smallPainted = ({ values }, exact) => {
    const { width, height } = puts.at(-1);
    return paintCells(values, ROWS, 300, colorTable(interpolator), -1, 1, width, height, exact);
  };
  const plot = draw(container(), small(0), options);
  for (let step = 1; step <= 3; step++) {
    vi.advanceTimersByTime(16);
    plot.update(small(step), options);
  }
  expect(puts.length).toBe(4);
  expect(puts[3].width).toBeGreaterThan(300);
  // The exact image (the cell under each pixel's left edge) differs from a preview's (its centre)…
  expect(same(smallPainted(small(3), true), smallPainted(small(3), false))).toBe(false);
  // …and is the one shown, at once; no repaint follows.
  expect(same(puts[3].data, smallPainted(small(3), true))).toBe(true);
  vi.advanceTimersByTime(200);
  expect(puts.length).toBe(4);
});

it('leaves its cover note alone when an update says the same (no attribute set again)', () => {
  const noted = { ...options, coverNote: ({ rows, columns }) => `a pixel covers ${rows} × ${columns} cells` };
  // No note to say: hidden.
  const plot = draw(container(), data(0), options);
  const note = document.body.lastChild.querySelector('p.posenc-caption');
  expect(note.hidden).toBe(true);
  const observer = new MutationObserver(() => {});
  observer.observe(note, { attributes: true, childList: true, characterData: true, subtree: true });
  const changes = () => observer.takeRecords().map((record) => `${record.type} ${record.attributeName ?? ''}`);
  // New values, still nothing to say: the hidden note is not touched (a set attribute restyles it).
  plot.update(data(1), options);
  expect(changes()).toEqual([]);
  // A note to say: shown, once; the same again changes nothing.
  plot.update(data(2), noted);
  expect(note.hidden).toBe(false);
  expect(note.textContent).toMatch(/^a pixel covers /);
  expect(changes()).toContain('attributes hidden');
  plot.update(data(3), noted);
  expect(changes()).toEqual([]);
  observer.disconnect();
});
