// A section of the page (web/sections/) in its place: its plot's element, the
// explanations beside it, and what it last showed. A section is stale when a
// key it depends on changed; its numbers arrive from the worker (sections
// that read the model) or it is built from the arrays at hand; it is drawn
// again only when what it shows differs from what it showed.
import { knobs } from '../model/convention.js';
import { textFacts } from '../model/text-facts.js';
import { showRich } from './i18n.js';

/** `section` (web/sections/) with its place in the page. */
export function pageSection(section) {
  const element = document.querySelector(`[data-plot="${section.name}"]`);
  return {
    ...section,
    element,
    // The explanations beside the plot: worded from the facts of what it shows.
    texts: [...element.closest('.mistake, section').querySelectorAll(':scope > [data-i18n-rich]')],
    plot: null,
    // A key it depends on changed since it was last built (or its numbers asked for).
    stale: true,
    visible: false,
    builtAt: 0,
    // Numbers from the worker not drawn yet: { numbers, state } (state: what they were computed for).
    arrived: null,
    // What the plot shows: { data, options, language }, to skip redrawing the same.
    shown: null,
  };
}

/** Sections with something to draw: numbers that arrived, or a build from the arrays at hand. */
export const drawable = (section) => section.arrived !== null || (section.stale && !section.compute);

/**
 * Asks `compute` (the compute client) for the numbers of a section that reads the model in
 * `state`; `arrived()` hears when they are in (they are drawn at the next build).
 */
export function askNumbers(section, compute, state, arrived) {
  section.stale = false;
  compute.section(section.name, state, section.visible).then(
    (numbers) => {
      // null: a newer request for this section replaced this one.
      if (!numbers) return;
      section.arrived = { numbers, state };
      arrived();
    },
    (error) => console.error(error),
  );
}

/**
 * Builds `section` and draws it. `context`: what sections build from ({ state, t, … });
 * `language`; `shownFacts`: the facts each explanation was last worded from (node -> facts);
 * `drawn()`: hears when a visible plot was drawn.
 */
export function buildSection(section, context, { language, shownFacts, drawn }) {
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
    if (!section.plot) section.element.textContent = context.t('page.computing');
    return;
  }
  // The text says what the plot beside it shows: the same state, the same numbers.
  const facts = { ...textFacts(builtFor), ...built.text };
  for (const node of section.texts) {
    shownFacts.set(node, facts);
    showRich(node, context.t, facts, language);
  }
  // The same as shown (a drag back over a value, or a slider the numbers do not depend on): nothing to redraw.
  const shown = { ...built, language };
  if (section.plot && sameShown(section.shown, shown)) return;
  section.shown = shown;
  // On the page a plot's number-heavy notes fold under a summary (web/plots/svg.js: notesContainer).
  const options = { ...built.options, notesSummary: context.t('notes.summary') };
  if (section.plot) section.plot.update(built.data, options);
  else section.plot = section.draw(section.element, built.data, options);
  if (section.visible) drawn();
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
