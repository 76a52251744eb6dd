// The explainer page: state from the URL, shared controls, one plot per
// section. Changes are collected as dirty state keys and drawn once per
// animation frame; each section redraws only when a key it depends on changed.
// The numbers of the plots that read the model are computed in the worker
// (section-data.js), like the big arrays: the main thread only draws.
import { PRESETS, PRESET_NAMES } from './lib/index.js';
import { bindControls } from './page/controls.js';
import { wantedArrays } from './model/arrays.js';
import { firstFunction, knobs } from './model/convention.js';
import { SINUSOIDAL_SECTIONS } from './sections/sinusoidal-sections.js';
import { CHAPTERS } from './sections/chapters.js';
import { clampSelections, DEFAULTS, fromQuery, toQuery } from './model/state.js';
import { textFacts } from './model/text-facts.js';
import {
  applyTranslations,
  initialLanguage,
  isLanguage,
  loadLanguage,
  rememberLanguage,
  showRich,
  translator,
  typesetMathmlOnly,
} from './page/i18n.js';
import { createComputeClient } from './page/compute-client.js';
import { loadOnce } from './page/load-once.js';

let state = fromQuery(location.search);
let language = 'en';
let t = translator(language);
// The core loaded (the page's own calls: exports, the check tool; the plots' numbers come from the worker).
let ready = false;
// Arrays computed in the worker, by slot: { values, options } of the latest answer.
const computed = {};
const requested = {};
const dirty = new Set();
let frame = 0;
let idle = 0;
// The first plot on screen is shown (see firstViewShown).
let firstViewDone = false;
// The page's code has run to its end: frames are scheduled from then on (until then,
// what arrives waits in `computed` and `dirty`).
let running = false;

const compute = createComputeClient(({ slot, values, options, error }) => {
  if (error) {
    console.error(error);
    return;
  }
  computed[slot] = { values, options };
  dirty.add(slot);
  if (running) schedule();
});
// What the first plot (the table's heatmap, at the top) needs from the worker, and whether its
// core is loaded, are asked for at once, before the page's code waits for the parsed document and
// its first frame (30-60 ms on a cold load here): the answers are in when it goes on. (They used
// to be asked for once the sections on screen were known, a frame later still.)
requestArrays(SINUSOIDAL_SECTIONS.slice(0, 1));
const coreReady = compute.ready();
// A failure is shown by start(), which takes the answer up after the waits below.
coreReady.catch(() => {});

// The page's code goes on once the document is parsed (it finds every section in it) and has
// been painted once: run before that first frame, its first reads of the layout cost a second
// layout of the whole typeset page.
if (document.readyState === 'loading')
  await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));

const form = document.getElementById('controls');
const status = document.getElementById('status');
const retryButton = document.getElementById('retry');
const languageSelect = document.getElementById('language');

/** The page's sections (the first ones now, each later chapter's when it loads), with their place in the page. */
const sections = [];
const pageSection = (section) => ({
  ...section,
  element: document.querySelector(`[data-plot="${section.name}"]`),
  // The explanations beside the plot: worded from the facts of what it shows.
  texts: [
    ...document
      .querySelector(`[data-plot="${section.name}"]`)
      .closest('.mistake, section')
      .querySelectorAll(':scope > [data-i18n-rich]'),
  ],
  plot: null,
  // A key it depends on changed since it was last built (or its numbers asked for).
  stale: true,
  visible: false,
  builtAt: 0,
  // Numbers from the worker not drawn yet: { numbers, state } (state: what they were computed for).
  arrived: null,
  // What the plot shows: { data, options, language }, to skip redrawing the same.
  shown: null,
});
sections.push(...SINUSOIDAL_SECTIONS.map(pageSection));

// Only plots actually on screen count as visible: one just below the fold is
// rebuilt when the controls rest, not at every step of a drag.
const visibility = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) sections.find((s) => s.element === entry.target).visible = entry.isIntersecting;
    if (running && sections.some((section) => section.visible && (section.stale || section.arrived))) schedule();
  },
  { rootMargin: '0px' },
);
for (const section of sections) visibility.observe(section.element);

