// The RoPE chapter's tools on the page (sections 4-6): the lab's settings
// (Hugging Face's field names, a preset of a real model's config), "Check my
// RoPE" (a pasted config.json read by ropeFromConfig, a cos/sin cache named by
// ropeIdentify) and the code of the current settings. The plots themselves are
// sections (sections/rope-lab-sections.js) drawn by main.js from the worker's
// numbers. Pasted text reaches the DOM only through textContent.
import { codeSnippet, load } from '../lib/index.js';
import {
  configFacts,
  LAB_KEYS,
  LAB_TYPES,
  labKnobs,
  labOptions,
  ROPE_PRESET_NAMES,
  TYPE_KNOBS,
} from '../model/rope-lab-data.js';
import { DEFAULTS, PARAM, ParamError, parse } from '../model/params.js';
import { element } from './dom.js';
import './rope-lab.css';

// Hugging Face's names of the fields (rope_parameters / config.json keys).
const HF_NAME = {
  ropeType: 'rope_type',
  headDim: 'head_dim',
  ropeTheta: 'rope_theta',
  factor: 'factor',
  originalMaxPositionEmbeddings: 'original_max_position_embeddings',
  seqLen: 'seq_len',
  betaFast: 'beta_fast',
  betaSlow: 'beta_slow',
  mscale: 'mscale',
  mscaleAllDim: 'mscale_all_dim',
  attentionFactor: 'attention_factor',
  lowFreqFactor: 'low_freq_factor',
  highFreqFactor: 'high_freq_factor',
};
// The dynamic type reads the trained context from max_position_embeddings.
const nameOf = (key, type) =>
  key === 'originalMaxPositionEmbeddings' && type === 'dynamic' ? 'max_position_embeddings' : HF_NAME[key];

// A pasted config longer than this is refused before parsing (config.json files are a few kB).
const MAX_CONFIG_CHARS = 1 << 20;
const MAX_CACHE_MB = 64;

/**
 * A config name in its label's `code`, breakable only after an underscore
 * (original_max_position_embeddings wraps as original_ / max_ / …, never mid-word).
 */
function showName(code, name) {
  const parts = name.split(/(?<=_)/);
  if (code.textContent === name && code.childNodes.length === 2 * parts.length - 1) return;
  code.replaceChildren(...parts.flatMap((part, i) => (i ? [element('wbr'), part] : [part])));
}

function fillOptions(select, values, label) {
  select.replaceChildren(...values.map((value) => element('option', { value, text: label(value) })));
}

/** The lab's settings form in `form` (index.html); onChange(nextState) applies an edit. Returns { show(state, t) }. */
function labControls(form, onChange) {
  const fields = {};
  for (const key of LAB_KEYS) {
    const control = form.elements.namedItem(key);
    const wrap = control.parentElement;
    const code = wrap.querySelector('code');
    const error = element('p', { className: 'rope-field-error', role: 'alert' }, wrap);
    error.hidden = true;
    fields[key] = { wrap, code, control, error };
  }
  fillOptions(fields.ropeType.control, LAB_TYPES, (type) => type);

  let state = null;
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('change', (event) => {
    const key = event.target.name;
    if (!state || !fields[key]) return;
    const field = fields[key];
    const text = event.target.value.trim();
    let value;
    try {
      value = key === 'attentionFactor' && text === '' ? null : parse(PARAM[key], text, state);
    } catch (error) {
      if (!(error instanceof ParamError)) throw error;
      // Kept in the box as typed, with what is wrong; the state keeps its last valid value.
      field.error.hidden = false;
      field.error.textContent = field.t('ropeLab.invalid', field.code.textContent, error.message);
      return;
    }
    field.error.hidden = true;
    const next = { ...state, [key]: value };
    // A new preset brings all its own values.
    if (key === 'ropePreset') for (const other of LAB_KEYS.slice(1)) next[other] = null;
    onChange(next);
  });

  return {
    show(nextState, t) {
      state = nextState;
      const k = labKnobs(state);
      const read = new Set(['ropePreset', 'ropeType', 'headDim', 'ropeTheta', 'seqLen', ...TYPE_KNOBS[k.ropeType]]);
      fillOptions(fields.ropePreset.control, ROPE_PRESET_NAMES, (name) => t(`ropeLab.presetName.${name}`));
      for (const [key, field] of Object.entries(fields)) {
        field.t = t;
        field.wrap.hidden = !read.has(key);
        if (key === 'ropePreset') field.code.textContent = t('controls.ropePreset');
        else showName(field.code, nameOf(key, k.ropeType));
        const value = key === 'ropePreset' ? state.ropePreset : k[key];
        const text = value === null ? 'auto' : String(value);
        // A box being edited, or showing a refused value, keeps its text.
        if (document.activeElement !== field.control && field.error.hidden && field.control.value !== text)
          field.control.value = text;
      }
      fields.headDim.control.disabled = k.ropeType === 'longrope';
    },
  };
}

