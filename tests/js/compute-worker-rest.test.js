// The compute worker on a machine of two cores (web/page/compute-worker.js):
// while a slider is held, it rests after a long job when more work waits, so
// that the page's frames get a core; once the page says the slider was let go,
// it runs the last jobs without resting, and a rest under way ends at once.
// (Messages pass as in compute-worker.test.js; what is checked is whether the
// worker asks for a rest, a timer of a few milliseconds, not how long anything takes.)
import { beforeAll, describe, expect, it, vi } from 'vitest';

// Every table job takes at least LONG_MS: a long job, after which the worker may rest.
const LONG_MS = 5;
vi.mock('../../web/lib/index.js', async (importOriginal) => {
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
  await import('../../web/page/compute-worker.js');
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
});
