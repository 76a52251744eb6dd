// Computes the big arrays off the main thread: tables, the [length x length]
// similarity matrix and the difference of two tables; and paints them for the
// heatmaps (plots/paint.js), so that the main thread only puts pixels and a
// slider drag never waits on a pass over millions of values. Also the numbers
// of the other plots (model/sinusoidal-data.js, and the later chapters' from
// model/section-data.js, loaded with the first request for one), so that the
// main thread only draws. The first view's work runs on the module without
// RoPE (load({ rope: false })); the later chapters' on the full one.
//
// An array crosses to the main thread once, transferred, never copied: a
// compute job fills a buffer, paints it for the plots that painted the array
// it replaces (the same request but its shape: `paints`), and hands buffer
// and pixels over together. The main thread keeps the values (for readouts);
// a later paint or difference of them (a settled drag's exact image, a
// resize, compare's subtraction) computes them again here, which costs the
// core less than a copy of them would.
//
// Messages: { id, type: 'ready' } (answered { id } once the core is loaded, or
// { id, error }), { id, lane, urgent?, type: 'compute', source, paints }, (answered
// { id, values, min, max, painted: [{ lane, pixels, width, height, exact, low, high, superseded }] }),
// { id, lane, urgent?, type: 'paint', source, request } (answered { id, pixels, width,
// height, exact, low, high }: a request marked symmetric (or ranged) is painted in the array's domain
// (its own range); a preview
// asked for comes exact when no newer paint of its lane waits), { id, lane, urgent?, type: 'section', name, state, paint? } (answered
// { id, numbers, mapRange?, painted? }: a section whose numbers hold a heatmap's `map`
// { values, rows, columns } gets its range, and its pixels for `paint`, a paint request), { type: 'recycle', buffer } for an array the main thread
// is done with, { type: 'colours', key, colours }: a colour table paint
// requests name by key (sent once), and { type: 'drag', dragging } when a slider
// is taken or let go. A source says what an array is:
// { kind: 'table' | 'similarity', options } or { kind: 'difference', left, right }.
// Per lane only the latest job matters: an older one not yet started is
// answered { id, dropped: true }, and the newer takes its place in the queue;
// jobs marked urgent (for plots on screen) run first (job-queue.js), and the
// others only once no urgent job has come for a moment (a drag). A compute
// job's paints are exact (area-averaged) when no newer job of its lane waits
// once its array is made (the array a drag settles on, painted once and for
// good), else previews of an array already superseded; an image says which it
// is ({ exact, superseded }).
import { load } from '../lib/index.js';
import { paintCells, symmetricDomain, valueRange } from '../plots/paint.js';
import { knobs } from '../model/convention.js';
import { createModel } from '../model/data.js';
import { SINUSOIDAL_COMPUTE } from '../model/sinusoidal-data.js';
import { createJobQueue } from './job-queue.js';
import { detachLarge } from './detach-large.js';
import { loadOnce } from './load-once.js';

// The first view's sections need no RoPE: the module without it (smaller) comes first; the full
// one loads for the later chapters' sections, and only then. A chapter that computes RoPE from
// its first view names this worker "full" (web/build/vite-early-worker.js): the full module alone.
// (load() itself gives one module per build, and tries again after a failed fetch.)
const fullFirst = self.name === 'full';
const posenc = fullFirst ? load() : load({ rope: false });
let model = null;
let chapterModel = null;
// Every section's numbers, once a later chapter's are asked for (their code is not part of the first view).
// Not fetched (offline): asked for again with the next request.
const allCompute = loadOnce(() => import('../model/section-data.js').then((module) => module.COMPUTE));
async function computeOf(name) {
  return SINUSOIDAL_COMPUTE[name] ?? (await allCompute())[name];
}
const pending = createJobQueue();
let busy = false;

// Recently used arrays kept here (computed for a paint or a difference), by
// source: painting or subtracting them again computes nothing. Evicted
// buffers are reused: a fresh multi-megabyte array costs more (first touch of
// its pages) than the core takes to fill it.
const HELD = 4;
const held = new Map();
// An array handed over that took longer than this to make stays here as a copy too (a copy costs far
// less than making it again): a later paint or difference of it would compute it again, as the
// comparison's table (a pow per value) after every length drag.
const KEEP_COPY_AFTER_MS = 4;
// Buffers the main thread handed back, filled again for the next answers.
const returned = [];
const RETURNED = 4;
// Colour tables of the paint requests, by key.
const colourTables = new Map();

