// Every sentence of the RoPE chapter (R1–R6) and of its lab that states a
// number, in English and Chinese, under the default settings, real models'
// presets and the knobs' extremes: each numeral of the rendered sentence must
// be one the test expects, computed here in float64 from the formulas (RoFormer,
// Men et al. 2024, Hugging Face's modeling_rope_utils as rope-reference.js
// writes them), never from posenc's results. A sentence that gains a number
// the test does not know fails it.
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { load } from '../../../web/lib/index.js';
import { createModel } from '../../../web/model/data.js';
import { MARKED_BASES, SUPPORT_LIMIT } from '../../../web/model/rope-data.js';
import { configFacts } from '../../../web/model/rope-lab-data.js';
import { ROPE_PRESETS } from '../../../web/model/rope-presets.js';
import { defaultState } from '../../../web/model/state.js';
import { ROPE_LAB_SECTIONS } from '../../../web/sections/rope-lab-sections.js';
import { ROPE_SECTIONS } from '../../../web/sections/rope-sections.js';
import { frequenciesReference, ladder } from '../rope-reference.js';
import { expectClose, FLOAT64_EPSILON } from '../tolerance.js';

// An attention factor (log, sqrt, a division) from the core and from the formula here: each
// operation within half an ulp in both, so the two within a few ulps.
const ATTENTION_FACTOR = { relative: 4 * FLOAT64_EPSILON };

const TWO_PI = 2 * Math.PI;
const LANGUAGES = { en, zh };
const translator =
  (table) =>
  (key, ...args) => {
    const entry = table[key] ?? en[key];
    return typeof entry === 'function' ? entry(...args) : entry;
  };

let pe;
let model;
beforeAll(async () => {
  pe = await load();
  model = createModel(pe);
});

// ---- Numerals and what they must be ----------------------------------------

/**
 * The numerals of a text: digit groups joined (1,048,576), decimals, exponents
 * (1.5e+5). Digits inside a name (float32, DeepSeek-V3, Qwen2.5) are not numerals.
 */