// Observed before the first frame: which plots are on screen is known right after it.
// (A hidden tab paints no frames: it goes on at once.)
if (document.visibilityState === 'visible')
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

// "Embed" under each plot: snippets and images of the current state (refreshed on redraw). The build put
// the buttons in the page; their code loads a moment after the first view, or at the first click on one.
let embedTools = null;
const embedCode = loadOnce(() =>
  import('./page/embed-snippet.js').then(({ addEmbedTools }) => {
    embedTools = addEmbedTools(sections, () => state);
  }),
);
function loadEmbedTools() {
  // Not fetched (offline): tried again at the next click.
  return embedCode().catch((error) => console.error(error));
}
document.addEventListener('click', (event) => {
  const button = event.target.closest?.('[data-embed]');
  if (!button || embedTools) return;
  loadEmbedTools().then(() => embedTools?.open(button.dataset.embed));
});
// "Check my implementation" and the exports of the current settings (their own section and worker): a
// chunk of their own, with the library code only they use, loaded when their section nears the screen or
// a moment after the first view is shown: the first view does not wait for it.
let check = null;
const checkCode = loadOnce(() =>
  import('./page/check.js').then(({ createCheck }) => {
    check = createCheck(document.getElementById('check'), () => state);
  }),
);
function loadCheck() {
  // Not fetched (offline): tried again when asked next.
  return checkCode().catch((error) => console.error(error));
}
// Whether the check section is near the screen: its exports follow the state at every redraw only
// then (a drag elsewhere would restyle and lay out their code at every step); else once the controls rest.
let checkNear = false;
let checkOutdated = false;
new IntersectionObserver(
  (entries) => {
    checkNear = entries.some((entry) => entry.isIntersecting);
    if (!checkNear) return;
    loadCheck();
    if (checkOutdated) schedule();
  },
  { rootMargin: '100% 0px' },
).observe(document.getElementById('check'));

function refreshCheck() {
  checkOutdated = false;
  check?.refresh();
}
const controls = bindControls(form, (next) => setState(next));
// The RoPE chapter's lab settings, Check my RoPE and code (sections 4-6): loaded with the lab's chapter.
let ropeChapter = null;

// The loading line, kept as a key and its arguments so that a language switch rewrites it.
let statusSaid = null;
/** state: 'loading' | 'slow' | 'error' | 'ready' (hidden); the retry button shows when slow or failed. */
function sayStatus(state, key, ...args) {
  statusSaid = key && { key, args };
  status.dataset.state = state;
  status.hidden = key === null;
  if (key) status.textContent = t(key, ...args);
  retryButton.hidden = state !== 'slow' && state !== 'error';
  // An alert for what needs the reader's action; the progress itself is a polite status.
  status.setAttribute('role', state === 'error' ? 'alert' : 'status');
}

function setState(next) {
  clampSelections(next);
  for (const key of Object.keys(next)) if (next[key] !== state[key]) dirty.add(key);
  state = next;
  lastChange = performance.now();
  controls.show(state, t);
  ropeChapter?.show(state, t);
  schedule();
}

function schedule() {
  if (!frame) frame = requestAnimationFrame(redraw);
}

function fillPresetTable() {
  const body = document.querySelector('#presets tbody');
  body.replaceChildren(
    ...PRESET_NAMES.map((name) => {
      const preset = PRESETS[name];
      const row = document.createElement('tr');
      const cells = [
        t(`option.preset.${name}`),
        t(`option.layout.${preset.layout}`),
        t(`option.exponent.${preset.exponent}`),
        t(`option.order.${preset.order}`),
        t(`option.angle.${preset.angle}`),
        preset.paddingRow === null ? t('compare.none') : String(preset.paddingRow),
        preset.oddColumn === 'zero' ? t('compare.oddZero') : t('compare.oddAlone', firstFunction(preset)),
        t(`preset.${name}`),
      ];
      cells.forEach((text, index) => {
        const cell = document.createElement(index === 0 ? 'th' : 'td');
        if (index === 0) cell.scope = 'row';
        cell.textContent = text;
        row.append(cell);
      });
      return row;
    }),
  );
}