/** Room to grow (at most 1/8 more), so that a drag through sizes can reuse a buffer for several steps. */
function capacity(size) {
  const step = Math.max(1, 2 ** Math.ceil(Math.log2(size)) / 8);
  return Math.ceil(size / step) * step;
}

/** [rows, columns] of the array `source` describes. */
function shapeOf(source) {
  if (source.kind === 'difference') return shapeOf(source.left);
  const { length, dModel } = source.options;
  return source.kind === 'similarity' ? [length, length] : [length, dModel];
}

const sizeOf = (source) => shapeOf(source).reduce((a, b) => a * b);

/** The smallest returned buffer that holds `size` floats (taken from the pool), else null. */
function returnedBuffer(size) {
  let fit = null;
  for (const buffer of returned) {
    if (buffer.byteLength >= size * 4 && (!fit || buffer.byteLength < fit.byteLength)) fit = buffer;
  }
  if (fit) returned.splice(returned.indexOf(fit), 1);
  return fit;
}

/**
 * The values of `source`, computed unless held; the most recently used entry
 * afterwards. handOver: for the main thread, which takes the buffer (a
 * returned one, or the held entry itself, which leaves the cache).
 */
function hold(pe, source, handOver = false, key = JSON.stringify(source)) {
  const kept = held.get(key);
  if (kept) {
    held.delete(key);
    if (!handOver) held.set(key, kept);
    return kept;
  }
  // Inputs first, so that making room for this entry cannot evict them.
  const inputs = source.kind === 'difference' ? [hold(pe, source.left), hold(pe, source.right)] : [];
  const size = sizeOf(source);
  let buffer = null;
  if (handOver) {
    const fit = returnedBuffer(size);
    if (fit) buffer = new Float32Array(fit);
  } else buffer = roomToHold();
  if (!buffer || buffer.length < size) buffer = new Float32Array(capacity(size));
  const values = buffer.subarray(0, size);
  const started = performance.now();
  if (source.kind === 'table') pe.table({ ...source.options, out: values });
  else if (source.kind === 'similarity') pe.similarity({ ...source.options, out: values });
  else if (source.kind === 'difference') {
    const [left, right] = inputs.map((entry) => entry.values);
    if (left.length !== right.length) throw new RangeError('difference of tables of different shapes');
    for (let i = 0; i < size; i++) values[i] = left[i] - right[i];
  } else throw new TypeError(`unknown source kind ${source.kind}`);
  const entry = { values, buffer, ...valueRange(values) };
  if (!handOver) held.set(key, entry);
  else if (performance.now() - started > KEEP_COPY_AFTER_MS) {
    let copy = roomToHold();
    if (!copy || copy.length < size) copy = new Float32Array(capacity(size));
    copy.set(values);
    held.set(key, { ...entry, values: copy.subarray(0, size), buffer: copy });
  }
  return entry;
}

/** Room for one more held array: the least recently used one leaves when all are taken; its buffer, or null. */
function roomToHold() {
  if (held.size < HELD) return null;
  const oldest = held.keys().next().value;
  const { buffer } = held.get(oldest);
  held.delete(oldest);
  return buffer;
}

/**
 * Pixels of an array ({ values, min, max }, of `rows` × `columns`) for a paint request, its colours
 * named by key; a symmetric request in the array's own domain, a ranged one in its range. The image
 * says its domain.
 */
function paint({ values, min, max }, [rows, columns], { colourKey, ...request }) {
  const { width, height, exact } = request;
  const [low, high] = request.symmetric
    ? symmetricDomain({ min, max })
    : request.ranged
      ? [min, max]
      : [request.low, request.high];
  const pixels = paintCells(values, rows, columns, colourTables.get(colourKey), low, high, width, height, exact);
  return { pixels, width, height, exact, low, high };
}

