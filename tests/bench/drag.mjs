// Frame costs while a slider of the page is dragged with the mouse, in
// headless Chromium, against the target of issue #21: at dModel 512 × length
// 2048, with each part of the page in view, main-thread CPU ≤ 8 ms per frame
// unthrottled, p95 frame ≤ 33 ms with the CPU throttled 4× (CDP
// Emulation.setCPUThrottlingRate), and the last plot on screen settled ≤ 100 ms
// after the release.
//
// The controls stay on screen while the page scrolls, so a user may drag any
// slider while looking at any plot: per view (one page, scrolled so that the
// view's plot is at the top of the window) each slider that a plot on screen
// is drawn from (the sections' deps; in the first view every slider: one that
// moves no plot on screen moves only the controls, the same in any view) is
// dragged out and back, unthrottled, then again at 4× when the unthrottled
// drag changed a plot on screen. Per drag:
// - CPU per frame: the thread time of the page's main-thread tasks (a Chromium
//   trace: every task, not only the Long Tasks API's ≥ 50 ms ones) in each
//   interval between animation frames, shared out by overlap; median, p95, max;
// - frames: the intervals between animation frames, median and p95, and the
//   longest task (wall and CPU: the rest the thread waited, e.g. for a core
//   other processes held; the load average is printed too);
// - settled: how long after the release the last plot on screen changed (its
//   svg, or a drawing call on its canvas), and how often each changed during
//   the drag (--verbose).
// Per slider, and per view: the same over all drags.
// Used by browser.mjs (npm run bench); also runs alone against any built site:
//   node tests/bench/drag.mjs [siteDir ...] [--views top,waves] [--sliders dModel] [--runs 3]
//     [--query '?dModel=512&length=2048'] [--no-throttle] [--every-slider] [--verbose]
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launchChromium, traced } from '../e2e/chromium.mjs';
import { serveStatic } from '../e2e/server.mjs';

export const DRAG_SLIDERS = ['dModel', 'length', 'base', 'position', 'offset', 'dimension', 'ropeDim', 'context'];
export const DRAG_QUERY = '?dModel=512&length=2048';
/**
 * Where the page is scrolled during a drag: the plot put at the top of a
 * 1280 × 900 window (null: the top of the page). Together they show every
 * plot (the plots after each one named here, up to the next, share its view).
 */
export const DRAG_VIEWS = {
  top: null,
  waves: 'waves',
  row: 'row',
  rotation: 'rotation',
  'offset-dots': 'offset-dots',
  similarity: 'similarity',
  attention: 'attention',
  'sine-cosine': 'sine-only',
  extrapolation: 'extrapolation',
  'token-scale': 'token-scale',
  compare: 'compare',
  mistakes: 'mistake-ratio',
  'why-base': 'why-base',
  'rope-relative': 'rope-relative',
  'rope-decay': 'rope-decay',
  'rope-base': 'rope-base',
  'rope-lab': 'rope-scaling',
  precision: 'precision',
};
/** One frame at 60 Hz. */
export const FRAME = 1000 / 60;
/** The targets: main-thread CPU per frame (p95 of a drag's frames), p95 frame at 4×, settle after release. */
export const TARGET = { cpu: 8, throttledFrame: 33.4, settle: 100 };
export const THROTTLE = 4;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * Main-thread tasks of the page from a trace of the 'toplevel' category:
 * [{ at, duration, cpu }] in the page's performance.now() milliseconds (cpu:
 * thread time). The page's main thread, and where its clock starts, come
 * from a performance.mark() it made (`mark.name`, at `mark.at`).
 */
export function pageTasks(events, mark) {
  const anchor = events.find((e) => e.cat?.includes('user_timing') && e.name === mark.name);
  if (!anchor) return null;
  // Trace timestamps are microseconds of the same monotonic clock, from another origin.
  const offset = anchor.ts / 1000 - mark.at;
  return events
    .filter(
      (e) => e.pid === anchor.pid && e.tid === anchor.tid && e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask',
    )
    .map((e) => ({ at: e.ts / 1000 - offset, duration: e.dur / 1000, cpu: (e.tdur ?? e.dur) / 1000 }));
}

