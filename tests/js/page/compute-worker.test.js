// The compute worker (web/page/compute-worker.js) and its client
// (web/page/compute-client.js) in one Node process: the worker's `self` and
// the client's Worker are stand-ins that pass messages as tasks of their own,
// transferred, as a browser does. What is checked is what a drag needs: an
// array that a newer one already replaces is painted only as a preview, the
// array a drag settles on exact, and an image painted ahead for the next
// similarity matrix is the one the plot asks for (not computed and painted a
// second time). Pixels are checked against paintCells run here on the values.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { paintCells } from '../../../web/plots/paint.js';
import { DEFAULTS } from '../../../web/model/state.js';
import { expectClose, FLOAT32_EPSILON } from '../tolerance.js';

// Called with each similarity the worker's core computes (the moment a message may be on its way).
const hooks = { onSimilarity: null, onTable: null };
vi.mock('../../../web/lib/index.js', async (importOriginal) => {
  const lib = await importOriginal();
  // (The module object is frozen: a stand-in that reads through to it.)
  const watched = (pe) =>
    new Proxy(
      {},
      {
        get(_, name) {
          const value = Reflect.get(pe, name);
          if (name === 'similarity')
            return (...args) => {
              const result = value.apply(pe, args);
              hooks.onSimilarity?.();
              return result;
            };
          if (name === 'table')
            return (...args) => {
              const result = value.apply(pe, args);
              hooks.onTable?.();
              return result;
            };
          return typeof value === 'function' ? value.bind(pe) : value;
        },
      },
    );
  return { ...lib, load: (options) => lib.load(options).then(watched) };
});

// Messages as tasks of their own, in order; their buffers transferred.
const deliver = (handler, message, transfer = []) => {
  const data = structuredClone(message, { transfer });
  setTimeout(() => handler({ data }));
};
// Where the worker's messages go: this test's list, or the client's worker object.
let workerSink = null;
globalThis.self = {
  // More than two cores: the worker does not rest between jobs (timings are not what is tested).
  navigator: { hardwareConcurrency: 8 },
  postMessage: (message, transfer) => workerSink(message, transfer),
  onmessage: null,
};
const toWorker = (message, transfer) => deliver(globalThis.self.onmessage, message, transfer);

/**
 * A stand-in Worker for the client, behind which runs the module above: the messages it is sent
 * go to `sent` (or the result of `keep(message)`), the worker's answers to `received`.
 */
function standInWorker({ sent = [], received = [], keep = (message) => message } = {}) {
  globalThis.Worker = class {
    constructor() {
      workerSink = (message, transfer) =>
        deliver(
          (event) => {
            received.push(event.data);
            this.onmessage?.(event);
          },
          message,
          transfer,
        );
    }
    postMessage(message, transfer) {
      sent.push(keep(message));
      toWorker(message, transfer);
    }
    terminate() {}
  };
  return { sent, received };
}

// Two colours: black below the middle of the domain, white above.
const COLOURS = new Uint8ClampedArray([0, 0, 0, 255, 255, 255, 255, 255]);

beforeAll(async () => {
  await import('../../../web/page/compute-worker.js');
});
afterEach(() => {
  hooks.onSimilarity = null;
  hooks.onTable = null;
});

/** The worker's answers to the messages `send` posts, once `count` of them have arrived. */
function answers(count, send) {
  return new Promise((resolve) => {
    const received = [];
    workerSink = (message) => {
      received.push(message);
      if (received.length === count) resolve(received);
    };
    send();
  });
}

