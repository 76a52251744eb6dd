// Talks to compute-worker.js. Each slot (the table, the compared table, the
// similarity matrix), and each plot's numbers, hands back answers in request
// order with the options they were computed for; a drag that asks faster
// than the worker answers still sees every answer that was computed, not
// only the last one. Every array received is transferred, not copied, and
// comes painted for the plots that kept up with the array it replaces (their
// last paint request, in the new shape); other paints and differences are
// asked of the worker through the array's painter (handed out with it: the
// heatmap's data.painter), which computes the array again for them.
// An array that a newer answer replaced and that no plot holds any more
// (painter.retain/release) goes back to the worker to be filled again: a
// fresh multi-megabyte array costs far more (first touch of its pages, then
// garbage) than the core. A section's heatmap map (the precision error map) comes
// painted too, for its plot's last request, with the section's numbers (map.painter).
import { paintCells } from '../plots/paint.js';

/**
 * The worker the built page started before it was parsed (web/build/vite-early-worker.js) and the errors
 * it reported so far ({ message }), once; null where there is none (the dev server, a host whose CSP
 * blocks the inline script) or once taken.
 */
function takeEarlyWorker() {
  const early = self.posencEarlyWorker ?? null;
  delete self.posencEarlyWorker;
  return early;
}

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
    // The early worker, the first time (a restart starts a new one).
    const early = takeEarlyWorker();
    worker = early?.worker ?? new Worker(new URL('./compute-worker.js', import.meta.url), { type: 'module' });
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
    // What it reported before this client took it over: the calls made from now on fail at once.
    if (early?.errors.length) {
      const error = new Error(early.errors[0].message || 'the compute worker could not be started');
      error.workerFailed = true;
      startFailure = error;
    }
  }
  // An error the early worker reported before the client existed.
  let startFailure = null;
  startWorker();

  function call(lane, message) {
    nextId += 1;
    const id = nextId;
    if (startFailure) return Promise.reject(startFailure);
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
  // Per slot or subtracting plot: paint lane -> { request, generation } of
  // each plot's last paint of its arrays, and how many arrays it has received.
  const lastPaints = new Map();
  const generations = new Map();
  // Per section lane: { request, generation } of its map's last paint (one heatmap per section).
  const lastMapPaints = new Map();
  // A plot that painted one of this many latest arrays keeps up (a drag asks faster than answers arrive).
  const KEEPING_UP = 3;

  // Colour tables go to the worker once; requests name them by key.
  const colourKeys = new WeakMap();
  let nextColourKey = 0;
  function colourKey(colours) {
    if (!colourKeys.has(colours)) {
      colourKeys.set(colours, (nextColourKey += 1));
      worker.postMessage({ type: 'colours', key: nextColourKey, colours });
    }
    return colourKeys.get(colours);
  }
  const wire = ({ colours, ...request }) => ({ ...request, colourKey: colourKey(colours) });

  // An image painted for `request` serves `wanted` if they differ at most in
  // exact (a preview asked for, an exact one given).
  const serves = (request, wanted) =>
    Object.keys(wanted).every((key) => request[key] === wanted[key] || (key === 'exact' && request.exact));

  // An image the worker painted ahead with a new array, for `paintedFor` (the plot's last request with
  // the array it replaces), serves `wanted` if the rest of the request matches: it is in the new array's
  // shape, in the domain it says (a symmetric or ranged request's is the new array's, the one the plot now asks
  // for), and exact when the worker had no newer array to make; a preview of an array already
  // superseded serves an exact request too (the newer array's image follows).
  const prepaintedServes = (image, paintedFor, wanted) =>
    serves(
      {
        ...paintedFor,
        rows: wanted.rows,
        columns: wanted.columns,
        low: image.low,
        high: image.high,
        exact: image.exact || image.superseded,
      },
      wanted,
    );

  // Paints asked of the worker and not answered yet, and who waits for none to be left.
  let paintsOut = 0;
  let paintWaiters = [];
  function painting(promise) {
    paintsOut += 1;
    const done = () => {
      paintsOut -= 1;
      // After the plots' own handlers of the answer (they put the pixels in their canvas).
      if (paintsOut === 0) setTimeout(() => paintWaiters.splice(0).forEach((resolve) => resolve()));
    };
    promise.then(done, done);
    return promise;
  }

  /** A compute job for `lane`, painting the new array for the plots that painted the one it replaces. */
  function compute(lane, source, urgent = true) {
    const generation = generations.get(lane) ?? 0;
    // Only plots that keep up: the others are off screen while a slider moves.
    const hints = new Map(
      [...(lastPaints.get(lane) ?? [])]
        .filter(([, last]) => generation - last.generation < KEEPING_UP)
        .map(([paintLane, last]) => [paintLane, last.request]),
    );
    const paints = [...hints].map(([paintLane, request]) => ({ lane: paintLane, request: wire(request) }));
    return call(lane, { type: 'compute', source, paints, urgent }).then((answer) => answer && { ...answer, hints });
  }

  /**
   * Gives an array from the worker its painter (paints and differences asked
   * of the worker, under what the array is; the images painted with it served
   * first), and makes it the latest of `lane`: the one before it may now go back.
   */
  function received(lane, source, { values, min, max, painted, hints }) {
    const users = new Set();
    // Paint lane -> the image painted with the array, and the request it was painted for.
    const prepainted = new Map(
      painted.map(({ lane: paintLane, ...image }) => [paintLane, { image, request: hints.get(paintLane) }]),
    );
    const generation = (generations.get(lane) ?? 0) + 1;
    generations.set(lane, generation);
    let replaced = false;
    const giveBack = () => {
      if (!replaced || users.size > 0 || values.buffer.byteLength === 0) return;
      worker.postMessage({ type: 'recycle', buffer: values.buffer }, [values.buffer]);
    };
    const painter = {
      source,
      min,
      max,
      paint: (request, owner) => {
        const paintLane = laneOf('paint', owner);
        if (!lastPaints.has(lane)) lastPaints.set(lane, new Map());
        lastPaints.get(lane).set(paintLane, { request, generation });
        const ready = prepainted.get(paintLane);
        prepainted.delete(paintLane);
        if (ready && prepaintedServes(ready.image, ready.request, request)) return Promise.resolve(ready.image);
        return painting(call(paintLane, { type: 'paint', source, request: wire(request), urgent: true }));
      },
      subtract: (other, owner) => {
        const difference = { kind: 'difference', left: source, right: other.source };
        const differenceLane = laneOf('difference', owner);
        return compute(differenceLane, difference).then(
          (answer) => answer && received(differenceLane, difference, answer),
        );
      },
      retain: (owner) => users.add(owner),
      release: (owner) => {
        users.delete(owner);
        giveBack();
      },
    };
    latest.get(lane)?.();
    latest.set(lane, () => {
      replaced = true;
      giveBack();
    });
    return { values, painter };
  }

  /**
   * Gives a section's map ({ values, rows, columns } in its numbers) a painter: the image the worker
   * painted with it serves the first paint that it fits; another paint (a resize, a change of
   * colours) is done here, as a plot without a painter would (the worker does not keep the map).
   */
  function receivedMap(lane, { numbers, mapRange, painted }, hint) {
    const generation = (generations.get(lane) ?? 0) + 1;
    generations.set(lane, generation);
    let ready = painted ?? null;
    const { values } = numbers.map;
    numbers.map.painter = {
      ...mapRange,
      paint: (request) => {
        lastMapPaints.set(lane, { request, generation });
        const image = ready;
        ready = null;
        if (image && prepaintedServes(image, hint, request)) return Promise.resolve(image);
        const { rows, columns, colours, low, high, width, height, exact } = request;
        const pixels = paintCells(values, rows, columns, colours, low, high, width, height, exact);
        return Promise.resolve({ pixels, width, height, exact });
      },
    };
  }

  return {
    /**
     * Ends the worker and starts another (a retry after a failed or stalled
     * load): the calls still waiting are rejected, the arrays handed out stay
     * valid, and every later request goes to the new worker.
     */
    restart() {
      worker.terminate();
      startFailure = null;
      failAll(new Error('the compute worker was restarted'));
      latest.clear();
      startWorker();
    },
    /**
     * Tells the worker whether a slider is held: while one is, it leaves the
     * cores to the page's frames for a moment after each long job (on two
     * cores or fewer); once it is let go, the last arrays come without delay.
     */
    dragging(on) {
      worker.postMessage({ type: 'drag', dragging: on });
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
     * when a newer request for the same plot replaced this one before it
     * started. Urgent (a plot on screen): before every job that is not.
     */
    section(name, state, urgent = true) {
      const lane = `section:${name}`;
      const generation = generations.get(lane) ?? 0;
      // The map painted for its heatmap's last request, if that heatmap keeps up (on screen).
      const last = lastMapPaints.get(lane);
      const paint = last && generation - last.generation < KEEPING_UP ? wire(last.request) : undefined;
      return call(lane, { type: 'section', name, state, urgent, paint }).then((answer) => {
        if (!answer) return null;
        if (answer.mapRange) receivedMap(lane, answer, last?.request);
        return answer.numbers;
      });
    },
    /** Resolves once no paint asked of the worker is waiting (their pixels are in the plots' canvases). */
    painted() {
      if (paintsOut === 0) return Promise.resolve();
      return new Promise((resolve) => paintWaiters.push(resolve));
    },
    /** kind: 'table' | 'similarity'; options: as for pe.table / pe.similarity; urgent: as for section. */
    request(slot, kind, options, urgent = true) {
      const source = { kind, options };
      const lane = `slot:${slot}`;
      compute(lane, source, urgent).then(
        (answer) => answer && onResult({ slot, ...received(lane, source, answer), options }),
        (error) => onResult({ slot, error: String(error?.message ?? error) }),
      );
    },
  };
}
