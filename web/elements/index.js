// posenc/elements: every plot of the explainer page as a custom element.
// Importing this module defines them (once); defineElements() does it
// explicitly. The core is imported from the package's own web/lib/index.js,
// so `posenc` and `posenc/elements` share one module and one wasm instance.
import { ELEMENTS } from '../model/registry.js';
import { PosencPlotElement } from './element.js';

export { PosencPlotElement } from './element.js';
export { ATTRIBUTES, THEMES } from '../model/params.js';
export { readAttributes } from '../model/state.js';
export { ELEMENTS, TAG_OF_PLOT } from '../model/registry.js';

const classes = new Map();

/** The element class of a tag (one subclass per plot). */
export function elementClass(tag) {
  if (!classes.has(tag)) {
    const section = ELEMENTS[tag];
    if (!section) throw new RangeError(`posenc: no element <${tag}>`);
    classes.set(
      tag,
      class extends PosencPlotElement {
        static section = section;
      },
    );
  }
  return classes.get(tag);
}

/** Defines every <posenc-*> element not yet defined in `registry`. */
export function defineElements(registry = globalThis.customElements) {
  if (!registry) return;
  for (const tag of Object.keys(ELEMENTS)) if (!registry.get(tag)) registry.define(tag, elementClass(tag));
}

defineElements();