describe('compute worker', () => {
  it('paints an array that a newer one replaced while it was computed as a preview, the newer one exact', async () => {
    toWorker({ type: 'colours', key: 1, colours: COLOURS });
    const shape = { length: 24, dModel: 16 };
    const request = { colourKey: 1, low: -8, high: 8, width: 10, height: 7, exact: true };
    const job = (id, dModel) => ({
      id,
      lane: 'slot:similarity',
      urgent: true,
      type: 'compute',
      source: { kind: 'similarity', options: { ...shape, dModel } },
      paints: [{ lane: 'paint:1', request }],
    });
    // The next step of the drag arrives while the first matrix is computed: in a browser it waits in
    // the worker's task queue, here it is handed over at the worker's first chance (a microtask).
    hooks.onSimilarity = () => {
      hooks.onSimilarity = null;
      queueMicrotask(() => globalThis.self.onmessage({ data: job(2, 20) }));
    };
    const [first, second] = await answers(2, () => toWorker(job(1, 16)));
    expect(first.id).toBe(1);
    expect(second.id).toBe(2);
    const [preview] = first.painted;
    expect(preview).toMatchObject({ exact: false, superseded: true });
    expect(preview.pixels).toEqual(paintCells(first.values, 24, 24, COLOURS, -8, 8, 10, 7, false));
    const [settled] = second.painted;
    expect(settled).toMatchObject({ exact: true, superseded: false });
    expect(settled.pixels).toEqual(paintCells(second.values, 24, 24, COLOURS, -8, 8, 10, 7, true));
  });

  it('paints a preview asked for exact when no newer paint of its plot waits, else as the preview asked', async () => {
    toWorker({ type: 'colours', key: 1, colours: COLOURS });
    const source = { kind: 'similarity', options: { length: 21, dModel: 12 } };
    const request = { colourKey: 1, low: -6, high: 6, width: 9, height: 8, exact: false };
    const paint = (id, width) => ({
      id,
      lane: 'paint:7',
      urgent: true,
      type: 'paint',
      source,
      request: { ...request, width },
    });
    // The plot's next paint arrives while the matrix for the first is computed.
    hooks.onSimilarity = () => {
      hooks.onSimilarity = null;
      queueMicrotask(() => globalThis.self.onmessage({ data: paint(2, 11) }));
    };
    const [first, second] = await answers(2, () => toWorker(paint(1, 9)));
    const values = new Float32Array(21 * 21);
    // The matrix as the core computes it (the worker keeps it): the reference pixels are painted from it here.
    const { load } = await import('../../../web/lib/index.js');
    (await load()).similarity({ ...source.options, out: values });
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(first).toMatchObject({ exact: false, width: 9 });
    expect(first.pixels).toEqual(paintCells(values, 21, 21, COLOURS, -6, 6, 9, 8, false));
    // The last paint of the lane: exact, though a preview was asked for (the plot need not ask again).
    expect(second).toMatchObject({ exact: true, width: 11 });
    expect(second.pixels).toEqual(paintCells(values, 21, 21, COLOURS, -6, 6, 11, 8, true));
  });

  it("serves the next similarity matrix's pre-painted image in its own domain: no second compute and paint", async () => {
    const { createComputeClient } = await import('../../../web/page/compute-client.js');
    // The client's worker: the module above, behind a stand-in Worker that counts the paint jobs.
    const { sent } = standInWorker({ keep: (message) => message.type });
    let onResult = null;
    const client = createComputeClient((result) => onResult(result));
    const similarity = (dModel) =>
      new Promise((resolve) => {
        onResult = resolve;
        client.request('similarity', 'similarity', { length: 32, dModel });
      });
    const owner = {};
    // What the similarity plot asks for: a domain symmetric about zero, to the largest |value|.
    const requestFor = (values) => {
      const extent = values.reduce((largest, value) => Math.max(largest, Math.abs(value)), 0);
      return {
        rows: 32,
        columns: 32,
        colours: COLOURS,
        low: -extent,
        high: extent,
        width: 9,
        height: 9,
        exact: true,
        symmetric: true,
      };
    };

    const first = await similarity(16);
    const firstPainter = first.painter;
    await firstPainter.paint(requestFor(first.values), owner);
    expect(sent.filter((type) => type === 'paint')).toHaveLength(1);

    // The next step: the plot painted the first matrix, so the worker paints the next one for it.
    const second = await similarity(24);
    const { painter } = second;
    const request = requestFor(second.values);
    // The diagonal is dModel / 2: a new domain.
    // A float32 matrix's diagonal: 12 rounded once.
    expectClose(request.high, 12, { relative: FLOAT32_EPSILON });
    const image = await painter.paint(request, owner);
    expect(sent.filter((type) => type === 'paint')).toHaveLength(1);
    expect(image.exact).toBe(true);
    expect(image.pixels).toEqual(paintCells(second.values, 32, 32, COLOURS, request.low, request.high, 9, 9, true));
  });
});

describe('compute worker, the precision map', () => {
  it("paints the precision section's map for its heatmap's last request, and the plot puts those pixels", async () => {
    const { createComputeClient } = await import('../../../web/page/compute-client.js');
    // The client's worker: the module above; what it sends and what comes back are kept.
    const { sent, received } = standInWorker();
    const client = createComputeClient(() => {});
    const state = (dModel) => ({ ...DEFAULTS, length: 40, dModel, precision: 'float16' });
    const requestFor = ({ rows, columns }) => ({
      rows,
      columns,
      colours: COLOURS,
      low: -1,
      high: 1,
      width: 11,
      height: 13,
      exact: false,
    });
    const owner = {};

    // The first numbers: no request yet, so nothing painted there; a paint of them is done here.
    const first = await client.section('precision', state(16), true);
    expect(sent.at(-1).paint).toBeUndefined();
    const firstImage = await first.map.painter.paint(requestFor(first.map), owner);
    expect(firstImage.pixels).toEqual(paintCells(first.map.values, 40, 16, COLOURS, -1, 1, 11, 13, false));

    // The next step of a drag: the worker paints the new map (its new shape) for that request.
    const second = await client.section('precision', state(24), true);
    expect(sent.at(-1).paint).toMatchObject({ width: 11, height: 13, low: -1, high: 1 });
    const { painted, mapRange } = received.at(-1);
    const { values, rows, columns } = second.map;
    expect([rows, columns]).toEqual([40, 24]);
    // In units of the largest error: its largest |value| is 1.
    expectClose(Math.max(-mapRange.min, mapRange.max), 1, { relative: FLOAT32_EPSILON });
    expect(painted).toMatchObject({ exact: true, superseded: false });
    // The same pixels as paintCells run here on the values the main thread got, exact (area-averaged).
    expect(painted.pixels).toEqual(paintCells(values, 40, 24, COLOURS, -1, 1, 11, 13, true));
    const { painter } = second.map;
    expect([painter.min, painter.max]).toEqual([mapRange.min, mapRange.max]);
    // The plot's request is served with the worker's very pixels: none painted on the main thread.
    const image = await painter.paint(requestFor(second.map), owner);
    expect(image.pixels).toBe(painted.pixels);
  });
});

