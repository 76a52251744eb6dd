// A chapter's first load, as a visitor's browser meets it: cold loads of each
// chapter document of the built site in fresh headless Chromium contexts
// (nothing cached; the new tab open), each run unthrottled and with the CPU
// throttled 4× (CDP Emulation.setCPUThrottlingRate, about a mid-range phone).
// Per run and rate, three loads: after the browser went idle, an untraced one for
// the page's User Timing marks posenc:first-plot (a plot on screen shows its
// data) and posenc:interactive (the controls respond), and a traced one for
// the longest main-thread task until both (every task, from a Chromium trace,
// whose recording slows the page: its marks are reported apart); and an
// untraced one without waiting for the browser to go idle. Per load,
// every response Chromium received for a
// request made before both marks (the first view; the worker's
// included), counted gzip-compressed by kind (HTML, JS, CSS, fonts, wasm):
// what a server that compresses sends; what was requested later, until the
// network went idle, is counted apart. Medians with the range of the runs.
// Used by browser.mjs (npm run bench); also runs alone against any built site:
//   node tests/bench/page-load.mjs [siteDir] [--runs 5] [--page rope.html] [--query '?dModel=512&length=2048'] [--versus otherSiteDir]
// (every chapter document of the site unless --page names some).
import { readdir, readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { CHAPTERS } from '../../web/model/registry.js';
import { launchChromium, traced } from '../e2e/chromium.mjs';
import { serveStatic } from '../e2e/server.mjs';
import { pageTasks } from './drag.mjs';

export const LOAD_MARKS = ['posenc:first-plot', 'posenc:interactive'];
// A chapter with no plot on its first screen makes no first-plot mark: it is looked for this long
// after the page is interactive (the page itself gives such a plot 1 s before the rest goes on).
const FIRST_PLOT_GRACE_MS = 1500;
/** The targets: first plot (ms) per CPU rate, the longest task unthrottled (ms), the first view's gzip bytes. */
export const LOAD_TARGETS = { firstPlot: { 1: 300, 4: 1200 }, longestTask: 50, bytes: 150 * 1024 };

const KINDS = [
  ['html', /\.html$|\/$/],
  ['js', /\.m?js$/],
  ['css', /\.css$/],
  ['fonts', /\.(woff2?|ttf|otf)$/],
  ['wasm', /\.wasm$/],
];
const kindOf = (url) => KINDS.find(([, pattern]) => pattern.test(new URL(url).pathname))?.[0] ?? 'other';

const CHROMIUM = '/usr/lib/chromium/chromium';
/** CPU time (clock ticks) used so far by every Chromium process on the machine (Linux /proc), or null. */
async function chromiumTicks() {
  let ticks = 0;
  let found = false;
  for (const pid of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!(await readFile(`/proc/${pid}/cmdline`, 'latin1')).startsWith(CHROMIUM)) continue;
      // utime and stime: the 14th and 15th fields, counted after the command's closing parenthesis.
      const fields = (await readFile(`/proc/${pid}/stat`, 'latin1')).split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      found = true;
    } catch {
      // The process ended meanwhile.
    }
  }
  return found ? ticks : null;
}

/**
 * Waits until Chromium has been idle a moment (its processes under 2 ticks of CPU in 250 ms; at most
 * 5 s; 1 s where /proc is not readable). A new window starts work of its own (Chromium 156 loads its
 * omnibox popup's WebUI, about 270 ms of CPU in a renderer of its own): measured with it, a cold
 * load on 2 cores shared them with it: 1.4 s to the first plot against 0.73 s (docs/performance.md).
 * A visitor's browser is already open.
 */
async function browserSettled() {
  const started = Date.now();
  let last = await chromiumTicks();
  if (last === null) return new Promise((resolve) => setTimeout(resolve, 1000));
  while (Date.now() - started < 5000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await chromiumTicks();
    if (now - last < 2) return;
    last = now;
  }
}

