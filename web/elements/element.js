// <posenc-*>: one plot of the explainer page as a custom element. The
// attributes become the page's state (model/state.js); the shared section
// definitions (sections/sections.js) and model (model/data.js) turn it into the
// plot's data, exactly as on the page. Attribute changes are coalesced into
// one redraw per animation frame; the plot sizes itself to the element's
// width (ResizeObserver, in plots/frame.js). Every element of a page shares
// one wasm instance: load() caches it per module, and this module keeps one
// model on top of it.
import { plotStrings } from '../i18n/plot-strings.js';
import { languageOfLang } from '../i18n/translate.js';
import { load } from '../lib/index.js';
import { wantedArrays } from '../model/arrays.js';
import { knobs } from '../model/convention.js';
import { createModel } from '../model/data.js';
import { ATTRIBUTES, ATTRIBUTE_OF } from '../model/params.js';
import { SECTIONS } from '../sections/sections.js';
import { readAttributes } from '../model/state.js';
import { adoptStyles } from './styles.js';

// Outside a browser (server-side rendering, Node) the module still imports.
const Base = globalThis.HTMLElement ?? class {};

// How long a load may take before the elements say so and offer a retry
// (they keep waiting meanwhile: a slow connection may still deliver).
const LOAD_PATIENCE_S = 10;

// The load in progress (a promise), the core once loaded, and what every
// connected element wants to hear about the load: 'loaded', 'failed', 'slow'.
let shared = null;
let loaded = null;
let slowTimer = 0;
const listeners = new Set();
const tell = (news) => listeners.forEach((listener) => listener(news));

function armSlowTimer(attempt) {
  clearTimeout(slowTimer);
  slowTimer = setTimeout(() => {
    if (shared === attempt && !loaded) tell({ kind: 'slow' });
  }, LOAD_PATIENCE_S * 1000);
}

/**
 * The wasm API and the page's model over it: one for every element of the
 * page. Every element hears the outcome, including those whose own attempt
 * failed earlier: a later load that succeeds (an element's retry, a new
 * element) brings them all back.
 */
function core() {
  if (loaded) return Promise.resolve(loaded);
  if (!shared) {
    const attempt = load().then((pe) => ({ pe, model: createModel(pe) }));
    shared = attempt;
    armSlowTimer(attempt);
    attempt.then(
      (value) => {
        clearTimeout(slowTimer);
        loaded = value;
        tell({ kind: 'loaded', value });
      },
      (error) => {
        clearTimeout(slowTimer);
        // A failed load (offline, blocked, timed out) is tried again by the next retry or element.
        if (shared === attempt) shared = null;
        tell({ kind: 'failed', error });
      },
    );
  }
  return shared;
}

/** A retry: a new load after a failure; while the last one is still pending, another wait for it. */
function retryCore() {
  if (loaded) return;
  if (shared) {
    armSlowTimer(shared);
    tell({ kind: 'waiting' });
  } else core();
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
  #slow = false;
  #computed = {};
  #retryButton;
  // What this element hears about the shared load (see core()).
  #hear = (news) => {
    if (news.kind === 'loaded') {
      this.#core = news.value;
      this.#loadError = null;
      this.#slow = false;
    } else if (news.kind === 'failed') {
      if (this.#core) return;
      // The reason, for whoever reports it (once per failure): the element says what it means and what to do.
      if (this.#loadError !== news.error) console.error(news.error);
      this.#loadError = news.error;
      this.#slow = false;
    } else this.#slow = news.kind === 'slow';
    this.#schedule();
  };

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
    this.#retryButton = document.createElement('button');
    this.#retryButton.type = 'button';
    this.#retryButton.className = 'retry';
    this.#retryButton.addEventListener('click', () => this.#retry());
  }

  connectedCallback() {
    listeners.add(this.#hear);
    this.#schedule();
    if (loaded) this.#hear({ kind: 'loaded', value: loaded });
    // The outcome reaches this element through #hear; a rejection here is handled there.
    else core().catch(() => {});
  }

  /** After a failed or stalled load: ask for the core again (every element hears the outcome). */
  #retry() {
    this.#loadError = null;
    this.#slow = false;
    this.#schedule();
    retryCore();
  }

  disconnectedCallback() {
    listeners.delete(this.#hear);
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#plot?.destroy();
    this.#plot = null;
  }

  attributeChangedCallback(name, previous, value) {
    if (previous === value) return;
    // A change after a failed load is a new attempt (the page may be back online).
    if (this.#loadError && this.isConnected) this.#retry();
    else this.#schedule();
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

  /** Shows `lines` (an error, or a status); `retry`: the label of a Retry button after them. */
  #say(lines, isError, retry = null) {
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
    if (retry) {
      this.#retryButton.textContent = retry;
      this.#message.append(this.#retryButton);
    }
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
        errors.map(({ attribute, expected, given }) =>
          t('element.invalid', tag, label(attribute), t('param.expected', expected, given)),
        ),
        true,
      );
      this.dataset.state = 'error';
      return;
    }
    if (this.#loadError && !this.#core) {
      this.#clearPlot();
      this.#say([t('element.loadFailed', tag)], true, t('element.retry'));
      this.dataset.state = 'error';
      return;
    }
    if (!this.#core) {
      this.#say(
        [this.#slow ? t('element.slow', LOAD_PATIENCE_S) : t('element.loading')],
        false,
        this.#slow ? t('element.retry') : null,
      );
      this.dataset.state = this.#slow ? 'slow' : 'loading';
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