describe('compute worker, the attention map', () => {
  it("paints the attention scores' map in their own range, and the plot's request is served with those pixels", async () => {
    const { createComputeClient } = await import('../../../web/page/compute-client.js');
    const { received } = standInWorker();
    const client = createComputeClient(() => {});
    const state = (offset) => ({ ...DEFAULTS, dModel: 16, length: 300, offset });
    // What the heatmap asks for: the window's range as its domain, marked ranged.
    const requestFor = ({ map, min, max }) => ({
      rows: map.rows,
      columns: map.columns,
      colours: COLOURS,
      low: min,
      high: max,
      width: 17,
      height: 15,
      exact: false,
      ranged: true,
    });
    const owner = {};
    const first = await client.section('attention', state(8), true);
    await first.map.painter.paint(requestFor(first), owner);
    // A drag of k: a larger window (k + 64), whose range the worker finds and paints in.
    const second = await client.section('attention', state(100), true);
    const { painted, mapRange } = received.at(-1);
    expect([second.map.rows, second.map.columns]).toEqual([164, 164]);
    expect([mapRange.min, mapRange.max]).toEqual([second.min, second.max]);
    expect(painted).toMatchObject({ low: second.min, high: second.max, exact: true });
    expect(painted.pixels).toEqual(
      paintCells(second.map.values, 164, 164, COLOURS, second.min, second.max, 17, 15, true),
    );
    const image = await second.map.painter.paint(requestFor(second), owner);
    expect(image.pixels).toBe(painted.pixels);
  });
});

describe('compute worker, arrays kept', () => {
  it('keeps a copy of an array it handed over when making it took long: painting it again computes nothing', async () => {
    toWorker({ type: 'colours', key: 1, colours: COLOURS });
    const request = { colourKey: 1, low: -1, high: 1, width: 7, height: 9, exact: true };
    let made = 0;
    const computeThenPaint = async (options, id) => {
      const source = { kind: 'table', options };
      const [computed] = await answers(1, () =>
        toWorker({ id, lane: `slot:kept${id}`, urgent: true, type: 'compute', source, paints: [] }),
      );
      // The values as handed over, before anything else can reuse their buffer.
      const values = Float32Array.from(computed.values);
      const [painted] = await answers(1, () =>
        toWorker({ id: id + 1, lane: `paint:kept${id}`, urgent: true, type: 'paint', source, request }),
      );
      expect(painted.pixels).toEqual(paintCells(values, options.length, options.dModel, COLOURS, -1, 1, 7, 9, true));
    };
    // Slow to make (as the question's table, a pow per value): made once.
    hooks.onTable = () => {
      made++;
      for (const until = performance.now() + 10; performance.now() < until;);
    };
    await computeThenPaint({ length: 30, dModel: 10 }, 40);
    expect(made).toBe(1);
    // Quick to make: made again rather than kept.
    made = 0;
    hooks.onTable = () => made++;
    await computeThenPaint({ length: 31, dModel: 10 }, 50);
    expect(made).toBe(2);
  });
});

describe('compute worker, jobs for plots off screen', () => {
  it('runs a job for a plot off screen only once the urgent jobs of a drag have stopped coming', async () => {
    const step = (id, dModel) => ({
      id,
      lane: 'slot:table',
      urgent: true,
      type: 'compute',
      source: { kind: 'table', options: { length: 16, dModel } },
      paints: [],
    });
    const offScreen = { id: 12, lane: 'section:waves', type: 'section', name: 'waves', state: DEFAULTS, urgent: false };
    // One step of a drag answered; a job for a plot off screen asked (before the drag, say); then the next step.
    await answers(1, () => toWorker(step(10, 16)));
    const order = await answers(2, () => {
      toWorker(offScreen);
      setTimeout(() => toWorker(step(11, 18)));
    });
    // The next step first; the other job after it.
    expect(order.map((answer) => answer.id)).toEqual([11, 12]);
    expect(order[0].values).toHaveLength(16 * 18);
    expect(order[1].error).toBeUndefined();
    expect(order[1].numbers).toBeTruthy();
  });
});
