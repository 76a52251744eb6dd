// The parameter table (web/model/params.js) and everything derived from it:
// every row is reachable as a URL parameter of the page or of embed.html and
// as an element attribute, and survives a round trip through each; and the
// full bad-value matrix of the attributes and URL parameters (the browser
// tests keep a representative sample: tests/e2e/bad-values.test.mjs).
import { documents } from '../../../web/build/generate-lists.mjs';
import { CHAPTERS } from '../../../web/model/registry.js';
import { ATTRIBUTE_BAD, EMBED_BAD, MARKUP, PAGE_BAD } from '../../bad-values.mjs';
import { describe, expect, it } from 'vitest';
import { PosencPlotElement } from '../../../web/elements/element.js';
import { PAGE_PARAMS as EMBED_PAGE_PARAMS, PARAMS as EMBED_PARAMS } from '../../../web/embed/params.js';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { ATTRIBUTES, CONTROLS, PARAMS } from '../../../web/model/params.js';
import { fromQuery, readAttributes, readParams, toQuery, writeParams } from '../../../web/model/state.js';

// Every chapter's document: a knob has its control in the chapters whose sections follow it.
const html = CHAPTERS.map((chapter) => documents()[chapter.file]).join('\n');

// A valid value of every knob, other than its default, and its text (what a URL or an attribute holds).
const VALID = {
  dModel: [48, '48'],
  length: [80, '80'],
  base: [2500, '2500'],
  preset: ['fairseq', 'fairseq'],
  layout: ['interleaved', 'interleaved'],
  exponent: ['column', 'column'],
  position: [37, '37'],
  offset: [30, '30'],
  dimension: [21, '21'],
  versus: ['tensor2tensor', 'tensor2tensor'],
  precision: ['bfloat16', 'bfloat16'],
  ropeDim: [64, '64'],
  ropeLayout: ['interleaved', 'interleaved'],
  context: [1024, '1024'],
  ropePreset: ['qwen2.5-7b-yarn', 'qwen2.5-7b-yarn'],
  ropeType: ['dynamic', 'dynamic'],
  headDim: [64, '64'],
  ropeTheta: [2500, '2500'],
  factor: [3, '3'],
  originalMaxPositionEmbeddings: [2048, '2048'],
  seqLen: [5000, '5000'],
  betaFast: [16, '16'],
  betaSlow: [2, '2'],
  mscale: [0.5, '0.5'],
  mscaleAllDim: [0.7, '0.7'],
  attentionFactor: [1.5, '1.5'],
  lowFreqFactor: [2, '2'],
  highFreqFactor: [8, '8'],
  tsPreset: ['dit', 'dit'],
  flipSinToCos: [false, 'false'],
  freqShift: [1, '1'],
  maxPeriod: [1000, '1000'],
  tsRange: ['1', '1'],
  gridHeight: [5, '5'],
  gridWidth: [7, '7'],
  axisOrder: ['h-w', 'h-w'],
  gridColumn: [9, '9'],
  gridPatch: [20, '20'],
  relLength: [16, '16'],
  chunkStart: [100, '100'],
  order: ['cos-sin', 'cos-sin'],
  angle: ['ratio-power', 'ratio-power'],
  start: [-3.5, '-3.5'],
  paddingRow: [null, 'none'],
  scale: [-2.5, '-2.5'],
  oddColumn: ['zero', 'zero'],
  theme: ['dark', 'dark'],
  height: [260, '260'],
};
// The names the page, embed.html and the elements have always used (docs/elements.md).
const NAMES = {
  dModel: ['dModel', 'd-model'],
  length: ['length', 'length'],
  base: ['base', 'base'],
  preset: ['preset', 'preset'],
  layout: ['layout', 'layout'],
  exponent: ['exponent', 'exponent'],
  position: ['p', 'position'],
  offset: ['k', 'offset'],
  dimension: ['j', 'dimension'],
  versus: ['compare', 'compare'],
  precision: ['precision', 'precision'],
  ropeDim: ['ropeDim', 'rope-dim'],
  ropeLayout: ['ropeLayout', 'rope-layout'],
  context: ['context', 'context'],
  // The RoPE lab (docs/rope-lab.md): Hugging Face's field names.
  ropePreset: ['ropePreset', 'rope-preset'],
  ropeType: ['ropeType', 'rope-type'],
  headDim: ['headDim', 'head-dim'],
  ropeTheta: ['ropeTheta', 'rope-theta'],
  factor: ['factor', 'factor'],
  originalMaxPositionEmbeddings: ['originalMaxPositionEmbeddings', 'original-max-position-embeddings'],
  seqLen: ['seqLen', 'seq-len'],
  betaFast: ['betaFast', 'beta-fast'],
  betaSlow: ['betaSlow', 'beta-slow'],
  mscale: ['mscale', 'mscale'],
  mscaleAllDim: ['mscaleAllDim', 'mscale-all-dim'],
  attentionFactor: ['attentionFactor', 'attention-factor'],
  lowFreqFactor: ['lowFreqFactor', 'low-freq-factor'],
  highFreqFactor: ['highFreqFactor', 'high-freq-factor'],
  // The chapter "elsewhere" (diffusers' knob names where it has them).
  tsPreset: ['tsPreset', 'ts-preset'],
  flipSinToCos: ['flipSinToCos', 'flip-sin-to-cos'],
  freqShift: ['freqShift', 'freq-shift'],
  maxPeriod: ['maxPeriod', 'max-period'],
  tsRange: ['tsRange', 'ts-range'],
  gridHeight: ['gridHeight', 'grid-height'],
  gridWidth: ['gridWidth', 'grid-width'],
  axisOrder: ['axisOrder', 'axis-order'],
  gridColumn: ['gridColumn', 'grid-column'],
  gridPatch: ['gridPatch', 'grid-patch'],
  relLength: ['relLength', 'rel-length'],
  chunkStart: ['chunkStart', 'chunk-start'],
  order: ['order', 'order'],
  angle: ['angle', 'angle'],
  start: ['start', 'start'],
  paddingRow: ['paddingRow', 'padding-row'],
  scale: ['scale', 'scale'],
  oddColumn: ['oddColumn', 'odd-column'],
  theme: ['theme', 'theme'],
  height: ['height', 'height'],
};
const PAGE_KEYS = [
  'dModel',
  'length',
  'base',
  'preset',
  'layout',
  'exponent',
  'position',
  'offset',
  'dimension',
  'versus',
  'precision',
  'ropeDim',
  'ropeLayout',
  'context',
  'ropePreset',
  'ropeType',
  'headDim',
  'ropeTheta',
  'factor',
  'originalMaxPositionEmbeddings',
  'seqLen',
  'betaFast',
  'betaSlow',
  'mscale',
  'mscaleAllDim',
  'attentionFactor',
  'lowFreqFactor',
  'highFreqFactor',
  'tsPreset',
  'flipSinToCos',
  'freqShift',
  'maxPeriod',
  'tsRange',
  'gridHeight',
  'gridWidth',
  'axisOrder',
  'gridColumn',
  'gridPatch',
  'relLength',
  'chunkStart',
];
// The chapter "elsewhere"'s knobs (flip and shift null: the timestep preset's value).
const ELSEWHERE_DEFAULTS = {
  tsPreset: 'diffusers',
  flipSinToCos: null,
  freqShift: null,
  maxPeriod: 10000,
  tsRange: '1000',
  gridHeight: 6,
  gridWidth: 10,
  axisOrder: 'w-h',
  gridColumn: 2,
  gridPatch: 23,
  relLength: 32,
  chunkStart: 64,
};
// The RoPE lab's knobs: null is the RoPE preset's value.
const LAB_DEFAULTS = {
  ropePreset: 'llama3.1-8b',
  ropeType: null,
  headDim: null,
  ropeTheta: null,
  factor: null,
  originalMaxPositionEmbeddings: null,
  seqLen: null,
  betaFast: null,
  betaSlow: null,
  mscale: null,
  mscaleAllDim: null,
  attentionFactor: null,
  lowFreqFactor: null,
  highFreqFactor: null,
};