/** "Check my RoPE": a config.json and a cache. */
function ropeCheck(root, getT, toLab) {
  const configBox = root.querySelector('#rope-config');
  const configResult = root.querySelector('#rope-config-result');
  const cacheFile = root.querySelector('#rope-cache-file');
  const cacheBox = root.querySelector('#rope-cache-text');
  const cacheResult = root.querySelector('#rope-cache-result');
  let lastConfig = null;
  let lastConfigError = null;
  let lastCache = null;

  // A line's detail (the library's own message) folds out under it.
  const say = (container, lines) =>
    container.replaceChildren(
      ...lines.flatMap(({ text, className, testId, detail }) => {
        const p = element('p', { text, className: className ?? '' });
        if (testId) p.dataset.testid = testId;
        if (!detail) return [p];
        const details = element('details', { className: 'rope-detail' });
        element('summary', { text: detail.label }, details);
        element('code', { text: detail.text }, details);
        return [p, details];
      }),
    );
  /** A config that could not be read, in the page's words, with the English message folded under it. */
  const configFailed = (message, notJson = false) => {
    lastConfigError = { message, notJson };
    const t = getT();
    const problem = notJson ? null : configProblem(message);
    const text = notJson
      ? t('ropeCheck.configNotJson')
      : problem
        ? t('ropeCheck.configField', problem)
        : t('ropeCheck.configRefused');
    return say(configResult, [
      {
        text,
        className: 'rope-error',
        testId: 'rope-config-error',
        detail: { label: t('ropeCheck.originalMessage'), text: message },
      },
    ]);
  };

  async function readConfig() {
    const t = getT();
    const text = configBox.value;
    lastConfig = null;
    lastConfigError = null;
    if (text.length > MAX_CONFIG_CHARS)
      return say(configResult, [{ text: t('ropeCheck.configTooLong', MAX_CONFIG_CHARS), className: 'rope-error' }]);
    let config;
    try {
      config = JSON.parse(text);
    } catch (error) {
      return configFailed(error.message, true);
    }
    try {
      lastConfig = configFacts(await load(), config);
    } catch (error) {
      return configFailed(String(error?.message ?? error));
    }
    showConfig();
  }

  function showConfig() {
    if (lastConfigError) return configFailed(lastConfigError.message, lastConfigError.notJson);
    if (!lastConfig) return;
    const t = getT();
    const { warnings, summary, lab, split, context } = lastConfig;
    say(configResult, [
      { text: t('ropeCheck.config', summary), testId: 'rope-config-summary' },
      ...(split
        ? [
            { text: t('ropeLab.kinds', split.kinds), testId: 'rope-config-kinds' },
            { text: t('ropeLab.attention', split.attention), testId: 'rope-config-attention' },
          ]
        : []),
      ...(context ? [{ text: t('ropeCheck.context', context), testId: 'rope-config-context' }] : []),
      ...(warnings.length
        ? warnings.map((w) => ({
            text: t('ropeCheck.warning', w.code, w.message),
            className: 'rope-warning',
            testId: `rope-warning-${w.code}`,
          }))
        : [{ text: t('ropeCheck.noWarnings') }]),
    ]);
    if (lab) {
      const button = element('button', { type: 'button', text: t('ropeCheck.useInLab') }, configResult);
      button.addEventListener('click', () => toLab(lab));
    }
  }

  // The cache is read and named in a worker (check-worker.js, which the sinusoidal checker's module
  // also is): a 64 MB .npy takes seconds. One cache at a time: a new one abandons the last worker.
  const cacheStatus = element('div', { className: 'rope-cache-status' });
  cacheResult.before(cacheStatus);
  const cacheSaid = element('p', { 'data-testid': 'rope-cache-status' }, cacheStatus);
  const cacheRetry = element('button', { type: 'button', 'data-testid': 'rope-cache-retry' }, cacheStatus);
  const cacheProgress = element('progress', {}, cacheStatus);
  let cacheWorker = null;
  let cacheBusy = false;
  let cacheRequest = 0;
  let cacheAsked = null;
  // What the status line says, to say again in another language: [key, ...args] or null.
  let cacheState = null;

  function cacheSay(state, { busy = false, retry = false } = {}) {
    cacheState = state;
    cacheStatus.hidden = !state;
    cacheProgress.hidden = !busy;
    cacheRetry.hidden = !retry;
    showCacheStatus();
  }

  function showCacheStatus() {
    const t = getT();
    // (None before the chapter's first show(): relabel() says it then.)
    if (!t) return;
    cacheRetry.textContent = t('check.retry');
    cacheSaid.textContent = cacheState ? t(...cacheState) : '';
  }

  function stopCacheWorker() {
    cacheWorker?.terminate();
    cacheWorker = null;
    cacheBusy = false;
  }

  function startCacheWorker() {
    cacheWorker = new Worker(new URL('./check-worker.js', import.meta.url), { type: 'module' });
    cacheWorker.onmessage = ({ data }) => {
      if (data.phase === 'core') {
        if (data.error && cacheBusy) {
          stopCacheWorker();
          cacheSay(['ropeCheck.cacheFailed'], { retry: true });
        }
        return;
      }
      if (data.id !== cacheRequest) return;
      if (data.phase === 'reading') {
        cacheProgress.max = data.total;
        cacheProgress.value = data.loaded;
      } else if (data.phase === 'parsing') {
        cacheProgress.removeAttribute('value');
        cacheSay(['ropeCheck.cacheIdentifying', cacheAsked.name], { busy: true });
      } else if (data.phase === 'error') {
        cacheBusy = false;
        if (data.stage === 'load') cacheSay(['ropeCheck.cacheFailed'], { retry: true });
        else {
          cacheSay(null);
          say(cacheResult, [{ text: getT()('ropeCheck.cacheError', data.message), className: 'rope-error' }]);
        }
      } else if (data.phase === 'rope') {
        cacheBusy = false;
        cacheSay(null);
        lastCache = { table: { length: data.length, dModel: data.dModel }, result: data.result };
        showCache();
      }
    };
    cacheWorker.onerror = (event) => {
      // The script did not load, or threw: what it said goes to the console only.
      event.preventDefault();
      if (event.message) console.warn(`posenc RoPE check: ${event.message}`);
      stopCacheWorker();
      cacheSay(['ropeCheck.cacheFailed'], { retry: true });
    };
  }

  /** source: { file } or { input }; name: what the reader knows it by. */
  function readCache(source, name) {
    lastCache = null;
    cacheResult.replaceChildren();
    if (cacheBusy) stopCacheWorker();
    if (!cacheWorker) startCacheWorker();
    cacheRequest += 1;
    cacheBusy = true;
    cacheAsked = { source, name };
    cacheProgress.removeAttribute('value');
    cacheSay(['ropeCheck.cacheReading', name], { busy: true });
    cacheWorker.postMessage({ id: cacheRequest, ropeCache: source });
  }

  function showCache() {
    if (!lastCache) return;
    const t = getT();
    const { table, result } = lastCache;
    const lines = [{ text: t('ropeCheck.cacheShape', table.length, table.dModel, result.dtype) }];
    if (!result.explained && result.reason !== 'fit')
      lines.push({
        text: t('ropeCheck.unknown', t(`ropeCheck.reason.${result.reason}`, result)),
        className: 'rope-warning',
        testId: 'rope-cache-verdict',
      });
    else if (!result.explained)
      lines.push({ text: t('ropeCheck.partial', result), className: 'rope-warning', testId: 'rope-cache-verdict' });
    else lines.push({ text: t('ropeCheck.verdict', result), testId: 'rope-cache-verdict' });
    say(cacheResult, lines);
  }

  root.querySelector('#rope-config-read').addEventListener('click', () => readConfig());
  root
    .querySelector('#rope-cache-read')
    .addEventListener('click', () => readCache({ input: cacheBox.value }, getT()('check.pasted')));
  cacheRetry.addEventListener('click', () => {
    stopCacheWorker();
    if (cacheAsked) readCache(cacheAsked.source, cacheAsked.name);
  });
  cacheSay(null);
  cacheFile.addEventListener('change', () => {
    const file = cacheFile.files?.[0];
    if (!file) return;
    if (file.size > MAX_CACHE_MB * 2 ** 20) {
      // Refused: a check still running would answer for another cache.
      stopCacheWorker();
      cacheSay(null);
      say(cacheResult, [
        { text: getT()('ropeCheck.cacheError', `larger than ${MAX_CACHE_MB} MB`), className: 'rope-error' },
      ]);
      return;
    }
    // The worker reads the file itself (a File is passed, not copied), reporting how far it got.
    readCache({ file }, file.name);
  });
  return {
    relabel() {
      showConfig();
      showCache();
      showCacheStatus();
    },
  };
}