/**
 * The page's User Timing marks `names` ({ name: startTime }) once it has made them all, polled over
 * CDP every 50 ms: a one-line expression each time. (Playwright's waitForFunction first evaluates
 * its injected script in the page, about 40 ms of the main thread's time in the middle of the
 * load, which a visitor's browser does not spend.)
 */
async function marksOnce(cdp, names, timeout) {
  const expression = `(() => {
    const marks = ${JSON.stringify(names)}.map((name) => [name, performance.getEntriesByName(name)[0]?.startTime]);
    return marks.every(([, at]) => at !== undefined) ? JSON.stringify(Object.fromEntries(marks)) : null;
  })()`;
  const until = Date.now() + timeout;
  while (Date.now() < until) {
    // Before the page's document exists (the navigation not yet committed) there is no answer.
    const { result } = await cdp.send('Runtime.evaluate', { expression, returnByValue: true }).catch(() => ({}));
    if (typeof result?.value === 'string') return JSON.parse(result.value);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`page-load: the marks ${names.join(', ')} did not come within ${timeout / 1000} s`);
}

/**
 * One cold load of `url` in a fresh context at CPU `rate`: marks, bytes by kind and, when `trace`,
 * the longest task (null otherwise). Recording the trace costs the page time (docs/performance.md),
 * so the marks a visitor would see come from untraced loads.
 * Nothing is cached; the new tab is open (on about:blank) and, with `settle`, the browser idle
 * before the page is asked for.
 */
export async function coldLoad(
  browser,
  url,
  { rate = 1, trace = true, settle = true, viewport = { width: 1280, height: 900 } } = {},
) {
  const context = await browser.newContext({ viewport });
  try {
    const page = await context.newPage();
    // Untraced, the Long Tasks API tells the tasks of 50 ms or more (with their wall time, as the trace does).
    if (!trace) await page.addInitScript(observeLongTasks);
    await page.goto('about:blank');
    // Without `settle`, the page is asked for while the new window still does its own work, as a
    // visitor's browser started for the link does.
    if (settle) await browserSettled();
    const responses = [];
    const requestedAt = new Map();
    page.on('request', (request) => requestedAt.set(request, Date.now()));
    page.on('response', (response) => responses.push(response));
    // When the marks were seen (polled): what was requested by then is the first view.
    let interactiveAt = Infinity;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    const loadUntilMarks = async () => {
      await page.goto(url, { waitUntil: 'commit', timeout: 60_000 * rate });
      const marks = await marksOnce(cdp, [LOAD_MARKS[1]], 120_000 * rate);
      interactiveAt = Date.now();
      const plot = await marksOnce(cdp, [LOAD_MARKS[0]], FIRST_PLOT_GRACE_MS * rate).catch(() => null);
      // The first view ends at the later of its marks (the grace spent looking for a plot is not part of it).
      if (plot) interactiveAt = Date.now();
      return { ...marks, ...plot };
    };
    const { result: marks, events } = trace
      ? await traced(
          page,
          ['toplevel', 'blink.user_timing', 'disabled-by-default-devtools.timeline'].join(','),
          loadUntilMarks,
        )
      : { result: await loadUntilMarks(), events: null };
    // On a very busy machine the network may not go quiet in time: what arrived by then is counted.
    await page.waitForLoadState('networkidle', { timeout: 30_000 * rate }).catch(() => {});
    const end = Math.max(...Object.values(marks));
    const tasks = events
      ? (pageTasks(events, { name: LOAD_MARKS[1], at: marks[LOAD_MARKS[1]] }) ?? []).filter(
          (task) => task.at + task.duration > 0 && task.at < end,
        )
      : null;
    const longest = tasks?.reduce((a, b) => (b.duration > a.duration ? b : a), { duration: 0, cpu: 0 });
    const firstPaint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
    // Long tasks that started before both marks (untraced loads).
    const longTasksSeen = trace
      ? null
      : (await page.evaluate(() => self.posencLongTasks ?? []))
          .filter(([start]) => start < end)
          .map(([, duration]) => duration);
    // Untraced: the layout shift score until the network went quiet (the first view drawn).
    const layoutShift = trace ? null : await page.evaluate(() => self.posencLayoutShift);
    const bytes = {};
    let later = 0;
    for (const response of responses) {
      let body;
      try {
        body = await response.body();
      } catch {
        continue; // redirects have no body
      }
      const size = gzipSync(body).length;
      // Requested after the page was interactive (a chunk for a section further down, loaded ahead): not the first view.
      if (requestedAt.get(response.request()) > interactiveAt) {
        later += size;
        continue;
      }
      const kind = kindOf(response.url());
      bytes[kind] = (bytes[kind] ?? 0) + size;
    }
    await cdp.detach();
    return {
      rate,
      settled: settle,
      // null: no plot on the first screen.
      firstPlot: marks['posenc:first-plot'] ?? null,
      interactive: marks['posenc:interactive'],
      traced: trace,
      firstPaint,
      longestTask: longest?.duration ?? null,
      longestTaskCpu: longest?.cpu ?? null,
      longTasks: tasks?.filter((task) => task.duration > 50).length ?? null,
      // Untraced: the Long Tasks API's durations (ms) of the tasks of 50 ms or more.
      longTasksSeen,
      layoutShift,
      bytes,
      total: Object.values(bytes).reduce((a, b) => a + b, 0),
      later,
      requests: responses.length,
    };
  } finally {
    await context.close();
  }
}