describe('the parameter table', () => {
  it('has one row per knob, under the names the page, the embed and the elements use', () => {
    expect(PARAMS.map((row) => row.key)).toEqual(Object.keys(NAMES));
    for (const row of PARAMS) expect([row.param, row.attribute], row.key).toEqual(NAMES[row.key]);
    expect(CONTROLS.map((row) => row.key)).toEqual(PAGE_KEYS);
  });

  it('every row is an element attribute, an embed.html parameter, and (controls) a page parameter with a control', () => {
    const observed = PosencPlotElement.observedAttributes;
    for (const row of PARAMS) {
      expect(observed, row.key).toContain(row.attribute);
      expect(ATTRIBUTES[row.attribute]).toBe(row.key);
      expect(EMBED_PARAMS[row.param], row.key).toBe(row.attribute);
      if (row.shown !== 'control') continue;
      expect(EMBED_PAGE_PARAMS).toContain(row.param);
      // Its control in a chapter, and its label in both languages.
      expect(html, row.key).toContain(`name="${row.key}"`);
      expect(typeof en[`controls.${row.key}`], row.key).toBe('string');
      expect(typeof zh[`controls.${row.key}`], row.key).toBe('string');
    }
    expect(Object.keys(EMBED_PARAMS)).toHaveLength(PARAMS.length);
    expect(new Set(PARAMS.map((row) => row.attribute)).size).toBe(PARAMS.length);
  });

  it('parse(serialise(values)) gives the values back, for every row, as URL parameters and as attributes', () => {
    const values = Object.fromEntries(Object.entries(VALID).map(([key, [value]]) => [key, value]));
    const query = writeParams(PARAMS, values);
    for (const row of PARAMS) expect(query.get(row.param), row.key).toBe(VALID[row.key][1]);
    const read = readParams(PARAMS, (row) => query.get(row.param));
    expect(read.errors).toEqual([]);
    expect(read.values).toEqual(values);
    // The same texts as attributes (embed.html copies its parameters there).
    const { state, extras, theme, height, errors } = readAttributes((name) =>
      query.get(Object.keys(EMBED_PARAMS).find((p) => EMBED_PARAMS[p] === name)),
    );
    expect(errors).toEqual([]);
    expect({ ...state, ...extras, theme, height }).toEqual(values);
  });

  it('the page state survives its URL, and leaves defaults out of it', () => {
    const state = Object.fromEntries(PAGE_KEYS.map((key) => [key, VALID[key][0]]));
    const search = toQuery(state);
    expect(search).toBe(
      '?dModel=48&length=80&base=2500&preset=fairseq&layout=interleaved&exponent=column&p=37&k=30&j=21&compare=tensor2tensor' +
        '&precision=bfloat16&ropeDim=64&ropeLayout=interleaved&context=1024' +
        '&ropePreset=qwen2.5-7b-yarn&ropeType=dynamic&headDim=64&ropeTheta=2500&factor=3&originalMaxPositionEmbeddings=2048' +
        '&seqLen=5000&betaFast=16&betaSlow=2&mscale=0.5&mscaleAllDim=0.7&attentionFactor=1.5&lowFreqFactor=2&highFreqFactor=8' +
        '&tsPreset=dit&flipSinToCos=false&freqShift=1&maxPeriod=1000&tsRange=1&gridHeight=5&gridWidth=7&axisOrder=h-w' +
        '&gridColumn=9&gridPatch=20&relLength=16&chunkStart=100',
    );
    expect(fromQuery(search)).toEqual(state);
    const defaults = fromQuery('');
    expect(defaults).toEqual({
      dModel: 128,
      length: 256,
      base: 10000,
      preset: 'vaswani',
      layout: null,
      exponent: null,
      position: 10,
      offset: 8,
      dimension: 6,
      versus: 'question',
      precision: 'float16',
      ropeDim: 128,
      ropeLayout: 'half',
      context: 4096,
      ...LAB_DEFAULTS,
      ...ELSEWHERE_DEFAULTS,
    });
    expect(toQuery(defaults)).toBe('');
    // A lab knob equal to its RoPE preset's value is no override; the preset's own values leave the URL.
    expect(fromQuery('?ropePreset=qwen2.5-7b-yarn&factor=4&ropeTheta=1000000&ropeType=yarn')).toMatchObject({
      ropePreset: 'qwen2.5-7b-yarn',
      factor: null,
      ropeTheta: null,
      ropeType: null,
    });
    expect(fromQuery('?attentionFactor=auto').attentionFactor).toBe(null);
    // A layout equal to the preset's is no override, and leaves the URL.
    expect(fromQuery('?preset=fairseq&layout=concat').layout).toBe(null);
    // Knobs without a page control are not read by the page.
    expect(Object.keys(fromQuery('?order=cos-sin&scale=2&theme=dark'))).toEqual(PAGE_KEYS);
  });
});

