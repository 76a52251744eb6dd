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
}));

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

/** Asks the worker for an array unless the same one was asked for last. */
function requestComputed(slot, kind, options) {
  const key = JSON.stringify([kind, options]);
  if (requested[slot] === key) return;
  requested[slot] = key;
  compute.request(slot, kind, options);
}

function buildSection(section, context) {
  section.stale = false;
  const built = section.build(context);
  if (!built) {
    section.element.textContent = t('page.computing');
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

// Plots on screen are redrawn in the frame; the others when the browser is
// idle or when they scroll into view, so a drag only pays for what is seen.
function redraw() {
  frame = 0;
  if (!model) return;
  const changed = new Set(dirty);
  dirty.clear();
  const query = toQuery(state);
  if (query !== location.search) history.replaceState(null, '', `${location.pathname}${query}${location.hash}`);

  // Plots keep showing the last arrays until the worker answers with new ones.
  const { length } = state;
  requestComputed('table', 'table', { ...encoding(state), length });
  requestComputed('versus', 'table', { preset: state.versus, dModel: state.dModel, base: state.base, length });
  requestComputed('similarity', 'similarity', { ...encoding(state), length });

  for (const section of sections) {
    if (!section.plot || changed.has('language') || section.deps.some((dep) => changed.has(dep))) section.stale = true;
  }
  const shared = context();
  for (const section of sections) if (section.stale && section.visible) buildSection(section, shared);
  scheduleIdle();
}

// Off-screen plots wait until the controls have been still for a moment, so
// their (uninterruptible) rebuilds never delay the next step of a drag.
const QUIET_MS = 250;
let lastChange = 0;
// Where requestIdleCallback is missing (Safari), a timer stands in for it.
const whenIdle =
  window.requestIdleCallback?.bind(window) ??
  ((callback) => setTimeout(() => callback({ timeRemaining: () => 0, didTimeout: true }), 1));

function scheduleIdle() {
  if (idle || !sections.some((section) => section.stale)) return;
  const wait = Math.max(0, lastChange + QUIET_MS - performance.now());
  idle = setTimeout(() => {
    whenIdle(
      (deadline) => {
        idle = 0;
        if (performance.now() - lastChange >= QUIET_MS) {
          const shared = context();
          let built = 0;
          for (const section of sections) {
            if (!section.stale) continue;
            if (built > 0 && deadline.timeRemaining() < 8 && !deadline.didTimeout) break;
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

const visibility = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) sections.find((s) => s.element === entry.target).visible = entry.isIntersecting;
    if (sections.some((section) => section.stale && section.visible)) schedule();
  },
  { rootMargin: '200px 0px' },
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
