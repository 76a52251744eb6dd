// Frame times while a slider of the page is dragged with the mouse, in
// headless Chromium: per slider the median and 95th percentile of the
// intervals between animation frames and the longest main-thread task; and
// how often the plots on screen changed during the drag and how long after
// the release they settled (the lag a user sees).
// Used by browser.mjs (npm run bench); also runs alone against any built site:
//   node tests/bench/drag.mjs [siteDir] [--section heatmap] [--runs 3] [--query '?dModel=512&length=2048']
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../e2e/chromium.mjs';
import { serveStatic } from '../e2e/server.mjs';

export const DRAG_SLIDERS = ['dModel', 'length', 'position', 'offset'];
export const DRAG_QUERY = '?dModel=512&length=2048';
/** One frame at 60 Hz, with a little slack for timer jitter. */
export const FRAME_BUDGET = (1000 / 60) * 1.5;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * Drags the slider `#c-${name}` from its thumb: `span` of the track to one
 * side and back (towards the larger side), one mouse move per `stepMs`.
 * Returns frame intervals and long tasks seen between press and release, and
 * the longest task in the second after the release (deferred work).
 */
export async function dragSlider(page, name, { steps = 60, stepMs = 16, span = 0.3 } = {}) {
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
    const log = { intervals: [], longTasks: [], recording: false, stop: false, updates: {} };
    window.dragLog = log;
    // A plot changed: its svg or its canvas, for the plots on screen.
    const onScreen = [...document.querySelectorAll('[data-plot]')].filter((plot) => {
      const { top, bottom } = plot.getBoundingClientRect();
      return bottom > 0 && top < innerHeight;
    });
    const changed = (plot) => (log.updates[plot.dataset.plot] ??= []).push(performance.now());
    log.mutations = new MutationObserver((records) => {
      const plots = new Set(records.map((record) => record.target.closest?.('[data-plot]')));
      for (const plot of plots) if (plot && onScreen.includes(plot)) changed(plot);
    });
    for (const plot of onScreen) log.mutations.observe(plot, { childList: true, subtree: true, attributes: true });
    if (!window.putImageDataSeen) {
      window.putImageDataSeen = true;
      const put = CanvasRenderingContext2D.prototype.putImageData;
      CanvasRenderingContext2D.prototype.putImageData = function (...args) {
        const plot = this.canvas.closest('[data-plot]');
        if (plot && window.dragLog?.onScreen?.includes(plot)) changed(plot);
        return put.apply(this, args);
      };
    }
    log.onScreen = onScreen;
    let last = performance.now();
    const tick = (now) => {
      if (log.recording) log.intervals.push(now - last);
      last = now;
      if (!log.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    log.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) log.longTasks.push({ at: entry.startTime, duration: entry.duration });
    });
    log.observer.observe({ type: 'longtask' });
  });
  await page.mouse.move(track(start), y);
  const pressed = await page.evaluate(() => {
    window.dragLog.recording = true;
    return performance.now();
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
  const { intervals, longTasks, updates } = await page.evaluate(() => {
    const log = window.dragLog;
    log.stop = true;
    log.observer.disconnect();
    log.mutations.disconnect();
    log.onScreen = [];
    return { intervals: log.intervals, longTasks: log.longTasks, updates: log.updates };
  });
  const during = longTasks.filter((t) => t.at + t.duration > pressed && t.at < released).map((t) => t.duration);
  const after = longTasks.filter((t) => t.at >= released).map((t) => t.duration);
  // The first interval spans the press itself.
  const sorted = intervals.slice(1).sort((a, b) => a - b);
  return {
    name,
    frames: sorted.length,
    median: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    longestFrame: sorted[sorted.length - 1] ?? 0,
    longTasks: during.length,
    longestTask: Math.max(0, ...during),
    longestAfter: Math.max(0, ...after),
    // Per plot on screen: changes while the slider moved, and the last one after the release.
    plots: Object.fromEntries(
      Object.entries(updates).map(([plot, times]) => [
        plot,
        {
          during: times.filter((at) => at > pressed && at <= released).length,
          settled: Math.max(0, ...times.filter((at) => at > released).map((at) => at - released)),
        },
      ]),
    ),
  };
}

/** Opens the page afresh for each slider (same starting state) and drags it. */
export async function measureDrags(browser, url, { sliders = DRAG_SLIDERS, section = null, query = DRAG_QUERY } = {}) {
  const results = [];
  for (const name of sliders) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(`${url}${query}`);
      await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
      if (section) {
        await page.locator(`[data-plot="${section}"]`).scrollIntoViewIfNeeded();
      }
      // Let the first draw and the idle builds of off-screen plots finish.
      await page.waitForTimeout(2500);
      results.push(await dragSlider(page, name));
    } finally {
      await page.close();
    }
  }
  return results;
}

export function formatDrag(r) {
  const met = r.longestTask <= FRAME_BUDGET && r.p95 <= FRAME_BUDGET;
  return (
    `${met ? 'MET ' : 'MISS'} drag ${r.name.padEnd(8)} ${String(r.frames).padStart(3)} frames, ` +
    `median ${r.median.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, longest frame ${r.longestFrame.toFixed(1)} ms, ` +
    `long tasks ${r.longTasks} (longest ${r.longestTask.toFixed(0)} ms; after release ${r.longestAfter.toFixed(0)} ms)` +
    `\n       plots on screen: ${
      Object.entries(r.plots)
        .map(
          ([plot, { during, settled }]) => `${plot} ${during} updates, settled ${settled.toFixed(0)} ms after release`,
        )
        .join('; ') || 'none changed'
    }`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (flag, fallback) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : fallback;
  };
  const section = option('--section', null);
  const runs = Number(option('--runs', 1));
  const query = option('--query', DRAG_QUERY);
  const sliders = option('--sliders', DRAG_SLIDERS.join(',')).split(',');
  const siteDir = args[0] ?? fileURLToPath(new URL('../../dist/site', import.meta.url));
  const site = await serveStatic(siteDir);
  const browser = await launchChromium();
  try {
    console.log(`${siteDir} ${query}${section ? ` scrolled to ${section}` : ''}`);
    for (let run = 0; run < runs; run++) {
      for (const result of await measureDrags(browser, site.url, { sliders, section, query })) {
        console.log(formatDrag(result));
      }
    }
  } finally {
    await browser.close();
    await site.close();
  }
}
