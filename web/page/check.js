// "Check my implementation": a table dropped, chosen or pasted (or one of
// the samples) is parsed and identified in its own worker (check-worker.js:
// identify() takes up to seconds), and the page shows the convention and
// parameters that explain it, or the closest preset and where the table
// first departs from it, the diagnosis in the page's language, and a heatmap
// of its difference from a preset. Below it, the exports of the current
// settings (exports.js). Text only ever reaches the DOM through textContent.
import { structuredLikeHuggingFace } from '../lib/conventions.js';
import { load, PRESET_NAMES, PRESETS } from '../lib/index.js';
import { draw as drawHeatmap } from '../plots/heatmap.js';
import { SAMPLE_NAMES, SAMPLES } from './check-samples.js';
import { firstFunction } from '../model/convention.js';
import { element } from './dom.js';
import { createExports } from './exports.js';
import { translator } from './i18n.js';
import './check.css';

// Larger files are refused before they are read (a 8192 x 512 float64 table is 32 MB).
const MAX_FILE_MB = 256;
// Presets that reproduce known mistakes: their tables are compared with the paper's.
const MISTAKEN = ['legacy-column', 'question'];
// (oddColumn only where d is odd: identify() gives an even table the nearest preset's.)
const KNOBS = ['layout', 'exponent', 'order', 'angle', 'base', 'start', 'paddingRow', 'scale', 'oddColumn'];
// The formula behind each enum value: language-neutral, shown beside the name.
const FORMULA = {
  pair: '2i/d',
  'half-minus-one': 'i/(d/2 − 1)',
  column: '2j/d',
  divide: 'pos / base^e',
  'ratio-power': '(pos / base)^e',
};

/** A padding row beyond the table is no padding row (as identify() counts it). */
const paddingIn = (row, length) => (row !== null && row < length ? row : null);

// The knob each diagnosis code is about ('unexplained' and 'float32-angle' have none).
const KNOB_OF_CODE = {
  'concat-vs-interleaved': 'layout',
  'exponent-uses-column': 'exponent',
  'exponent-uses-pair': 'exponent',
  'exponent-uses-half-minus-one': 'exponent',
  'sin-cos-swapped': 'order',
  'ratio-power': 'angle',
  'angle-divide': 'angle',
  base: 'base',
  'start-off-by-one': 'start',
  'start-offset': 'start',
  'missing-padding-row': 'paddingRow',
  'unexpected-padding-row': 'paddingRow',
  'padding-row-moved': 'paddingRow',
  scaled: 'scale',
  'odd-column-zero': 'oddColumn',
  'odd-column-formula': 'oddColumn',
};

function knobDiffers(knob, found, reference, length) {
  if (knob === 'paddingRow') return paddingIn(found.paddingRow, length) !== paddingIn(reference.paddingRow, length);
  return found[knob] !== reference[knob];
}

/**
 * The numbers a diagnosis sentence needs. identify() names each departure
 * from the nearest preset and, for the presets of known mistakes, the
 * mistakes themselves relative to the paper: a knob equal to the nearest
 * preset's was reported against 'vaswani'.
 */
/** The shape the found options describe: the table's, or its transpose's when identify() turned it back. */
function explainedShape({ identification: id, length, dModel }) {
  return id.transposed ? { length: dModel, dModel: length } : { length, dModel };
}