/** Switches the page to language `next` once its strings are loaded (the last switch asked for wins). */
let wantedLanguage = null;
async function setLanguage(next) {
  wantedLanguage = next;
  await loadLanguage(next);
  if (next !== wantedLanguage) return;
  language = next;
  t = translator(language);
  languageSelect.value = language;
  applyTranslations(document, t, language, factsOf);
  if (statusSaid) {
    status.textContent = t(statusSaid.key, ...statusSaid.args);
    if (statusSaid.detail) status.textContent += ` ${t('page.detail', statusSaid.detail)}`;
  }
  fillPresetTable();
  controls.show(state, t);
  ropeChapter?.show(state, t);
  dirty.add('language');
  schedule();
}

/**
 * Asks the worker for the arrays `from` (sections) draw, unless the same ones
 * were asked for last; true when some array is not asked for yet. A slot
 * that no section on screen needs is left alone while a slider moves.
 */
function requestArrays(from, urgent = true) {
  let outdated = false;
  for (const [slot, [kind, options]] of Object.entries(wantedArrays(state))) {
    const key = JSON.stringify([kind, options]);
    if (requested[slot] === key) continue;
    if (!from.some((section) => section.deps.includes(slot))) {
      outdated = true;
      continue;
    }
    requested[slot] = key;
    compute.request(slot, kind, options, urgent);
  }
  return outdated;
}

/** Asks the worker for the numbers of a section that reads the model; they are drawn when they arrive. */
function ask(section) {
  section.stale = false;
  const asked = state;
  compute.section(section.name, asked, section.visible).then(
    (numbers) => {
      // null: a newer request for this section replaced this one.
      if (!numbers) return;
      section.arrived = { numbers, state: asked };
      if (section.visible) schedule();
      else scheduleIdle();
    },
    (error) => console.error(error),
  );
}

/** Sections with something to draw: numbers that arrived, or a build from the arrays at hand. */
const drawable = (section) => section.arrived !== null || (section.stale && !section.compute);

// The facts each explanation was last worded from (a language switch words it again from them).
const shownFacts = new WeakMap();
const factsOf = (node) => shownFacts.get(node) ?? textFacts(state);

function buildSection(section, context) {
  section.builtAt = performance.now();
  let built;
  let builtFor = context.state;
  if (section.compute) {
    const { numbers, state: at } = section.arrived;
    section.arrived = null;
    builtFor = at;
    built = section.present(numbers, { ...context, state: at, conv: knobs(at) });
  } else {
    section.stale = false;
    built = section.build(context);
  }
  if (!built) {
    // A plot already drawn keeps its last data until the new arrays arrive.
    if (!section.plot) section.element.textContent = t('page.computing');
    return;
  }
  // The text says what the plot beside it shows: the same state, the same numbers.
  const facts = { ...textFacts(builtFor), ...built.text };
  for (const node of section.texts) {
    shownFacts.set(node, facts);
    showRich(node, t, facts, language);
  }
  // The same as shown (a drag back over a value, or a slider the numbers do not depend on): nothing to redraw.
  const shown = { ...built, language };
  if (section.plot && sameShown(section.shown, shown)) return;
  section.shown = shown;
  if (section.plot) section.plot.update(built.data, built.options);
  else section.plot = section.draw(section.element, built.data, built.options);
  if (section.visible) markFirstPlot();
}

// User Timing marks of the load, read by `npm run bench` (tests/bench/page-load.mjs):
// posenc:first-plot once a plot on screen shows its data (its pixels from the
// worker put in too) and a frame has shown it; posenc:interactive once the
// controls respond (the core is loaded and the strings of the language are set).
let firstPlotMarked = false;
function markFirstPlot() {
  if (firstPlotMarked) return;
  firstPlotMarked = true;
  compute.painted().then(() =>
    requestAnimationFrame(() =>
      setTimeout(() => {
        performance.mark('posenc:first-plot');
        firstViewShown();
      }),
    ),
  );
}

