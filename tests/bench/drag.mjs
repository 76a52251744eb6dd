// Frame times while a slider of the page is dragged with the mouse, in
// headless Chromium. The controls stay on screen while the page scrolls, so a
// user may drag any slider while looking at any plot: each slider is dragged
// with each part of the page in view (one fresh page per drag). Per drag: the
// median and 95th percentile of the intervals between animation frames, the
// longest main-thread task (every task, from a Chromium trace, not only the
// Long Tasks API's ≥ 50 ms ones) with the part of it the thread was on a CPU
// (the rest it waited, e.g. for a core other processes held: the machine's
// load average is printed too), and how often the plots on screen changed and
// how long after the release they settled (the lag a user sees). Per slider:
// the same over all views.
// Used by browser.mjs (npm run bench); also runs alone against any built site:
//   node tests/bench/drag.mjs [siteDir] [--views top,waves] [--sliders dModel] [--runs 3]
//     [--query '?dModel=512&length=2048'] [--verbose]
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../e2e/chromium.mjs';
import { serveStatic } from '../e2e/server.mjs';

export const DRAG_SLIDERS = ['dModel', 'length', 'position', 'offset'];
export const DRAG_QUERY = '?dModel=512&length=2048';
/**
 * Where the page is scrolled during a drag: the plot put at the top of the
 * window (null: the top of the page). Together they show every plot.
 */
export const DRAG_VIEWS = {
  top: null,
  waves: 'waves',
  row: 'row',
  rotation: 'rotation',
  'offset-dots': 'offset-dots',
  similarity: 'similarity',
  compare: 'compare',
  mistakes: 'mistake-column',
};
/** One frame at 60 Hz. */
export const FRAME = 1000 / 60;
/** One frame, with a little slack for timer jitter: the target for the p95 frame and the longest task. */
export const FRAME_BUDGET = FRAME * 1.5;

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

export async function traced(page, categories, run) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  try {
    return { result: await run(), events };
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
  }
}

/**
 * Drags the slider `#c-${name}` from its thumb: `span` of the track to one
 * side and back (towards the larger side), one mouse move per `stepMs`.
 * Returns frame intervals and main-thread tasks between press and release,
 * and the longest task in the second after the release (deferred work).
 * `categories`: more trace categories, for a profile (the events are then
 * returned as `trace`).
 */