// Option names (camelCase) as config.json spells them.
const snakeCase = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The config.json field a library message is about ({ field, missing }), or
 * null: the page words the problem in its language and names the field as
 * the reader wrote it (scaling.lowFreqFactor is rope_scaling.low_freq_factor).
 */
function configProblem(message) {
  const match = /^posenc\.\w+: (config\.|scaling\.)?(\w+) (is required|must be|has )/.exec(message);
  if (!match) return null;
  const [, scope, name, verb] = match;
  const field = scope === 'config.' ? name : `${scope ? 'rope_scaling.' : ''}${snakeCase(name)}`;
  return { field, missing: verb === 'is required' };
}

/** The code of the current settings. */
function ropeCode(root, getT) {
  const language = root.querySelector('#rope-code-language');
  const code = root.querySelector('#rope-code-text');
  const copy = root.querySelector('#rope-code-copy');
  const copied = root.querySelector('#rope-code-copied');
  let state = null;
  const write = () => {
    if (!state) return;
    const k = labKnobs(state);
    // The cache of the lab's sequence (all its positions), in the preset's layout.
    const options = { ...labOptions(k), length: k.seqLen, layout: k.layout };
    try {
      code.textContent = codeSnippet(language.value, options);
    } catch (error) {
      code.textContent = `# ${getT()('ropeLab.failed', String(error?.message ?? error))}`;
    }
  };
  language.addEventListener('change', write);
  copy.addEventListener('click', async () => {
    await navigator.clipboard?.writeText(code.textContent);
    copied.textContent = getT()('ropeCode.copied');
  });
  return {
    show(next) {
      state = next;
      copied.textContent = '';
      write();
    },
  };
}