export function numerals(text) {
  return [...text.matchAll(/(?<![A-Za-z_\d.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(e[+-]?\d+)?/g)].map((m) => ({
    text: m[0],
    value: Number(m[0].replaceAll(',', '')),
  }));
}

// What a numeral may be: exact(v) (a count, a length, a constant of the formula),
// near(v, digits) (v rounded to that many significant digits; a finer rounding also
// agrees), atMost(bound) (a rounding error: "agree to within"), oneOf(a, b) (either
// side of a boundary the float64 reference cannot decide).
const exact = (value, why = '') => ({ kind: 'exact', value, why });
/** A year or a number cited as written (Men et al. 2024): exact, and not grouped. */
const cited = (value, why) => ({ kind: 'exact', value, why, cited: true });
const near = (value, digits) => ({ kind: 'near', value, digits });
const atMost = (bound) => ({ kind: 'atMost', bound });
const oneOf = (...values) => ({ kind: 'oneOf', values });
/** Formula constants printed in a sentence (0.1·ln, m = 0, d/2, ≥ 0): exact, named by `why`. */
const constants = (why, ...values) => values.map((value) => exact(value, why));

function agrees(shown, want) {
  switch (want.kind) {
    case 'exact':
      return shown === want.value;
    case 'oneOf':
      return want.values.includes(shown);
    case 'atMost':
      return shown >= 0 && shown <= want.bound;
    case 'near': {
      const v = want.value;
      if (v === 0) return shown === 0;
      const unit = 10 ** (Math.floor(Math.log10(Math.abs(v))) - want.digits + 1);
      return Math.abs(shown - v) <= 0.5 * unit * (1 + 1e-9) + 1e-12 * Math.abs(v);
    }
  }
  throw new Error(`no kind ${want.kind}`);
}

/**
 * Asserts that the numerals of `text` and `wanted` pair up one to one (in any
 * order: the languages order them differently): exact ones first, then the rest.
 */
function expectNumerals(text, wanted, label) {
  const shown = numerals(text);
  const free = shown.map(() => true);
  const asCited = shown.map(() => false);
  const order = [...wanted.keys()].sort(
    (a, b) => (wanted[a].kind === 'exact' ? 0 : 1) - (wanted[b].kind === 'exact' ? 0 : 1),
  );
  const missing = [];
  for (const w of order) {
    const at = shown.findIndex((s, i) => free[i] && agrees(s.value, wanted[w]));
    if (at < 0) missing.push(wanted[w]);
    else [free[at], asCited[at]] = [false, Boolean(wanted[w].cited)];
  }
  const extra = shown.filter((_, i) => free[i]).map((s) => s.text);
  // Numbers for people: 8,192 and 1,000, not 8192 and 1000; no exponent below 10⁵ (7.6e+0).
  const unreadable = shown
    .filter((s, i) => !asCited[i])
    .filter((s) => /^\d{4,}/.test(s.text) || (/e\+/.test(s.text) && s.value < 1e5))
    .map((s) => s.text);
  expect(unreadable, `${label}: “${text}”`).toEqual([]);
  expect({ missing, extra }, `${label}: “${text}” (numerals ${shown.map((s) => s.text).join(', ')})`).toEqual({
    missing: [],
    extra: [],
  });
}

// ---- Float64 references of the lab --------------------------------------------

// The presets' values, written out from the models' config.json files (sources in
// web/model/rope-presets.js); LongRoPE's two lists of 48 factors are taken from there.
const PRESET_VALUES = {
  'llama2-7b': { ropeType: 'default', headDim: 128, ropeTheta: 1e4, factor: 1, original: 4096, seqLen: 8192 },
  'llama3.1-8b': { ropeType: 'llama3', headDim: 128, ropeTheta: 5e5, factor: 8, original: 8192, seqLen: 131072 },
  'qwen2.5-7b-yarn': { ropeType: 'yarn', headDim: 128, ropeTheta: 1e6, factor: 4, original: 32768, seqLen: 131072 },
  'deepseek-v3': {
    ropeType: 'yarn',
    headDim: 64,
    ropeTheta: 1e4,
    factor: 40,
    original: 4096,
    seqLen: 163840,
    mscale: 1,
    mscaleAllDim: 1,
  },
  'phi3.5-mini': { ropeType: 'longrope', headDim: 96, ropeTheta: 1e4, factor: 32, original: 4096, seqLen: 131072 },
};
// Hugging Face's defaults of the fields a type reads when a config leaves them out.
const HF_DEFAULTS = { betaFast: 32, betaSlow: 1, mscale: 0, mscaleAllDim: 0, lowFreqFactor: 1, highFreqFactor: 4 };

/** A lab state's settings: the state's values over its preset's. */
function settingsOf(state) {
  const preset = PRESET_VALUES[state.ropePreset ?? 'llama3.1-8b'];
  const s = { ...HF_DEFAULTS, attentionFactor: null, ...preset };
  for (const [key, value] of Object.entries(state))
    if (key !== 'ropePreset') s[key === 'originalMaxPositionEmbeddings' ? 'original' : key] = value;
  if (s.ropeType === 'longrope') {
    // One factor per pair: LongRoPE's head_dim is its lists' (Phi-3.5-mini's 48 pairs).
    s.asked = s.headDim;
    s.headDim = 96;
  }
  return s;
}

/** The scaling options (rope-reference.js's names) of settings. */
function scalingOf(s) {
  const base = { type: s.ropeType, factor: s.factor };
  switch (s.ropeType) {
    case 'default':
      return undefined;
    case 'linear':
      return base;
    case 'dynamic':
      return { ...base, maxPositionEmbeddings: s.original };
    case 'llama3':
      return {
        ...base,
        originalMaxPositionEmbeddings: s.original,
        lowFreqFactor: s.lowFreqFactor,
        highFreqFactor: s.highFreqFactor,
      };
    case 'yarn':
      return {
        ...base,
        originalMaxPositionEmbeddings: s.original,
        betaFast: s.betaFast,
        betaSlow: s.betaSlow,
        ...(s.mscale ? { mscale: s.mscale } : {}),
        ...(s.mscaleAllDim ? { mscaleAllDim: s.mscaleAllDim } : {}),
        ...(s.attentionFactor === null ? {} : { attentionFactor: s.attentionFactor }),
      };
    case 'longrope':
      return {
        ...base,
        originalMaxPositionEmbeddings: s.original,
        shortFactor: ROPE_PRESETS['phi3.5-mini'].shortFactor,
        longFactor: ROPE_PRESETS['phi3.5-mini'].longFactor,
        ...(s.attentionFactor === null ? {} : { attentionFactor: s.attentionFactor }),
      };
  }
  throw new Error(s.ropeType);
}

/** The first position m with m·w ≥ angle (float64 products, as the definition reads). */
function firstAtLeast(w, angle) {
  let m = Math.max(0, Math.floor(angle / w) - 2);
  while (m * w < angle) m++;
  return m;
}

/** Pairs at an angle outside their trained arc at `position`, on the circle: [fewest, most] (a tie either way). */
function unseenRange(frequencies, trained, position) {
  let [fewest, most] = [0, 0];
  frequencies.forEach((w, i) => {
    if (trained[i] >= TWO_PI) return;
    const angle = (position * w) % TWO_PI;
    const slack = 1e-9 * Math.max(1, position * w);
    if (angle >= trained[i] + slack) fewest++;
    if (angle >= trained[i] - slack) most++;
  });
  return [fewest, most];
}
const countIn = ([fewest, most]) => (fewest === most ? exact(fewest) : oneOf(...range(fewest, most)));
const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/** What the lab must show for a state: every number, from the formulas. */
function labReference(state) {
  const s = settingsOf(state);
  const d = s.headDim;
  const before = ladder(d, s.ropeTheta);
  const scaling = scalingOf(s);
  const { invFreq: after, attentionFactor } = frequenciesReference({
    headDim: d,
    base: s.ropeTheta,
    seqLen: s.seqLen,
    scaling,
  });
  const kinds = { kept: 0, interpolated: 0, blended: 0 };
  before.forEach((w, i) => {
    const ratio = w / after[i];
    if (Math.abs(ratio - 1) <= 1e-9) kinds.kept++;
    else if (Math.abs(ratio - s.factor) <= 1e-9 * s.factor) kinds.interpolated++;
    else kinds.blended++;
  });
  const trained = before.map((w) => s.original * w);
  const partial = before.map((_, i) => i).filter((i) => trained[i] < TWO_PI);
  const position = s.seqLen - 1;
  return {
    s,
    d,
    pairs: d / 2,
    before,
    after,
    attentionFactor,
    kinds,
    trained,
    fullTurns: d / 2 - partial.length,
    firstAfter: Math.min(...partial.map((i) => firstAtLeast(after[i], trained[i]))),
    position,
    unseenAfter: countIn(unseenRange(after, trained, position)),
    unseenBefore: position >= s.original ? countIn(unseenRange(before, trained, position)) : exact(0),
  };
}

/** The numerals of the attention sentence (Hugging Face's rule for each type, written out). */
function attentionNumerals(r, text, language) {
  const { s, attentionFactor: value } = r;
  // HF reads attention_factor in _compute_yarn_parameters and _compute_longrope_parameters only.
  if (s.attentionFactor !== null && (s.ropeType === 'yarn' || s.ropeType === 'longrope')) {
    expect(text).toContain('attention_factor');
    expect(value).toBe(s.attentionFactor);
    return [near(value, 6)];
  }
  const mscale = (scale, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
  if (s.ropeType === 'yarn' && s.mscale && s.mscaleAllDim) {
    expectClose(value, mscale(s.factor, s.mscale) / mscale(s.factor, s.mscaleAllDim), ATTENTION_FACTOR);
    return [exact(s.factor), exact(s.mscale), exact(s.factor), exact(s.mscaleAllDim), near(value, 6)];
  }
  if ((s.ropeType === 'yarn' || s.ropeType === 'longrope') && s.factor <= 1)
    return [near(value, 6), ...constants('factor ≤ 1', 1)];
  if (s.ropeType === 'yarn') {
    expectClose(value, 0.1 * Math.log(s.factor) + 1, ATTENTION_FACTOR);
    return [...constants('0.1·ln(f) + 1', 0.1, 1), exact(s.factor), near(value, 6), near(value * value, 6)];
  }
  if (s.ropeType === 'longrope') {
    expectClose(value, Math.sqrt(1 + Math.log(s.factor) / Math.log(s.original)), ATTENTION_FACTOR);
    return [...constants('√(1 + ln f / ln L0)', 1), exact(s.factor), near(value, 6), near(value * value, 6)];
  }
  expect(value).toBe(1);
  expect(text).toContain(language === 'en' ? 'does not scale' : '不缩放');
  return [exact(1)];
}

/** The lab's sentences (notes, legends, captions, guides, readouts) for a state, with the numerals each must hold. */
function labExpectations(state, t, language) {
  const r = labReference(state);
  const { s, pairs, before, after, position } = r;
  const context = { model, state: { ...defaultState(), ...state }, t };
  const [scaling, dials] = ROPE_LAB_SECTIONS.map((section) => section.build(context));
  const sentences = [];
  const add = (label, text, wanted) => sentences.push({ label, text, wanted });
  const notes = Object.fromEntries(scaling.data.notes.map((note) => [note.testId, note.text]));

  if (s.ropeType === 'longrope' && s.asked !== 96) add('head dim', notes['rope-head-dim'], [exact(48), exact(96)]);
  else expect(notes['rope-head-dim']).toBeUndefined();
  add(
    'kinds',
    notes['rope-kinds'],
    s.ropeType === 'default'
      ? [exact(pairs)]
      : [exact(pairs), exact(r.kinds.kept), exact(r.kinds.interpolated), exact(r.kinds.blended), exact(s.factor)],
  );
  add('attention', notes['rope-attention'], attentionNumerals(r, notes['rope-attention'], language));
  if (s.ropeType === 'yarn' && s.mscaleAllDim && s.factor > 1)
    add('softmax', notes['rope-softmax'], [
      exact(s.factor),
      exact(s.mscaleAllDim),
      near((0.1 * s.mscaleAllDim * Math.log(s.factor) + 1) ** 2, 6),
    ]);
  else expect(notes['rope-softmax']).toBeUndefined();
  if (s.ropeType === 'longrope') {
    add('list', notes['rope-list'], [exact(s.seqLen), exact(s.original)]);
    expect(notes['rope-list']).toContain(s.seqLen > s.original ? 'long_factor' : 'short_factor');
  }
  add(
    'unseen',
    notes['rope-unseen'],
    r.fullTurns === pairs
      ? [...constants('position 0', 0), exact(s.original - 1), exact(pairs)]
      : [
          ...constants('position 0', 0),
          exact(s.original - 1),
          exact(r.fullTurns),
          exact(pairs),
          exact(pairs - r.fullTurns),
          exact(s.original),
          exact(r.firstAfter),
          exact(position),
          r.unseenAfter,
          r.unseenBefore,
        ],
  );
  if (s.ropeType === 'dynamic') {
    // HF's dynamic NTK: base·(f·L/L0 − (f − 1))^(d/(d − 2)) at L ≥ L0.
    const lengths = [...new Set([1, 2, 4, 8].map((m) => m * s.original).concat(Math.max(s.original, s.seqLen)))];
    add('dynamic', notes['rope-dynamic'], [
      near(s.ropeTheta, 6),
      ...lengths.flatMap((L) => [
        exact(L),
        near(s.ropeTheta * ((s.factor * L) / s.original - (s.factor - 1)) ** (r.d / (r.d - 2)), 6),
      ]),
    ]);
  } else expect(notes['rope-dynamic']).toBeUndefined();
  expect(Object.keys(notes).length).toBe(sentences.length);

  const wavelengths = after.map((w) => TWO_PI / w);
  add('describe', scaling.options.describe(), [
    exact(pairs),
    near(Math.min(...wavelengths), 3),
    near(Math.max(...wavelengths), 3),
    exact(s.original),
  ]);
  // The readout of the fastest, a middle and the slowest pair.
  for (const i of new Set([0, pairs >> 1, pairs - 1])) {
    const share = (s.original * before[i]) / TWO_PI;
    add(`readout ${i}`, scaling.options.readout(i), [
      exact(i),
      near(TWO_PI / before[i], 4),
      near(TWO_PI / after[i], 4),
      near(before[i] / after[i], 4),
      exact(s.original),
      ...(share >= 1 ? [] : [near(100 * share, 3)]),
    ]);
    expect(dials.options.readout(i)).toBe(scaling.options.readout(i));
  }
  // The plot's guides: L0, the sequence, the type's thresholds L0/β and L0/(high|low)_freq_factor.
  const guideValues = [s.original, ...(s.seqLen === s.original ? [] : [s.seqLen])];
  if (s.ropeType === 'yarn') guideValues.push(s.original / s.betaFast, s.original / s.betaSlow);
  if (s.ropeType === 'llama3') guideValues.push(s.original / s.highFreqFactor, s.original / s.lowFreqFactor);
  const guideNumerals = scaling.data.guides.flatMap((guide) => numerals(guide.label));
  const guideText = scaling.data.guides.map((guide) => guide.label).join(' | ');
  add(
    'guides',
    guideText,
    guideValues.map((v) => near(v, 4)),
  );
  expect(guideNumerals.length).toBe(guideValues.length);

  const legend = Object.fromEntries(dials.data.legend.map((line) => [line.testId, line.text]));
  add('dials legend', legend['rope-dials-legend'], [exact(position), exact(s.original)]);
  add('odometer', legend['rope-odometer'], [
    ...constants('rope_theta^(2/d)', 2),
    near(s.ropeTheta ** (2 / r.d), 6),
    exact(position),
    exact(pairs - 1),
    near((position * after[pairs - 1]) / TWO_PI, 4),
  ]);
  add('dials describe', dials.options.describe(), [exact(pairs), exact(position)]);
  return sentences;
}

// Default, two presets (Llama 3.1 is the default; Qwen2.5 with YaRN ×4, DeepSeek-V3 YaRN ×40 with mscale),
// the other presets and types, and the knobs' extremes (params.js's ranges).
const LAB_STATES = [
  {},
  { ropePreset: 'qwen2.5-7b-yarn' },
  { ropePreset: 'deepseek-v3' },
  { ropePreset: 'phi3.5-mini' },
  { ropePreset: 'phi3.5-mini', seqLen: 4096, attentionFactor: 1.25 },
  { ropePreset: 'phi3.5-mini', headDim: 128 },
  { ropePreset: 'llama2-7b' },
  { ropePreset: 'llama2-7b', ropeType: 'linear', factor: 2 },
  { ropePreset: 'llama2-7b', ropeType: 'dynamic', factor: 2, seqLen: 16384 },
  { ropePreset: 'llama2-7b', ropeType: 'dynamic', factor: 1000, headDim: 4, seqLen: 16777216 },
  { headDim: 4 },
  { headDim: 512 },
  { seqLen: 1 },
  { seqLen: 16777216 },
  { ropeTheta: 2 },
  { ropeTheta: 1e9 },
  { originalMaxPositionEmbeddings: 16 },
  { originalMaxPositionEmbeddings: 1048576 },
  { ropePreset: 'qwen2.5-7b-yarn', factor: 1 },
  { ropePreset: 'qwen2.5-7b-yarn', factor: 1000, attentionFactor: 1.25 },
  { ropePreset: 'qwen2.5-7b-yarn', headDim: 4, ropeTheta: 2, originalMaxPositionEmbeddings: 16, seqLen: 16 },
  { ropePreset: 'deepseek-v3', mscale: 0.5, mscaleAllDim: 0 },
  { ropePreset: 'deepseek-v3', betaFast: 1000, betaSlow: 0.01 },
  { lowFreqFactor: 2, highFreqFactor: 1000 },
];

describe('R4, the lab: every numeral of every sentence, from the formulas', () => {
  for (const state of LAB_STATES)
    for (const [language, table] of Object.entries(LANGUAGES))
      it(`${language} ${JSON.stringify(state)}`, () => {
        for (const { label, text, wanted } of labExpectations(state, translator(table), language))
          expectNumerals(text, wanted, label);
      });
});

// ---- R1–R3: float64 references (RoFormer, Men et al. 2024) --------------------

const cosineSum = (w, m) => w.reduce((sum, x) => sum + Math.cos(m * x), 0);
/** The first m < limit with Σ cos(m·θ_i) < 0, or limit. */
function firstNegative(w, limit) {
  for (let m = 0; m < limit; m++) if (cosineSum(w, m) < 0) return m;
  return limit;
}
/** RoFormer's relative upper bound (1/(d/2))·Σ_{j=1..d/2} |S_j|, S_j the sum of the first j terms e^{i m θ_l}. */
function roformerBound(d, base, m) {
  let [re, im, sum] = [0, 0, 0];
  for (const x of ladder(d, base)) {
    re += Math.cos(m * x);
    im += Math.sin(m * x);
    sum += Math.hypot(re, im);
  }
  return sum / (d / 2);
}
/** x rotated to `position`: pair i at (i, i + d/2) (half) or (2i, 2i + 1) (interleaved). */
function rotate(x, position, base, layout) {
  const d = x.length;
  const out = new Float64Array(d);
  ladder(d, base).forEach((w, i) => {
    const [a, b] = layout === 'half' ? [i, i + d / 2] : [2 * i, 2 * i + 1];
    const [c, s] = [Math.cos(position * w), Math.sin(position * w)];
    out[a] = x[a] * c - x[b] * s;
    out[b] = x[a] * s + x[b] * c;
  });
  return out;
}
const dot = (a, b) => a.reduce((sum, v, i) => sum + v * b[i], 0);
// Rounding error of a q·k score of unit-size vectors at angles up to ~2·10³ rad.
const ROUNDING = 1e-12;

function chapterExpectations(changes, t, language) {
  const state = { ...defaultState(), ...changes };
  const context = { model, state, t };
  const built = Object.fromEntries(ROPE_SECTIONS.map((s) => [s.name, { section: s, ...s.build(context) }]));
  const { ropeDim: d, base, context: L, position } = state;
  const sentences = [];
  const add = (label, text, wanted) => sentences.push({ label, text, wanted });

  // R1: the same q and k at p, p + 100, p + 1000; the other layout with and without the permutation.
  const relative = built['rope-relative'];
  const { q, k, layout, other } = relative.section.compute(context);
  const first = -Math.min(256, position);
  let unpermuted = 0;
  const rq = rotate(q, position, base, layout);
  const oq = rotate(q, position, base, other);
  for (let m = first; m <= 256; m++) {
    const score = dot(rq, rotate(k, position + m, base, layout));
    unpermuted = Math.max(unpermuted, Math.abs(dot(oq, rotate(k, position + m, base, other)) - score));
  }
  add('R1 caption', relative.options.describe(), [exact(3), atMost(ROUNDING), atMost(ROUNDING), near(unpermuted, 3)]);
  relative.data.curves.forEach((curve, n) => add(`R1 curve ${n}`, curve.label, [exact(position + [0, 100, 1000][n])]));

  // R2: RoFormer's bound at 0 and at the window's end; the score against s(m)/(d/2).
  const decay = built['rope-decay'];
  const window = Math.min(L - 1, 1024);
  const [atZero, last] = [roformerBound(d, base, 0), roformerBound(d, base, window)];
  // The sum of d/2 partial sums' moduli at offset 0 (1, 2, ..., d/2): a rounding per term at most.
  expectClose(atZero, (d / 2 + 1) / 2, { relative: (d / 2) * FLOAT64_EPSILON });
  const decayNotes = Object.fromEntries(decay.data.notes.map((note) => [note.testId, note.text]));
  add('R2 bound', decayNotes['rope-decay-bound'], [
    ...constants('(1/(d/2))', 1, 2),
    ...constants('m = 0', 0),
    near(atZero, 3),
    near(last, 3),
    exact(window),
    near((100 * last) / atZero, 3),
  ]);
  add('R2 agreement', decayNotes['rope-decay-agreement'], [...constants('s(m)/(d/2)', 2), atMost(ROUNDING)]);
  add('R2 caption', decay.options.describe(), [
    ...constants('offsets from 0; scaled to 1 at 0; s(m)/(d/2)', 0, 1, 0, 2),
    ...(language === 'zh' ? constants('全 1 的 q 与 k: all-ones', 1) : []),
    exact(window),
  ]);
  expect(decay.data.notes.length).toBe(2);

  // R3: the criterion Σ cos(m·θ_i) ≥ 0 for every m < L.
  const criterion = built['rope-base'];
  const notes = criterion.data.notes;
  const smallest = criterion.section.compute(context).smallest;
  const limit = Math.min(SUPPORT_LIMIT, 2 * L);
  if (smallest === null)
    add('R3 smallest', notes[0].text, [
      exact(L),
      exact(d),
      ...constants('Σ cos ≥ 0', 0),
      exact(1e12, 'searched up to'),
    ]);
  else {
    // Shown to 6 digits: the criterion holds a unit above and fails a unit below.
    const unit = 10 ** (Math.floor(Math.log10(smallest)) - 5);
    expect(firstNegative(ladder(d, smallest + unit), L), `holds above ${smallest}`).toBe(L);
    expect(firstNegative(ladder(d, smallest - unit), L), `fails below ${smallest}`).toBeLessThan(L);
    add('R3 smallest', notes[0].text, [exact(L), exact(d), ...constants('Σ cos ≥ 0', 0), near(smallest, 6)]);
  }
  const marked = [...new Set([...MARKED_BASES, base, ...(smallest === null ? [] : [smallest])])];
  expect(MARKED_BASES).toEqual([1e4, 5e5, 1e6]);
  const supported = new Map(marked.map((b) => [b, firstNegative(ladder(d, b), SUPPORT_LIMIT)]));
  const markNotes = notes.slice(1);
  expect(markNotes.length).toBe(marked.filter((b) => b !== smallest).length);
  for (const note of markNotes) {
    const b = marked.find((value) => note.testId === `rope-base-${value}`);
    const count = supported.get(b);
    add(
      `R3 base ${b}`,
      note.text,
      count >= SUPPORT_LIMIT
        ? [near(b, 3), ...constants('≥ 0', 0), exact(SUPPORT_LIMIT), exact(L)]
        : [near(b, 3), exact(count), exact(count), exact(L)],
    );
    const enough = { en: ['enough for', 'fewer than'], zh: ['足够', '不足'] }[language];
    expect(note.text).toContain(count >= L ? enough[0] : enough[1]);
  }
  for (const [n, mark] of criterion.data.marks.entries()) {
    const b = marked[n];
    expect(mark.x).toBe(b);
    add(`R3 mark ${b}`, mark.label, [near(b, 3), exact(Math.min(supported.get(b), SUPPORT_LIMIT))]);
  }
  add('R3 series', criterion.data.series[0].label, [exact(d)]);
  add('R3 guide', criterion.data.guides[0].label, [exact(L)]);
  add('R3 caption', criterion.options.describe(), [
    exact(d),
    exact(L),
    exact(limit),
    cited(2024, 'Men et al. 2024'),
    ...MARKED_BASES.map((b) => exact(b)),
  ]);
  return sentences;
}

// Default; the head dimension, context and base at their ends (params.js); the other layout from position 0.
const CHAPTER_STATES = [
  {},
  { ropeDim: 4 },
  { ropeDim: 256 },
  { context: 16 },
  { context: 16384 },
  { base: 2 },
  { base: 1e8 },
  { ropeLayout: 'interleaved', position: 0 },
  { ropeDim: 4, context: 16384, base: 2 },
];

describe('R1–R3: every numeral of every note, caption and label, from the formulas', () => {
  for (const changes of CHAPTER_STATES)
    for (const [language, table] of Object.entries(LANGUAGES))
      it(`${language} ${JSON.stringify(changes)}`, () => {
        for (const { label, text, wanted } of chapterExpectations(changes, translator(table), language))
          expectNumerals(text, wanted, label);
      }, 60_000);
});

// ---- R5, Check my RoPE: a config.json in words -------------------------------

// Real configs' RoPE fields (meta-llama/Llama-3.1-8B, Qwen/Qwen2.5-7B-Instruct with its model card's YaRN
// block, deepseek-ai/DeepSeek-V3, meta-llama/Llama-2-7b-hf, microsoft/Phi-3.5-mini-instruct) and made-up
// linear, dynamic and given-attention_factor ones. lab: the lab state Check my RoPE shows (its numbers at
// max_position_embeddings for yarn and llama3; Llama 3.1's seq_len otherwise).
const CONFIGS = [
  {
    name: 'Llama 3.1',
    config: {
      hidden_size: 4096,
      num_attention_heads: 32,
      max_position_embeddings: 131072,
      rope_theta: 500000,
      rope_scaling: {
        rope_type: 'llama3',
        factor: 8,
        low_freq_factor: 1,
        high_freq_factor: 4,
        original_max_position_embeddings: 8192,
      },
    },
    summary: { headDim: 128, base: 5e5 },
    lab: { ropeType: 'llama3', factor: 8, original: 8192, seqLen: 131072 },
  },
  {
    name: 'Qwen2.5 YaRN at 32,768',
    config: {
      hidden_size: 3584,
      num_attention_heads: 28,
      max_position_embeddings: 32768,
      rope_theta: 1e6,
      rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 },
    },
    summary: { headDim: 128, base: 1e6 },
    lab: { ropeType: 'yarn', headDim: 128, ropeTheta: 1e6, factor: 4, original: 32768, seqLen: 32768 },
  },
  {
    name: 'Qwen2.5 YaRN at 131,072, attention_factor given',
    config: {
      hidden_size: 3584,
      num_attention_heads: 28,
      max_position_embeddings: 131072,
      rope_theta: 1e6,
      rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768, attention_factor: 1.25 },
    },
    summary: { headDim: 128, base: 1e6 },
    lab: { ropeType: 'yarn', ropeTheta: 1e6, factor: 4, original: 32768, seqLen: 131072, attentionFactor: 1.25 },
  },
  {
    name: 'DeepSeek-V3',
    config: {
      hidden_size: 7168,
      num_attention_heads: 128,
      qk_rope_head_dim: 64,
      max_position_embeddings: 163840,
      rope_theta: 10000,
      rope_scaling: {
        type: 'yarn',
        factor: 40,
        mscale: 1,
        mscale_all_dim: 1,
        beta_fast: 32,
        beta_slow: 1,
        original_max_position_embeddings: 4096,
      },
    },
    summary: { headDim: 64, base: 1e4 },
    lab: { ropePreset: 'deepseek-v3' },
  },
  {
    name: 'Llama 2 (no rope_theta)',
    config: { hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 4096 },
    summary: { headDim: 128, base: 1e4 },
    lab: { ropeType: 'default', ropeTheta: 1e4 },
  },
  {
    name: 'linear ×4',
    config: {
      hidden_size: 2048,
      num_attention_heads: 16,
      max_position_embeddings: 16384,
      rope_theta: 10000,
      rope_scaling: { type: 'linear', factor: 4 },
    },
    summary: { headDim: 128, base: 1e4 },
    lab: { ropeType: 'linear', ropeTheta: 1e4, factor: 4 },
  },
  {
    name: 'dynamic ×2',
    config: {
      hidden_size: 4096,
      num_attention_heads: 32,
      max_position_embeddings: 4096,
      rope_theta: 10000,
      rope_scaling: { type: 'dynamic', factor: 2 },
    },
    summary: { headDim: 128, base: 1e4 },
    lab: { ropeType: 'dynamic', ropeTheta: 1e4, factor: 2, original: 4096 },
  },
];

/** The scaling of a config's rope_scaling, in rope-reference.js's names. */
function configScaling({ rope_scaling: s, max_position_embeddings: max }) {
  if (!s) return undefined;
  const camel = Object.fromEntries(
    Object.entries(s).map(([key, value]) => [key.replace(/_([a-z])/g, (_, c) => c.toUpperCase()), value]),
  );
  const { ropeType, type, ...rest } = camel;
  return {
    type: ropeType ?? type,
    ...rest,
    ...((ropeType ?? type) === 'dynamic' ? { maxPositionEmbeddings: max } : {}),
  };
}

describe('R5, Check my RoPE: the summary, the pair split, the attention factor and the context of a config', () => {
  for (const { name, config, summary, lab } of CONFIGS)
    for (const [language, table] of Object.entries(LANGUAGES))
      it(`${language} ${name}`, () => {
        const t = translator(table);
        const facts = configFacts(pe, config);
        const d = summary.headDim;
        const scaling = configScaling(config);
        const { invFreq, attentionFactor } = frequenciesReference({ headDim: d, base: summary.base, scaling });
        const last = invFreq.length - 1;
        expectNumerals(
          t('ropeCheck.config', facts.summary),
          [
            exact(d),
            exact(d),
            near(summary.base, 6),
            near(attentionFactor, 6),
            exact(d / 2),
            near(invFreq[0], 6),
            near(TWO_PI / invFreq[0], 4),
            near(invFreq[last], 6),
            near(TWO_PI / invFreq[last], 6),
          ],
          'summary',
        );
        // The lab's sentences, as the lab words them for the same settings.
        const r = labReference(lab);
        const { s } = r;
        expectNumerals(
          t('ropeLab.kinds', facts.split.kinds),
          s.ropeType === 'default'
            ? [exact(r.pairs)]
            : [
                exact(r.pairs),
                exact(r.kinds.kept),
                exact(r.kinds.interpolated),
                exact(r.kinds.blended),
                exact(s.factor),
              ],
          'kinds',
        );
        const attention = t('ropeLab.attention', facts.split.attention);
        expectNumerals(attention, attentionNumerals(r, attention, language), 'attention');
        const max = config.max_position_embeddings;
        if (s.ropeType !== 'yarn' && s.ropeType !== 'llama3') return expect(facts.context).toBeNull();
        const covered = s.factor * s.original;
        const firstUnseen = r.firstAfter;
        expectNumerals(
          t('ropeCheck.context', facts.context),
          [
            exact(max),
            ...(max === covered ? [] : [near(max / covered, 4)]),
            exact(s.factor),
            exact(s.original),
            exact(covered),
            ...(firstUnseen >= max
              ? [exact(max)]
              : [exact(firstUnseen), exact(max - 1), r.unseenAfter, exact(r.pairs)]),
          ],
          'context',
        );
      });
});