/**
 * The main thread's CPU time in each interval between consecutive frame
 * times `frames` (ascending): each task's thread time shared out over the
 * intervals by how much of its wall time falls in each.
 */
export function cpuPerFrame(frames, tasks) {
  const cpu = new Array(Math.max(0, frames.length - 1)).fill(0);
  for (const task of tasks) {
    const end = task.at + task.duration;
    for (let i = 0; i < cpu.length; i++) {
      const overlap = Math.min(end, frames[i + 1]) - Math.max(task.at, frames[i]);
      if (overlap <= 0) continue;
      cpu[i] += task.duration > 0 ? (task.cpu * overlap) / task.duration : task.cpu;
    }
  }
  return cpu;
}

/**
 * Watches the plots on screen (svg changes and drawing calls on their
 * canvases) and the animation frames, in the page: window.dragLog. Installed
 * once per page; `record(true)` starts a drag's log.
 */
function installWatch() {
  if (window.dragLog) return;
  const log = { frames: [], recording: false, updates: {}, onScreen: [] };
  window.dragLog = log;
  // The plot a node is in (cached: the observers run at every change and must cost the page little).
  const plots = new WeakMap();
  const plotOf = (node) => {
    if (!plots.has(node)) plots.set(node, node.closest?.('[data-plot]') ?? null);
    return plots.get(node);
  };
  const changed = (plot) => {
    if (plot && log.onScreen.includes(plot)) (log.updates[plot.dataset.plot] ??= []).push(performance.now());
  };
  log.mutations = new MutationObserver((records) => {
    for (const plot of new Set(records.map((record) => plotOf(record.target)))) changed(plot);
  });
  // Canvas drawing changes no DOM: count the calls that put something on one.
  const prototype = CanvasRenderingContext2D.prototype;
  for (const method of ['putImageData', 'fill', 'stroke', 'fillRect', 'drawImage']) {
    const original = prototype[method];
    prototype[method] = function (...args) {
      changed(plotOf(this.canvas));
      return original.apply(this, args);
    };
  }
  log.start = () => {
    log.onScreen = [...document.querySelectorAll('[data-plot]')].filter((plot) => {
      const { top, bottom } = plot.getBoundingClientRect();
      return bottom > 0 && top < innerHeight;
    });
    log.mutations.disconnect();
    for (const plot of log.onScreen) log.mutations.observe(plot, { childList: true, subtree: true, attributes: true });
    log.frames = [];
    log.updates = {};
    log.recording = true;
    return log.onScreen.map((plot) => plot.dataset.plot);
  };
  const tick = (now) => {
    if (log.recording) log.frames.push(now);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Milliseconds after the release that the plots on screen must stay unchanged to count as settled. */
const QUIET_MS = 300;
/** The longest wait for them after a release. */
const SETTLE_CAP_MS = 3000;

/**
 * The slider of knob `name` a reader of `section` drags: that section's own
 * (form[data-knobs]), else the chapter's (#c-<name>: the strip, or the sidebar
 * form of a build before the knobs moved beside the plots); null when the
 * document has none.
 */
async function sliderFor(page, name, section) {
  const slider = page.locator(`form[data-knobs="${section}"] [name="${name}"], #c-${name}`).first();
  return (await slider.count()) > 0 ? slider : null;
}

/**
 * Drags the slider `slider` from its thumb: `span` of the track to one
 * side and back (towards the larger side), one mouse move per `stepMs`, and
 * waits until the plots on screen are quiet. Returns the frame times, the
 * press and release (performance.now()) and each plot's change times.
 */
async function drag(page, slider, { steps = 30, stepMs = 16, span = 0.3 } = {}) {
  // A sidebar taller than the window scrolls on its own: bring the slider into it,
  // the page staying where the view put it.
  await slider.evaluate((input) => {
    const y = scrollY;
    input.scrollIntoView({ block: 'nearest' });
    if (scrollY !== y) scrollTo(0, y);
  });
  const box = await slider.boundingBox();
  const { value, min, max } = await slider.evaluate((input) => ({
    value: Number(input.value),
    min: Number(input.min),
    max: Number(input.max),
  }));
  // Chromium's thumb is about 16 px wide: its centre runs from 8 px to width - 8 px.
  const track = (fraction) => box.x + 8 + (box.width - 16) * Math.min(1, Math.max(0, fraction));
  const start = (value - min) / (max - min || 1);
  const direction = start <= 0.5 ? 1 : -1;
  const y = box.y + box.height / 2;
  await page.mouse.move(track(start), y);
  const onScreen = await page.evaluate(() => window.dragLog.start());
  const pressed = await page.evaluate(() => performance.now());
  await page.mouse.down();
  for (let step = 1; step <= steps; step++) {
    // Out and back: the second half revisits values, as a hand does.
    const along = step <= steps / 2 ? step / (steps / 2) : (steps - step) / (steps / 2);
    await page.mouse.move(track(start + direction * span * along), y);
    await page.waitForTimeout(stepMs);
  }
  await page.mouse.up();
  const released = await page.evaluate(() => performance.now());
  // Frames up to the release; changes until the plots on screen have been quiet for QUIET_MS.
  await page.waitForFunction(
    ([released, quiet, cap]) => {
      const now = performance.now();
      const last = Math.max(released, ...Object.values(window.dragLog.updates).flat());
      return now - last >= quiet || now - released >= cap;
    },
    [released, QUIET_MS, SETTLE_CAP_MS],
    { polling: 50, timeout: SETTLE_CAP_MS + 5000 },
  );
  const { frames, updates } = await page.evaluate(() => {
    const log = window.dragLog;
    log.recording = false;
    log.mutations.disconnect();
    return { frames: log.frames, updates: log.updates };
  });
  return { onScreen, pressed, released, frames: frames.filter((at) => at <= released), updates };
}

/** The figures of one drag from its log and the page's tasks. */
function figures({ onScreen, pressed, released, frames, updates }, tasks) {
  // The first interval spans the press itself.
  const frameTimes = frames.slice(1);
  const intervals = frameTimes
    .slice(1)
    .map((at, i) => at - frameTimes[i])
    .sort((a, b) => a - b);
  const cpu = cpuPerFrame(frameTimes, tasks).sort((a, b) => a - b);
  const during = tasks.filter((t) => t.at + t.duration > pressed && t.at < released);
  const longest = during.reduce((a, b) => (b.duration > a.duration ? b : a), { duration: 0, cpu: 0 });
  const plots = Object.fromEntries(
    Object.entries(updates).map(([plot, at]) => [
      plot,
      {
        during: at.filter((time) => time > pressed && time <= released).length,
        settled: Math.max(0, ...at.filter((time) => time > released).map((time) => time - released)),
      },
    ]),
  );
  return {
    onScreen,
    frames: intervals.length,
    intervals,
    cpu,
    cpuMedian: percentile(cpu, 0.5),
    cpuP95: percentile(cpu, 0.95),
    cpuMax: cpu.at(-1) ?? 0,
    median: percentile(intervals, 0.5),
    p95: percentile(intervals, 0.95),
    longestFrame: intervals.at(-1) ?? 0,
    traced: tasks.length > 0,
    longTasks: during.filter((t) => t.duration >= 50).length,
    longestTask: longest.duration,
    longestTaskCpu: longest.cpu,
    changed: Object.values(plots).some((plot) => plot.during > 0),
    settled: Math.max(0, ...Object.values(plots).map((plot) => plot.settled)),
    plots,
    load: loadavg()[0],
  };
}

/**
 * Per plot (data-plot name): the state keys it is drawn from (its section's
 * deps, an array standing for the keys it is computed from), or null when the
 * page's model cannot be read here.
 */
export async function keysByPlot() {
  try {
    const [{ SECTIONS }, { knobsOf }] = await Promise.all([
      import('../../web/sections/sections.js'),
      import('../../web/model/arrays.js'),
    ]);
    return new Map(SECTIONS.map((section) => [section.name, knobsOf(section.deps)]));
  } catch (error) {
    console.warn(`drag.mjs: the sections' deps could not be read (${error.message}): every slider in every view`);
    return null;
  }
}

/**
 * Plot name (null: the top of the first chapter) -> { file: the chapter document that holds it,
 * section: its section }; the root ('' file) when the registry cannot be read here.
 */
async function placeOfPlot() {
  try {
    const { CHAPTERS, PLOTS } = await import('../../web/model/registry.js');
    return (name) => {
      const plot = PLOTS.find((p) => p.name === name) ?? PLOTS[0];
      return { file: CHAPTERS.find((chapter) => chapter.name === plot.chapter).file, section: plot.section };
    };
  } catch (error) {
    console.warn(`drag.mjs: the registry could not be read (${error.message}): the site's root page`);
    return () => ({ file: '', section: '' });
  }
}

/**
 * One page scrolled to `view`, the sliders of `sliders` dragged there that a
 * plot on screen is drawn from (all with `every`, or without `keys`; a slider
 * that moves none of them moves only the controls, which one view with
 * `every` covers): unthrottled, then at 4× when it changed a plot on screen
 * (`throttle`). Returns [{ name, view, ...figures, throttled: figures | null }].
 */
export async function measureView(
  browser,
  url,
  view,
  { sliders = DRAG_SLIDERS, query = DRAG_QUERY, throttle = true, keys = null, every = true } = {},
) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const { file, section } = (await placeOfPlot())(DRAG_VIEWS[view] ?? (view === 'top' ? null : view));
  try {
    await page.goto(`${url}${file}${query}`);
    await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
    const plot = DRAG_VIEWS[view] ?? (view === 'top' ? null : view);
    if (plot) {
      await page.locator(`[data-plot="${plot}"]`).evaluate((element) => element.scrollIntoView({ block: 'start' }));
    }
    await page.evaluate(installWatch);
    // Let the first draw, the later chapters' code and the idle builds of the other plots finish:
    // the plots on screen drawn and unchanged for a while (on a busy machine the first draws take seconds).
    const since = await page.evaluate(() => (window.dragLog.start(), performance.now()));
    await page
      .waitForFunction(
        ([since, quiet]) =>
          performance.getEntriesByName('posenc:first-plot').length > 0 &&
          performance.now() - Math.max(since, ...Object.values(window.dragLog.updates).flat()) >= quiet,
        [since, 2000],
        { polling: 100, timeout: 30000 },
      )
      .catch(() => console.warn(`drag.mjs: the plots in view ${view} kept changing for 30 s`));
    // The plots above may have changed height meanwhile (drawn, their chapter loaded): the view again.
    if (plot) {
      await page.locator(`[data-plot="${plot}"]`).evaluate((element) => element.scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(500);
    }
    const onScreen = await page.evaluate(() =>
      [...document.querySelectorAll('[data-plot]')]
        .filter((plot) => {
          const { top, bottom } = plot.getBoundingClientRect();
          return bottom > 0 && top < innerHeight;
        })
        .map((plot) => plot.dataset.plot),
    );
    const moving = [];
    for (const name of sliders.filter((name) => every || !keys || onScreen.some((plot) => keys.get(plot)?.has(name)))) {
      const slider = await sliderFor(page, name, section);
      if (slider) moving.push({ name, slider });
    }
    const cdp = await page.context().newCDPSession(page);
    const results = [];
    const runs = [];
    // 'toplevel' records every task with little overhead; user_timing carries the anchor mark.
    const { events, result: anchor } = await traced(page, 'toplevel,blink.user_timing', async () => {
      const at = await page.evaluate(() => performance.mark('posenc-drag').startTime);
      for (const { name, slider } of moving) {
        const unthrottled = await drag(page, slider);
        let throttled = null;
        if (throttle && unthrottled.updates && Object.keys(unthrottled.updates).length > 0) {
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
          try {
            throttled = await drag(page, slider);
          } finally {
            await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
          }
        }
        runs.push({ name, unthrottled, throttled });
      }
      return at;
    });
    await cdp.detach();
    const tasks = pageTasks(events, { name: 'posenc-drag', at: anchor }) ?? [];
    for (const { name, unthrottled, throttled } of runs) {
      results.push({
        name,
        view,
        ...figures(unthrottled, tasks),
        throttled: throttled && figures(throttled, tasks),
      });
    }
    return results;
  } finally {
    await page.close();
  }
}

/**
 * Every view (measureView): in the first every slider, in the others those
 * that move a plot on screen (every slider everywhere with `everySlider`).
 * Returns their results, each also given to onResult.
 */
export async function measureDrags(
  browser,
  url,
  {
    sliders = DRAG_SLIDERS,
    views = Object.keys(DRAG_VIEWS),
    query = DRAG_QUERY,
    throttle = true,
    everySlider = false,
    onResult = () => {},
  } = {},
) {
  const results = [];
  const keys = everySlider ? null : await keysByPlot();
  for (const [index, view] of views.entries()) {
    const every = everySlider || index === 0;
    for (const result of await measureView(browser, url, view, { sliders, query, throttle, keys, every })) {
      results.push(result);
      onResult(result);
    }
  }
  return results;
}

/** Whether a drag meets the targets (its throttled figures, when it had a throttled drag). */
export const meets = (r) =>
  r.cpuP95 <= TARGET.cpu && r.settled <= TARGET.settle && (!r.throttled || r.throttled.p95 <= TARGET.throttledFrame);

/** Per `key` of the results ('name': per slider, 'view': per view): frames and CPU pooled, the worst drags. */
export function summarise(results, key = 'name') {
  const groups = new Map();
  for (const result of results) {
    if (!groups.has(result[key])) groups.set(result[key], []);
    groups.get(result[key]).push(result);
  }
  const worst = (runs, figure) => runs.reduce((a, b) => (figure(b) > figure(a) ? b : a));
  return [...groups].map(([group, runs]) => {
    const cpu = runs.flatMap((r) => r.cpu).sort((a, b) => a - b);
    const intervals = runs.flatMap((r) => r.intervals).sort((a, b) => a - b);
    const throttledRuns = runs.filter((r) => r.throttled);
    const throttled = throttledRuns.flatMap((r) => r.throttled.intervals).sort((a, b) => a - b);
    const other = key === 'name' ? 'view' : 'name';
    const cpuWorst = worst(runs, (r) => r.cpuP95);
    const settleWorst = worst(runs, (r) => r.settled);
    const throttledWorst = throttledRuns.length ? worst(throttledRuns, (r) => r.throttled.p95) : null;
    return {
      group,
      drags: runs.length,
      met: runs.filter(meets).length,
      frames: intervals.length,
      cpuMedian: percentile(cpu, 0.5),
      cpuP95: percentile(cpu, 0.95),
      cpuWorst: { p95: cpuWorst.cpuP95, at: cpuWorst[other] },
      p95: percentile(intervals, 0.95),
      throttledDrags: throttledRuns.length,
      throttledP95: percentile(throttled, 0.95),
      throttledWorst: throttledWorst && { p95: throttledWorst.throttled.p95, at: throttledWorst[other] },
      settleWorst: { settled: settleWorst.settled, at: settleWorst[other] },
      longTasks: runs.reduce((sum, r) => sum + r.longTasks, 0),
      load: Math.max(...runs.map((r) => r.load)),
    };
  });
}

const ms = (value) => `${value.toFixed(1)} ms`;

/** One line per drag (one slider, one view), and the plots on screen with `verbose`. */
export function formatDrag(r, { verbose = false } = {}) {
  const th = r.throttled;
  const line =
    `${meets(r) ? 'MET ' : 'MISS'} drag ${r.name.padEnd(9)} ${r.view.padEnd(13)} ` +
    `CPU/frame median ${ms(r.cpuMedian)}, p95 ${ms(r.cpuP95)} (max ${ms(r.cpuMax)}); ` +
    `frame p95 ${ms(r.p95)}; ` +
    `${th ? `4×: frame p95 ${ms(th.p95)} (longest ${ms(th.longestFrame)}), CPU/frame p95 ${ms(th.cpuP95)}; ` : '4×: -; '}` +
    `settled ${r.settled.toFixed(0)} ms${th ? ` (4×: ${th.settled.toFixed(0)})` : ''}; ` +
    `longest task ${r.traced ? `${ms(r.longestTask)} (${ms(r.longestTaskCpu)} CPU)` : 'not traced'}; ` +
    `${r.frames} frames; load ${r.load.toFixed(1)}`;
  if (!verbose) return line;
  const plots = Object.entries(r.plots)
    .map(([plot, { during, settled }]) => `${plot} ${during} updates, settled ${settled.toFixed(0)} ms`)
    .join('; ');
  return `${line}\n       on screen: ${r.onScreen.join(', ')}; changed: ${plots || 'none'}`;
}

/** One line per slider (or view) over all its drags. */
export function formatSummary(s) {
  return (
    `${s.met === s.drags ? 'MET ' : 'MISS'} ${String(s.group).padEnd(13)} ${s.met}/${s.drags} drags met; ` +
    `CPU/frame median ${ms(s.cpuMedian)}, p95 ${ms(s.cpuP95)} (worst drag p95 ${ms(s.cpuWorst.p95)}, ${s.cpuWorst.at}); ` +
    `frame p95 ${ms(s.p95)}; ` +
    `4× frame p95 ${s.throttledDrags ? `${ms(s.throttledP95)} (worst ${ms(s.throttledWorst.p95)}, ${s.throttledWorst.at})` : '-'}; ` +
    `settled ≤ ${s.settleWorst.settled.toFixed(0)} ms (${s.settleWorst.at}); ${s.longTasks} tasks ≥ 50 ms; ` +
    `load up to ${s.load.toFixed(1)}`
  );
}

/** Prints the summaries of `results`: per slider, then per view. */
export function printSummaries(results, print = console.log) {
  print(
    `targets: CPU/frame p95 ≤ ${TARGET.cpu} ms, 4× frame p95 ≤ ${TARGET.throttledFrame.toFixed(0)} ms, ` +
      `settled ≤ ${TARGET.settle} ms after release`,
  );
  for (const summary of summarise(results, 'name')) print(`slider ${formatSummary(summary)}`);
  for (const summary of summarise(results, 'view')) print(`view   ${formatSummary(summary)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (flag, fallback) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : fallback;
  };
  const flag = (name) => (args.includes(name) ? (args.splice(args.indexOf(name), 1), true) : false);
  const verbose = flag('--verbose');
  const throttle = !flag('--no-throttle');
  const everySlider = flag('--every-slider');
  const runs = Number(option('--runs', 1));
  const query = option('--query', DRAG_QUERY);
  const sliders = option('--sliders', DRAG_SLIDERS.join(',')).split(',');
  const views = option('--views', Object.keys(DRAG_VIEWS).join(',')).split(',');
  // Several sites (e.g. main's build and this one): each view measured on each in turn, so that they
  // share the machine's load; the summaries per site.
  const siteDirs = args.length ? args : [fileURLToPath(new URL('../../dist/site', import.meta.url))];
  const sites = await Promise.all(siteDirs.map((dir) => serveStatic(dir)));
  const browser = await launchChromium();
  try {
    console.log(`${siteDirs.join(' vs ')} ${query}; views ${views.join(', ')}`);
    const keys = everySlider ? null : await keysByPlot();
    for (let run = 0; run < runs; run++) {
      const started = Date.now();
      const results = siteDirs.map(() => []);
      for (const [index, view] of views.entries()) {
        for (const [at, site] of sites.entries()) {
          const every = everySlider || index === 0;
          for (const result of await measureView(browser, site.url, view, { sliders, query, throttle, keys, every })) {
            results[at].push(result);
            console.log(`${sites.length > 1 ? `[${at + 1}] ` : ''}${formatDrag(result, { verbose })}`);
          }
        }
      }
      for (const [at, dir] of siteDirs.entries()) {
        if (sites.length > 1) console.log(`[${at + 1}] ${dir}:`);
        printSummaries(results[at]);
      }
      console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  } finally {
    await browser.close();
    await Promise.all(sites.map((site) => site.close()));
  }
}