/**
 * Whether the array a job of `lane` just made is the last one asked for so far: requests sent while
 * it was made arrive first (without this the queue could never hold a newer job of the lane here, it
 * would have replaced this one, and every array of a drag would be painted exact, many times the
 * cost of a preview). The last is painted exact, and no refinement need
 * follow; one a newer array already replaces is only previewed (superseded: the plot need not ask
 * for better).
 */
async function lastOfLane(lane) {
  await breathe();
  return !pending.has(lane);
}

/**
 * A section's heatmap ({ values, rows, columns } as `map` of its numbers): its value range, and
 * its pixels for `request` (the plot's last paint request) in the map's shape, if one is given.
 */
async function paintMap(map, lane, request) {
  const range = valueRange(map.values);
  if (!request) return { range, painted: null };
  const last = await lastOfLane(lane);
  const image = paint({ values: map.values, ...range }, [map.rows, map.columns], { ...request, exact: last });
  return { range, painted: { ...image, superseded: !last } };
}

const isMap = (map) => ArrayBuffer.isView(map?.values) && map.values.length === map.rows * map.columns;

async function run(pe, { id, lane, type, source, request, paints = [], name, state, paint: mapPaint }) {
  if (type === 'section') {
    const compute = await computeOf(name);
    if (!compute) throw new RangeError(`no section named ${name}`);
    const sectionModel = SINUSOIDAL_COMPUTE[name]
      ? (model ??= createModel(pe))
      : (chapterModel ??= fullFirst ? (model ??= createModel(pe)) : createModel(await load()));
    const result = compute({ model: sectionModel, state, conv: knobs(state) });
    // A section's map is painted here too: on the main thread a large one would slow every step of a drag.
    const { range, painted } = isMap(result.map) ? await paintMap(result.map, lane, mapPaint) : {};
    // The model keeps its results for the next requests: large arrays go as copies made here and
    // transferred (cloned, a 1M-value map cost the main thread its copy at every step of a drag).
    const { numbers, transfer } = detachLarge(result);
    if (painted) transfer.push(painted.pixels.buffer);
    self.postMessage({ id, numbers, ...(range && { mapRange: range }), ...(painted && { painted }) }, transfer);
    return;
  }
  if (type === 'compute') {
    // Painted here first, then handed over (transferred) with the pixels.
    const key = JSON.stringify(source);
    const array = hold(pe, source, true, key);
    latestMade.set(lane, key);
    const { values, min, max } = array;
    const last = await lastOfLane(lane);
    const painted = paints.map(({ lane: paintLane, request }) => ({
      lane: paintLane,
      ...paint(array, shapeOf(source), { ...request, exact: last }),
      superseded: !last,
    }));
    self.postMessage({ id, values, min, max, painted }, [values.buffer, ...painted.map((p) => p.pixels.buffer)]);
    return;
  }
  // A preview is asked for while the plot's input changes quickly (a drag); painted exact when no newer
  // paint of the plot waits, as a compute job's paints are, so that the plot need not ask again once
  // the drag stops (it refines a preview after a pause, which makes its last image late).
  const array = hold(pe, source);
  const exact = request.exact || (await lastOfLane(lane));
  const image = paint(array, shapeOf(source), { ...request, exact });
  self.postMessage({ id, ...image }, [image.pixels.buffer]);
}

// A message round trip: lets requests sent meanwhile arrive, without the
// minimum delay of nested timers.
const channel = new MessageChannel();
const breathe = () =>
  new Promise((resolve) => {
    channel.port1.onmessage = resolve;
    channel.port2.postMessage(null);
  });

// With two cores or fewer, a worker that runs flat out during a drag takes the
// core the page's compositor and raster threads need, and the main thread
// waits for them (its frame tasks stretch): when more work
// is waiting after a long job, the worker first rests as long as the job ran.
// Not once the page says the slider was let go ({ type: 'drag', dragging: false }):
// then the rests would only delay the last plots, until the next drag.
const SHARE_THE_CORES = (self.navigator?.hardwareConcurrency ?? 2) <= 2;
let shareTheCores = SHARE_THE_CORES;
// Ends a rest early (the slider was let go meanwhile).
let endRest = null;
// Once the slider is let go, until the queue is empty, the jobs that make arrays and numbers run
// before the paints and differences of arrays (a drag left those queued first, and they would hold
// up the last tables), and a paint or difference of an array
// that a newer one has replaced is dropped: the plots ask for those of the new arrays. Otherwise
// every lane keeps its turn: during a drag a superseded image still shows progress, and at load a
// plot's first image does not wait behind the numbers of the others.
let afterRelease = false;
const makesData = (job) => job.type === 'section' || (job.type === 'compute' && job.source.kind !== 'difference');
// Per lane, the source (key) of the array its last compute job made.
const latestMade = new Map();