/**
 * In the page before its first script: every long task (≥ 50 ms) as [start, duration], in
 * self.posencLongTasks; and the layout shift score (what moved on screen, not after input: the
 * browser's CLS), in self.posencLayoutShift.
 */
function observeLongTasks() {
  const seen = (self.posencLongTasks = []);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) seen.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  self.posencLayoutShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) self.posencLayoutShift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/** "median (min–max)" of `values`, with `digits` decimals. */
const spread = (values, digits = 0) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
const verdict = (ok) => (ok ? 'MET ' : 'MISS');
const kb = (bytes) => (bytes / 1024).toFixed(1);

/**
 * Runs `runs` pairs of cold loads (untraced, then traced) per CPU rate of each
 * site (sites and rates interleaved, so that a change in the machine's load
 * hits them alike) and prints a summary per site: the marks of the untraced
 * loads (the traced loads' in brackets), the longest task of the traced ones,
 * the bytes of all. `sites`: a URL, or { label: url }. Returns the loads.
 */
export async function measureLoads(browser, sites, { runs = 5, rates = [1, 4], log = console.log } = {}) {
  const labelled = typeof sites === 'string' ? { '': sites } : sites;
  const loads = Object.fromEntries(
    Object.keys(labelled).map((label) => [label, Object.fromEntries(rates.map((rate) => [rate, []]))]),
  );
  const load = [];
  for (let run = 0; run < runs; run++) {
    for (const [label, url] of Object.entries(labelled)) {
      for (const rate of rates) {
        // Untraced and traced after the browser went idle; untraced without waiting for it.
        for (const [trace, settle] of [
          [false, true],
          [true, true],
          [false, false],
        ]) {
          load.push(loadavg()[0]);
          loads[label][rate].push(await coldLoad(browser, url, { rate, trace, settle }));
        }
      }
    }
  }
  log(
    `page load: ${runs} untraced and ${runs} traced cold loads per CPU rate with the browser idle first, ` +
      `${runs} untraced without waiting for it; fresh contexts, 1280×900`,
  );
  for (const [label, byRate] of Object.entries(loads)) {
    const say = (line) => log(label ? `${label}: ${line}` : line);
    for (const rate of rates) {
      const of = (key, traced = false, settled = true) =>
        byRate[rate].filter((l) => l.traced === traced && l.settled === settled).map((l) => l[key]);
      // The first view is ready at its first plot, or, with no plot on the first screen, once interactive.
      const ready = (traced, settled) =>
        byRate[rate]
          .filter((l) => l.traced === traced && l.settled === settled)
          .map((l) => l.firstPlot ?? l.interactive);
      const plotless = of('firstPlot').every((at) => at === null);
      const what = plotless ? 'no plot on the first screen; interactive' : 'first plot';
      say(
        `${verdict(median(ready(false, true)) <= LOAD_TARGETS.firstPlot[rate])} CPU ${rate}×: ${what} ` +
          `${spread(ready(false, true))} ms [traced ${spread(ready(true, true))}] (target ≤ ${LOAD_TARGETS.firstPlot[rate]}), ` +
          `interactive ${spread(of('interactive'))} ms [traced ${spread(of('interactive', true))}]`,
      );
      say(
        `${verdict(median(ready(false, false)) <= LOAD_TARGETS.firstPlot[rate])} CPU ${rate}×, browser not idle first: ` +
          `${what} ${spread(ready(false, false))} ms, interactive ${spread(of('interactive', false, false))} ms`,
      );
      // The target is judged on the untraced loads: the trace's recording lengthens the tasks it times.
      const seen = of('longTasksSeen');
      const longestSeen = seen.map((durations) => Math.max(0, ...durations));
      say(
        `${rate === 1 ? verdict(median(longestSeen) <= LOAD_TARGETS.longestTask) : '    '} CPU ${rate}×: tasks of 50 ms ` +
          `or more during load (Long Tasks API, untraced loads): in ${seen.filter((durations) => durations.length > 0).length} ` +
          `of ${seen.length} loads, the longest ${spread(longestSeen)} ms (0: none)` +
          `${rate === 1 ? ` (target: none over ${LOAD_TARGETS.longestTask} ms)` : ''}`,
      );
      say(
        `     CPU ${rate}×: longest main-thread task during load, traced loads: ${spread(of('longestTask', true))} ms ` +
          `(on CPU ${spread(of('longestTaskCpu', true))}), tasks over 50 ms ${spread(of('longTasks', true))}; ` +
          `first contentful paint ${spread(of('firstPaint'))} ms`,
      );
      say(
        `     CPU ${rate}×: layout shift score (CLS) until the network is idle, untraced: ${spread(of('layoutShift'), 3)}`,
      );
    }
    const all = Object.values(byRate).flat();
    const kinds = [...new Set(all.flatMap((l) => Object.keys(l.bytes)))];
    const total = median(all.map((l) => l.total));
    say(
      `${verdict(total <= LOAD_TARGETS.bytes)} first view transfers (gzip, every response requested before both marks` +
        `): ${kb(total)} KB (${kinds.map((kind) => `${kind} ${kb(median(all.map((l) => l.bytes[kind] ?? 0)))}`).join(', ')}; ` +
        `target ≤ ${kb(LOAD_TARGETS.bytes)} KB); requested later, until the network was idle: ` +
        `${kb(median(all.map((l) => l.later)))} KB; ${median(all.map((l) => l.requests))} requests in all`,
    );
  }
  log(`load average during the runs: ${spread(load, 2)}`);
  return loads;
}

