// Bad values for every attribute of the <posenc-*> elements, every URL
// parameter of the explainer page and every URL parameter of embed.html, in
// headless Chromium against the built site (run `npx vite build --config
// web/vite.config.js` first). Each matrix is generated from a table below;
// parsing is one pure module (web/model), so the full matrix of values runs
// in Node (tests/js/model/params.test.js) and the browser takes a representative
// sample of each list (browserSample): every attribute and parameter still,
// each with its kind's worst values.
// After each bad value a valid one must bring the plot back, and what it shows
// is read from the heatmap's keyboard readout (8 significant digits) and
// checked against float64 references written here from the formulas in docs/conventions.md.
// Usage: node tests/e2e/bad-values.test.mjs
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ATTRIBUTE_BAD, EMBED_BAD, MARKUP, PAGE_BAD as PAGE_BAD_VALUES } from '../bad-values.mjs';
import { PAGE_PARAMS as PAGE_PARAMS_OF_EMBED, PARAMS as EMBED_PARAMS_OF_EMBED } from '../../web/embed/params.js';
import { ELEMENTS } from '../../web/model/registry.js';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, injected, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = `${root}dist/site`;

if (!existsSync(`${site}/embed.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// ---- float64 references (docs/conventions.md) ----

const PAPER = Object.freeze({
  layout: 'interleaved',
  exponent: 'pair',
  order: 'sin-cos',
  angle: 'divide',
  base: 10000,
  start: 0,
  paddingRow: null,
  scale: 1,
  oddColumn: 'formula',
});
const PRESET_KNOBS = {
  vaswani: {},
  tensor2tensor: { layout: 'concat', exponent: 'half-minus-one', oddColumn: 'zero' },
  'tf-tutorial': { layout: 'concat', oddColumn: 'zero' },
  fairseq: { layout: 'concat', exponent: 'half-minus-one', paddingRow: 1, oddColumn: 'zero' },
  'legacy-column': { exponent: 'column', paddingRow: 0 },
  question: { exponent: 'column', order: 'cos-sin', angle: 'ratio-power' },
};

/**
 * PE of table row `row`, column `column`: sin/cos of pos·base^-e (or (pos/base)^e), times scale.
 * An odd d's last column is zero, or the first function of a pair of its own.
 */
function cell(conv, row, column) {
  const { dModel, layout, exponent, order, angle, base, start, paddingRow, scale, oddColumn } = conv;
  const pairs = Math.floor(dModel / 2);
  const last = column === 2 * pairs;
  if (row === paddingRow || (last && oddColumn === 'zero')) return 0;
  const second = last ? false : layout === 'interleaved' ? column % 2 === 1 : column >= pairs;
  const pair = last ? pairs : layout === 'interleaved' ? Math.floor(column / 2) : column % pairs;
  const e =
    exponent === 'pair'
      ? (2 * pair) / dModel
      : exponent === 'column'
        ? (2 * column) / dModel
        : pair / Math.max(pairs - 1, 1);
  const position = start + row;
  const theta = angle === 'divide' ? position / base ** e : (position / base) ** e;
  return scale * (second === (order === 'cos-sin') ? Math.sin(theta) : Math.cos(theta));
}

/** PE(row p)·PE(row q) of the table. */
function dot(conv, p, q) {
  let sum = 0;
  for (let j = 0; j < conv.dModel; j++) sum += cell(conv, p, j) * cell(conv, q, j);
  return sum;
}

/**
 * What a set of (valid) attribute values means, with the documented defaults (docs/elements.md):
 * the encoding, the compared preset's encoding, the length and the selections.
 */
function settings(attributes) {
  const value = (name, fallback) => (attributes[name] === undefined ? fallback : attributes[name]);
  const preset = value('preset', 'vaswani');
  const dModel = Number(value('d-model', 128));
  const base = Number(value('base', 10000));
  const conv = { ...PAPER, ...PRESET_KNOBS[preset], dModel, base };
  for (const knob of ['layout', 'exponent', 'order', 'angle']) if (attributes[knob]) conv[knob] = attributes[knob];
  if (attributes.start !== undefined) conv.start = Number(attributes.start);
  if (attributes['padding-row'] !== undefined)
    conv.paddingRow = attributes['padding-row'] === 'none' ? null : Number(attributes['padding-row']);
  if (attributes.scale !== undefined) conv.scale = Number(attributes.scale);
  if (attributes['odd-column'] !== undefined) conv.oddColumn = attributes['odd-column'];
  // compare applies start and scale to both sides (docs/elements.md).
  const shared = { start: conv.start, scale: conv.scale };
  return {
    conv,
    versus: { ...PAPER, ...PRESET_KNOBS[value('compare', 'question')], dModel, base, ...shared },
    length: Number(value('length', 256)),
    position: Number(value('position', 10)),
    offset: Number(value('offset', 8)),
    dimension: Number(value('dimension', 6)),
  };
}

// ---- readouts: a heatmap's keyboard cursor starts at the marked cell ----

/**
 * Walks over one heatmap-like plot: keys(settings) are [key, times, shift]
 * (shift moves by 10); after each entry the readout is read. marks, shape and value say
 * where the cursor starts, where it stops and what each cell holds.
 */
const WALKS = {
  table: {
    testId: 'heatmap-readout',
    keys: (s) => [
      ['ArrowDown'],
      ['ArrowUp'],
      ['ArrowRight'],
      // To row 0, then rows 1 and 2 (where the padding rows are).
      ['ArrowUp', Math.ceil(Math.min(s.position, s.length - 1) / 10), true],
      ['ArrowDown'],
      ['ArrowDown'],
      ['ArrowRight', 1, true],
    ],
    // Rows are positions start + r: the mark is on position p's row, if there is one.
    marks: (s) => [markRow(s), s.dimension],
    shape: (s) => [s.length, s.conv.dModel],
    value: (s, row, column) => cell(s.conv, row, column),
    // float32 storage of a value up to |scale| (docs/accuracy.md).
    tolerance: (s) => 1.2e-7 * Math.abs(s.conv.scale),
  },
  dots: {
    testId: 'similarity-readout',
    keys: () => [['ArrowDown'], ['ArrowUp']],
    marks: (s) => [markRow(s), markRow(s) === null ? 0 : markRow(s) + s.offset],
    shape: (s) => [s.length, s.length],
    columnIsPosition: true,
    value: (s, p, q) => dot(s.conv, p, q),
    // A float32 sum of dModel products.
    tolerance: (s) => 4e-7 * s.conv.dModel * s.conv.scale ** 2,
  },
  pair: {
    testId: 'compare-readout-right',
    keys: () => [['ArrowDown', 1, true], ['ArrowRight', 1, true], ['ArrowRight'], ['ArrowDown']],
    // The compared tables mark nothing: the cursor starts at [0, 0].
    marks: () => [0, 0],
    shape: (s) => [s.length, s.conv.dModel],
    value: (s, row, column) => cell(s.versus, row, column),
    tolerance: () => 1.2e-7,
  },
};

const clamp = (value, low, high) => Math.min(Math.max(value, low), high);

/** The table row of position p (null where no row is at a whole position). */
function markRow(s) {
  const row = s.position - s.conv.start;
  return Number.isInteger(row) ? row : null;
}

/** The position a readout names for a table row: start + row, to 12 digits. */
const positionOf = (s, row) => Number((s.conv.start + row).toPrecision(12));

/** The cells a walk visits and the values they hold. */
function predict(walk, s) {
  const [rows, columns] = walk.shape(s);
  const [markRow, markColumn] = walk.marks(s);
  let row = clamp(markRow ?? 0, 0, rows - 1);
  let column = clamp(markColumn, 0, columns - 1);
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  return walk.keys(s).map(([key, times = 1, shift = false]) => {
    const [dr, dc] = moves[key];
    for (let i = 0; i < times; i++) {
      row = clamp(row + dr * (shift ? 10 : 1), 0, rows - 1);
      column = clamp(column + dc * (shift ? 10 : 1), 0, columns - 1);
    }
    return {
      row,
      column,
      value: walk.value(s, row, column),
      shownRow: positionOf(s, row),
      shownColumn: walk.columnIsPosition ? positionOf(s, column) : column,
    };
  });
}

const READOUT = /^PE\[(-?[\d.]+(?:e[+-]?\d+)?)(?:, |\]·PE\[)(-?[\d.]+(?:e[+-]?\d+)?)\] = (-?\d[\d.]*(?:e[+-]?\d+)?)$/;

/** Problems with the readouts a walk read, against the prediction. */
function readoutProblems(walk, s, texts) {
  // The RoPE lab's plot has no keyboard readout.
  if (!walk) return [];
  const expected = predict(walk, s);
  if (texts.length !== expected.length) return [`${texts.length} readouts, expected ${expected.length}`];
  const problems = [];
  texts.forEach((text, i) => {
    const match = text.match(READOUT);
    const { shownRow: row, shownColumn: column, value } = expected[i];
    if (!match) return problems.push(`readout "${text}"`);
    const [shownRow, shownColumn, shown] = [Number(match[1]), Number(match[2]), Number(match[3])];
    // Rounding to 8 significant digits, plus the storage error.
    const rounding = 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(shown) || 1e-300)) - 7);
    if (shownRow !== row || shownColumn !== column) problems.push(`"${text}": expected cell [${row}, ${column}]`);
    else if (!(Math.abs(shown - value) <= walk.tolerance(s) + rounding)) problems.push(`"${text}": expected ${value}`);
  });
  return problems;
}

/** Whether two settings show differently on a walk (so that a check of the readouts can fail). */
function walksDiffer(walk, a, b) {
  const [x, y] = [predict(walk, a), predict(walk, b)];
  return x.some((p, i) => p.row !== y[i].row || p.column !== y[i].column || Math.abs(p.value - y[i].value) > 1e-3);
}

// ---- in the browser ----

/**
 * Installed in every page: apply() sets attributes (null removes one) and
 * waits for the element's next render or its error state; observe() reports
 * what an element (or a plot of the page) shows, walking a heatmap's
 * keyboard cursor (synthetic keydown on its surface) and reading its readout.
 */
function pageHelpers() {
  const renders = new WeakMap();
  document.addEventListener('posenc-render', (event) =>
    renders.set(event.target, (renders.get(event.target) ?? 0) + 1),
  );
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const walk = (scope, { testId, keys }) => {
    const readout = scope.querySelector(`[data-testid="${testId}"]`);
    if (!readout) return [];
    const surface = readout.parentElement.querySelector('.posenc-surface');
    // No cursor: the first key starts from the marked cell.
    surface.dispatchEvent(new PointerEvent('pointerleave'));
    return keys.map(([key, times = 1, shiftKey = false]) => {
      for (let i = 0; i < times; i++)
        surface.dispatchEvent(new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true }));
      return readout.textContent;
    });
  };
  window.__bad = {
    renders: (element) => renders.get(element) ?? 0,
    async apply(selector, changes) {
      const element = document.querySelector(selector);
      const before = renders.get(element) ?? 0;
      let changed = false;
      for (const [name, value] of Object.entries(changes)) {
        if (element.getAttribute(name) === value) continue;
        changed = true;
        if (value === null) element.removeAttribute(name);
        else element.setAttribute(name, value);
      }
      if (!changed) return;
      for (let i = 0; i < 600; i++) {
        await frame();
        if (element.dataset.state === 'error' || (renders.get(element) ?? 0) > before) return;
      }
      throw new Error(`${selector}: neither drawn nor an error after ${JSON.stringify(changes)}`);
    },
    observe(selector, walkSpec) {
      const host = document.querySelector(selector);
      if (!host) return { state: 'missing', lines: [], labels: [], readouts: [] };
      const scope = host.shadowRoot ?? host;
      const message = host.shadowRoot?.querySelector('.message');
      const state = host.dataset.state ?? (scope.querySelector('.posenc-plot') ? 'ready' : 'none');
      return {
        state,
        role: message?.getAttribute('role') ?? null,
        lines: message && !message.hidden ? [...message.querySelectorAll('p')].map((p) => p.textContent) : [],
        plots: scope.querySelectorAll('.posenc-plot').length,
        labels: [...scope.querySelectorAll(':is([role="img"], [role="application"])')].map(
          (node) => node.getAttribute('aria-label') ?? '',
        ),
        background: getComputedStyle(host).backgroundColor,
        height: Math.round(scope.querySelector('.posenc-surface')?.getBoundingClientRect().height ?? 0),
        readouts: walkSpec && state === 'ready' ? walk(scope, walkSpec) : [],
      };
    },
    /** One case of the matrix in one call: a bad value, then a valid one; what each showed. */
    async cycle(selector, name, bad, valid, walkSpec) {
      await this.apply(selector, { [name]: bad });
      const failed = this.observe(selector);
      await this.apply(selector, { [name]: valid });
      return [failed, this.observe(selector, walkSpec)];
    },
  };
}

/** injected() as a list of problems: the elements found, and window.__pwned when a script ran. */
async function injectedProblems(target) {
  const { found, pwned } = await injected(target);
  return pwned === null ? found : [...found, `window.__pwned = ${pwned}`];
}

// What the page needs of a walk over a plot expected to show settings `s`.
const walkSpec = (walk, s) => walk && { testId: walk.testId, keys: walk.keys(s) };
/** What the element at `selector` shows; with a walk, its readouts for the expected settings `s`. */
const observe = (page, selector, walk = null, s = null) =>
  page.evaluate(([selector, spec]) => window.__bad.observe(selector, spec), [selector, walkSpec(walk, s)]);
async function apply(page, selector, changes, walk = null, s = null) {
  await page.evaluate(([selector, c]) => window.__bad.apply(selector, c), [selector, changes]);
  return observe(page, selector, walk, s);
}

/** The element's text for a value it quotes (40 characters at most). */
const quoted = (text) => `“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”`;

const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(13, 17, 23)' };

// ---- the attribute matrix ----

/**
 * The values of a bad list the browser tries: the empty one, markup, and the
 * list's own last three (its attribute's bounds and padded valid values).
 */
const browserSample = (bad) => [...new Set([bad[0], MARKUP, ...bad.slice(-3)])];

// The three elements the matrix runs on, and their attributes to begin with.
const HOSTS = {
  table: {
    tag: 'posenc-heatmap',
    walk: WALKS.table,
    attributes: { 'd-model': '64', length: '96', position: '20', dimension: '9' },
  },
  dots: {
    tag: 'posenc-similarity',
    walk: WALKS.dots,
    attributes: { 'd-model': '64', length: '96', position: '20', offset: '7' },
  },
  pair: { tag: 'posenc-compare', walk: WALKS.pair, attributes: { 'd-model': '64', length: '96' } },
  // An odd d-model whose walk reaches the last column (base 100: it turns visibly by row 20).
  // The RoPE lab's wavelength plot (its knobs: rope-lab-data.js); no walk, its description is checked.
  rope: { tag: 'posenc-rope-scaling', walk: null, attributes: {} },
  odd: {
    tag: 'posenc-heatmap',
    walk: WALKS.table,
    attributes: { 'd-model': '33', length: '96', base: '100', position: '20', dimension: '31' },
  },
};

/**
 * One row per attribute: the element that shows it, its bad values, and two
 * valid values used in turn to recover (each differs from what was shown
 * before). `shows` names what besides the readouts reveals the value.
 */
const ATTRIBUTE_MATRIX = [
  { attribute: 'd-model', on: 'table', bad: ATTRIBUTE_BAD['d-model'], valid: ['48', '33'] },
  { attribute: 'length', on: 'table', bad: ATTRIBUTE_BAD['length'], valid: ['80', '24'], shows: 'rows' },
  {
    attribute: 'base',
    on: 'table',
    bad: ATTRIBUTE_BAD['base'],
    valid: ['100', '2.5e3'],
  },
  { attribute: 'preset', on: 'table', bad: ATTRIBUTE_BAD['preset'], valid: ['fairseq', 'question'] },
  { attribute: 'layout', on: 'table', bad: ATTRIBUTE_BAD['layout'], valid: ['concat', 'interleaved'] },
  {
    attribute: 'exponent',
    on: 'table',
    bad: ATTRIBUTE_BAD['exponent'],
    valid: ['column', 'half-minus-one'],
  },
  { attribute: 'order', on: 'table', bad: ATTRIBUTE_BAD['order'], valid: ['cos-sin', 'sin-cos'] },
  {
    attribute: 'angle',
    on: 'table',
    bad: ATTRIBUTE_BAD['angle'],
    valid: ['ratio-power', 'divide'],
  },
  { attribute: 'start', on: 'table', bad: ATTRIBUTE_BAD['start'], valid: ['-3.5', '1000'] },
  {
    attribute: 'padding-row',
    on: 'table',
    bad: ATTRIBUTE_BAD['padding-row'],
    valid: ['2', '1'],
  },
  { attribute: 'odd-column', on: 'odd', bad: ATTRIBUTE_BAD['odd-column'], valid: ['zero', 'formula'] },
  {
    attribute: 'scale',
    on: 'table',
    bad: ATTRIBUTE_BAD['scale'],
    valid: ['-2.5', '0.001'],
  },
  { attribute: 'position', on: 'table', bad: ATTRIBUTE_BAD['position'], valid: ['37', '3'] },
  { attribute: 'dimension', on: 'table', bad: ATTRIBUTE_BAD['dimension'], valid: ['41', '0'] },
  { attribute: 'offset', on: 'dots', bad: ATTRIBUTE_BAD['offset'], valid: ['30', '45'] },
  {
    attribute: 'compare',
    on: 'pair',
    bad: ATTRIBUTE_BAD['compare'],
    valid: ['tensor2tensor', 'legacy-column'],
  },
  // Every element reads it; only <posenc-precision> draws it (tests/e2e/precision.test.mjs checks what it shows).
  {
    attribute: 'precision',
    on: 'table',
    bad: ATTRIBUTE_BAD['precision'],
    valid: ['bfloat16', 'float32'],
    shows: 'nothing on a heatmap',
  },
  // The heatmap does not read RoPE's knobs: each must only be refused or accepted as written.
  { attribute: 'rope-dim', on: 'table', bad: ATTRIBUTE_BAD['rope-dim'], valid: ['64', '96'], shows: 'nothing' },
  {
    attribute: 'rope-layout',
    on: 'table',
    bad: ATTRIBUTE_BAD['rope-layout'],
    valid: ['interleaved', 'half'],
    shows: 'nothing',
  },
  { attribute: 'context', on: 'table', bad: ATTRIBUTE_BAD['context'], valid: ['1024', '2000'], shows: 'nothing' },
  {
    attribute: 'theme',
    on: 'table',
    bad: ATTRIBUTE_BAD['theme'],
    valid: ['dark', 'light'],
    shows: 'background',
  },
  {
    attribute: 'height',
    on: 'table',
    bad: ATTRIBUTE_BAD['height'],
    valid: ['300', '180'],
    shows: 'height',
  },
  ...Object.entries({
    'rope-preset': ['deepseek-v3', 'llama2-7b'],
    'rope-type': ['yarn', 'linear'],
    'head-dim': ['64', '96'],
    'rope-theta': ['10000', '1e6'],
    factor: ['4', '16'],
    'original-max-position-embeddings': ['4096', '16384'],
    'seq-len': ['32768', '65536'],
    'beta-fast': ['16', '64'],
    'beta-slow': ['2', '0.5'],
    mscale: ['1', '0.707'],
    'mscale-all-dim': ['1', '0.707'],
    'attention-factor': ['1.2', 'auto'],
    'low-freq-factor': ['2', '0.5'],
    'high-freq-factor': ['8', '2'],
  }).map(([attribute, valid]) => ({ attribute, on: 'rope', bad: ATTRIBUTE_BAD[attribute], valid, shows: 'label' })),
  // Chapter 4's knobs: the heatmap does not read them (their readings: tests/js/model/params.test.js).
  ...Object.entries({
    'ts-preset': ['dit', 'latent-diffusion'],
    'flip-sin-to-cos': ['true', 'false'],
    'freq-shift': ['0', '1'],
    'max-period': ['1000', '2.5'],
    'ts-range': ['1', '1000'],
    'grid-height': ['5', '32'],
    'grid-width': ['7', '1'],
    'axis-order': ['h-w', 'w-h'],
    'grid-column': ['17', '63'],
    'grid-patch': ['30', '59'],
    'rel-length': ['40', '2'],
    'chunk-start': ['100', '0'],
  }).map(([attribute, valid]) => ({ attribute, on: 'table', bad: ATTRIBUTE_BAD[attribute], valid, shows: 'nothing' })),
];

/** Problems with an element in the error state for one bad attribute value. */
function errorProblems(shown, attribute, value) {
  const problems = [];
  if (shown.state !== 'error' || shown.role !== 'alert') problems.push(`state ${shown.state}, role ${shown.role}`);
  if (shown.lines.length !== 1) problems.push(`${shown.lines.length} message lines: ${shown.lines.join(' / ')}`);
  else if (!shown.lines[0].includes(`: invalid ${attribute}: `) || !shown.lines[0].includes(quoted(value)))
    problems.push(`message does not name ${attribute} and quote the value: ${shown.lines[0]}`);
  if (shown.plots !== 0) problems.push(`${shown.plots} plots shown beside the error`);
  return problems;
}

/**
 * Problems with a rendered element against the attributes it was given; when
 * `before` is given, what it shows must also differ from what those showed.
 */
function renderProblems(shown, walk, now, before = null, shows = null) {
  if (shown.state !== 'ready') return [`state ${shown.state}: ${shown.lines.join(' / ')}`];
  const problems = shown.lines.length > 0 ? [`message left: ${shown.lines.join(' / ')}`] : [];
  problems.push(...readoutProblems(walk, settings(now), shown.readouts));
  if (shows === 'rows' && !shown.labels[0]?.includes(`${now.length} positions (rows)`))
    problems.push(`label: ${shown.labels[0]}`);
  if (shows === 'background' && shown.background !== BACKGROUND[now.theme])
    problems.push(`theme ${now.theme}: background ${shown.background}`);
  if (shows === 'label' && !(shown.labels[0]?.length > 20)) problems.push(`label: ${shown.labels[0]}`);
  if (shows === 'height' && shown.height !== Number(now.height))
    problems.push(`height ${now.height}: ${shown.height} px`);
  if (before && !shows && !walksDiffer(walk, settings(now), settings(before)))
    problems.push('the readouts cannot tell this value from the previous one');
  return problems;
}

// ---- the page's and the embed's URL parameters ----

// URL parameter -> attribute (docs/elements.md: the explainer's parameters, and embed.html's).
const PARAM_ATTRIBUTES = {
  dModel: 'd-model',
  length: 'length',
  base: 'base',
  preset: 'preset',
  layout: 'layout',
  exponent: 'exponent',
  p: 'position',
  k: 'offset',
  j: 'dimension',
  compare: 'compare',
  precision: 'precision',
  ropeDim: 'rope-dim',
  ropeLayout: 'rope-layout',
  context: 'context',
  ropePreset: 'rope-preset',
  ropeType: 'rope-type',
  headDim: 'head-dim',
  ropeTheta: 'rope-theta',
  factor: 'factor',
  originalMaxPositionEmbeddings: 'original-max-position-embeddings',
  seqLen: 'seq-len',
  betaFast: 'beta-fast',
  betaSlow: 'beta-slow',
  mscale: 'mscale',
  mscaleAllDim: 'mscale-all-dim',
  attentionFactor: 'attention-factor',
  lowFreqFactor: 'low-freq-factor',
  highFreqFactor: 'high-freq-factor',
  tsPreset: 'ts-preset',
  flipSinToCos: 'flip-sin-to-cos',
  freqShift: 'freq-shift',
  maxPeriod: 'max-period',
  tsRange: 'ts-range',
  gridHeight: 'grid-height',
  gridWidth: 'grid-width',
  axisOrder: 'axis-order',
  gridColumn: 'grid-column',
  gridPatch: 'grid-patch',
  relLength: 'rel-length',
  chunkStart: 'chunk-start',
  order: 'order',
  angle: 'angle',
  start: 'start',
  paddingRow: 'padding-row',
  scale: 'scale',
  oddColumn: 'odd-column',
  theme: 'theme',
  height: 'height',
};
const PAGE_PARAMS = [
  'dModel',
  'length',
  'base',
  'preset',
  'layout',
  'exponent',
  'p',
  'k',
  'j',
  'compare',
  'precision',
  'ropeDim',
  'ropeLayout',
  'context',
];
const PAGE_DEFAULTS = {
  dModel: '128',
  length: '256',
  base: '10000',
  preset: 'vaswani',
  p: '10',
  k: '8',
  j: '6',
  compare: 'question',
  precision: 'float16',
  ropeDim: '128',
  ropeLayout: 'half',
  context: '4096',
};
// Valid whatever the other parameters fall back to (j < 64, p and k < 100).
const PAGE_VALID = {
  dModel: '64',
  length: '100',
  base: '2500',
  preset: 'tf-tutorial',
  layout: 'interleaved',
  exponent: 'column',
  p: '60',
  k: '70',
  j: '40',
  compare: 'fairseq',
  precision: 'float32',
  ropeDim: '64',
  ropeLayout: 'interleaved',
  context: '1024',
};
const REPEATED_VALID_FIRST = 'repeated, the valid value first';
const REPEATED_BAD_FIRST = 'repeated, the bad value first';
const PAGE_BAD = [...PAGE_BAD_VALUES, REPEATED_VALID_FIRST, REPEATED_BAD_FIRST];
// Values that are valid for a parameter (base is a number up to 1e8).
const PAGE_ACCEPTS = { base: ['2.5', '99999999'] };
// Each URL carries one bad value in one half of the parameters; the other half is valid and must be honoured.
const HALVES = [
  ['dModel', 'base', 'layout', 'k', 'compare'],
  ['length', 'preset', 'exponent', 'p', 'j', 'precision'],
];
// Unknown parameters, ignored and dropped from the URL.
const UNKNOWN_PARAMS = [
  ['dmodel', '5'],
  ['P', '3'],
  ['foo', '<b>bar</b>'],
];

/** The page's URL for one bad value in `bad` (the rest valid), and what the page must show. */
function pageCase(value, bad) {
  const query = new URLSearchParams();
  const honoured = {};
  let tested = 0;
  for (const param of PAGE_PARAMS) {
    const valid = PAGE_VALID[param];
    const isBad = bad.includes(param) && !PAGE_ACCEPTS[param]?.includes(value);
    const texts = !isBad
      ? [valid]
      : value === REPEATED_VALID_FIRST
        ? [valid, 'abc']
        : value === REPEATED_BAD_FIRST
          ? ['abc', valid]
          : [value];
    for (const text of texts) query.append(param, text);
    // The first of a repeated parameter is read.
    if (texts[0] === valid) honoured[param] = valid;
    if (isBad) tested++;
  }
  for (const [param, text] of UNKNOWN_PARAMS) query.append(param, text);
  const attributes = Object.fromEntries(Object.entries(honoured).map(([param, v]) => [PARAM_ATTRIBUTES[param], v]));
  // A layout or exponent equal to the preset's is no override.
  const preset = attributes.preset ?? 'vaswani';
  const presetKnobs = { ...PAPER, ...PRESET_KNOBS[preset] };
  for (const knob of ['layout', 'exponent']) if (attributes[knob] === presetKnobs[knob]) delete attributes[knob];
  const s = settings(attributes);
  const controls = {
    '#c-dModel': String(s.conv.dModel),
    '#c-length': String(s.length),
    '#o-base': String(s.conv.base),
    // A section's own knobs: c-<section>-<key>.
    '#c-heatmap-preset': preset,
    '#c-heatmap-layout': s.conv.layout,
    '#c-heatmap-exponent': s.conv.exponent,
    '#c-heatmap-position': String(s.position),
    '#c-offset-offset': String(s.offset),
    '#c-heatmap-dimension': String(s.dimension),
    '#c-compare-versus': attributes.compare ?? 'question',
    '#c-precision-precision': attributes.precision ?? 'float16',
  };
  // The normalised URL: values other than the defaults, in the page's order.
  const normal = new URLSearchParams();
  for (const param of PAGE_PARAMS) {
    const shown = attributes[PARAM_ATTRIBUTES[param]];
    if (shown !== undefined && shown !== PAGE_DEFAULTS[param]) normal.append(param, shown);
  }
  const search = normal.toString() ? `?${normal}` : '';
  return { query: query.toString(), attributes, controls, search, tested };
}

// embed.html: every parameter becomes an attribute; a bad one shows the
// element's inline error naming the parameter; an empty one counts as absent.
const EMBED_PARAMS = Object.keys(PARAM_ATTRIBUTES);
const EMBED_VALID = {
  dModel: '48',
  length: '80',
  base: '2500',
  preset: 'fairseq',
  layout: 'interleaved',
  exponent: 'column',
  p: '37',
  k: '30',
  j: '21',
  compare: 'tensor2tensor',
  precision: 'bfloat16',
  ropeDim: '64',
  ropeLayout: 'interleaved',
  context: '1024',
  order: 'cos-sin',
  angle: 'divide',
  start: '-3.5',
  paddingRow: '2',
  scale: '-2.5',
  oddColumn: 'zero',
  theme: 'dark',
  height: '260',
  // The RoPE lab's knobs (read by every element, shown by rope-scaling).
  ropePreset: 'qwen2.5-7b-yarn',
  ropeType: 'yarn',
  headDim: '64',
  ropeTheta: '10000',
  factor: '8',
  originalMaxPositionEmbeddings: '4096',
  seqLen: '32768',
  betaFast: '16',
  betaSlow: '2',
  mscale: '1',
  mscaleAllDim: '0.707',
  attentionFactor: 'auto',
  lowFreqFactor: '2',
  highFreqFactor: '8',
  // Chapter 4's knobs (read by every element, shown by its plots).
  tsPreset: 'dit',
  flipSinToCos: 'true',
  freqShift: '0',
  maxPeriod: '1000',
  tsRange: '1',
  gridHeight: '5',
  gridWidth: '7',
  axisOrder: 'h-w',
  gridColumn: '17',
  gridPatch: '30',
  relLength: '40',
  chunkStart: '100',
};
const EMBED_ACCEPTS = {
  base: ['2.5', '99999999'],
  start: ['-1', '2.5'],
  scale: ['-1', '2.5'],
  ...Object.fromEntries(
    [
      'factor',
      'betaFast',
      'betaSlow',
      'mscale',
      'mscaleAllDim',
      'attentionFactor',
      'lowFreqFactor',
      'highFreqFactor',
    ].map((param) => [param, ['2.5']]),
  ),
  ropeTheta: ['2.5', '99999999'],
  maxPeriod: ['2.5', '99999999'],
};
const embedAttributes = (params) =>
  Object.fromEntries(Object.entries(params).map(([param, v]) => [PARAM_ATTRIBUTES[param], v]));

function embedUrl(entries) {
  const query = new URLSearchParams();
  for (const [param, value] of entries) query.append(param, value);
  return `embed.html?${query}`;
}

/** Problems with an embed in the error state: exactly the `params` named, each quoting its value. */
function embedErrorProblems(shown, params) {
  if (shown.state !== 'error') return [`state ${shown.state}`];
  const named = shown.lines.map((line) => line.match(/: invalid (\S+): /)?.[1] ?? `? ${line}`);
  const problems = [];
  const missing = Object.keys(params).filter((param) => !named.includes(param));
  const extra = named.filter((name) => !(name in params));
  if (missing.length || extra.length)
    problems.push(`not named: ${missing.join(', ')}; named wrongly: ${extra.join(', ')}`);
  for (const line of shown.lines) {
    const param = line.match(/: invalid (\S+): /)?.[1];
    if (param in params && !line.includes(quoted(params[param]))) problems.push(`${param}: value not quoted: ${line}`);
  }
  return problems;
}

// ---- the run ----

const server = await serveStatic(site);
const browser = await launchChromium();
let cases = 0;
const started = performance.now();

try {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 }, colorScheme: 'light' });
  await context.addInitScript(pageHelpers);

  // The elements, on embed.html (the site's own copy of them): its plot makes way for the three the matrix uses.
  const host = await watchedPage(context);
  await host.goto(`${server.url}embed.html?plot=heatmap&height=200`);
  await host.waitForFunction(() => document.querySelector('posenc-heatmap')?.dataset.state === 'ready');
  await host.evaluate(
    (hosts) => {
      const main = document.getElementById('embed');
      main.replaceChildren();
      for (const [id, { tag, attributes }] of Object.entries(hosts)) {
        const element = document.createElement(tag);
        element.id = id;
        for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
        main.append(element);
      }
    },
    Object.fromEntries(Object.entries(HOSTS).map(([id, { tag, attributes }]) => [id, { tag, attributes }])),
  );
  await host.waitForFunction(
    (ids) => ids.every((id) => window.__bad.renders(document.getElementById(id)) > 0),
    Object.keys(HOSTS),
  );

  await check('the tables cover every attribute the elements observe and every URL parameter', async () => {
    const observed = await host.evaluate(() => customElements.get('posenc-heatmap').observedAttributes);
    const covered = [...ATTRIBUTE_MATRIX.map(({ attribute }) => attribute), 'lang'];
    assert(JSON.stringify(observed.toSorted()) === JSON.stringify(covered.toSorted()), `observed: ${observed}`);
    assert(JSON.stringify(EMBED_PARAMS_OF_EMBED) === JSON.stringify(PARAM_ATTRIBUTES), 'embed.html parameters differ');
    // The RoPE lab's and chapter 4's page parameters fall back as the others do; their full matrix runs in Node (model/params.test.js).
    const lab = Object.keys(PARAM_ATTRIBUTES).filter(
      (param) =>
        (PARAM_ATTRIBUTES[param].startsWith('rope-') &&
          !['rope-dim', 'rope-layout'].includes(PARAM_ATTRIBUTES[param])) ||
        [
          'head-dim',
          'factor',
          'original-max-position-embeddings',
          'seq-len',
          'beta-fast',
          'beta-slow',
          'mscale',
          'mscale-all-dim',
          'attention-factor',
          'low-freq-factor',
          'high-freq-factor',
        ].includes(PARAM_ATTRIBUTES[param]) ||
        // Chapter 4's (its own document's controls).
        [
          'ts-preset',
          'flip-sin-to-cos',
          'freq-shift',
          'max-period',
          'ts-range',
          'grid-height',
          'grid-width',
          'axis-order',
          'grid-column',
          'grid-patch',
          'rel-length',
          'chunk-start',
        ].includes(PARAM_ATTRIBUTES[param]),
    );
    assert(JSON.stringify(PAGE_PARAMS_OF_EMBED) === JSON.stringify([...PAGE_PARAMS, ...lab]), 'page parameters differ');
  });

  await check('the three elements the matrix uses render their first settings', async () => {
    for (const [id, { walk, attributes }] of Object.entries(HOSTS)) {
      const shown = await observe(host, `#${id}`, walk, settings(attributes));
      const problems = renderProblems(shown, walk, attributes);
      assert(problems.length === 0, `#${id}: ${problems.join('; ')}`);
    }
  });

  for (const row of ATTRIBUTE_MATRIX) {
    const { attribute, on, valid, shows } = row;
    const bad = browserSample(row.bad);
    const { walk, attributes: first } = HOSTS[on];
    await check(
      `${attribute}: ${bad.length} bad values, each an inline error naming it; a valid one recovers`,
      async () => {
        const wrong = [];
        let now = { ...first };
        for (const [i, value] of bad.entries()) {
          const problemsBefore = host.problems.length;
          const next = { ...now, [attribute]: valid[i % 2] };
          const [failed, recovered] = await host.evaluate(
            (args) => window.__bad.cycle(...args),
            [`#${on}`, attribute, value, next[attribute], walkSpec(walk, settings(next))],
          );
          const problems = [
            ...errorProblems(failed, attribute, value),
            ...renderProblems(recovered, walk, next, now, shows),
            ...host.problems.slice(problemsBefore),
          ];
          if (problems.length) wrong.push(`${attribute}="${value}" then "${next[attribute]}": ${problems.join('; ')}`);
          now = next;
          cases++;
        }
        await apply(host, `#${on}`, { [attribute]: first[attribute] ?? null });
        assert(wrong.length === 0, wrong.join('\n'));
        return `recovered with ${valid.join(', ')} in turn`;
      },
    );
  }

  await check('unknown attributes and any lang are ignored: no error, the same values', async () => {
    const { walk, attributes } = HOSTS.table;
    const unknown = { dmodel: '5', d_model: 'abc', 'data-d-model': '1e12', size: '-1', foo: MARKUP, lang: 'nope' };
    const before = await observe(host, '#table');
    await host.evaluate((pairs) => {
      const element = document.getElementById('table');
      for (const [name, value] of Object.entries(pairs)) element.setAttribute(name, value);
    }, unknown);
    // lang is observed (the labels' language): it redraws; the others are not.
    const moved = { ...attributes, position: '31' };
    const shown = await apply(host, '#table', { position: '31' }, walk, settings(moved));
    const problems = renderProblems(shown, walk, moved, attributes);
    assert(problems.length === 0, problems.join('; '));
    assert(shown.labels[0] === before.labels[0], `labels changed: ${shown.labels[0]}`);
    const english = await apply(host, '#table', { lang: '' });
    assert(english.state === 'ready' && english.labels[0].startsWith('Heatmap of'), `lang="": ${english.labels[0]}`);
    await host.evaluate(
      (names) => names.forEach((name) => document.getElementById('table').removeAttribute(name)),
      Object.keys(unknown),
    );
    await apply(host, '#table', { position: attributes.position });
    cases += Object.keys(unknown).length + 1;
    assert(host.problems.length === 0, host.problems.join('\n'));
  });

  await check('the largest values render: d-model 1024 × length 2048 is far below the 2^31-byte limit', async () => {
    // The attribute limits (d-model ≤ 1024, length ≤ 2048) keep every array at
    // 16 MiB or less (the 2048² similarity matrix), so no attribute reaches the
    // core's byte limit: the largest values must simply render correctly.
    const largest = { 'd-model': '1024', length: '2048', position: '2047', dimension: '1023', offset: '2000' };
    for (const id of ['table', 'pair']) {
      const next = { ...HOSTS[id].attributes, ...largest };
      const shown = await apply(host, `#${id}`, largest, HOSTS[id].walk, settings(next));
      const problems = renderProblems(shown, HOSTS[id].walk, next, HOSTS[id].attributes);
      assert(problems.length === 0, `#${id}: ${problems.join('; ')}`);
      const reset = Object.fromEntries(Object.keys(largest).map((name) => [name, HOSTS[id].attributes[name] ?? null]));
      await apply(host, `#${id}`, reset);
      cases++;
    }
    assert(host.problems.length === 0, host.problems.join('\n'));
  });

  await check(
    'too much work in total (similarity, ratio-power, 2048² × 1024) is an inline error naming the attributes',
    async () => {
      // Real row products for every pair of positions: length² × d-model over the core's 2^30 limit.
      const { walk, attributes } = HOSTS.dots;
      const largest = { 'd-model': '1024', length: '2048', position: '1000', offset: '1000', angle: 'ratio-power' };
      const failed = await apply(host, '#dots', largest);
      assert(failed.state === 'error' && failed.plots === 0, `state ${failed.state}`);
      const message = failed.lines.join(' ');
      for (const name of ['length', 'd-model', 'ratio-power'])
        assert(message.includes(name), `"${name}" not named: ${message}`);
      assert(!message.includes('dModel'), `names the JS option instead of the attribute: ${message}`);
      const next = { ...attributes, ...largest, angle: 'divide' };
      const recovered = await apply(host, '#dots', { angle: 'divide' }, walk, settings(next));
      const problems = renderProblems(recovered, walk, next, attributes);
      assert(problems.length === 0, problems.join('; '));
      const reset = Object.fromEntries(Object.keys(largest).map((name) => [name, attributes[name] ?? null]));
      await apply(host, '#dots', reset);
      cases += 2;
      assert(host.problems.length === 0, host.problems.join('\n'));
      return message;
    },
  );

  await check(
    'every element × every attribute: "NaN" is an inline error naming it; the first value brings the same plot back',
    async () => {
      const tags = Object.keys(ELEMENTS);
      const attributes = ATTRIBUTE_MATRIX.map(({ attribute }) => attribute);
      const first = { 'd-model': '32', length: '64', position: '5', offset: '3', dimension: '4' };
      const results = await host.evaluate(
        async ([tags, attributes, first]) => {
          const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
          const section = document.createElement('section');
          document.getElementById('embed').append(section);
          const elements = tags.map((tag) => {
            const element = document.createElement(tag);
            for (const [name, value] of Object.entries(first)) element.setAttribute(name, value);
            return section.appendChild(element);
          });
          const labels = (element) =>
            [...element.shadowRoot.querySelectorAll(':is([role="img"], [role="application"])')].map((node) =>
              node.getAttribute('aria-label'),
            );
          const until = async (done) => {
            for (let i = 0; i < 600 && !done(); i++) await frame();
            return done();
          };
          await until(() => elements.every((element) => window.__bad.renders(element) > 0));
          const initial = elements.map(labels);
          const rows = [];
          for (const attribute of attributes) {
            const counts = elements.map((element) => window.__bad.renders(element));
            for (const element of elements) element.setAttribute(attribute, 'NaN');
            await until(() => elements.every((element) => element.dataset.state === 'error'));
            const messages = elements.map((element) => element.shadowRoot.querySelector('.message').textContent);
            const states = elements.map((element) => element.dataset.state);
            for (const element of elements)
              if (first[attribute]) element.setAttribute(attribute, first[attribute]);
              else element.removeAttribute(attribute);
            await until(() => elements.every((element, i) => window.__bad.renders(element) > counts[i]));
            elements.forEach((element, i) =>
              rows.push({
                tag: tags[i],
                attribute,
                state: states[i],
                message: messages[i],
                after: element.dataset.state,
                same: JSON.stringify(labels(element)) === JSON.stringify(initial[i]),
              }),
            );
          }
          section.remove();
          return rows;
        },
        [tags, attributes, first],
      );
      const wrong = results
        .filter(
          ({ tag, attribute, state, message, after, same }) =>
            state !== 'error' ||
            !message.includes(`<${tag}>: invalid ${attribute}: `) ||
            !message.includes('“NaN”') ||
            after !== 'ready' ||
            !same,
        )
        .map((row) => JSON.stringify(row));
      cases += results.length;
      assert(results.length === tags.length * attributes.length, `${results.length} results`);
      assert(wrong.length === 0, wrong.join('\n'));
      assert(host.problems.length === 0, host.problems.join('\n'));
      return `${results.length} cases; after each, the same text alternatives as before`;
    },
  );

  await check('no attribute value created an element or ran a script', async () => {
    const found = await injectedProblems(host);
    assert(found.length === 0, found.join(', '));
  });
  await host.close();

  // ---- the explainer page ----

  /** Loads the page for one case of pageCase(); what is wrong with what it shows. */
  async function pageProblems(page, expected) {
    const problemsBefore = page.problems.length;
    await page.goto(`${server.url}sinusoidal.html?${expected.query}`);
    await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
    const problems = [];
    // The URL is rewritten once the page has drawn: only values other than the defaults are left.
    const normalised = await page
      // (The page adds the language it shows, ?lang=, last.)
      .waitForFunction((search) => location.search.replace(/[?&]lang=en$/, '') === search, expected.search, {
        timeout: 5000,
      })
      .then(
        () => true,
        () => false,
      );
    if (!normalised) problems.push(`URL ${await page.evaluate(() => location.search)}, expected ${expected.search}`);
    // Each control as the chapter that holds it shows it (its strip, or a section's own knobs).
    const read = (ids) =>
      Object.fromEntries(
        ids
          .map((id) => [id, document.querySelector(id)])
          .filter(([, node]) => node)
          .map(([id, node]) => [id, node.tagName === 'OUTPUT' ? node.textContent : node.value]),
      );
    const controls = await page.evaluate(read, Object.keys(expected.controls));
    for (const file of ['implementations.html', 'rope.html']) {
      const missing = Object.keys(expected.controls).filter((id) => !(id in controls));
      if (missing.length === 0) break;
      const other = await page.context().newPage();
      await other.goto(`${server.url}${file}?${expected.query}`);
      await other.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
      Object.assign(controls, await other.evaluate(read, missing));
      await other.close();
    }
    for (const id of Object.keys(expected.controls)) if (!(id in controls)) problems.push(`${id}: in no chapter`);
    for (const [id, shown] of Object.entries(controls))
      if (shown !== expected.controls[id]) problems.push(`${id} shows ${shown}, expected ${expected.controls[id]}`);
    // The heatmap of the expected table, read at the selected position and dimension.
    const s = settings(expected.attributes);
    const label = `${s.length} positions (rows) by ${s.conv.dModel} dimensions`;
    await page.waitForFunction(
      (text) =>
        document
          .querySelector('[data-plot="heatmap"] :is([role="img"], [role="application"])')
          ?.getAttribute('aria-label')
          ?.includes(text),
      label,
      { timeout: 10000 },
    );
    const shown = await observe(page, '[data-plot="heatmap"]', WALKS.table, s);
    problems.push(...readoutProblems(WALKS.table, s, shown.readouts));
    problems.push(...(await injectedProblems(page)), ...page.problems.slice(problemsBefore));
    return problems.map((problem) => `?${expected.query}: ${problem}`);
  }

  const explainer = await watchedPage(context);
  for (const value of browserSample(PAGE_BAD)) {
    const what =
      {
        [REPEATED_VALID_FIRST]: 'each parameter given twice, valid value first: that value',
        [REPEATED_BAD_FIRST]: 'each parameter given twice, bad value first: the default',
      }[value] ?? `${JSON.stringify(value)}: the default`;
    await check(`page URL, ${what} in the controls and the URL; the valid parameters beside it hold`, async () => {
      const wrong = [];
      for (const half of HALVES) {
        const expected = pageCase(value, half);
        wrong.push(...(await pageProblems(explainer, expected)));
        cases += expected.tested;
      }
      assert(wrong.length === 0, wrong.join('\n'));
    });
  }
  await explainer.close();

  // ---- embed.html ----
  const embed = await watchedPage(context);
  /** Opens embed.html with the given parameters; resolves once its plot is drawn or reports an error. */
  async function openEmbed(entries) {
    const problemsBefore = embed.problems.length;
    await embed.goto(`${server.url}${embedUrl(entries)}`);
    await embed.waitForFunction(
      () =>
        document.querySelector('.embed-error') ||
        ['ready', 'error'].includes(document.querySelector('main > [data-state]')?.dataset.state),
      null,
      { timeout: 15000 },
    );
    return async (problems) => {
      const link = await embed.evaluate(() => document.getElementById('explainer').href);
      if (!link.startsWith(server.url)) problems.push(`link back: ${link}`);
      return [...problems, ...(await injectedProblems(embed)), ...embed.problems.slice(problemsBefore)];
    };
  }
  const plotOf = (plot) => `posenc-${plot}`;

  await check(
    'embed.html: each bad value in every parameter it is bad for: the error names each parameter',
    async () => {
      const wrong = [];
      for (const value of browserSample(EMBED_BAD)) {
        const bad = Object.fromEntries(
          EMBED_PARAMS.filter((param) => !EMBED_ACCEPTS[param]?.includes(value)).map((param) => [param, value]),
        );
        const entries = [
          ['plot', 'heatmap'],
          ...EMBED_PARAMS.map((param) => [param, bad[param] ?? EMBED_VALID[param]]),
        ];
        const finishCase = await openEmbed(entries);
        const shown = await observe(embed, plotOf('heatmap'));
        const problems = await finishCase(embedErrorProblems(shown, bad));
        if (problems.length) wrong.push(`${JSON.stringify(value)}: ${problems.join('; ')}`);
        cases += Object.keys(bad).length;
      }
      assert(wrong.length === 0, wrong.join('\n'));
    },
  );

  await check('embed.html: one bad parameter among valid ones: exactly that parameter is named', async () => {
    const wrong = [];
    for (const [i, param] of EMBED_PARAMS.entries()) {
      const usable = EMBED_BAD.filter((value) => !EMBED_ACCEPTS[param]?.includes(value));
      const value = usable[i % usable.length];
      const entries = [['plot', 'rotation'], ...EMBED_PARAMS.map((p) => [p, p === param ? value : EMBED_VALID[p]])];
      const finishCase = await openEmbed(entries);
      const shown = await observe(embed, plotOf('rotation'));
      const problems = await finishCase(embedErrorProblems(shown, { [param]: value }));
      if (problems.length) wrong.push(`${param}=${JSON.stringify(value)}: ${problems.join('; ')}`);
      cases++;
    }
    assert(wrong.length === 0, wrong.join('\n'));
  });

  await check('embed.html: every parameter valid (the first of each repeated one): the values it shows', async () => {
    const s = settings(embedAttributes(EMBED_VALID));
    const wrong = [];
    // Repeated parameters: the first is read, on the heatmap; the similarity and compare read k and compare.
    const runs = [
      [
        'heatmap',
        EMBED_PARAMS.flatMap((param) => [
          [param, EMBED_VALID[param]],
          [param, 'abc'],
        ]),
        WALKS.table,
      ],
      ['similarity', EMBED_PARAMS.map((param) => [param, EMBED_VALID[param]]), WALKS.dots],
      ['compare', EMBED_PARAMS.map((param) => [param, EMBED_VALID[param]]), WALKS.pair],
    ];
    for (const [plot, entries, walk] of runs) {
      const finishCase = await openEmbed([['plot', plot], ...entries, ['lang', 'nope']]);
      const shown = await observe(embed, plotOf(plot), walk, s);
      const problems =
        shown.state === 'ready' ? readoutProblems(walk, s, shown.readouts) : [`state ${shown.state}: ${shown.lines}`];
      if (shown.background !== BACKGROUND.dark) problems.push(`theme dark: background ${shown.background}`);
      if (shown.height !== 260) problems.push(`height 260: ${shown.height} px`);
      if (!shown.labels[0] || /[\u4e00-\u9fff]/.test(shown.labels[0])) problems.push(`lang=nope: ${shown.labels[0]}`);
      const pageTheme = await embed.evaluate(() => document.documentElement.dataset.theme);
      if (pageTheme !== 'dark') problems.push(`page theme ${pageTheme}`);
      const all = await finishCase(problems);
      if (all.length) wrong.push(`${plot}: ${all.join('; ')}`);
      cases++;
    }
    const finishCase = await openEmbed([
      ['plot', 'heatmap'],
      ...EMBED_PARAMS.flatMap((param) => [
        [param, 'abc'],
        [param, EMBED_VALID[param]],
      ]),
    ]);
    const shown = await observe(embed, plotOf('heatmap'));
    const problems = await finishCase(
      embedErrorProblems(shown, Object.fromEntries(EMBED_PARAMS.map((p) => [p, 'abc']))),
    );
    if (problems.length) wrong.push(`repeated, the bad value first: ${problems.join('; ')}`);
    cases++;
    assert(wrong.length === 0, wrong.join('\n'));
  });

  await check('embed.html: empty parameters (plot and lang included) count as absent: the defaults', async () => {
    const finishCase = await openEmbed([['plot', ''], ...EMBED_PARAMS.map((param) => [param, '']), ['lang', '']]);
    const shown = await observe(embed, plotOf('heatmap'), WALKS.table, settings({}));
    const problems =
      shown.state === 'ready'
        ? readoutProblems(WALKS.table, settings({}), shown.readouts)
        : [`state ${shown.state}: ${shown.lines}`];
    if (!shown.labels[0]?.includes('256 positions (rows) by 128 dimensions'))
      problems.push(`label: ${shown.labels[0]}`);
    const all = await finishCase(problems);
    cases += EMBED_PARAMS.length + 2;
    assert(all.length === 0, all.join('; '));
  });

  await check('embed.html: an unknown plot is an inline error naming plot; lang=zh* gives Chinese labels', async () => {
    const wrong = [];
    for (const plot of ['nope', 'NaN', 'Heatmap', ' heatmap', '__proto__', 'constructor', 'toString', MARKUP]) {
      const finishCase = await openEmbed([
        ['plot', plot],
        ['dModel', '48'],
      ]);
      const shown = await embed.evaluate(() => ({
        text: document.querySelector('.embed-error')?.textContent ?? '',
        role: document.querySelector('.embed-error')?.getAttribute('role'),
        elements: [...document.querySelectorAll('main *')].filter((node) => node.localName.startsWith('posenc-'))
          .length,
      }));
      const problems = [];
      if (
        !shown.text.startsWith(`Unknown plot ${quoted(plot)}: plot must be one of heatmap,`) ||
        shown.role !== 'alert'
      )
        problems.push(`message: ${shown.text}`);
      if (shown.elements !== 0) problems.push(`${shown.elements} elements created`);
      const all = await finishCase(problems);
      if (all.length) wrong.push(`plot=${JSON.stringify(plot)}: ${all.join('; ')}`);
      cases++;
    }
    for (const lang of ['zh', 'zh-CN', 'ZH-tw']) {
      const finishCase = await openEmbed([
        ['plot', 'heatmap'],
        ['lang', lang],
        ['dModel', '48'],
        ['height', '200'],
      ]);
      const shown = await observe(embed, plotOf('heatmap'));
      const problems = /[\u4e00-\u9fff]/.test(shown.labels[0] ?? '') ? [] : [`labels: ${shown.labels[0]}`];
      const all = await finishCase(problems);
      if (all.length) wrong.push(`lang=${lang}: ${all.join('; ')}`);
      cases++;
    }
    assert(wrong.length === 0, wrong.join('\n'));
  });
  await embed.close();
} finally {
  await browser.close();
  await server.close();
}

finish(`bad values: ${cases} cases in ${((performance.now() - started) / 1000).toFixed(1)} s`);
