// @vitest-environment jsdom
// The precision plot's error map: values with a painter (the page's worker paints them) are put
// as the painter's pixels, and nothing is painted on the main thread; values without one (the
// <posenc-precision> element has no worker) are painted here.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { draw } from '../../../web/plots/precision.js';

const context = {
  createImageData: vi.fn((width, height) => ({ width, height, data: new Uint8ClampedArray(width * height * 4) })),
  putImageData: vi.fn(),
};

// What the plots read of a context: text widths (6 px a character) and the device scale.
const FALLBACK = {
  measureText: () => (text) => ({ width: 6 * text.length }),
  getTransform: () => () => ({ a: 1, d: 1 }),
};

beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    disconnect() {}
  };
  // jsdom has no canvas: a 2d context that records the image calls, and does nothing else.
  const proxy = new Proxy(context, {
    get: (target, key) => target[key] ?? FALLBACK[key]?.() ?? (() => {}),
    set: () => true,
  });
  HTMLCanvasElement.prototype.getContext = () => proxy;
  // The map's holder is laid out 640 px wide (jsdom lays out nothing).
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 640 });
  globalThis.ImageData ??= class {
    constructor(data, width, height) {
      Object.assign(this, { data, width, height });
    }
  };
});

// The calls for the map's cells: the colour legend's ramp (12 px wide) is an image of its own.
const cellCalls = (mock) => mock.mock.calls.filter(([first]) => (typeof first === 'number' ? first : first.width) > 12);

function container() {
  const element = document.createElement('div');
  document.body.append(element);
  return element;
}

const dataOf = (values, painter) => ({
  map: { values, painter, rows: 8, columns: 4 },
  facts: { caption: 'facts', head: ['format'], rows: [['float16']] },
  notes: [],
});

describe('precision plot', () => {
  it("puts the painter's pixels and paints nothing itself", async () => {
    const values = new Float32Array(32).map((_, i) => i / 16 - 1);
    const requests = [];
    const painter = {
      min: -1,
      max: 15 / 16,
      paint: (request) => {
        requests.push(request);
        const { width, height } = request;
        return Promise.resolve({ pixels: new Uint8ClampedArray(width * height * 4), width, height, exact: true });
      },
    };
    context.createImageData.mockClear();
    context.putImageData.mockClear();
    const plot = draw(container(), dataOf(values, painter), { domain: [-1, 1] });
    await Promise.resolve();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ rows: 8, columns: 4, low: -1, high: 1 });
    expect(cellCalls(context.createImageData)).toHaveLength(0);
    expect(cellCalls(context.putImageData)).toHaveLength(1);
    expect(cellCalls(context.putImageData)[0][0].width).toBe(requests[0].width);
    plot.destroy();
  });

  it('paints the map itself when its values have no painter', () => {
    context.createImageData.mockClear();
    context.putImageData.mockClear();
    const plot = draw(container(), dataOf(new Float32Array(32).fill(0.5)), { domain: [-1, 1] });
    expect(cellCalls(context.createImageData)).toHaveLength(1);
    expect(cellCalls(context.putImageData)).toHaveLength(1);
    plot.destroy();
  });
});