/**
 * The chapter's tools in `document`; onChange(nextState) applies an edit of
 * the lab. Returns { show(state, t) }: call when the state or language may
 * have changed.
 */
export function createRopeChapter(document, onChange) {
  let t = null;
  let shownState = null;
  let shownT = null;
  const status = document.getElementById('rope-lab-status');
  const controls = labControls(document.getElementById('rope-lab-controls'), onChange);
  const check = ropeCheck(
    document.getElementById('rope-check'),
    () => t,
    (lab) => {
      onChange({ ...shownState, ...Object.fromEntries(LAB_KEYS.slice(1).map((key) => [key, null])), ...lab });
      document.getElementById('rope-lab').scrollIntoView();
    },
  );
  const code = ropeCode(document.getElementById('rope-code'), () => t);

  /** Says whether the core can compute these settings (e.g. llama3 needs low_freq_factor < high_freq_factor). */
  async function validate(state) {
    // The presets compute: the page's own core is loaded only for settings someone changed (the first
    // view fetches the .wasm once, for the worker).
    if (LAB_KEYS.every((key) => state[key] === DEFAULTS[key])) {
      status.hidden = true;
      return;
    }
    const pe = await load();
    if (state !== shownState) return;
    try {
      pe.ropeFrequencies(labOptions(labKnobs(state)));
      status.hidden = true;
      status.textContent = '';
    } catch (error) {
      status.hidden = false;
      status.textContent = t('ropeLab.failed', String(error?.message ?? error));
    }
  }

  return {
    show(state, translate) {
      const labChanged = !shownState || LAB_KEYS.some((key) => state[key] !== shownState[key]);
      const relabel = translate !== shownT;
      if (!labChanged && !relabel) return;
      t = translate;
      shownState = state;
      shownT = translate;
      controls.show(state, t);
      code.show(state);
      if (relabel) check.relabel();
      validate(state).catch((error) => console.error(error));
    },
  };
}