/** { label: url } of each chapter document (`pages`: their files) of the site at `siteUrl`. */
export const chapterUrls = (siteUrl, query = '', pages = CHAPTERS.map((chapter) => chapter.file), prefix = '') =>
  Object.fromEntries(pages.map((file) => [`${prefix}${file}`, `${siteUrl}${file}${query}`]));

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(`--${name}`);
    return at < 0 ? fallback : args[at + 1];
  };
  const siteDir =
    args[0] && !args[0].startsWith('--') ? args[0] : fileURLToPath(new URL('../../dist/site', import.meta.url));
  // --versus <siteDir>: another build (e.g. of main) measured in the same run, loads interleaved.
  const versus = option('versus', null);
  // --page <file>: one chapter document (every chapter without it).
  const pages = option('page', null)?.split(',');
  const site = await serveStatic(siteDir);
  const other = versus && (await serveStatic(versus));
  const browser = await launchChromium();
  const query = option('query', '');
  try {
    await measureLoads(
      browser,
      {
        ...(other ? chapterUrls(other.url, query, pages, `${versus} `) : {}),
        ...chapterUrls(site.url, query, pages, other ? `${siteDir} ` : ''),
      },
      { runs: Number(option('runs', 5)) },
    );
  } finally {
    await browser.close();
    await site.close();
    await other?.close();
  }
}
