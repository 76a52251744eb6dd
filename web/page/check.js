// "Check my implementation": a table dropped, chosen or pasted (or one of
// the samples) is parsed and identified in its own worker (check-worker.js:
// identify() takes up to seconds), and the page shows the convention and
// parameters that explain it, or the closest preset and where the table
// first departs from it, the diagnosis in the page's language, and a heatmap
// of its difference from a preset. Below it, the exports of the current
// settings (exports.js). Text only ever reaches the DOM through textContent.
import { MISTAKEN_PRESETS, paddingIn } from '../lib/conventions.js';
import { load, PRESET_NAMES, PRESETS } from '../lib/index.js';
import { draw as drawHeatmap } from '../plots/heatmap.js';
import { SAMPLE_NAMES, SAMPLES } from './check-samples.js';
import { firstFunction } from '../model/convention.js';
import { element } from './dom.js';
import { createExports } from './exports.js';
import { diagnosisWords, explainedShape, FORMULA, roundedSteps } from './check-words.js';
import { translator } from './i18n.js';
import './check.css';

// Larger files are refused before they are read (far above any table the page makes).
const MAX_FILE_MB = 256;
// A text box holding megabytes freezes the page while it lays them out: a
// longer paste is checked without being put in the box.
const MAX_PASTE_MB = 1;
// How long the checker's worker may take to load the core before the section
// says so and offers a retry (it keeps waiting meanwhile).
const CORE_PATIENCE_S = 10;
// (oddColumn only where d is odd: identify() gives an even table the nearest preset's.)
const KNOBS = ['layout', 'exponent', 'order', 'angle', 'base', 'start', 'paddingRow', 'scale', 'oddColumn'];

function knobDiffers(knob, found, reference, length) {
  if (knob === 'paddingRow') return paddingIn(found.paddingRow, length) !== paddingIn(reference.paddingRow, length);
  return found[knob] !== reference[knob];
}

// Answers that are no 1-D table at positions 0, 1, … (identify's kind): shown with their own knobs.
const OTHER_KINDS = ['grid', 'grid3d', 'timestep', 'positions'];

const literal = (value) => (typeof value === 'string' ? `'${value}'` : String(value));
/** The rows' positions or timesteps, first + step · r for `rows` rows, as code. */
const steps = ({ first, step }, rows) => `Array.from({ length: ${rows} }, (_, r) => ${first} + ${step} * r)`;

/** The call that reproduces a timestep embedding, a 2-D or 3-D grid or rows at other positions. */
function otherKindCode(id, rows, dModel) {
  const call = (name, fields) =>
    `pe.${name}({ ${Object.entries(fields)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([key, value]) => `${key}: ${value}`)
      .join(', ')} })`;
  if (id.kind === 'grid') {
    const { dim, height, width, axisOrder, extraTokens, base, baseSize, interpolationScale, coordinateDtype } = id.grid;
    return call('sincosGrid2d', {
      dim,
      height,
      width,
      axisOrder: literal(axisOrder),
      extraTokens,
      base,
      baseSize,
      interpolationScale,
      coordinateDtype: literal(coordinateDtype),
    });
  }
  if (id.kind === 'grid3d') {
    const { shapes, preset, axisOrder, coordinateDtype, ...numbers } = id.grid3d;
    return call('sincosGrid3d', {
      ...numbers,
      axisOrder: literal(axisOrder),
      coordinateDtype: literal(coordinateDtype),
    });
  }
  if (id.kind === 'timestep') {
    const { dim, maxPeriod, flipSinToCos, downscaleFreqShift, timesteps } = id.timestep;
    return call('timestepEmbedding', {
      timesteps: steps(timesteps, rows),
      dim,
      maxPeriod,
      flipSinToCos,
      downscaleFreqShift,
    });
  }
  const options = { ...id.options };
  delete options.start;
  return call('table', {
    dModel,
    ...Object.fromEntries(Object.entries(options).map(([key, value]) => [key, literal(value)])),
    positions: steps(id.positions, rows),
  });
}