function diagnosisParams(code, result) {
  const { identification: id, fit } = result;
  const { length, dModel } = explainedShape(result);
  const found = id.options;
  const knob = KNOB_OF_CODE[code];
  const name = knob && !knobDiffers(knob, found, PRESETS[id.nearestPreset], length) ? 'vaswani' : id.nearestPreset;
  const reference = PRESETS[name];
  return {
    preset: name,
    layout: found.layout,
    exponent: found.exponent,
    refExponent: reference.exponent,
    exponentFormula: FORMULA[found.exponent],
    refExponentFormula: FORMULA[reference.exponent],
    order: found.order,
    refOrder: reference.order,
    base: found.base,
    refBase: reference.base,
    start: found.start,
    refStart: reference.start,
    row: paddingIn(found.paddingRow, length),
    refRow: paddingIn(reference.paddingRow, length),
    scale: found.scale,
    refScale: reference.scale,
    sqrtD: found.scale === Math.sqrt(dModel),
    // An odd d's last column, PE(pos, 2i) at 2i = d - 1 when not zero.
    width: dModel,
    lonePair: (dModel - 1) / 2,
    fn: firstFunction(found),
    refFn: firstFunction(reference),
    likeHuggingFace: structuredLikeHuggingFace(found),
    // The table as given (the transposed sentence names its shape).
    length: result.length,
    dModel: result.dModel,
    error: fit.error,
    errorRow: fit.row,
    errorColumn: fit.column,
  };
}