// Off-screen plots, the later chapters, the check tool and the embed tools
// wait until the first plot on screen is shown (with none on screen, until a moment after
// the page is interactive): until then they would compete with it for the
// main thread, the worker and the network.
const FIRST_VIEW_PATIENCE_MS = 1000;
// With a plot on screen still to come (a slow machine), the rest waits for it, up to this long.
const FIRST_PLOT_PATIENCE_MS = 8000;
function firstViewPatience() {
  const waitingForPlot = sections.some((section) => section.visible && !section.plot);
  setTimeout(firstViewShown, waitingForPlot ? FIRST_PLOT_PATIENCE_MS - FIRST_VIEW_PATIENCE_MS : 0);
}
const LATER_AFTER_MS = 500;
function firstViewShown() {
  if (firstViewDone) return;
  firstViewDone = true;
  scheduleIdle();
  setTimeout(
    () =>
      whenIdle(
        () => {
          loadChapters();
          typesetLaterFormulas();
          loadCheck();
          loadEmbedTools();
        },
        { timeout: 1000 },
      ),
    LATER_AFTER_MS,
  );
}

const LARGE = 1 << 16;

/**
 * Whether two built { data, options } show the same: plain values equal,
 * typed arrays equal (by content, or by identity when large: the worker's
 * tables), functions taken as equal (they only translate, and the language
 * is compared).
 */
function sameShown(a, b) {
  if (a === b) return true;
  if (typeof a === 'function' && typeof b === 'function') return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.constructor !== b.constructor) return false;
    if (a.length !== b.length || a.length > LARGE) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameShown(a[key], b[key]));
}

function context() {
  return {
    state,
    t,
    conv: knobs(state),
    computed,
    pick: (selection) => setState({ ...state, ...selection }),
  };
}

// The URL follows the state once the controls have been still for URL_MS: a
// history update can block the main thread for tens of milliseconds (it waits
// on the browser process), and browsers refuse more than a few hundred in ten
// seconds (Firefox throws).
const URL_MS = 250;
let urlTimer = 0;
let urlQuery = null;
function updateUrl() {
  const query = toQuery(state);
  if (query === urlQuery) return;
  urlQuery = query;
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => {
    if (query !== location.search) history.replaceState(null, '', `${location.pathname}${query}${location.hash}`);
  }, URL_MS);
}

// Section builds a frame may spend; the rest wait for the next frame. The
// browser's own work for a frame of plot changes (style, layout, paint,
// commit) takes another 5-8 ms on a slow machine.
const FRAME_BUDGET_MS = 6;

// Plots on screen are redrawn in the frame; the others when the browser is
// idle or when they scroll into view, so a drag only pays for what is seen.
function redraw() {
  frame = 0;
  const visible = sections.filter((section) => section.visible);
  if (!ready) {
    // While the worker loads its core (and the page the strings of its language), what the plots
    // on screen show is asked for already: the worker starts on it the moment it can (a round trip
    // sooner). Nothing is drawn before.
    requestArrays(visible);
    for (const section of visible) if (section.stale && section.compute) ask(section);
    return;
  }
  const started = performance.now();
  const changed = new Set(dirty);
  dirty.clear();
  updateUrl();
  embedTools?.refresh();
  if (checkNear) refreshCheck();
  else checkOutdated = true;

  // Plots keep showing the last arrays until the worker answers with new ones.
  if (requestArrays(visible)) arraysOutdated = true;

  for (const section of sections) {
    // A section not built yet is worded in the language of the moment it is built: numbers asked
    // for before a switch (they do not depend on the language) serve it.
    const reworded = changed.has('language') && section.builtAt > 0;
    if (reworded || section.deps.some((dep) => changed.has(dep))) section.stale = true;
  }
  for (const section of visible) if (section.stale && section.compute) ask(section);
  const shared = context();
  // The longest-waiting first, so that no plot on screen is starved by the others.
  const due = visible.filter(drawable).sort((a, b) => a.builtAt - b.builtAt);
  for (const section of due) {
    if (section !== due[0] && performance.now() - started > FRAME_BUDGET_MS) {
      schedule();
      break;
    }
    buildSection(section, shared);
  }
  scheduleIdle();
}