/** Whether `job` paints or subtracts an array that is no longer the latest of its lane. */
function ofReplacedArrays(job) {
  const source = job.type === 'paint' || job.source?.kind === 'difference' ? job.source : null;
  if (!source) return false;
  const made = new Set(latestMade.values());
  const arrays = source.kind === 'difference' ? [source.left, source.right] : [source];
  return arrays.some((array) => !made.has(JSON.stringify(array)));
}
const LONG_JOB_MS = 2;
// Before an urgent job (a plot on screen waits) the rest is one frame at most: after a long
// job (the precision map of a large table) it would otherwise wait as long again.
const URGENT_REST_MS = 16;
function rest(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    endRest = () => {
      clearTimeout(timer);
      resolve();
    };
  }).finally(() => (endRest = null));
}

// A job for a plot off screen (not urgent) waits until no urgent job has come or run for this long:
// queued before a drag, it would otherwise start in a gap between two steps and hold up every later
// step, and the drag's last array, for as long as it runs (an off-screen chapter's numbers can
// take long for a large table). The page asks for them once the controls rest anyway.
const RELAXED_AFTER_MS = 250;
let lastUrgent = -Infinity;
// Wakes a wait for quiet when an urgent job arrives.
let wake = null;
function quiet() {
  const wait = lastUrgent + RELAXED_AFTER_MS - performance.now();
  if (wait <= 0) return null;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(), wait);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  }).finally(() => (wake = null));
}

async function drain() {
  if (busy) return;
  busy = true;
  let pe;
  try {
    pe = await posenc;
  } catch (error) {
    // No core (the .wasm could not be fetched): every job gets the reason.
    for (const job of pending.takeAll()) self.postMessage({ id: job.id, error: String(error?.message ?? error) });
    busy = false;
    return;
  }
  while (pending.size > 0) {
    const waiting = pending.urgent === 0 && quiet();
    if (waiting) {
      await waiting;
      continue;
    }
    const job = pending.take(afterRelease ? makesData : null);
    if (afterRelease && ofReplacedArrays(job)) {
      self.postMessage({ id: job.id, dropped: true });
      continue;
    }
    const started = performance.now();
    try {
      await run(pe, job);
    } catch (error) {
      self.postMessage({ id: job.id, error: String(error?.message ?? error) });
    }
    const took = performance.now() - started;
    if (job.urgent) lastUrgent = performance.now();
    await breathe();
    if (shareTheCores && took > LONG_JOB_MS && pending.size > 0)
      await rest(pending.urgent > 0 ? Math.min(took, URGENT_REST_MS) : took);
  }
  afterRelease = false;
  busy = false;
}

self.onmessage = ({ data }) => {
  if (data.type === 'ready') {
    posenc.then(
      () => self.postMessage({ id: data.id }),
      (error) => self.postMessage({ id: data.id, error: String(error?.message ?? error) }),
    );
    return;
  }
  if (data.type === 'drag') {
    afterRelease = !data.dragging;
    shareTheCores = SHARE_THE_CORES && data.dragging;
    if (!shareTheCores) endRest?.();
    return;
  }
  if (data.type === 'colours') {
    colourTables.set(data.key, data.colours);
    return;
  }
  if (data.type === 'recycle') {
    returned.push(data.buffer);
    // The largest are the most useful; the smallest go.
    if (returned.length > RETURNED) returned.sort((a, b) => b.byteLength - a.byteLength).pop();
    return;
  }
  const superseded = pending.put(data);
  if (superseded) self.postMessage({ id: superseded.id, dropped: true });
  if (data.urgent) {
    lastUrgent = performance.now();
    wake?.();
  }
  drain();
};