// ---- the bad-value matrix (formerly all in the browser) ----

const PRESET_LIST = 'vaswani, tensor2tensor, tf-tutorial, fairseq, legacy-column, question';
// The element every row is checked on: d-model 64, length 96 (docs/elements.md gives the ranges).
const HOST = { 'd-model': '64', length: '96' };

/**
 * Per attribute: what its error says is expected (with HOST's d-model and
 * length), its bad values, and valid values with what they mean.
 */
const ATTRIBUTE_MATRIX = [
  {
    attribute: 'd-model',
    expected: 'an integer from 2 to 1024',
    bad: ATTRIBUTE_BAD['d-model'],
    valid: { 48: 48, 33: 33, '0064': 64 },
  },
  {
    attribute: 'length',
    expected: 'an integer from 8 to 2048',
    bad: ATTRIBUTE_BAD['length'],
    valid: { 80: 80, 24: 24 },
  },
  {
    attribute: 'base',
    expected: 'a number from 2 to 100000000',
    bad: ATTRIBUTE_BAD['base'],
    valid: { 100: 100, '2.5e3': 2500, '+2.5': 2.5, '1e8': 1e8 },
  },
  {
    attribute: 'preset',
    expected: `one of ${PRESET_LIST}`,
    bad: ATTRIBUTE_BAD['preset'],
    valid: { fairseq: 'fairseq', question: 'question' },
  },
  // vaswani's own layout and exponent are no override (null).
  {
    attribute: 'layout',
    expected: 'one of interleaved, concat',
    bad: ATTRIBUTE_BAD['layout'],
    valid: { concat: 'concat', interleaved: null },
  },
  {
    attribute: 'exponent',
    expected: 'one of pair, half-minus-one, column',
    bad: ATTRIBUTE_BAD['exponent'],
    valid: { column: 'column', 'half-minus-one': 'half-minus-one', pair: null },
  },
  {
    attribute: 'order',
    expected: 'one of sin-cos, cos-sin',
    bad: ATTRIBUTE_BAD['order'],
    valid: { 'cos-sin': 'cos-sin', 'sin-cos': 'sin-cos' },
  },
  {
    attribute: 'angle',
    expected: 'one of divide, ratio-power',
    bad: ATTRIBUTE_BAD['angle'],
    valid: { 'ratio-power': 'ratio-power', divide: 'divide' },
  },
  {
    attribute: 'start',
    expected: 'a number from -1000000 to 1000000',
    bad: ATTRIBUTE_BAD['start'],
    valid: { '-3.5': -3.5, 1000: 1000, '.5': 0.5 },
  },
  {
    attribute: 'padding-row',
    expected: 'none or an integer from 0 to 95',
    bad: ATTRIBUTE_BAD['padding-row'],
    valid: { 2: 2, 95: 95, none: null },
  },
  {
    attribute: 'odd-column',
    expected: 'one of formula, zero',
    bad: ATTRIBUTE_BAD['odd-column'],
    valid: { zero: 'zero', formula: 'formula' },
  },
  {
    attribute: 'scale',
    expected: 'a number from 0.000001 to 1000000 or from -1000000 to -0.000001',
    bad: ATTRIBUTE_BAD['scale'],
    valid: { '-2.5': -2.5, 0.001: 0.001, '1e-6': 1e-6, '-1e6': -1e6 },
  },
  // position up to 2·length − 1, offset up to length − 1, dimension up to d-model − 1.
  {
    attribute: 'position',
    expected: 'an integer from 0 to 191',
    bad: ATTRIBUTE_BAD['position'],
    valid: { 37: 37, 191: 191, 0: 0 },
  },
  {
    attribute: 'dimension',
    expected: 'an integer from 0 to 63',
    bad: ATTRIBUTE_BAD['dimension'],
    valid: { 41: 41, 63: 63 },
  },
  {
    attribute: 'offset',
    expected: 'an integer from 0 to 95',
    bad: ATTRIBUTE_BAD['offset'],
    valid: { 30: 30, 95: 95 },
  },
  {
    attribute: 'compare',
    expected: `one of ${PRESET_LIST}`,
    bad: ATTRIBUTE_BAD['compare'],
    valid: { tensor2tensor: 'tensor2tensor', 'legacy-column': 'legacy-column' },
  },
  {
    attribute: 'precision',
    expected: 'one of float16, bfloat16, float32',
    bad: ATTRIBUTE_BAD['precision'],
    valid: { bfloat16: 'bfloat16', float32: 'float32', float16: 'float16' },
  },
  {
    attribute: 'rope-dim',
    expected: 'an even integer from 4 to 256',
    bad: ATTRIBUTE_BAD['rope-dim'],
    valid: { 64: 64, 4: 4, 256: 256, '0096': 96 },
  },
  {
    attribute: 'rope-layout',
    expected: 'one of half, interleaved',
    bad: ATTRIBUTE_BAD['rope-layout'],
    valid: { interleaved: 'interleaved', half: 'half' },
  },
  {
    attribute: 'context',
    expected: 'an integer from 16 to 16384',
    bad: ATTRIBUTE_BAD['context'],
    valid: { 1024: 1024, 16: 16, 16384: 16384, 1000: 1000 },
  },
  {
    attribute: 'theme',
    expected: 'one of auto, light, dark',
    bad: ATTRIBUTE_BAD['theme'],
    valid: { dark: 'dark', light: 'light', auto: 'auto' },
  },
  {
    attribute: 'height',
    expected: 'an integer from 100 to 4000',
    bad: ATTRIBUTE_BAD['height'],
    valid: { 300: 300, 100: 100, 4000: 4000 },
  },
  // The RoPE lab's knobs (llama3.1-8b's own values are no override: null).
  {
    attribute: 'rope-preset',
    expected: 'one of llama2-7b, llama3.1-8b, qwen2.5-7b-yarn, deepseek-v3, phi3.5-mini',
    bad: ATTRIBUTE_BAD['rope-preset'],
    valid: { 'deepseek-v3': 'deepseek-v3', 'phi3.5-mini': 'phi3.5-mini' },
  },
  {
    attribute: 'rope-type',
    expected: 'one of default, linear, dynamic, yarn, llama3, longrope',
    bad: ATTRIBUTE_BAD['rope-type'],
    valid: { yarn: 'yarn', longrope: 'longrope', llama3: null },
  },
  {
    attribute: 'head-dim',
    expected: 'an even integer from 4 to 512',
    bad: ATTRIBUTE_BAD['head-dim'],
    valid: { 64: 64, 4: 4, 512: 512, 128: null },
  },
  {
    attribute: 'rope-theta',
    expected: 'a number from 2 to 1000000000',
    bad: ATTRIBUTE_BAD['rope-theta'],
    valid: { 10000: 10000, '1e6': 1e6, 2.5: 2.5, 500000: null },
  },
  {
    attribute: 'factor',
    expected: 'a number from 1 to 1000',
    bad: ATTRIBUTE_BAD['factor'],
    valid: { 4: 4, 2.5: 2.5, 1000: 1000, 8: null },
  },
  {
    attribute: 'original-max-position-embeddings',
    expected: 'an integer from 16 to 1048576',
    bad: ATTRIBUTE_BAD['original-max-position-embeddings'],
    valid: { 4096: 4096, 16: 16, 8192: null },
  },
  {
    attribute: 'seq-len',
    expected: 'an integer from 1 to 16777216',
    bad: ATTRIBUTE_BAD['seq-len'],
    valid: { 32768: 32768, 1: 1, 131072: null },
  },
  {
    attribute: 'beta-fast',
    expected: 'a number from 0.01 to 1000',
    bad: ATTRIBUTE_BAD['beta-fast'],
    valid: { 16: 16, 0.5: 0.5, 32: null },
  },
  {
    attribute: 'beta-slow',
    expected: 'a number from 0.01 to 1000',
    bad: ATTRIBUTE_BAD['beta-slow'],
    valid: { 2: 2, 0.25: 0.25, 1: null },
  },
  {
    attribute: 'mscale',
    expected: 'a number from 0 to 100',
    bad: ATTRIBUTE_BAD['mscale'],
    valid: { 1: 1, 0.707: 0.707, 0: null },
  },
  {
    attribute: 'mscale-all-dim',
    expected: 'a number from 0 to 100',
    bad: ATTRIBUTE_BAD['mscale-all-dim'],
    valid: { 1: 1, 0.707: 0.707, 0: null },
  },
  {
    attribute: 'attention-factor',
    expected: 'a number from 0.01 to 100',
    bad: ATTRIBUTE_BAD['attention-factor'],
    valid: { 1: 1, 1.25: 1.25, auto: null },
  },
  {
    attribute: 'low-freq-factor',
    expected: 'a number from 0.01 to 1000',
    bad: ATTRIBUTE_BAD['low-freq-factor'],
    valid: { 2: 2, 0.5: 0.5, 1: null },
  },
  {
    attribute: 'high-freq-factor',
    expected: 'a number from 0.01 to 1000',
    bad: ATTRIBUTE_BAD['high-freq-factor'],
    valid: { 8: 8, 2.5: 2.5, 4: null },
  },
  // Chapter 4: the timestep knobs given as the preset (diffusers: sin first, shift 1) read as null.
  {
    attribute: 'ts-preset',
    expected: 'one of diffusers, guided-diffusion, improved-diffusion, dit, latent-diffusion',
    bad: ATTRIBUTE_BAD['ts-preset'],
    valid: { dit: 'dit', 'latent-diffusion': 'latent-diffusion' },
  },
  {
    attribute: 'flip-sin-to-cos',
    expected: 'one of false, true',
    bad: ATTRIBUTE_BAD['flip-sin-to-cos'],
    valid: { true: true, false: null },
  },
  {
    attribute: 'freq-shift',
    expected: 'one of 0, 1',
    bad: ATTRIBUTE_BAD['freq-shift'],
    valid: { 0: 0, 1: null },
  },
  {
    attribute: 'max-period',
    expected: 'a number from 2 to 100000000',
    bad: ATTRIBUTE_BAD['max-period'],
    valid: { 1000: 1000, 2.5: 2.5, '1e8': 1e8 },
  },
  {
    attribute: 'ts-range',
    expected: 'one of 1000, 1',
    bad: ATTRIBUTE_BAD['ts-range'],
    valid: { 1: '1', 1000: '1000' },
  },
  {
    attribute: 'grid-height',
    expected: 'an integer from 1 to 32',
    bad: ATTRIBUTE_BAD['grid-height'],
    valid: { 1: 1, 32: 32, 7: 7 },
  },
  {
    attribute: 'grid-width',
    expected: 'an integer from 1 to 32',
    bad: ATTRIBUTE_BAD['grid-width'],
    valid: { 1: 1, 32: 32, 7: 7 },
  },
  {
    attribute: 'axis-order',
    expected: 'one of w-h, h-w',
    bad: ATTRIBUTE_BAD['axis-order'],
    valid: { 'h-w': 'h-w', 'w-h': 'w-h' },
  },
  {
    attribute: 'grid-column',
    expected: 'an integer from 0 to 63',
    bad: ATTRIBUTE_BAD['grid-column'],
    valid: { 0: 0, 63: 63, 17: 17 },
  },
  {
    attribute: 'grid-patch',
    expected: 'an integer from 0 to 59',
    bad: ATTRIBUTE_BAD['grid-patch'],
    valid: { 0: 0, 59: 59, 30: 30 },
  },
  {
    attribute: 'rel-length',
    expected: 'an integer from 2 to 128',
    bad: ATTRIBUTE_BAD['rel-length'],
    valid: { 2: 2, 128: 128, 40: 40 },
  },
  {
    attribute: 'chunk-start',
    expected: 'an integer from 0 to 1024',
    bad: ATTRIBUTE_BAD['chunk-start'],
    valid: { 0: 0, 1024: 1024, 100: 100 },
  },
];

