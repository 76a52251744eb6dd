// The knob forms of a chapter: its strip (the knobs its sections share) and each
// section's own form beside its plots. Fills the selects, keeps every instance of
// a knob (one knob may sit in several sections) and its <output> in step with the
// state, and reports which state keys a user change touched. A knob no form
// holds is left out here.
import { PRESETS } from '../lib/index.js';
import { TIMESTEP_PRESETS } from '../lib/elsewhere-options.js';
import { LIMITS, PARAM, SELECT_OPTIONS, gridDim, maxDimension, maxOffset, maxPosition } from '../model/params.js';
import { setText } from '../plots/svg.js';

// The base slider moves log10(base): 10^0.3 (2, after rounding to 3 digits:
// the smallest base a URL may give) .. 10^8, with 10^4 on the grid.
const BASE_EXPONENT = { min: 0.3, max: 8, step: 0.1 };
const baseFromSlider = (value) => Number((10 ** value).toPrecision(3));
// The RoPE context slider moves log2(context) by whole steps: 16 .. 16384 (a URL may give any integer).
const CONTEXT_EXPONENT = { min: 4, max: 14 };

function fillSelect(select, values) {
  // The document may hold them already (the generator writes them): kept, with their labels.
  if ([...select.options].map((option) => option.value).join() === values.join()) return;
  select.replaceChildren(
    ...values.map((value) => {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = value;
      return option;
    }),
  );
}

/** The options' labels in the page's language (<labels>.<value>); the values stay the code names. */
function labelSelect(select, labels, t) {
  for (const option of select.options) set(option, 'textContent', t(`${labels}.${option.value}`));
}

// Only what changed is written: show() runs at every step of a drag, and each
// write to a control or its label costs the browser a style and layout pass.
function set(target, property, value) {
  if (target[property] !== value) target[property] = value;
}

function setAttribute(target, name, value) {
  if (target.getAttribute(name) !== value) target.setAttribute(name, value);
}

function setRange(input, min, max, step = 1) {
  set(input, 'min', String(min));
  set(input, 'max', String(max));
  set(input, 'step', String(step));
}

/**
 * Binds the knob forms `forms` (each control found by its name; its <output> is o-… for its c-… id):
 * `onChange(nextState)` at each user change; show(state, t) puts a state into every instance.
 */
