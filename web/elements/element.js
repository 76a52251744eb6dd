// <posenc-*>: one plot of the explainer page as a custom element. The
// attributes become the page's state (model/state.js); the shared section
// definitions (model/sections.js) and model (model/data.js) turn it into the
// plot's data, exactly as on the page. Attribute changes are coalesced into
// one redraw per animation frame; the plot sizes itself to the element's
// width (ResizeObserver, in plots/common.js). Every element of a page shares
// one wasm instance: load() caches it per module, and this module keeps one
// model on top of it.
import { plotStrings } from '../i18n/plot-strings.js';
import { languageOfLang } from '../i18n/translate.js';
import { load } from '../lib/index.js';
import { wantedArrays } from '../model/arrays.js';
import { knobs } from '../model/convention.js';
import { createModel } from '../model/data.js';
import { ATTRIBUTES, ATTRIBUTE_OF } from '../model/params.js';
import { SECTIONS } from '../model/sections.js';
import { readAttributes } from '../model/state.js';
import { adoptStyles } from './styles.js';

// Outside a browser (server-side rendering, Node) the module still imports.
const Base = globalThis.HTMLElement ?? class {};

let shared = null;
/** The wasm API and the page's model over it: one for every element of the page. */
function core() {
  if (!shared) {
    shared = load().then((pe) => ({ pe, model: createModel(pe) }));
    // A failed load (offline, blocked) is tried again by the next element.
    shared.catch(() => (shared = null));
  }
  return shared;
}

/** 'zh' or 'en' for an element, from the closest lang attribute. */
const languageOf = (element) => languageOfLang(element.closest('[lang]')?.getAttribute('lang'));

// Languages whose strings could not be loaded: their elements show English.
const unavailable = new Set();

// Core errors name the JS options; these two are spelt differently as attributes.
const OPTION_NAMES = /\b(dModel|paddingRow)\b/g;

/**
 * Arrays the page computes in its worker (model/arrays.js), computed here on
 * the main thread; kept while their options stay the same, so that moving a
 * selection repaints nothing.
 */
function computeArrays(pe, section, state, extras, previous) {
  const computed = {};
  for (const [slot, [kind, options]] of Object.entries(wantedArrays(state, extras, section.deps))) {
    const key = JSON.stringify([kind, options]);
    if (previous[slot]?.key === key) computed[slot] = previous[slot];
    else computed[slot] = { key, options, values: kind === 'table' ? pe.table(options) : pe.similarity(options) };
  }
  return computed;
}

export class PosencPlotElement extends Base {
  /** The name of the page section this element shows (set by each subclass). */
  static section = '';

  static get observedAttributes() {
    return [...Object.keys(ATTRIBUTES), 'lang'];
  }

  /**
   * Attribute -> the name error messages give it, for a host whose users set
   * the attributes under other names (embed.html: its URL parameters).
   */
  attributeLabels = null;

  #body;
  #message;
  #plot = null;
  #frame = 0;
  #core = null;
  #loadError = null;
  #computed = {};

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    adoptStyles(root);
    this.#message = document.createElement('div');
    this.#message.className = 'message';
    this.#message.setAttribute('role', 'status');
    this.#body = document.createElement('div');
    this.#body.className = 'body';
    root.append(this.#message, this.#body);
  }

  connectedCallback() {
    this.#schedule();
    core().then(
      (loaded) => {
        this.#core = loaded;
        this.#loadError = null;
        this.#schedule();
      },
      (error) => {
        this.#loadError = error;
        this.#schedule();
      },
    );
  }

  disconnectedCallback() {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#plot?.destroy();
    this.#plot = null;
  }

  attributeChangedCallback(name, previous, value) {
    if (previous !== value) this.#schedule();
  }

  /** Redraws now instead of at the next frame (e.g. before a screenshot). */
  render() {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#render();
  }

  #schedule() {
    if (!this.#frame && this.isConnected)
      this.#frame = requestAnimationFrame(() => {
        this.#frame = 0;
        this.#render();
      });
  }

  #say(lines, isError) {
    this.#message.classList.toggle('error', isError);
    this.#message.setAttribute('role', isError ? 'alert' : 'status');
    // Attribute values are quoted in these lines: text nodes only, never markup.
    this.#message.replaceChildren(
      ...lines.map((line) => {
        const p = document.createElement('p');
        p.textContent = line;
        return p;
      }),
    );
    this.#message.hidden = lines.length === 0;
  }

  #clearPlot() {
    this.#plot?.destroy();
    this.#plot = null;
    this.#body.replaceChildren();
  }

  #render() {
    if (!this.isConnected) return;
    const tag = this.localName;
    const wanted = languageOf(this);
    const language = unavailable.has(wanted) ? 'en' : wanted;
    if (!plotStrings.table(language)) {
      plotStrings.load(language).then(
        () => this.#schedule(),
        () => {
          unavailable.add(language);
          this.#schedule();
        },
      );
      return;
    }
    const t = plotStrings.translator(language);
    const label = (attribute) => this.attributeLabels?.[attribute] ?? attribute;
    const { state, extras, height, errors } = readAttributes((name) => this.getAttribute(name));
    if (errors.length > 0) {
      this.#clearPlot();
      this.#say(
        errors.map(({ attribute, message }) => t('element.invalid', tag, label(attribute), message)),
        true,
      );
      this.dataset.state = 'error';
      return;
    }
    if (this.#loadError) {
      this.#clearPlot();
      this.#say([t('element.failed', tag, String(this.#loadError?.message ?? this.#loadError))], true);
      this.dataset.state = 'error';
      return;
    }
    if (!this.#core) {
      this.#say([t('element.loading')], false);
      this.dataset.state = 'loading';
      return;
    }
    const section = SECTIONS.find(({ name }) => name === this.constructor.section);
    const { pe, model } = this.#core;
    let built;
    try {
      this.#computed = computeArrays(pe, section, state, extras, this.#computed);
      built = section.build({
        model,
        state,
        t,
        conv: { ...knobs(state), ...extras },
        computed: this.#computed,
        pick: (selection) => this.#pick(selection),
      });
    } catch (error) {
      // The core refuses what it cannot compute (a RangeError naming the options, e.g. too much work).
      const message = String(error?.message ?? error).replace(OPTION_NAMES, (key) => label(ATTRIBUTE_OF[key]));
      this.#clearPlot();
      this.#say([t('element.failed', tag, message)], true);
      this.dataset.state = 'error';
      return;
    }
    this.#say([], false);
    // A height attribute fixes the drawing's height (each panel's, for compare) instead of deriving it from the width.
    const options = height === null ? built.options : { ...built.options, height: () => height };
    if (this.#plot) this.#plot.update(built.data, options);
    else this.#plot = section.draw(this.#body, built.data, options);
    this.dataset.state = 'ready';
    this.dispatchEvent(new CustomEvent('posenc-render', { bubbles: true, composed: true }));
  }

  /** A click on the plot selects a position, offset or dimension: reflected in the attributes. */
  #pick(selection) {
    for (const [key, value] of Object.entries(selection)) this.setAttribute(ATTRIBUTE_OF[key], String(value));
    this.dispatchEvent(new CustomEvent('posenc-pick', { detail: { ...selection }, bubbles: true, composed: true }));
  }
}