export async function dragSlider(page, name, { steps = 60, stepMs = 16, span = 0.3, categories = null } = {}) {
  const slider = page.locator(`#c-${name}`);
  await slider.scrollIntoViewIfNeeded();
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

  await page.evaluate(() => {
    const log = { intervals: [], recording: false, stop: false, updates: {} };
    window.dragLog = log;
    // A plot changed: its svg or its canvas, for the plots on screen.
    const onScreen = [...document.querySelectorAll('[data-plot]')].filter((plot) => {
      const { top, bottom } = plot.getBoundingClientRect();
      return bottom > 0 && top < innerHeight;
    });
    const changed = (plot) => (log.updates[plot.dataset.plot] ??= []).push(performance.now());
    // The plot a node is in (cached: the observers run at every change and must cost the page little).
    const plots = new WeakMap();
    window.plotOf = (node) => {
      if (!plots.has(node)) plots.set(node, node.closest?.('[data-plot]') ?? null);
      return plots.get(node);
    };
    log.mutations = new MutationObserver((records) => {
      const touched = new Set(records.map((record) => window.plotOf(record.target)));
      for (const plot of touched) if (plot && onScreen.includes(plot)) changed(plot);
    });
    for (const plot of onScreen) log.mutations.observe(plot, { childList: true, subtree: true, attributes: true });
    if (!window.canvasDrawsSeen) {
      window.canvasDrawsSeen = true;
      // Canvas drawing changes no DOM: count the calls that put something on one.
      const prototype = CanvasRenderingContext2D.prototype;
      for (const method of ['putImageData', 'fill', 'stroke', 'fillRect', 'drawImage']) {
        const original = prototype[method];
        prototype[method] = function (...args) {
          const plot = window.plotOf(this.canvas);
          if (plot && window.dragLog?.onScreen?.includes(plot)) window.dragLog.changed(plot);
          return original.apply(this, args);
        };
      }
    }
    log.onScreen = onScreen;
    log.changed = changed;
    let last = performance.now();
    const tick = (now) => {
      if (log.recording) log.intervals.push(now - last);
      last = now;
      if (!log.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.mouse.move(track(start), y);
  // 'toplevel' records every task with little overhead; user_timing carries the anchor mark.
  const traceCategories = ['toplevel', 'blink.user_timing', ...(categories ?? [])].join(',');
  const { result: times, events } = await traced(page, traceCategories, async () => {
    const pressed = await page.evaluate(() => {
      window.dragLog.recording = true;
      performance.mark('posenc-drag');
      return { at: performance.getEntriesByName('posenc-drag').at(-1).startTime, now: performance.now() };
    });
    await page.mouse.down();
    for (let step = 1; step <= steps; step++) {
      // Out and back: the second half revisits values, as a hand does.
      const along = step <= steps / 2 ? step / (steps / 2) : (steps - step) / (steps / 2);
      await page.mouse.move(track(start + direction * span * along), y);
      await page.waitForTimeout(stepMs);
    }
    await page.mouse.up();
    const released = await page.evaluate(() => {
      window.dragLog.recording = false;
      return performance.now();
    });
    await page.waitForTimeout(1000);
    return { pressed, released };
  });
  const { pressed, released } = times;
  const { intervals, updates } = await page.evaluate(() => {
    const log = window.dragLog;
    log.stop = true;
    log.mutations.disconnect();
    log.onScreen = [];
    return { intervals: log.intervals, updates: log.updates };
  });
  const tasks = pageTasks(events, { name: 'posenc-drag', at: pressed.at }) ?? [];
  const duringTasks = tasks.filter((t) => t.at + t.duration > pressed.now && t.at < released);
  const during = duringTasks.map((t) => t.duration);
  const after = tasks.filter((t) => t.at >= released).map((t) => t.duration);
  const longest = duringTasks.reduce((a, b) => (b.duration > a.duration ? b : a), { duration: 0, cpu: 0 });
  // The first interval spans the press itself.
  const sorted = intervals.slice(1).sort((a, b) => a - b);
  return {
    name,
    intervals: sorted,
    frames: sorted.length,
    median: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    longestFrame: sorted.at(-1) ?? 0,
    traced: tasks.length > 0,
    overFrame: during.filter((d) => d > FRAME).length,
    longTasks: during.filter((d) => d >= 50).length,
    longestTask: longest.duration,
    longestTaskCpu: longest.cpu,
    load: loadavg()[0],
    longestAfter: Math.max(0, ...after),
    ...(categories ? { trace: events } : {}),
    // Per plot on screen: changes while the slider moved, and the last one after the release.
    plots: Object.fromEntries(
      Object.entries(updates).map(([plot, at]) => [
        plot,
        {
          during: at.filter((time) => time > pressed.now && time <= released).length,
          settled: Math.max(0, ...at.filter((time) => time > released).map((time) => time - released)),
        },
      ]),
    ),
  };
}

/**
 * Per slider and view, a fresh page (the same starting state) scrolled to the
 * view, then the drag. Returns [{ ...dragSlider's result, view }].
 */
export async function measureDrags(
  browser,
  url,
  { sliders = DRAG_SLIDERS, views = Object.keys(DRAG_VIEWS), query = DRAG_QUERY, onResult = () => {} } = {},
) {
  const results = [];
  for (const name of sliders) {
    for (const view of views) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      try {
        await page.goto(`${url}${query}`);
        await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
        const plot = DRAG_VIEWS[view] ?? (view === 'top' ? null : view);
        if (plot) {
          await page.locator(`[data-plot="${plot}"]`).evaluate((element) => element.scrollIntoView({ block: 'start' }));
        }
        // Let the first draw and the idle builds of the other plots finish.
        await page.waitForTimeout(2500);
        const result = { ...(await dragSlider(page, name)), view };
        results.push(result);
        onResult(result);
      } finally {
        await page.close();
      }
    }
  }
  return results;
}

/** Per slider: every view's frames pooled, the longest task of any view. */
export function summarise(results) {
  const bySlider = new Map();
  for (const result of results) {
    if (!bySlider.has(result.name)) bySlider.set(result.name, []);
    bySlider.get(result.name).push(result);
  }
  return [...bySlider].map(([name, runs]) => {
    const intervals = runs.flatMap((r) => r.intervals).sort((a, b) => a - b);
    const worst = runs.reduce((a, b) => (b.longestTask > a.longestTask ? b : a));
    return {
      name,
      views: runs.length,
      frames: intervals.length,
      median: percentile(intervals, 0.5),
      p95: percentile(intervals, 0.95),
      longestFrame: intervals.at(-1) ?? 0,
      overFrame: runs.reduce((sum, r) => sum + r.overFrame, 0),
      longTasks: runs.reduce((sum, r) => sum + r.longTasks, 0),
      longestTask: worst.longestTask,
      longestTaskCpu: worst.longestTaskCpu,
      longestTaskView: worst.view,
      load: Math.max(...runs.map((r) => r.load)),
      longestAfter: Math.max(...runs.map((r) => r.longestAfter)),
    };
  });
}

const met = (r) => (r.longestTask <= FRAME_BUDGET && r.p95 <= FRAME_BUDGET ? 'MET ' : 'MISS');
const ms = (value) => `${value.toFixed(1)} ms`;

/** One line per drag (one slider, one view), and the plots on screen with `verbose`. */
export function formatDrag(r, { verbose = false } = {}) {
  const line =
    `${met(r)} drag ${r.name.padEnd(8)} ${(r.view ?? '').padEnd(11)} ${String(r.frames).padStart(3)} frames, ` +
    `median ${ms(r.median)}, p95 ${ms(r.p95)}, longest frame ${ms(r.longestFrame)}, ` +
    `longest task ${r.traced ? `${ms(r.longestTask)} (${ms(r.longestTaskCpu)} on CPU)` : 'not traced'}, ` +
    `${r.overFrame} over one frame, ${r.longTasks} ≥ 50 ms; after release ${ms(r.longestAfter)}; load ${r.load.toFixed(1)}`;
  if (!verbose) return line;
  const plots = Object.entries(r.plots)
    .map(([plot, { during, settled }]) => `${plot} ${during} updates, settled ${settled.toFixed(0)} ms after release`)
    .join('; ');
  return `${line}\n       plots on screen: ${plots || 'none changed'}`;
}

/** One line per slider over all views. */
export function formatSummary(s) {
  return (
    `${met(s)} drag ${s.name.padEnd(8)} all ${s.views} views, ${s.frames} frames: median ${ms(s.median)}, ` +
    `p95 ${ms(s.p95)}, longest frame ${ms(s.longestFrame)}, longest task ${ms(s.longestTask)} ` +
    `(${ms(s.longestTaskCpu)} on CPU; ${s.longestTaskView}); ${s.overFrame} tasks over one frame, ${s.longTasks} ≥ 50 ms; ` +
    `after release ${ms(s.longestAfter)}; load up to ${s.load.toFixed(1)}`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (flag, fallback) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : fallback;
  };
  const verbose = args.includes('--verbose');
  if (verbose) args.splice(args.indexOf('--verbose'), 1);
  const runs = Number(option('--runs', 1));
  const query = option('--query', DRAG_QUERY);
  const sliders = option('--sliders', DRAG_SLIDERS.join(',')).split(',');
  const views = option('--views', Object.keys(DRAG_VIEWS).join(',')).split(',');
  const siteDir = args[0] ?? fileURLToPath(new URL('../../dist/site', import.meta.url));
  const site = await serveStatic(siteDir);
  const browser = await launchChromium();
  try {
    console.log(`${siteDir} ${query}; views ${views.join(', ')}`);
    for (let run = 0; run < runs; run++) {
      const results = await measureDrags(browser, site.url, {
        sliders,
        views,
        query,
        onResult: (result) => console.log(formatDrag(result, { verbose })),
      });
      for (const summary of summarise(results)) console.log(formatSummary(summary));
    }
  } finally {
    await browser.close();
    await site.close();
  }
}
