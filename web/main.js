// A chapter of the explainer (any of its documents: the registry says which
// sections each holds): state from the URL, the knobs (the chapter's strip and
// each section's own), one plot per section. Changes are collected as dirty
// state keys and drawn once per animation frame; each section redraws only
// when a key it depends on changed.
// The numbers of the plots that read the model are computed in the worker
// (section-data.js), like the big arrays: the main thread only draws.
import { knobs } from './model/convention.js';
import { PAGE_SECTIONS, PLOTS } from './model/registry.js';
import { clampSelections, DEFAULTS, fromQuery, toQuery } from './model/state.js';
import { textFacts } from './model/text-facts.js';
import { GROUPS } from './sections/groups.js';
import { SINUSOIDAL_SECTIONS } from './sections/sinusoidal-sections.js';
import { createArrayRequests } from './page/array-requests.js';
import { createComputeClient } from './page/compute-client.js';
import { bindControls } from './page/controls.js';
import { createFirstView } from './page/first-view.js';
import { createFrameScheduler } from './page/frame-scheduler.js';
import { applyTranslations, initialLanguage, translator, typesetMathmlOnly } from './page/i18n.js';
import { createLanguageSwitch } from './page/language-switch.js';
import { lazyPart } from './page/lazy-part.js';
import { askNumbers, buildSection, drawable, pageSection } from './page/page-sections.js';
import { fillPresetTable } from './page/preset-table.js';
import { carryOnClick, carryQuery, withLanguage } from './page/site-links.js';
import { createStatus } from './page/status.js';
import { createUrlFollower } from './page/url-state.js';

// The chapter this document is (its <html data-chapter>, there before this module runs) and the
// sections of the registry it holds.
const chapter = document.documentElement.dataset.chapter;
const sectionsHere = PAGE_SECTIONS.filter((section) => section.chapter === chapter);
const plotsHere = new Set(PLOTS.filter((plot) => plot.chapter === chapter).map((plot) => plot.name));
const firstViewSections = SINUSOIDAL_SECTIONS.filter((section) => plotsHere.has(section.name));

/** What the page holds and shows, in one place. */
const page = {
  state: fromQuery(location.search),
  language: 'en',
  t: translator('en'),
  // The core loaded (the page's own calls: exports, the check tool; the plots' numbers come from the worker).
  ready: false,
  // The page's code has run to its end: frames are scheduled from then on (until then,
  // what arrives waits in `computed` and `dirty`).
  running: false,
  // Arrays computed in the worker, by slot: { values, painter, options } of the latest answer.
  computed: {},
  // State keys (and array slots, and 'language') changed since the last frame.
  dirty: new Set(),
  // The sections (the first view's now, each later group's when it loads), in their place in the page.
  sections: [],
  // Slots no section on screen needed while the controls moved.
  arraysOutdated: true,
  // The parts loaded later: the embed tools, the check tool, and the tools of a group of sections
  // (GROUP_TOOLS: the RoPE lab's settings and code, chapter 4's code), each { show(state, t) }.
  embedTools: null,
  check: null,
  groupTools: [],
  // Whether the check section is near the screen: its exports follow the state at every redraw only
  // then (a drag elsewhere would restyle and lay out their code at every step); else once the controls rest.
  checkNear: false,
  checkOutdated: false,
  // The facts each explanation was last worded from (a language switch words it again from them).
  shownFacts: new WeakMap(),
};

const compute = createComputeClient(({ slot, values, painter, options, error }) => {
  if (error) {
    console.error(error);
    return;
  }
  page.computed[slot] = { values, painter, options };
  page.dirty.add(slot);
  if (page.running) scheduler.frame();
});
const arrays = createArrayRequests(compute, () => page.sections);
const scheduler = createFrameScheduler({
  onFrame: redraw,
  onIdle: idleWork,
  idleWanted: () =>
    firstView.done &&
    (page.arraysOutdated || page.checkOutdated || page.sections.some((section) => section.stale || section.arrived)),
});
const firstView = createFirstView({
  painted: () => compute.painted(),
  waitingForPlot: () => page.sections.some((section) => section.visible && !section.plot),
  onShown: () => scheduler.idle(),
  loadLater: () => {
    for (const loadGroup of groupLoaders) loadGroup();
    typesetLaterFormulas();
    if (checkSection) loadCheck();
    loadEmbedTools();
  },
});
// What the chapter's first plot (the table's heatmap, at the top of the first chapter) needs from
// the worker, and whether its core is loaded, are asked for at once, before the page's code waits
// for the parsed document and its first frame: the answers are in when it goes on.
arrays.ask(firstViewSections.slice(0, 1), page.state);
const coreReady = compute.ready();
// A failure is shown by start(), which takes the answer up after the waits below.
coreReady.catch(() => {});

// The page's code goes on once the document is parsed (it finds every section in it) and has
// been painted once: run before that first frame, its first reads of the layout cost a second
// layout of the whole typeset page.
if (document.readyState === 'loading')
  await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));

// The chapter's strip and each section's own knobs.
const knobForms = [...document.querySelectorAll('form[data-knobs]')];
const retryButton = document.getElementById('retry');
const status = createStatus(document.getElementById('status'), retryButton, () => page.t);