// Off-screen plots wait until the controls have been still for a moment and
// no slider is held, so their rebuilds never delay the next step of a drag
// (a timer can run before input that waited behind a long task).
const QUIET_MS = 250;
let lastChange = 0;
let dragging = false;
form.addEventListener('pointerdown', (event) => {
  if (event.target.type !== 'range') return;
  dragging = true;
  compute.dragging(true);
});
// A release outside the window may never reach it: losing focus ends the drag too.
for (const type of ['pointerup', 'pointercancel', 'blur']) {
  window.addEventListener(type, () => {
    if (dragging) compute.dragging(false);
    dragging = false;
    scheduleIdle();
  });
}
// Where requestIdleCallback is missing (Safari), a timer stands in for it.
const whenIdle =
  window.requestIdleCallback?.bind(window) ??
  ((callback) => setTimeout(() => callback({ timeRemaining: () => 0, didTimeout: true }), 1));

// Slots no section on screen needed while the controls moved.
let arraysOutdated = true;

function scheduleIdle() {
  const waiting = checkOutdated || sections.some((section) => section.stale || section.arrived);
  if (idle || dragging || !firstViewDone || !(arraysOutdated || waiting)) return;
  const wait = Math.max(0, lastChange + QUIET_MS - performance.now());
  idle = setTimeout(() => {
    whenIdle(
      (deadline) => {
        idle = 0;
        if (!dragging && performance.now() - lastChange >= QUIET_MS) {
          if (checkOutdated) refreshCheck();
          arraysOutdated = requestArrays(sections, false);
          for (const section of sections) if (section.stale && section.compute) ask(section);
          const shared = context();
          const started = performance.now();
          let built = 0;
          for (const section of sections) {
            if (!drawable(section)) continue;
            // One build at least, then only while the frame has room.
            if (built > 0 && (deadline.timeRemaining() < 8 || performance.now() - started > FRAME_BUDGET_MS)) break;
            buildSection(section, shared);
            built++;
          }
        }
        scheduleIdle();
      },
      { timeout: 300 },
    );
  }, wait);
}

// The later chapters: each loads when its first plot nears the screen, or a
// moment after the first view is done (so that scrolling finds them ready).
function addChapter(chapter) {
  const parts = [chapter.load()];
  if (chapter.name === 'rope-lab') parts.push(import('./page/rope-lab.js'));
  return Promise.all(parts).then(([list, ropeLab]) => {
    // What could fail first, before the page holds anything of the chapter (a failure is tried again).
    if (ropeLab) {
      ropeChapter = ropeLab.createRopeChapter(document, (next) => setState(next));
      ropeChapter.show(state, t);
    }
    const added = list.map(pageSection);
    sections.push(...added);
    embedTools?.add(added);
    for (const section of added) visibility.observe(section.element);
    arraysOutdated = true;
    schedule();
    scheduleIdle();
  });
}
const chapterCode = new Map(CHAPTERS.map((chapter) => [chapter.name, loadOnce(() => addChapter(chapter))]));
function loadChapter(chapter) {
  // Not fetched (offline): tried again when it nears the screen next.
  return chapterCode
    .get(chapter.name)()
    .catch((error) => console.error(error));
}
const nearing = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      loadChapter(CHAPTERS.find((chapter) => chapter.watch === entry.target.dataset.plot));
    }
  },
  { rootMargin: '100% 0px' },
);
for (const chapter of CHAPTERS) nearing.observe(document.querySelector(`[data-plot="${chapter.watch}"]`));
const loadChapters = () => CHAPTERS.forEach(loadChapter);