/** The element's quote of a value: 40 characters at most. */
const quoted = (text) => `“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”`;

const STATE_KEY = {
  'd-model': 'dModel',
  compare: 'versus',
  'padding-row': 'paddingRow',
  'odd-column': 'oddColumn',
  'rope-dim': 'ropeDim',
  'rope-layout': 'ropeLayout',
};
const keyOf = (attribute) =>
  STATE_KEY[attribute] ?? attribute.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());

/** What readAttributes returns for `attributes`, as one object of every knob. */
function readAll(attributes) {
  const { state, extras, theme, height, errors } = readAttributes((name) => attributes[name] ?? null);
  return { values: { ...state, ...extras, theme, height }, errors };
}

describe('bad attribute values', () => {
  it('the matrix and the bad values cover every attribute of the parameter table', () => {
    const attributes = PARAMS.map((param) => param.attribute).filter(Boolean);
    expect(ATTRIBUTE_MATRIX.map((row) => row.attribute).toSorted()).toEqual(attributes.toSorted());
    expect(Object.keys(ATTRIBUTE_BAD).toSorted()).toEqual(attributes.toSorted());
  });

  for (const { attribute, expected, bad, valid } of ATTRIBUTE_MATRIX) {
    it(`${attribute}: every bad value is reported, the others still read; valid values read as meant`, () => {
      expect(bad.length).toBeGreaterThan(10);
      const withoutIt = readAll(Object.fromEntries(Object.entries(HOST).filter(([name]) => name !== attribute))).values;
      for (const text of bad) {
        const { values, errors } = readAll({ ...HOST, [attribute]: text });
        expect(
          errors.map(({ attribute: name, message }) => ({ attribute: name, message })),
          JSON.stringify(text),
        ).toEqual([{ attribute, message: `expected ${expected}, got ${quoted(text)}` }]);
        // The elements word it in their language from its facts: English as the message, Chinese without English.
        const [{ expected: facts, given }] = errors;
        expect(en['param.expected'](facts, given)).toBe(errors[0].message);
        const chinese = zh['param.expected'](facts, given);
        expect(chinese, chinese).toMatch(/^应为/);
        expect(chinese.replace(given, ''), chinese).not.toMatch(/expected|integer|number|from|one of|got/);
        // Falls back to its default: everything reads as without it.
        expect(values, JSON.stringify(text)).toEqual(withoutIt);
      }
      for (const [text, meaning] of Object.entries(valid)) {
        const { values, errors } = readAll({ ...HOST, [attribute]: text });
        expect(errors, text).toEqual([]);
        expect(values[keyOf(attribute)], text).toBe(meaning);
      }
    });
  }

  it('several bad values are each reported, named by their attribute', () => {
    const { errors } = readAll({ 'd-model': 'x', length: '7', position: '-1', theme: 'blue', scale: '0' });
    expect(errors.map((error) => error.attribute).sort()).toEqual(['d-model', 'length', 'position', 'scale', 'theme']);
  });

  it('a long value is quoted to 40 characters', () => {
    const long = 'x'.repeat(60);
    expect(readAll({ preset: long }).errors[0].message).toBe(
      `expected one of ${PRESET_LIST}, got “${'x'.repeat(40)}…”`,
    );
  });

  it('selections without an attribute take the default, clamped to the table', () => {
    expect(readAll({ length: '8', 'd-model': '4' }).values).toMatchObject({ position: 10, offset: 7, dimension: 3 });
    expect(readAll({ length: '8', position: '15' }).values.position).toBe(15);
    expect(readAll({ length: '8', position: '16' }).errors).toHaveLength(1);
  });
});

