// The form of shared controls: fills the selects, keeps sliders and their
// <output>s in step with the state, and reports which state keys a user
// change touched. A chapter's form holds only the controls of the knobs its
// sections follow (web/build/generate-lists.mjs): the others are left out here.
import { EXPONENTS, LAYOUTS, PRESETS, PRESET_NAMES } from '../lib/index.js';
import { ROPE_LAYOUTS } from '../lib/conventions.js';
import { LIMITS, maxDimension, maxOffset, maxPosition } from '../model/params.js';
import { PRECISION_PATHS } from '../model/precision-paths.js';
import { setText } from '../plots/svg.js';

// The base slider moves log10(base): 10^0.3 (2, after rounding to 3 digits:
// the smallest base a URL may give) .. 10^8, with 10^4 on the grid.
const BASE_EXPONENT = { min: 0.3, max: 8, step: 0.1 };
const baseFromSlider = (value) => Number((10 ** value).toPrecision(3));
// The RoPE context slider moves log2(context) by whole steps: 16 .. 16384 (a URL may give any integer).
const CONTEXT_EXPONENT = { min: 4, max: 14 };

function fillSelect(select, values) {
  select.replaceChildren(
    ...values.map((value) => {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = value;
      return option;
    }),
  );
}

/** The options' labels in the page's language (option.<kind>.<value>); the values stay the code names. */
function labelSelect(select, kind, t) {
  for (const option of select.options) set(option, 'textContent', t(`option.${kind}.${option.value}`));
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

export function bindControls(form, onChange) {
  const present = (name) => form.elements.namedItem(name) !== null;
  // A control the form does not hold takes every write into a detached stand-in.
  const input = (name) => form.elements.namedItem(name) ?? standIn(name);
  const output = (name) => form.querySelector(`#o-${name}`) ?? standIn(`o-${name}`);
  const standIns = new Map();
  function standIn(name) {
    if (!standIns.has(name)) standIns.set(name, document.createElement(name.startsWith('o-') ? 'output' : 'select'));
    return standIns.get(name);
  }
  fillSelect(input('preset'), PRESET_NAMES);
  fillSelect(input('versus'), PRESET_NAMES);
  fillSelect(input('layout'), LAYOUTS);
  fillSelect(input('exponent'), EXPONENTS);
  fillSelect(input('precision'), PRECISION_PATHS);
  setRange(input('dModel'), ...LIMITS.dModel);
  setRange(input('length'), ...LIMITS.length);
  setRange(input('base'), BASE_EXPONENT.min, BASE_EXPONENT.max, BASE_EXPONENT.step);
  fillSelect(input('ropeLayout'), ROPE_LAYOUTS);
  setRange(input('ropeDim'), ...LIMITS.ropeDim, 2);
  setRange(input('context'), CONTEXT_EXPONENT.min, CONTEXT_EXPONENT.max);

  let state = null;
  let t = null;
  const SELECTS = Object.fromEntries(
    Object.entries({ preset: 'preset', versus: 'preset', layout: 'layout', exponent: 'exponent' }).filter(([name]) =>
      present(name),
    ),
  );

  /** Shows `nextState` in the form (ranges depend on dModel and length). */
  function show(nextState, translate) {
    state = nextState;
    if (t !== translate) for (const [name, kind] of Object.entries(SELECTS)) labelSelect(input(name), kind, translate);
    t = translate;
    setRange(input('position'), 0, maxPosition(state));
    setRange(input('offset'), 0, maxOffset(state));
    setRange(input('dimension'), 0, maxDimension(state));
    // Each slider says its value itself (aria-valuetext where the number it moves is not
    // what it means); the <output>s beside them are not live regions (the chapter documents).
    for (const name of ['dModel', 'length', 'position', 'offset', 'dimension', 'ropeDim']) {
      if (!present(name)) continue;
      set(input(name), 'value', String(state[name]));
      const beyond = name === 'position' && state.position >= state.length;
      const text = beyond ? t('controls.beyondValue', state.position) : String(state[name]);
      setText(output(name), text);
      setAttribute(input(name), 'aria-valuetext', text);
    }
    if (present('base')) {
      set(input('base'), 'value', String(Math.log10(state.base)));
      setText(output('base'), String(state.base));
      // The slider moves log10(base): without this it would announce 4, not 10000.
      setAttribute(input('base'), 'aria-valuetext', String(state.base));
    }
    set(input('preset'), 'value', state.preset);
    set(input('versus'), 'value', state.versus);
    set(input('precision'), 'value', state.precision);
    set(input('layout'), 'value', state.layout ?? PRESETS[state.preset].layout);
    set(input('exponent'), 'value', state.exponent ?? PRESETS[state.preset].exponent);
    if (present('ropeLayout')) {
      set(input('ropeLayout'), 'value', state.ropeLayout);
      for (const option of input('ropeLayout').options)
        set(option, 'textContent', t(`controls.ropeLayout.${option.value}`));
    }
    if (present('context')) {
      set(input('context'), 'value', String(Math.round(Math.log2(state.context))));
      setText(output('context'), String(state.context));
      setAttribute(input('context'), 'aria-valuetext', String(state.context));
    }
  }

  form.addEventListener('input', (event) => {
    const { name, value } = event.target;
    if (!state || !name) return;
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
    else next[name] = Number(value);
    onChange(next);
  });
  // Nothing is submitted: Enter in a control must not reload the page.
  form.addEventListener('submit', (event) => event.preventDefault());

  return { show };
}