// The later chapters' formulas come as MathML (a lighter document to parse before the first plot):
// KaTeX's typeset copies are put in place once the first view is done, or as soon as one of those
// sections nears the screen (a link to one of them), and again there if their chunk failed.
const typesetLater = loadOnce(typesetMathmlOnly);
function typesetLaterFormulas() {
  typesetLater().then(
    () => mathmlNearing.disconnect(),
    (error) => console.error(error),
  );
}
const mathmlNearing = new IntersectionObserver(
  (entries) => {
    if (entries.some((entry) => entry.isIntersecting)) typesetLaterFormulas();
  },
  { rootMargin: '100% 0px' },
);
// Their sections (and the RoPE chapter's title block) are watched: a few targets, one per section.
for (const section of new Set(
  [...document.querySelectorAll('[data-i18n-mathml-only]')].map((node) => node.closest('section, .chapter')),
))
  mathmlNearing.observe(section);

languageSelect.addEventListener('change', () => {
  if (!isLanguage(languageSelect.value)) return;
  rememberLanguage(languageSelect.value);
  setLanguage(languageSelect.value).catch((error) => {
    // Its strings could not be fetched (offline): stay in the current language.
    languageSelect.value = language;
    console.error(error);
  });
});
document.getElementById('reset').addEventListener('click', () => setState({ ...DEFAULTS }));

// On a phone the controls start folded so the explanations come first; on a
// wider screen they are always open (their summary is hidden there, so a panel
// folded on a phone turned to landscape could not be opened again).
const narrow = matchMedia('(max-width: 760px)');
const controlsPanel = document.getElementById('controls-panel');
controlsPanel.open = !narrow.matches;
narrow.addEventListener('change', () => (controlsPanel.open = !narrow.matches));

// How long the first load may take before the page says so and offers a
// retry; it keeps waiting meanwhile (a slow connection may still deliver).
const LOAD_PATIENCE_S = 10;
let attempt = 0;

/**
 * Waits for the worker's core (`coreLoaded`: its answer to a ready request); every outcome (ready,
 * failed, slow) is shown, with a retry where it helps.
 */
async function start(coreLoaded = compute.ready()) {
  const current = ++attempt;
  sayStatus('loading', 'page.loading');
  const slow = setTimeout(() => {
    if (current === attempt && !ready) sayStatus('slow', 'page.slow', LOAD_PATIENCE_S);
  }, LOAD_PATIENCE_S * 1000);
  try {
    await coreLoaded;
    await languageSet;
    if (current !== attempt) return;
    ready = true;
    if (performance.getEntriesByName('posenc:interactive').length === 0) performance.mark('posenc:interactive');
    setTimeout(firstViewPatience, FIRST_VIEW_PATIENCE_MS);
    sayStatus('ready', null);
    schedule();
  } catch (error) {
    // In the reader's language: the early worker's failure can be known before its strings are loaded.
    await languageSet.catch(() => {});
    if (current !== attempt) return;
    // The page says what it means and what to do; the library's reason follows
    // (it names the file and what failed), an engine's goes to the console only.
    console.error(error);
    const message = String(error?.message ?? error);
    const detail = /^posenc\.\w+: /.test(message) ? message.replace(/^posenc\.\w+: /, '') : null;
    sayStatus('error', error?.workerFailed ? 'page.workerFailed' : 'page.loadFailed');
    if (detail) {
      statusSaid.detail = detail;
      status.textContent += ` ${t('page.detail', detail)}`;
    }
  } finally {
    clearTimeout(slow);
  }
}

retryButton.addEventListener('click', () => {
  // A new worker (its own fetch of the core): everything is asked of it anew.
  compute.restart();
  for (const slot of Object.keys(requested)) delete requested[slot];
  for (const section of sections) section.stale = true;
  arraysOutdated = true;
  start();
});

// The strings of a language other than English load while the worker loads
// the core (the page's own instance waits for an export or the checker).
const languageSet = setLanguage(initialLanguage()).catch(() => setLanguage('en'));
running = true;
schedule();
start(coreReady);