/** pe.table({...}) with only the knobs that differ from the nearest preset. */
function optionsCode(result) {
  const { identification: id } = result;
  if (id.match && OTHER_KINDS.includes(id.kind)) return otherKindCode(id, result.length, result.dModel);
  const { length, dModel } = explainedShape(result);
  const preset = PRESETS[id.nearestPreset];
  const parts = [`preset: '${id.nearestPreset}'`];
  for (const knob of KNOBS) {
    if (!knobDiffers(knob, id.options, preset, length)) continue;
    const value = id.options[knob];
    parts.push(`${knob}: ${typeof value === 'string' ? `'${value}'` : String(value)}`);
  }
  // The rounded steps, so that the code reproduces the table as it was computed.
  for (const { knob, format } of roundedSteps(id.options)) parts.push(`${knob}: '${format}'`);
  parts.push(`length: ${length}`, `dModel: ${dModel}`);
  return `pe.table({ ${parts.join(', ')} })`;
}

/**
 * Builds the section in `container`; getState() -> the page state.
 * Returns { refresh() }: call when the state may have changed (the exports follow it).
 */
export function createCheck(container, getState) {
  // The page's own instance, for the samples and the exports: loaded at first
  // use, so that the first load fetches the .wasm once (in the compute worker).
  const posenc = () => load();
  let t = translator('en');
  let result = null;
  let difference = null;
  let heatmap = null;
  let worker = null;
  let busy = false;
  let requestId = 0;
  let started = 0;
  let source = null;

  const tool = element('div', { className: 'check-tool' }, container);
  const heading = element('h3', { id: 'check-heading' }, tool);

  // Input: a file (dropped or chosen), pasted text, or a sample.
  const inputs = element('div', { className: 'check-input' }, tool);
  const drop = element('div', { className: 'check-drop', 'data-testid': 'check-drop' }, inputs);
  const dropText = element('p', {}, drop);
  const fileLabel = element('label', { for: 'check-file' }, drop);
  const fileInput = element('input', { type: 'file', id: 'check-file', accept: '.npy,.csv,.json,.txt,.tsv' }, drop);

  const paste = element('div', { className: 'check-paste' }, inputs);
  const pasteLabel = element('label', { for: 'check-paste' }, paste);
  const pasteArea = element('textarea', { id: 'check-paste', rows: '6', spellcheck: 'false' }, paste);
  const pasteRow = element('div', { className: 'check-paste-row' }, paste);
  const dModelField = element('div', { className: 'check-dmodel' }, pasteRow);
  const dModelLabel = element('label', { for: 'check-dmodel' }, dModelField);
  const dModelInput = element(
    'input',
    { type: 'number', id: 'check-dmodel', min: '1', step: '1', inputmode: 'numeric' },
    dModelField,
  );
  const runButton = element('button', { type: 'button', id: 'check-run' }, pasteRow);

  const samples = element(
    'div',
    { className: 'check-samples', role: 'group', 'aria-labelledby': 'check-samples-label' },
    tool,
  );
  const samplesLabel = element('span', { id: 'check-samples-label' }, samples);
  const sampleButtons = SAMPLE_NAMES.map((name) =>
    element('button', { type: 'button', 'data-sample': name, 'data-testid': `check-sample-${name}` }, samples),
  );

  // What is happening (reading, parsing, identifying, an error) with a Retry where it helps, and a progress bar.
  const statusRow = element('div', { className: 'check-status-row' }, tool);
  const status = element('p', { className: 'check-status', id: 'check-status', 'aria-live': 'polite' }, statusRow);
  const retryButton = element('button', { type: 'button', id: 'check-retry', 'data-testid': 'check-retry' }, statusRow);
  retryButton.hidden = true;
  const progress = element('progress', { className: 'check-progress', 'aria-labelledby': 'check-status' }, tool);
  progress.hidden = true;

  // The answer.
  const answer = element('div', { className: 'check-result', id: 'check-result', 'data-testid': 'check-result' }, tool);
  answer.hidden = true;
  const sourceLine = element('p', { className: 'check-source' }, answer);
  const verdict = element('p', { className: 'check-verdict', 'data-testid': 'check-verdict' }, answer);
  const about = element('p', { className: 'check-about' }, answer);
  const summary = element('div', { className: 'check-summary' }, answer);
  const paramsBox = element('div', {}, summary);
  const paramsHeading = element('h4', {}, paramsBox);
  const params = element('dl', { className: 'check-params', 'data-testid': 'check-params' }, paramsBox);
  const optionsLine = element('p', { className: 'check-options' }, paramsBox);
  const optionsLabel = element('span', {}, optionsLine);
  const optionsCodeNode = element('code', { 'data-testid': 'check-options' }, optionsLine);
  const diagnosisBox = element('div', {}, summary);
  const diagnosisHeading = element('h4', {}, diagnosisBox);
  const diagnosisList = element('ul', { className: 'check-diagnosis', 'data-testid': 'check-diagnosis' }, diagnosisBox);
  const firstLine = element('p', { className: 'check-first', 'data-testid': 'check-first' }, diagnosisBox);

  const differenceBox = element('div', { className: 'check-difference' }, answer);
  const differenceHeading = element('h4', {}, differenceBox);
  const referenceRow = element('div', { className: 'check-reference' }, differenceBox);
  const referenceLabel = element('label', { for: 'check-reference' }, referenceRow);
  const referenceSelect = element('select', { id: 'check-reference' }, referenceRow);
  for (const name of PRESET_NAMES) element('option', { value: name, text: name }, referenceSelect);
  const largestLine = element('p', { className: 'check-largest', 'data-testid': 'check-largest' }, differenceBox);
  const plotBox = element('div', { className: 'check-plot', 'data-check-plot': 'difference' }, differenceBox);
  const pixelNote = element('p', { className: 'check-pixel-note', 'data-testid': 'check-pixel-note' }, differenceBox);
  pixelNote.hidden = true;

  const exportBox = element('div', { className: 'export-tool' }, container);
  const exports = createExports(exportBox, { getState, posenc });

  // The status line is kept as a key and its arguments, so a language switch rewrites it.
  // (A library detail, in English, may follow the sentence: see failed().)
  let said = null;
  const showSaid = () => {
    const { key, args, detail } = said;
    status.textContent = key ? t(key, ...args) : '';
    if (detail) status.textContent += ` ${t('check.detail', detail)}`;
  };
  const say = (state, key, ...args) => {
    said = { state, key, args, detail: null };
    showSaid();
    status.dataset.state = state;
    retryButton.hidden = true;
    if (state !== 'busy') progress.hidden = true;
  };
  // Library messages start with the function's name: the reader needs only the reason.
  const reason = (message) => String(message).replace(/^posenc\.\w+: /, '');
  const fromLibrary = (message) => /^posenc\.\w+: /.test(String(message));

  /**
   * A failure, said in the reader's language: the sentence of `key`, then the
   * library's own reason when it gave one (it names what is wrong: "row 3 has
   * 5 values"). An engine's message ("Maximum call stack size exceeded") means
   * nothing to a reader: it goes to the console only. `retry`: offer Retry.
   */
  function failed(key, message = null, { retry = false } = {}) {
    say('error', key);
    if (message !== null && fromLibrary(message)) {
      said.detail = reason(message);
      showSaid();
    } else if (message !== null) console.warn(`posenc checker: ${message}`);
    retryButton.hidden = !retry;
  }

  // The last check asked for, to run again on Retry.
  let lastCheck = null;
  // Until the worker has the core: a timer that says so when it takes long.
  let coreTimer = 0;
  let coreReady = false;
  let coreFailed = false;
  // The status a slow core interrupted, to put back when the core arrives.
  let beforeSlow = null;
  // Paint requests of the difference heatmap waiting for the worker: seq -> resolve.
  const paints = new Map();
  let paintSeq = 0;

  function stopWorker() {
    worker?.terminate();
    worker = null;
    clearTimeout(coreTimer);
    // Their pixels will never come: the heatmap keeps its image (null: nothing to put).
    for (const resolve of paints.values()) resolve(null);
    paints.clear();
  }

  function startWorker() {
    worker = new Worker(new URL('./check-worker.js', import.meta.url), { type: 'module' });
    coreReady = false;
    coreFailed = false;
    coreTimer = setTimeout(() => {
      if (coreReady || !busy) return;
      beforeSlow = said;
      say('slow', 'check.slow', CORE_PATIENCE_S);
      retryButton.hidden = false;
    }, CORE_PATIENCE_S * 1000);
    worker.onmessage = ({ data }) => {
      if (data.phase === 'core') {
        clearTimeout(coreTimer);
        coreReady = !data.error;
        coreFailed = Boolean(data.error);
        if (data.error && busy) {
          busy = false;
          failed('check.failed.load', data.error, { retry: true });
        } else if (said?.state === 'slow' && beforeSlow) {
          say(beforeSlow.state, beforeSlow.key, ...beforeSlow.args);
        }
        return;
      }
      if (data.id !== requestId) return;
      if (data.phase === 'reading') {
        progress.hidden = false;
        progress.max = data.total;
        progress.value = data.loaded;
      } else if (data.phase === 'parsing') {
        progress.removeAttribute('value');
        progress.hidden = false;
        if (said?.state !== 'slow') say('busy', 'check.parsing', source.text);
      } else if (data.phase === 'parsed') {
        // What was read, before the seconds identify() may take: a wrong shape shows at once.
        const read = { length: data.length, dModel: data.dModel, name: sourceName() };
        if (said?.state !== 'slow') say('busy', 'check.read', read);
        else beforeSlow = { state: 'busy', key: 'check.read', args: [read], detail: null };
      } else if (data.phase === 'error') {
        busy = false;
        // The answer below was about another table: it goes, so that the error is not misread.
        result = null;
        answer.hidden = true;
        failed(`check.failed.${data.stage}`, data.message, { retry: data.stage === 'load' });
      } else if (data.phase === 'done') {
        busy = false;
        referenceSelect.disabled = false;
        show({ ...data, seconds: (performance.now() - started) / 1000 });
      } else if (data.phase === 'difference' && data.preset === referenceSelect.value) {
        difference = data;
        drawDifference();
      } else if (data.phase === 'pixels') {
        const resolve = paints.get(data.seq);
        paints.delete(data.seq);
        resolve?.(data.pixels ? data : null);
      }
    };
    worker.onerror = (event) => {
      // The script did not load, or threw: what it said goes to the console only.
      event.preventDefault();
      if (event.message) console.warn(`posenc checker: ${event.message}`);
      busy = false;
      stopWorker();
      failed('check.workerFailed', null, { retry: true });
    };
  }

  /** Sends a request; an unanswered one is abandoned with its worker (identify cannot be interrupted). */
  function submit(message, transfer, label) {
    // A busy worker is abandoned, and one whose core failed to load cannot answer: a new one loads it again.
    if (worker && (busy || coreFailed)) stopWorker();
    if (!worker) startWorker();
    requestId += 1;
    busy = true;
    // The table shown stays, but its differences went with the last worker's table.
    referenceSelect.disabled = true;
    started = performance.now();
    source = label;
    say('busy', 'check.reading', label.text);
    progress.removeAttribute('value');
    progress.hidden = false;
    worker.postMessage({ id: requestId, ...message }, transfer);
  }

  /** The name the reader knows the table `of` by, in the current language. */
  function sourceName(of = source) {
    const from = {
      sample: () => t(`check.sample.${of.name}`),
      paste: () => t('check.pasted'),
      'long-paste': () => t('check.longPasted', of.size),
    }[of.kind];
    return from ? from() : of.text;
  }

  const megabytes = (bytes) => bytes / 2 ** 20;

  function checkFile(file) {
    if (!file) return;
    if (file.size > MAX_FILE_MB * 2 ** 20) {
      say('error', 'check.tooBig', MAX_FILE_MB);
      return;
    }
    lastCheck = () => checkFile(file);
    // The worker reads the file itself (a File is passed, not copied), reporting how far it got.
    submit({ file }, [], { kind: 'file', text: file.name });
  }

  function pastedDModel() {
    const dModelText = dModelInput.value.trim();
    const dModel = dModelText === '' ? undefined : Number(dModelText);
    if (dModel !== undefined && !(Number.isInteger(dModel) && dModel >= 1)) {
      say('error', 'check.badDModel');
      dModelInput.focus();
      return null;
    }
    return { dModel };
  }

  function checkPaste() {
    const text = pasteArea.value;
    if (text.trim() === '') {
      say('error', 'check.empty');
      pasteArea.focus();
      return;
    }
    const wanted = pastedDModel();
    if (!wanted) return;
    lastCheck = checkPaste;
    submit({ input: text, ...wanted }, [], { kind: 'paste', text: t('check.pasted') });
  }

  /** A paste too long for the text box: checked as it is, never put in the box. */
  function checkLongPaste(text) {
    const wanted = pastedDModel();
    if (!wanted) return;
    lastCheck = () => checkLongPaste(text);
    const size = megabytes(new Blob([text]).size);
    submit({ input: text, ...wanted }, [], { kind: 'long-paste', text: t('check.longPasted', size), size });
  }

  async function checkSample(name) {
    const sample = SAMPLES[name];
    lastCheck = () => checkSample(name);
    let data;
    try {
      // The page's own instance: its first use fetches part of the page (offline: it cannot).
      const pe = await posenc();
      data = sample.build(pe);
    } catch (error) {
      console.warn(error);
      failed('check.failed.sample', null, { retry: true });
      return;
    }
    submit({ table: { data, length: sample.length, dModel: sample.dModel } }, [data.buffer], {
      kind: 'sample',
      name,
      text: t(`check.sample.${name}`),
    });
  }

  function show(answered) {
    result = { ...answered, source };
    const { identification: id } = result;
    say('done', 'check.done', { length: result.length, dModel: result.dModel, seconds: result.seconds });
    difference = null;
    largestLine.textContent = '';
    referenceSelect.value =
      result.identification.match && MISTAKEN_PRESETS.includes(id.nearestPreset) ? 'vaswani' : id.nearestPreset;
    answer.hidden = false;
    render();
    updateDifference();
    exports.listPlots();
  }

  function renderParams() {
    const { identification: id } = result;
    const { length, dModel } = explainedShape(result);
    const nearest = PRESETS[id.nearestPreset];
    // conv: the convention `value` belongs to (what an odd column holds depends on its order).
    const format = (knob, value, conv) => {
      switch (knob) {
        case 'exponent':
          return `${value} (${FORMULA[value]})`;
        case 'angle':
          return `${value} (${FORMULA[value]})`;
        case 'paddingRow':
          return paddingIn(value, length) === null ? t('check.none') : String(value);
        case 'scale':
          return value === Math.sqrt(dModel) && value !== 1 ? `${value} (√dModel)` : String(value);
        case 'oddColumn':
          return value === 'zero' ? t('compare.oddZero') : t('compare.oddAlone', firstFunction(conv));
        default:
          return String(value);
      }
    };
    const rows = [[t('check.param.shape'), `${result.length} × ${result.dModel}`, id.transposed]];
    if (id.match && OTHER_KINDS.includes(id.kind)) {
      // What reproduces it, knob by knob, as the library names them.
      const found = { grid: id.grid, grid3d: id.grid3d, timestep: id.timestep, positions: id.positions }[id.kind];
      for (const [knob, value] of Object.entries(found))
        if (value !== null && typeof value !== 'object') rows.push([knob, String(value), false]);
      if (id.kind === 'timestep') rows.push(['timesteps', t('check.timesteps', id.timestep.timesteps), false]);
      rows.push([t('check.param.error'), t('check.errorValue', id.maxAbsError, id.tolerance), false]);
      params.replaceChildren();
      for (const [term, value] of rows) {
        element('dt', { text: term }, params);
        element('dd', { text: value }, params);
      }
      return;
    }
    for (const knob of KNOBS) {
      if (knob === 'oddColumn' && dModel % 2 === 0) continue;
      const differs = knobDiffers(knob, id.options, nearest, length);
      const text = format(knob, id.options[knob], id.options);
      rows.push([
        t(`check.param.${knob}`),
        differs ? `${text} ${t('check.presetHas', id.nearestPreset, format(knob, nearest[knob], nearest))}` : text,
        differs,
      ]);
    }
    // How each step was computed: only the rounded ones besides the angles, which always show.
    const rounded = Object.fromEntries(roundedSteps(id.options).map(({ knob, format }) => [knob, format]));
    for (const knob of ['exponentDtype', 'frequencyDtype', 'positionDtype'])
      if (rounded[knob]) rows.push([t(`check.param.${knob}`), t('check.rounded', rounded[knob]), true]);
    const angles = rounded.angleDtype ?? (id.float32Angle ? 'float32' : null);
    rows.push([t('check.param.angles'), angles ? t('check.rounded', angles) : t('check.float64'), angles !== null]);
    rows.push([t('check.param.error'), t('check.errorValue', id.maxAbsError, id.tolerance), !id.match]);
    params.replaceChildren();
    for (const [term, value, differs] of rows) {
      element('dt', { text: term }, params);
      element('dd', { text: value, className: differs ? 'check-differs' : '' }, params);
    }
  }

  function render() {
    if (!result) return;
    const { identification: id } = result;
    // What was read, as the reader can check it against the file: a CSV read as one long row shows here.
    sourceLine.textContent = t('check.source', {
      name: sourceName(result.source),
      length: result.length,
      dModel: result.dModel,
    });
    verdict.dataset.match = String(id.match);
    // A timestep embedding, a 2-D or 3-D grid or rows at other positions: no 1-D preset's table to compare with.
    const other = id.match && OTHER_KINDS.includes(id.kind);
    differenceBox.hidden = other;
    verdict.textContent = other
      ? t(`check.verdict.${id.kind}`, id)
      : id.transposed
        ? t('check.verdict.transposed', id.nearestPreset)
        : !id.match
          ? t(id.near === false ? 'check.verdict.far' : 'check.verdict.none', id.nearestPreset)
          : id.preset && roundedSteps(id.options).length > 0
            ? t('check.verdict.presetRounded', id.preset, roundedSteps(id.options))
            : id.preset
              ? t(id.float32Angle ? 'check.verdict.presetFloat32' : 'check.verdict.preset', id.preset)
              : t(
                  'check.verdict.knobs',
                  id.nearestPreset,
                  // Mistakes a preset shares are named against the paper: they are no departure from it.
                  id.diagnosis.filter(({ preset }) => preset === id.nearestPreset).length,
                );
    // What the preset mirrors (the Q&A question, fairseq…): the name alone tells a learner little.
    about.hidden = other;
    about.textContent = t('check.about', id.nearestPreset, t(`preset.${id.nearestPreset}`));
    paramsHeading.textContent = id.match ? t('check.params') : t('check.paramsClosest');
    renderParams();
    optionsLabel.textContent = t('check.options');
    optionsCodeNode.textContent = optionsCode(result);
    diagnosisHeading.textContent = t('check.diagnosis');
    diagnosisList.replaceChildren(
      ...[...id.diagnosis, ...(id.notes ?? [])].map((entry) =>
        element('li', { 'data-code': entry.code, text: t(`check.dx.${entry.code}`, diagnosisWords(entry, result)) }),
      ),
    );
    if (id.diagnosis.length === 0 && !id.notes?.length)
      diagnosisList.append(element('li', { 'data-code': 'none', text: t('check.exact') }));
    // A transposed table is compared with nothing value by value: its verdict says what to do.
    firstLine.hidden = id.transposed || other;
    firstLine.textContent = id.firstDifference
      ? t('check.first', { preset: id.nearestPreset, ...id.firstDifference })
      : t('check.same', id.nearestPreset);
    differenceHeading.textContent = t('check.differenceTitle');
    referenceLabel.textContent = t('check.reference');
    drawDifference();
  }

  /** Asks the worker (which keeps the table) for its difference from the chosen preset. */
  function updateDifference() {
    if (result && worker && !busy) worker.postMessage({ id: requestId, difference: referenceSelect.value });
  }

  /**
   * The pixels of the heatmap of `shown` (a difference from the worker), painted
   * by the worker that holds its values; null once that worker or table is gone.
   */
  function paintIn(shown, request) {
    if (!worker || shown.id !== requestId) return Promise.resolve(null);
    paintSeq += 1;
    const seq = paintSeq;
    const answered = new Promise((resolve) => paints.set(seq, resolve));
    worker.postMessage({ id: shown.id, paint: request, preset: shown.preset, seq });
    return answered.then((answer) => {
      if (answer) {
        pixelNote.hidden = !answer.aggregated;
        // Set once the heatmap has put the image (its own callback runs first).
        setTimeout(() => (plotBox.dataset.painted = 'true'));
      }
      return answer;
    });
  }

  function drawDifference() {
    if (!result || !difference) return;
    const { length, dModel } = result;
    // The values come in units of 10^power, so that the legend of tiny differences stays legible.
    const { preset, values, power, largest, worst, first } = difference;
    const unit = 10 ** power;
    const reach = largest > 0 ? largest / unit : 1;
    const at = (k) => ({ row: Math.floor(k / dModel), column: k % dModel });
    largestLine.textContent =
      largest > 0
        ? t('check.largest', { preset, value: values[worst] * unit, ...at(worst), marked: first >= 0 })
        : t('check.identical', preset);
    // The worker holds these values too and paints them there (see paintIn): a
    // million-row table costs the main thread an image of the plot's size only.
    const painter = { min: difference.min, max: difference.max, paint: (request) => paintIn(difference, request) };
    plotBox.dataset.painted = 'false';
    const plotData = { values, painter, rows: length, columns: dModel, marks: first >= 0 ? at(first) : {} };
    const options = {
      domain: [-reach, reach],
      xTitle: t('axis.dimension'),
      yTitle: t('axis.position'),
      legendTitle: t('check.legend', power),
      readout: (row, column) => t('check.readout', row, column, values[row * dModel + column] * unit, preset),
      readoutHint: t('check.hint'),
      describe: () => t('check.describe', { rows: length, columns: dModel, preset, largest }),
      testId: 'check-readout',
    };
    if (heatmap) heatmap.update(plotData, options);
    else heatmap = drawHeatmap(plotBox, plotData, options);
  }

  function label() {
    heading.textContent = t('check.heading');
    dropText.textContent = t('check.drop', MAX_FILE_MB);
    fileLabel.textContent = t('check.file');
    pasteLabel.textContent = t('check.paste', MAX_PASTE_MB);
    // Rows 0 and 1 of the paper's table at d = 4, to 6 digits: pasted as is, it checks out.
    pasteArea.placeholder = '0, 1, 0, 1\n0.841471, 0.540302, 0.00999983, 0.99995';
    dModelLabel.textContent = t('check.dModel');
    runButton.textContent = t('check.run');
    samplesLabel.textContent = t('check.samples');
    sampleButtons.forEach((button) => {
      button.textContent = t(`check.sample.${button.dataset.sample}`);
    });
    retryButton.textContent = t('check.retry');
    pixelNote.textContent = t('check.pixelNote');
    if (said) showSaid();
  }

  function setLanguage() {
    const language = document.documentElement.lang.toLowerCase().startsWith('zh') ? 'zh' : 'en';
    t = translator(language);
    label();
    render();
    exports.setLanguage(t);
  }

  // Files dropped on the zone, or chosen with the (keyboard-operable) file input.
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('is-over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('is-over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('is-over');
    checkFile(event.dataTransfer?.files?.[0]);
  });
  fileInput.addEventListener('change', () => {
    checkFile(fileInput.files?.[0]);
    // Choosing the same file again must check it again.
    fileInput.value = '';
  });
  runButton.addEventListener('click', checkPaste);
  // A paste longer than the box takes is checked without entering it (see MAX_PASTE_MB).
  pasteArea.addEventListener('paste', (event) => {
    const text = event.clipboardData?.getData('text/plain') ?? '';
    if (text.length <= MAX_PASTE_MB * 2 ** 20) return;
    event.preventDefault();
    checkLongPaste(text);
  });
  retryButton.addEventListener('click', () => {
    stopWorker();
    busy = false;
    lastCheck?.();
  });
  pasteArea.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) checkPaste();
  });
  for (const button of sampleButtons) button.addEventListener('click', () => checkSample(button.dataset.sample));
  referenceSelect.addEventListener('change', updateDifference);

  // The page switches language by setting <html lang>.
  new MutationObserver(setLanguage).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['lang'],
  });
  setLanguage();

  return { refresh: () => exports.refresh() };
}
