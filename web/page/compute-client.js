// Talks to compute-worker.js. Each slot (the table, the compared table, the
// similarity matrix), and each plot's numbers, hands back answers in request
// order with the options they were computed for; a drag that asks faster
// than the worker answers still sees every answer that was computed, not
// only the last one. Every array received is declared held by the worker
// too (setPainter), so that the heatmaps have it painted, and compared,
// there. An array that a newer answer replaced and that no plot holds any
// more (painter.retain/release) goes back to the worker to be filled again:
// a fresh multi-megabyte array costs far more (first touch of its pages,
// then garbage) than the core.
import { setPainter } from '../plots/common.js';

export function createComputeClient(onResult) {
  let worker = null;
  const calls = new Map();
  // One lane per plot that paints or subtracts: its newer request drops an older one not yet started.
  const lanes = new WeakMap();
  let nextId = 0;
  let nextLane = 0;

  /** Every call still waiting gets `error`: their worker will never answer. */
  function failAll(error) {
    for (const call of calls.values()) call.reject(error);
    calls.clear();
  }

  function startWorker() {
    worker = new Worker(new URL('./compute-worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      const call = calls.get(data.id);
      calls.delete(data.id);
      if (data.error) call?.reject(new Error(data.error));
      else call?.resolve(data.dropped ? null : data);
    };
    // The script did not load (404, offline) or threw while starting: nothing
    // would ever answer. (A load failure comes with no message at all.)
    worker.onerror = (event) => {
      event.preventDefault();
      const error = new Error(event.message || 'the compute worker could not be started');
      error.workerFailed = true;
      failAll(error);
    };
  }
  startWorker();

  function call(lane, message) {
    nextId += 1;
    const id = nextId;
    return new Promise((resolve, reject) => {
      calls.set(id, { resolve, reject });
      worker.postMessage({ ...message, id, lane });
    });
  }

  function laneOf(kind, owner) {
    if (!lanes.has(owner)) lanes.set(owner, (nextLane += 1));
    return `${kind}:${lanes.get(owner)}`;
  }

  // Per slot or subtracting plot: the latest array handed out.
  const latest = new Map();

  /**
   * Marks an array from the worker as held there too, under what it is, and
   * as the latest of `lane`: the one before it may now go back.
   */
  function received(lane, source, { values, min, max }) {
    const users = new Set();
    let replaced = false;
    const giveBack = () => {
      if (!replaced || users.size > 0 || values.buffer.byteLength === 0) return;
      worker.postMessage({ type: 'recycle', buffer: values.buffer }, [values.buffer]);
    };
    setPainter(values, {
      source,
      min,
      max,
      paint: (request, owner) => call(laneOf('paint', owner), { type: 'paint', source, request }),
      subtract: (other, owner) => {
        const difference = { kind: 'difference', left: source, right: other.source };
        const differenceLane = laneOf('difference', owner);
        return call(differenceLane, { type: 'compute', source: difference }).then(
          (answer) => answer && received(differenceLane, difference, answer),
        );
      },
      retain: (owner) => users.add(owner),
      release: (owner) => {
        users.delete(owner);
        giveBack();
      },
    });
    latest.get(lane)?.();
    latest.set(lane, () => {
      replaced = true;
      giveBack();
    });
    return values;
  }

  return {
    /**
     * Ends the worker and starts another (a retry after a failed or stalled
     * load): the calls still waiting are rejected, the arrays handed out stay
     * valid, and every later request goes to the new worker.
     */
    restart() {
      worker.terminate();
      failAll(new Error('the compute worker was restarted'));
      latest.clear();
      startWorker();
    },
    /**
     * Resolves once the worker has loaded the core; rejects with the reason it
     * could not (an Error with workerFailed: true when the worker itself failed).
     */
    ready() {
      return call('ready', { type: 'ready' });
    },
    /**
     * The numbers of the plot `name` for `state` (section-data.js), or null
     * when a newer request for the same plot replaced this one before it started.
     */
    section(name, state) {
      return call(`section:${name}`, { type: 'section', name, state }).then((answer) => answer && answer.numbers);
    },
    /** kind: 'table' | 'similarity'; options: as for pe.table / pe.similarity. */
    request(slot, kind, options) {
      const source = { kind, options };
      const lane = `slot:${slot}`;
      call(lane, { type: 'compute', source }).then(
        (answer) => answer && onResult({ slot, values: received(lane, source, answer), options }),
        (error) => onResult({ slot, error: String(error?.message ?? error) }),
      );
    },
  };
}