page.sections.push(...firstViewSections.map(pageSection));

// Only plots actually on screen count as visible: one just below the fold is
// rebuilt when the controls rest, not at every step of a drag.
const visibility = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) page.sections.find((s) => s.element === entry.target).visible = entry.isIntersecting;
    if (page.running && page.sections.some((section) => section.visible && (section.stale || section.arrived)))
      scheduler.frame();
  },
  { rootMargin: '0px' },
);
for (const section of page.sections) visibility.observe(section.element);

// Observed before the first frame: which plots are on screen is known right after it.
// (A hidden tab paints no frames: it goes on at once.)
if (document.visibilityState === 'visible')
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

// "Embed" under each plot: snippets and images of the current state (refreshed on redraw). The build put
// the buttons in the page; their code loads a moment after the first view, or at the first click on one.
const loadEmbedTools = lazyPart(() =>
  import('./page/embed-snippet.js').then(({ addEmbedTools }) => {
    page.embedTools = addEmbedTools(page.sections, () => page.state);
  }),
);
document.addEventListener('click', (event) => {
  const button = event.target.closest?.('[data-embed]');
  if (!button || page.embedTools) return;
  loadEmbedTools().then(() => page.embedTools?.open(button.dataset.embed));
});
// "Check my implementation" and the exports of the current settings (their own section and worker): a
// chunk of their own, with the library code only they use, loaded when their section nears the screen or
// a moment after the first view is shown: the first view does not wait for it.
const loadCheck = lazyPart(() =>
  import('./page/check.js').then(({ createCheck }) => {
    page.check = createCheck(document.getElementById('check'), () => page.state);
  }),
);
// (In the chapter that holds the check section.)
const checkSection = document.getElementById('check');
if (checkSection)
  new IntersectionObserver(
    (entries) => {
      page.checkNear = entries.some((entry) => entry.isIntersecting);
      if (!page.checkNear) return;
      loadCheck();
      if (page.checkOutdated) scheduler.frame();
    },
    { rootMargin: '100% 0px' },
  ).observe(checkSection);

function refreshCheck() {
  page.checkOutdated = false;
  page.check?.refresh();
}
const controls = bindControls(knobForms, (next) => setState(next));
scheduler.watchDrags(document.getElementById('content'), (held) => compute.dragging(held));

function setState(next) {
  clampSelections(next);
  for (const key of Object.keys(next)) if (next[key] !== page.state[key]) page.dirty.add(key);
  page.state = next;
  scheduler.changed();
  controls.show(page.state, page.t);
  for (const tools of page.groupTools) tools.show(page.state, page.t);
  scheduler.frame();
}

const setLanguage = createLanguageSwitch(document.getElementById('language'), {
  current: () => page.language,
  apply(language) {
    page.language = language;
    page.t = translator(language);
    applyTranslations(document, page.t, language, (node) => page.shownFacts.get(node) ?? textFacts(page.state));
    status.reword();
    const presets = document.querySelector('#presets tbody');
    if (presets) fillPresetTable(presets, page.t);
    controls.show(page.state, page.t);
    for (const tools of page.groupTools) tools.show(page.state, page.t);
    // The URL (and every link to the site's other documents) says the language at once.
    writeUrl(withLanguage(toQuery(page.state), language));
    page.dirty.add('language');
    scheduler.frame();
  },
});

/** Asks the worker for the numbers of a section that reads the model; they are drawn when they arrive. */
function ask(section) {
  askNumbers(section, compute, page.state, () => (section.visible ? scheduler.frame() : scheduler.idle()));
}

function build(section, context) {
  buildSection(section, context, {
    language: page.language,
    shownFacts: page.shownFacts,
    drawn: () => firstView.plotDrawn(),
  });
}

function context() {
  return {
    state: page.state,
    t: page.t,
    conv: knobs(page.state),
    computed: page.computed,
    pick: (selection) => setState({ ...page.state, ...selection }),
  };
}

// Links to the site's other documents carry the query: the reader keeps settings and language.
const followUrl = createUrlFollower((query) => carryQuery(document, query));
carryOnClick(() => location.search);
function writeUrl(query) {
  if (query !== location.search) history.replaceState(null, '', `${location.pathname}${query}${location.hash}`);
  carryQuery(document, query);
}

// Section builds a frame may spend; the rest wait for the next frame. The
// browser's own work for a frame of plot changes (style, layout, paint,
// commit) takes more on a slow machine.
const FRAME_BUDGET_MS = 6;

// Plots on screen are redrawn in the frame; the others when the browser is
// idle or when they scroll into view, so a drag only pays for what is seen.
function redraw() {
  const visible = page.sections.filter((section) => section.visible);
  if (!page.ready) {
    // While the worker loads its core (and the page the strings of its language), what the plots
    // on screen show is asked for already: the worker starts on it the moment it can (a round trip
    // sooner). Nothing is drawn before.
    arrays.ask(visible, page.state);
    for (const section of visible) if (section.stale && section.compute) ask(section);
    return;
  }
  const started = performance.now();
  const changed = new Set(page.dirty);
  page.dirty.clear();
  followUrl(withLanguage(toQuery(page.state), page.language));
  page.embedTools?.refresh();
  if (page.checkNear) refreshCheck();
  else page.checkOutdated = true;

  // Plots keep showing the last arrays until the worker answers with new ones.
  if (arrays.ask(visible, page.state)) page.arraysOutdated = true;

  for (const section of page.sections) {
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
      scheduler.frame();
      break;
    }
    build(section, shared);
  }
  scheduler.idle();
}