export function bindControls(forms, onChange) {
  /** Knob name -> its controls in every form, in document order. */
  const instances = new Map();
  for (const form of forms)
    for (const control of form.elements) {
      if (!control.name) continue;
      if (!instances.has(control.name)) instances.set(control.name, []);
      instances.get(control.name).push(control);
    }
  const present = (name) => instances.has(name);
  const all = (name) => instances.get(name) ?? [];
  const outputs = new Map(
    [...instances.values()]
      .flat()
      .map((control) => [control, document.getElementById(control.id.replace(/^c-/, 'o-'))]),
  );
  /** Calls `write(control, output)` for each instance of knob `name` (output: null for a select). */
  const each = (name, write) => {
    for (const control of all(name)) write(control, outputs.get(control));
  };
  for (const [name, { values }] of Object.entries(SELECT_OPTIONS)) each(name, (select) => fillSelect(select, values));
  each('dModel', (input) => setRange(input, ...LIMITS.dModel));
  each('length', (input) => setRange(input, ...LIMITS.length));
  each('base', (input) => setRange(input, BASE_EXPONENT.min, BASE_EXPONENT.max, BASE_EXPONENT.step));
  each('ropeDim', (input) => setRange(input, ...LIMITS.ropeDim, 2));
  each('context', (input) => setRange(input, CONTEXT_EXPONENT.min, CONTEXT_EXPONENT.max));
  // max_period moves on log10 as the base does.
  each('maxPeriod', (input) => setRange(input, BASE_EXPONENT.min, BASE_EXPONENT.max, BASE_EXPONENT.step));
  for (const name of ['gridHeight', 'gridWidth', 'relLength', 'chunkStart'])
    each(name, (input) => setRange(input, ...PARAM[name].range));

  let state = null;
  let t = null;
  const SELECTS = Object.entries(SELECT_OPTIONS)
    .filter(([, { labels }]) => labels)
    .map(([name, { labels }]) => [name, labels]);

  /** A slider's value, its output's text and what it announces. */
  const showSlider = (name, value, text = String(value)) =>
    each(name, (input, output) => {
      set(input, 'value', String(value));
      if (output) setText(output, text);
      setAttribute(input, 'aria-valuetext', text);
    });

  /** Shows `nextState` in every form (ranges depend on dModel and length). */
  function show(nextState, translate) {
    state = nextState;
    if (t !== translate)
      for (const [name, labels] of SELECTS) each(name, (select) => labelSelect(select, labels, translate));
    t = translate;
    each('position', (input) => setRange(input, 0, maxPosition(state)));
    each('offset', (input) => setRange(input, 0, maxOffset(state)));
    each('dimension', (input) => setRange(input, 0, maxDimension(state)));
    // Each slider says its value itself (aria-valuetext where the number it moves is not
    // what it means); the <output>s beside them are not live regions (the chapter documents).
    each('gridColumn', (input) => setRange(input, 0, gridDim(state) - 1));
    each('gridPatch', (input) => setRange(input, 0, state.gridHeight * state.gridWidth - 1));
    for (const name of [
      'dModel',
      'length',
      'offset',
      'dimension',
      'ropeDim',
      'gridHeight',
      'gridWidth',
      'gridColumn',
      'relLength',
      'chunkStart',
    ])
      showSlider(name, state[name]);
    const patchColumn = state.gridPatch % state.gridWidth;
    showSlider(
      'gridPatch',
      state.gridPatch,
      t('controls.patchValue', Math.floor(state.gridPatch / state.gridWidth), patchColumn),
    );
    showSlider('maxPeriod', Math.log10(state.maxPeriod), String(state.maxPeriod));
    const timestep = TIMESTEP_PRESETS[state.tsPreset];
    each('tsPreset', (select) => set(select, 'value', state.tsPreset));
    each('flipSinToCos', (select) => set(select, 'value', String(state.flipSinToCos ?? timestep.flipSinToCos)));
    each('freqShift', (select) => set(select, 'value', String(state.freqShift ?? timestep.downscaleFreqShift)));
    each('tsRange', (select) => set(select, 'value', state.tsRange));
    each('axisOrder', (select) => set(select, 'value', state.axisOrder));
    const beyond = state.position >= state.length;
    showSlider('position', state.position, beyond ? t('controls.beyondValue', state.position) : String(state.position));
    // The slider moves log10(base): without its text it would announce 4, not 10000.
    showSlider('base', Math.log10(state.base), String(state.base));
    showSlider('context', Math.round(Math.log2(state.context)), String(state.context));
    each('preset', (select) => set(select, 'value', state.preset));
    each('versus', (select) => set(select, 'value', state.versus));
    each('precision', (select) => set(select, 'value', state.precision));
    each('layout', (select) => set(select, 'value', state.layout ?? PRESETS[state.preset].layout));
    each('exponent', (select) => set(select, 'value', state.exponent ?? PRESETS[state.preset].exponent));
    each('ropeLayout', (select) => set(select, 'value', state.ropeLayout));
  }

  function changed(event) {
    const { name, value } = event.target;
    if (!state || !name || !present(name)) return;
    const next = { ...state };
    if (name === 'base') next.base = baseFromSlider(Number(value));
    else if (name === 'preset') {
      // A new preset brings its own layout and exponent.
      next.preset = value;
      next.layout = null;
      next.exponent = null;
    } else if (name === 'layout' || name === 'exponent') {
      next[name] = value === PRESETS[state.preset][name] ? null : value;
    } else if (name === 'versus' || name === 'precision' || name === 'ropeLayout') next[name] = value;
    else if (name === 'context') next.context = 2 ** Number(value);
    else if (name === 'maxPeriod') next.maxPeriod = baseFromSlider(Number(value));
    else if (name === 'tsPreset') {
      // A new timestep preset brings its own flip and shift.
      next.tsPreset = value;
      next.flipSinToCos = null;
      next.freqShift = null;
    } else if (name === 'flipSinToCos') {
      const flip = value === 'true';
      next.flipSinToCos = flip === TIMESTEP_PRESETS[state.tsPreset].flipSinToCos ? null : flip;
    } else if (name === 'freqShift') {
      const shift = Number(value);
      next.freqShift = shift === TIMESTEP_PRESETS[state.tsPreset].downscaleFreqShift ? null : shift;
    } else if (name === 'tsRange' || name === 'axisOrder') next[name] = value;
    else if (name === 'gridHeight' || name === 'gridWidth') {
      // The chosen patch keeps its row and column where the new grid has them.
      const row = Math.floor(state.gridPatch / state.gridWidth);
      const column = state.gridPatch % state.gridWidth;
      next[name] = Number(value);
      next.gridPatch = Math.min(row, next.gridHeight - 1) * next.gridWidth + Math.min(column, next.gridWidth - 1);
    } else next[name] = Number(value);
    onChange(next);
  }
  for (const form of forms) {
    form.addEventListener('input', changed);
    // Nothing is submitted: Enter in a control must not reload the page.
    form.addEventListener('submit', (event) => event.preventDefault());
  }

  return { show };
}
