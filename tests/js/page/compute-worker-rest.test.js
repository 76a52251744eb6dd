// The compute worker on a machine of two cores (web/page/compute-worker.js):
// while a slider is held, it rests after a long job when more work waits, so
// that the page's frames get a core; once the page says the slider was let go,
// it runs the last jobs without resting, and a rest under way ends at once;
// it makes the new arrays before it paints old ones, and drops the paints of
// arrays a newer one replaced.
// (Messages pass as in compute-worker.test.js; what is checked is whether the
// worker asks for a rest, a timer of a few milliseconds, not how long anything takes.)
import { beforeAll, describe, expect, it, vi } from 'vitest';

// Every table job takes at least LONG_MS: a long job, after which the worker may rest.
const LONG_MS = 5;
vi.mock('../../../web/lib/index.js', async (importOriginal) => {
  const lib = await importOriginal();
  const slow = (pe) =>
    new Proxy(
      {},
      {
        get(_, name) {
          const value = Reflect.get(pe, name);
          if (name === 'table')
            return (...args) => {
              const until = performance.now() + LONG_MS;
              while (performance.now() < until);
              return value.apply(pe, args);
            };
          return typeof value === 'function' ? value.bind(pe) : value;
        },
      },
    );
  return { ...lib, load: (options) => lib.load(options).then(slow) };
});

let sink = null;
globalThis.self = {
  navigator: { hardwareConcurrency: 2 },
  postMessage: (message) => sink(message),
  onmessage: null,
};
const toWorker = (data) => setTimeout(() => globalThis.self.onmessage({ data }));

// The timers the worker sets with a delay (its rests; the messages here are delivered without one),
// and which of them were cleared.
const rests = [];
const cleared = new Set();
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
globalThis.setTimeout = (callback, delay, ...args) => {
  const timer = realSetTimeout(callback, delay, ...args);
  if (delay > 0) rests.push({ timer, delay });
  return timer;
};
globalThis.clearTimeout = (timer) => {
  cleared.add(timer);
  realClearTimeout(timer);
};

beforeAll(async () => {
  await import('../../../web/page/compute-worker.js');
});

const job = (id) => ({
  id,
  lane: `slot:${id}`,
  urgent: true,
  type: 'compute',
  // Each its own table: one made before would be served from the worker's copy, at once.
  source: { kind: 'table', options: { length: 8, dModel: 8 + 2 * id } },
  paints: [],
});

/** Sends the jobs `ids` at once; resolves with the worker's answers once all have come. */
function run(ids, also = () => {}) {
  return new Promise((resolve) => {
    const received = [];
    sink = (message) => {
      received.push(message);
      also(message);
      if (received.length === ids.length) resolve(received);
    };
    // In one task: all of them wait in the queue when the first one ends.
    setTimeout(() => {
      for (const id of ids) globalThis.self.onmessage({ data: job(id) });
    });
  });
}

describe('compute worker on two cores', () => {
  it('rests between long jobs while a slider is held, not once it is let go', async () => {
    toWorker({ type: 'drag', dragging: true });
    rests.length = 0;
    const held = await run([1, 2, 3]);
    expect(held.map((answer) => answer.id)).toEqual([1, 2, 3]);
    // After each of the first two jobs more work waited: a rest as long as the job ran, 16 ms at most.
    expect(rests).toHaveLength(2);
    for (const { delay } of rests) expect(delay).toBeGreaterThanOrEqual(LONG_MS);

    toWorker({ type: 'drag', dragging: false });
    rests.length = 0;
    const released = await run([4, 5, 6]);
    expect(released.map((answer) => answer.id)).toEqual([4, 5, 6]);
    expect(rests).toEqual([]);
  });

  it('ends a rest under way when the slider is let go', async () => {
    toWorker({ type: 'drag', dragging: true });
    rests.length = 0;
    // The first answer comes just before the worker rests: the release arrives during the rest.
    const answers = await run([7, 8], (message) => {
      if (message.id === 7) toWorker({ type: 'drag', dragging: false });
    });
    expect(answers.map((answer) => answer.id)).toEqual([7, 8]);
    expect(rests).toHaveLength(1);
    expect(cleared.has(rests[0].timer)).toBe(true);
  });

  // Two colours: black below the middle of the domain, white above.
  const COLOURS = new Uint8ClampedArray([0, 0, 0, 255, 255, 255, 255, 255]);
  const request = { colourKey: 1, low: -1, high: 1, width: 4, height: 4, exact: true };
  const table = (dModel) => ({ kind: 'table', options: { length: 8, dModel } });
  const make = (id, dModel) => ({
    id,
    lane: 'slot:x',
    urgent: true,
    type: 'compute',
    source: table(dModel),
    paints: [],
  });
  const paint = (id, lane, dModel) => ({ id, lane, urgent: true, type: 'paint', source: table(dModel), request });

  /** Sends `jobs` in one task; resolves with the worker's answers once one per job has come. */
  function answersTo(jobs) {
    return new Promise((resolve) => {
      const received = [];
      sink = (message) => {
        received.push(message);
        if (received.length === jobs.length) resolve(received);
      };
      setTimeout(() => {
        for (const data of jobs) globalThis.self.onmessage({ data });
      });
    });
  }

  it('once let go: the new array first, then the paints, of the replaced array dropped', async () => {
    toWorker({ type: 'colours', key: 1, colours: COLOURS });
    toWorker({ type: 'drag', dragging: true });
    await answersTo([make(20, 30)]);
    toWorker({ type: 'drag', dragging: false });
    // Queued as a drag leaves them: a paint of the array shown, then the next array, then its paint.
    const answers = await answersTo([paint(21, 'paint:1', 30), make(22, 32), paint(23, 'paint:2', 32)]);
    expect(answers.map(({ id, dropped }) => [id, Boolean(dropped)])).toEqual([
      [22, false],
      [21, true],
      [23, false],
    ]);
    expect(answers[0].values).toHaveLength(8 * 32);
    expect(answers[2].pixels).toHaveLength(4 * 4 * 4);
  });

  it('while a slider is held: every job in its turn, the paint of the array shown too', async () => {
    toWorker({ type: 'drag', dragging: true });
    await answersTo([make(30, 34)]);
    const answers = await answersTo([paint(31, 'paint:1', 34), make(32, 36)]);
    expect(answers.map(({ id, dropped }) => [id, Boolean(dropped)])).toEqual([
      [31, false],
      [32, false],
    ]);
    expect(answers[0].pixels).toHaveLength(4 * 4 * 4);
  });
});