// Off-screen plots, once the controls rest: one build at least, then only while the frame has room.
function idleWork(deadline) {
  if (page.checkOutdated) refreshCheck();
  page.arraysOutdated = arrays.ask(page.sections, page.state, false);
  for (const section of page.sections) if (section.stale && section.compute) ask(section);
  const shared = context();
  const started = performance.now();
  let built = 0;
  for (const section of page.sections) {
    if (!drawable(section)) continue;
    if (built > 0 && (deadline.timeRemaining() < 8 || performance.now() - started > FRAME_BUDGET_MS)) break;
    build(section, shared);
    built++;
  }
}

// The later groups of sections this chapter holds: each loads when one of its sections nears the
// screen, or a moment after the first view is done (so that scrolling finds them ready).
// What a group of sections brings besides its plots, loaded with it: create(document, setState)
// gives { show(state, t) }, shown at every change of the state or the language.
const GROUP_TOOLS = {
  'rope-lab': () => import('./page/rope-lab.js').then((module) => module.createRopeChapter),
  elsewhere: () => import('./page/elsewhere-code.js').then((module) => module.createElsewhereCode),
};
function addGroup(group) {
  return Promise.all([group.load(), GROUP_TOOLS[group.name]?.()]).then(([list, create]) => {
    // What could fail first, before the page holds anything of the group (a failure is tried again).
    if (create) {
      const tools = create(document, (next) => setState(next));
      page.groupTools.push(tools);
      tools.show(page.state, page.t);
    }
    const added = list.filter((section) => plotsHere.has(section.name)).map(pageSection);
    page.sections.push(...added);
    page.embedTools?.add(added);
    for (const section of added) visibility.observe(section.element);
    page.arraysOutdated = true;
    scheduler.frame();
    scheduler.idle();
  });
}
const groupLoaders = GROUPS.filter((group) => sectionsHere.some((section) => section.group === group.name)).map(
  (group) =>
    lazyPart(() => addGroup(group), {
      near: sectionsHere
        .filter((section) => section.group === group.name)
        .map((section) => document.getElementById(`h-${section.id}`).closest('section')),
    }),
);

// The later sections' formulas come as MathML (a lighter document to parse before the first plot):
// KaTeX's typeset copies are put in place once the first view is done, or as soon as one of those
// sections nears the screen (a link to one of them), and again there if their chunk failed.
// Their sections are watched: a few targets, one per section.
const typesetLaterFormulas = lazyPart(typesetMathmlOnly, {
  near: [...new Set([...document.querySelectorAll('[data-i18n-mathml-only]')].map((node) => node.closest('section')))],
});

document.getElementById('reset').addEventListener('click', () => setState({ ...DEFAULTS }));

// The chapter's contents: a menu on a phone and a narrow window, always open (and in view) on a wide screen.
const wide = matchMedia('(min-width: 1024px)');
const tocPanel = document.getElementById('toc-panel');
tocPanel.open = wide.matches;
wide.addEventListener('change', () => (tocPanel.open = wide.matches));

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
  status.say('loading', 'page.loading');
  const slow = setTimeout(() => {
    if (current === attempt && !page.ready) status.say('slow', 'page.slow', LOAD_PATIENCE_S);
  }, LOAD_PATIENCE_S * 1000);
  try {
    await coreLoaded;
    await languageSet;
    if (current !== attempt) return;
    page.ready = true;
    firstView.interactive();
    status.say('ready', null);
    scheduler.frame();
  } catch (error) {
    // In the reader's language: the early worker's failure can be known before its strings are loaded.
    await languageSet.catch(() => {});
    if (current !== attempt) return;
    // The page says what it means and what to do; the library's reason follows
    // (it names the file and what failed), an engine's goes to the console only.
    console.error(error);
    const message = String(error?.message ?? error);
    const detail = /^posenc\.\w+: /.test(message) ? message.replace(/^posenc\.\w+: /, '') : null;
    status.say('error', error?.workerFailed ? 'page.workerFailed' : 'page.loadFailed');
    if (detail) status.detail(detail);
  } finally {
    clearTimeout(slow);
  }
}

retryButton.addEventListener('click', () => {
  // A new worker (its own fetch of the core): everything is asked of it anew.
  compute.restart();
  arrays.forget();
  for (const section of page.sections) section.stale = true;
  page.arraysOutdated = true;
  start();
});

// The strings of a language other than English load while the worker loads
// the core (the page's own instance waits for an export or the checker).
const languageSet = setLanguage(initialLanguage()).catch(() => setLanguage('en'));
page.running = true;
scheduler.frame();
start(coreReady);