/** pe.table({...}) with only the knobs that differ from the nearest preset. */
function optionsCode(result) {
  const { identification: id } = result;
  const { length, dModel } = explainedShape(result);
  const preset = PRESETS[id.nearestPreset];
  const parts = [`preset: '${id.nearestPreset}'`];
  for (const knob of KNOBS) {
    if (!knobDiffers(knob, id.options, preset, length)) continue;
    const value = id.options[knob];
    parts.push(`${knob}: ${typeof value === 'string' ? `'${value}'` : String(value)}`);
  }
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

  const status = element('p', { className: 'check-status', id: 'check-status', 'aria-live': 'polite' }, tool);

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

  const exportBox = element('div', { className: 'export-tool' }, container);
  const exports = createExports(exportBox, { getState, posenc });

  // The status line is kept as a key and its arguments, so a language switch rewrites it.
  let said = null;
  const say = (state, key, ...args) => {
    said = { state, key, args };
    status.textContent = key ? t(key, ...args) : '';
    status.dataset.state = state;
  };
  // Library messages start with the function's name: the reader needs only the reason.
  const reason = (message) => String(message).replace(/^posenc\.\w+: /, '');

  function startWorker() {
    worker = new Worker(new URL('./check-worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (data.id !== requestId) return;
      if (data.phase === 'parsed') say('busy', 'check.identifying', { length: data.length, dModel: data.dModel });
      else if (data.phase === 'error') {
        busy = false;
        // The answer below was about another table: it goes, so that the error is not misread.
        result = null;
        answer.hidden = true;
        say('error', 'check.error', reason(data.message));
      } else if (data.phase === 'done') {
        busy = false;
        referenceSelect.disabled = false;
        show({ ...data, seconds: (performance.now() - started) / 1000 });
      } else if (data.phase === 'difference' && data.preset === referenceSelect.value) {
        difference = data;
        drawDifference();
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      busy = false;
      worker = null;
      say('error', event.message ? 'check.error' : 'check.workerFailed', event.message);
    };
  }

  /** Sends a request; an unanswered one is abandoned with its worker (identify cannot be interrupted). */
  function submit(message, transfer, label) {
    if (busy && worker) {
      worker.terminate();
      worker = null;
    }
    if (!worker) startWorker();
    requestId += 1;
    busy = true;
    // The table shown stays, but its differences went with the last worker's table.
    referenceSelect.disabled = true;
    started = performance.now();
    source = label;
    say('busy', 'check.reading', label.text);
    worker.postMessage({ id: requestId, ...message }, transfer);
  }

  async function checkFile(file) {
    if (!file) return;
    if (file.size > MAX_FILE_MB * 2 ** 20) {
      say('error', 'check.tooBig', MAX_FILE_MB);
      return;
    }
    try {
      const bytes = await file.arrayBuffer();
      submit({ input: bytes }, [bytes], { kind: 'file', text: file.name });
    } catch (error) {
      say('error', 'check.error', String(error?.message ?? error));
    }
  }

  function checkPaste() {
    const text = pasteArea.value;
    if (text.trim() === '') {
      say('error', 'check.empty');
      pasteArea.focus();
      return;
    }
    const dModelText = dModelInput.value.trim();
    const dModel = dModelText === '' ? undefined : Number(dModelText);
    if (dModel !== undefined && !(Number.isInteger(dModel) && dModel >= 1)) {
      say('error', 'check.badDModel');
      dModelInput.focus();
      return;
    }
    submit({ input: text, dModel }, [], { kind: 'paste', text: t('check.pasted') });
  }

  async function checkSample(name) {
    const sample = SAMPLES[name];
    const pe = await posenc();
    const data = sample.build(pe);
    submit({ table: { data, length: sample.length, dModel: sample.dModel } }, [data.buffer], {
      kind: 'sample',
      name,
      text: t(`check.sample.${name}`),
    });
  }

  function show(answered) {
    result = answered;
    const { identification: id } = result;
    say('done', 'check.done', { length: result.length, dModel: result.dModel, seconds: result.seconds });
    difference = null;
    largestLine.textContent = '';
    referenceSelect.value =
      result.identification.match && MISTAKEN.includes(id.nearestPreset) ? 'vaswani' : id.nearestPreset;
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
    rows.push([t('check.param.angles'), id.float32Angle ? t('check.float32') : t('check.float64'), id.float32Angle]);
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
    const from = { sample: () => t(`check.sample.${source.name}`), paste: () => t('check.pasted') }[source.kind];
    sourceLine.textContent = t('check.source', from ? from() : source.text);
    verdict.dataset.match = String(id.match);
    verdict.textContent = id.transposed
      ? t('check.verdict.transposed', id.nearestPreset)
      : !id.match
        ? t('check.verdict.none', id.nearestPreset)
        : id.preset
          ? t(id.float32Angle ? 'check.verdict.presetFloat32' : 'check.verdict.preset', id.preset)
          : t(
              'check.verdict.knobs',
              id.nearestPreset,
              // Mistakes a preset shares are named against the paper: they are no departure from it.
              id.diagnosis.filter(({ code }) => diagnosisParams(code, result).preset === id.nearestPreset).length,
            );
    // What the preset mirrors (the Q&A question, fairseq…): the name alone tells a learner little.
    about.textContent = t('check.about', id.nearestPreset, t(`preset.${id.nearestPreset}`));
    paramsHeading.textContent = id.match ? t('check.params') : t('check.paramsClosest');
    renderParams();
    optionsLabel.textContent = t('check.options');
    optionsCodeNode.textContent = optionsCode(result);
    diagnosisHeading.textContent = t('check.diagnosis');
    diagnosisList.replaceChildren(
      ...id.diagnosis.map(({ code }) =>
        element('li', { 'data-code': code, text: t(`check.dx.${code}`, diagnosisParams(code, result)) }),
      ),
    );
    if (id.diagnosis.length === 0) diagnosisList.append(element('li', { 'data-code': 'none', text: t('check.exact') }));
    // A transposed table is compared with nothing value by value: its verdict says what to do.
    firstLine.hidden = id.transposed;
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
    const plotData = { values, rows: length, columns: dModel, marks: first >= 0 ? at(first) : {} };
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
    dropText.textContent = t('check.drop');
    fileLabel.textContent = t('check.file');
    pasteLabel.textContent = t('check.paste');
    // Rows 0 and 1 of the paper's table at d = 4, to 6 digits: pasted as is, it checks out.
    pasteArea.placeholder = '0, 1, 0, 1\n0.841471, 0.540302, 0.00999983, 0.99995';
    dModelLabel.textContent = t('check.dModel');
    runButton.textContent = t('check.run');
    samplesLabel.textContent = t('check.samples');
    sampleButtons.forEach((button) => {
      button.textContent = t(`check.sample.${button.dataset.sample}`);
    });
    if (said) say(said.state, said.key, ...said.args);
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