// ---- the page's URL parameters: every bad value falls back to its default, silently ----

const LAB_PARAMS = Object.keys(LAB_DEFAULTS);
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
  ...LAB_PARAMS,
];
const PAGE_DEFAULTS = {
  dModel: 128,
  length: 256,
  base: 10000,
  preset: 'vaswani',
  layout: null,
  exponent: null,
  position: 10,
  offset: 8,
  dimension: 6,
  versus: 'question',
  precision: 'float16',
  ropeDim: 128,
  ropeLayout: 'half',
  context: 4096,
  ...LAB_DEFAULTS,
  ...ELSEWHERE_DEFAULTS,
};
// Valid whatever the other parameters fall back to (j < 64, p and k < 100).
const PAGE_VALID = {
  dModel: ['64', 64],
  length: ['100', 100],
  base: ['2500', 2500],
  preset: ['tf-tutorial', 'tf-tutorial'],
  layout: ['interleaved', 'interleaved'],
  exponent: ['column', 'column'],
  p: ['60', 60],
  k: ['70', 70],
  j: ['40', 40],
  compare: ['fairseq', 'fairseq'],
  precision: ['float32', 'float32'],
  // Valid whether the RoPE preset is the default or the given one (neither preset's own value).
  ...Object.fromEntries(LAB_PARAMS.map((key) => [key, VALID[key]]).map(([key, [value, text]]) => [key, [text, value]])),
  ...Object.fromEntries(
    Object.keys(ELSEWHERE_DEFAULTS)
      .map((key) => [key, VALID[key]])
      .map(([key, [value, text]]) => [key, [text, value]]),
  ),
};
const PAGE_KEY = { p: 'position', k: 'offset', j: 'dimension', compare: 'versus' };
// Values that are valid for a parameter (base is a number up to 1e8).
const PAGE_ACCEPTS = {
  base: ['2.5', '99999999'],
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

describe('bad URL parameters of the page', () => {
  for (const param of PAGE_PARAMS) {
    it(`${param}: a bad value gives the default, the other parameters are honoured`, () => {
      for (const text of PAGE_BAD) {
        const query = new URLSearchParams();
        for (const other of PAGE_PARAMS) query.append(other, other === param ? text : PAGE_VALID[other][0]);
        query.append('foo', '<b>bar</b>');
        const state = fromQuery(`?${query}`);
        const key = PAGE_KEY[param] ?? param;
        for (const other of PAGE_PARAMS.filter((p) => p !== param)) {
          // Without a valid preset it is vaswani's, whose own layout is interleaved: no override.
          // Without a valid timestep preset it is diffusers': flip False and shift 1, no override either.
          const followsPreset =
            (param === 'preset' && other === 'layout') ||
            (param === 'tsPreset' && (other === 'flipSinToCos' || other === 'freqShift'));
          const honoured = followsPreset ? null : PAGE_VALID[other][1];
          expect(state[PAGE_KEY[other] ?? other], `${param}=${text}: ${other}`).toBe(honoured);
        }
        if (PAGE_ACCEPTS[param]?.includes(text)) expect(state[key]).toBe(Number(text));
        else if (param === 'layout' || param === 'exponent') expect(state[key], text).toBe(null);
        else expect(state[key], `${param}=${JSON.stringify(text)}`).toBe(PAGE_DEFAULTS[key]);
      }
    });
  }

  it('of a repeated parameter the first is read', () => {
    expect(fromQuery('?dModel=64&dModel=abc').dModel).toBe(64);
    expect(fromQuery('?dModel=abc&dModel=64').dModel).toBe(128);
  });

  it('selections are checked against the dModel and length of the same URL', () => {
    expect(fromQuery('?length=8&p=15&k=7&dModel=4&j=3')).toMatchObject({ position: 15, offset: 7, dimension: 3 });
    expect(fromQuery('?length=8&p=16&k=8&dModel=4&j=4')).toMatchObject({ position: 10, offset: 7, dimension: 3 });
  });
});

// ---- embed.html: every parameter becomes its attribute; errors name the parameter ----

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

describe('bad URL parameters of embed.html', () => {
  it('each bad value of each parameter is reported under the parameter name, the others are read', () => {
    const paramOf = Object.fromEntries(Object.entries(EMBED_PARAMS).map(([param, attribute]) => [attribute, param]));
    let checked = 0;
    for (const [param, attribute] of Object.entries(EMBED_PARAMS)) {
      for (const text of EMBED_BAD) {
        const { errors } = readAll({ [attribute]: text });
        if (EMBED_ACCEPTS[param]?.includes(text)) {
          expect(errors, `${param}=${text}`).toEqual([]);
          continue;
        }
        expect(
          errors.map((error) => paramOf[error.attribute]),
          `${param}=${text}`,
        ).toEqual([param]);
        expect(errors[0].message.endsWith(quoted(text))).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
  });
});
