// The explainer page: state from the URL, shared controls, one plot per
// section. Changes are collected as dirty state keys and drawn once per
// animation frame; each section redraws only when a key it depends on changed.
import 'katex/dist/katex.min.css';
import './styles.css';
import { load, PRESETS, PRESET_NAMES } from './lib/index.js';
import { bindControls } from './page/controls.js';
import { encoding, knobs } from './page/convention.js';
import { createModel } from './page/data.js';
import { applyTranslations, initialLanguage, isLanguage, rememberLanguage, translator } from './page/i18n.js';
import { SECTIONS } from './page/sections.js';
import { createComputeClient } from './page/compute-client.js';
import { addEmbedTools } from './page/embed-snippet.js';
import { createCheck } from './page/check.js';
import { clampSelections, DEFAULTS, fromQuery, toQuery } from './page/state.js';

const form = document.getElementById('controls');
const status = document.getElementById('status');
const languageSelect = document.getElementById('language');

let state = fromQuery(location.search);
let language = initialLanguage();
let t = translator(language);
let model = null;
// Arrays computed in the worker, by slot: { values, options } of the latest answer.
const computed = {};
const requested = {};
const dirty = new Set();
let frame = 0;
let idle = 0;

const sections = SECTIONS.map((section) => ({
  ...section,
  element: document.querySelector(`[data-plot="${section.name}"]`),
  plot: null,
  stale: true,
  visible: false,
  builtAt: 0,
}));

// "Embed" under each plot: snippets for the current state (refreshed on redraw).
const embedTools = addEmbedTools(sections, () => state);
// "Check my implementation" and the exports of the current settings (their own section and worker).
const check = createCheck(document.getElementById('check'), () => state);
const controls = bindControls(form, (next) => setState(next));

function setState(next) {
  clampSelections(next);
  for (const key of Object.keys(next)) if (next[key] !== state[key]) dirty.add(key);
  state = next;
  lastChange = performance.now();
  controls.show(state, t);
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
        name,
        preset.layout,
        preset.exponent,
        preset.order,
        preset.angle,
        preset.paddingRow === null ? t('compare.none') : String(preset.paddingRow),
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

function setLanguage(next) {
  language = next;
  t = translator(language);
  languageSelect.value = language;
  applyTranslations(document, t, language);
  fillPresetTable();
  controls.show(state, t);
  dirty.add('language');
  schedule();
}

const compute = createComputeClient(({ slot, values, options, error }) => {
  if (error) {
    console.error(error);
    return;
  }
  computed[slot] = { values, options };
  dirty.add(slot);
  schedule();
});

/** What each worker slot should hold for the current state: [kind, options]. */
function wantedArrays() {
  const { length, dModel, base } = state;
  return {
    table: ['table', { ...encoding(state), length }],
    versus: ['table', { preset: state.versus, dModel, base, length }],
    similarity: ['similarity', { ...encoding(state), length }],
  };
}

/**
 * Asks the worker for the arrays `from` (sections) draw, unless the same ones
 * were asked for last; true when some array is not asked for yet. A slot
 * that no section on screen needs is left alone while a slider moves.
 */
function requestArrays(from) {
  let outdated = false;
  for (const [slot, [kind, options]] of Object.entries(wantedArrays())) {
    const key = JSON.stringify([kind, options]);
    if (requested[slot] === key) continue;
    if (!from.some((section) => section.deps.includes(slot))) {
      outdated = true;
      continue;
    }
    requested[slot] = key;
    compute.request(slot, kind, options);
  }
  return outdated;
}

function buildSection(section, context) {
  section.stale = false;
  section.builtAt = performance.now();
  const built = section.build(context);
  if (!built) {
    // A plot already drawn keeps its last data until the new arrays arrive.
    if (!section.plot) section.element.textContent = t('page.computing');
    return;
  }
  if (section.plot) section.plot.update(built.data, built.options);
  else section.plot = section.draw(section.element, built.data, built.options);
}

function context() {
  return {
    model,
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

// Section builds a frame may spend; the rest wait for the next frame.
const FRAME_BUDGET_MS = 8;

// Plots on screen are redrawn in the frame; the others when the browser is
// idle or when they scroll into view, so a drag only pays for what is seen.
function redraw() {
  frame = 0;
  if (!model) return;
  const started = performance.now();
  const changed = new Set(dirty);
  dirty.clear();
  updateUrl();
  embedTools.refresh();
  check.refresh();

  // Plots keep showing the last arrays until the worker answers with new ones.
  const visible = sections.filter((section) => section.visible);
  if (requestArrays(visible)) arraysOutdated = true;

  for (const section of sections) {
    if (!section.plot || changed.has('language') || section.deps.some((dep) => changed.has(dep))) section.stale = true;
  }
  const shared = context();
  // The longest-waiting first, so that no plot on screen is starved by the others.
  const due = visible.filter((section) => section.stale).sort((a, b) => a.builtAt - b.builtAt);
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
  if (event.target.type === 'range') dragging = true;
});
// A release outside the window may never reach it: losing focus ends the drag too.
for (const type of ['pointerup', 'pointercancel', 'blur']) {
  window.addEventListener(type, () => {
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
  if (idle || dragging || !(arraysOutdated || sections.some((section) => section.stale))) return;
  const wait = Math.max(0, lastChange + QUIET_MS - performance.now());
  idle = setTimeout(() => {
    whenIdle(
      (deadline) => {
        idle = 0;
        if (!dragging && performance.now() - lastChange >= QUIET_MS) {
          arraysOutdated = requestArrays(sections);
          const shared = context();
          const started = performance.now();
          let built = 0;
          for (const section of sections) {
            if (!section.stale) continue;
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

// Only plots actually on screen count as visible: one just below the fold is
// rebuilt when the controls rest, not at every step of a drag.
const visibility = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) sections.find((s) => s.element === entry.target).visible = entry.isIntersecting;
    if (sections.some((section) => section.stale && section.visible)) schedule();
  },
  { rootMargin: '0px' },
);
for (const section of sections) visibility.observe(section.element);

languageSelect.addEventListener('change', () => {
  if (!isLanguage(languageSelect.value)) return;
  rememberLanguage(languageSelect.value);
  setLanguage(languageSelect.value);
});
document.getElementById('reset').addEventListener('click', () => setState({ ...DEFAULTS }));

// On a phone the controls start folded so the explanations come first.
if (matchMedia('(max-width: 760px)').matches) document.getElementById('controls-panel').open = false;

setLanguage(language);
try {
  model = createModel(await load());
  status.hidden = true;
  schedule();
} catch (error) {
  status.textContent = t('page.error') + String(error?.message ?? error);
  throw error;
}
