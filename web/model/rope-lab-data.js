// The RoPE context-extension lab's numbers (the RoPE chapter, sections 4-6):
// the lab's knobs resolved against the presets of real model configs
// (rope-presets.js),
// the library options they make, and what the lab shows (per-pair
// frequencies before and after scaling, the attention factor, the angles
// never seen in training, the dials, dynamic NTK's base by length). Every
// frequency, attention factor and angle comes from the core
// (pe.ropeFrequencies, pe.ropeCache); no text here (rope-lab-sections.js
// words it), so the page can compute it in its worker.

import { PARAM, parse } from './params.js';
import { LAB_TYPES, ROPE_PRESETS } from './rope-presets.js';

export { LAB_TYPES, ROPE_PRESETS, ROPE_PRESET_NAMES } from './rope-presets.js';

const TWO_PI = 2 * Math.PI;

/** The lab's knobs (page state keys), in the order params.js reads them. */
export const LAB_KEYS = Object.freeze([
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
]);

/** The knobs each type reads, beyond ropeType, headDim, ropeTheta and seqLen. */
export const TYPE_KNOBS = Object.freeze({
  default: [],
  linear: ['factor'],
  dynamic: ['factor', 'originalMaxPositionEmbeddings'],
  yarn: [
    'factor',
    'originalMaxPositionEmbeddings',
    'betaFast',
    'betaSlow',
    'mscale',
    'mscaleAllDim',
    'attentionFactor',
  ],
  llama3: ['factor', 'originalMaxPositionEmbeddings', 'lowFreqFactor', 'highFreqFactor'],
  longrope: ['originalMaxPositionEmbeddings', 'attentionFactor'],
});

/** A knob's value: the state's, else (null) the preset's. */
export function labKnobs(state) {
  const preset = ROPE_PRESETS[state.ropePreset] ?? ROPE_PRESETS['llama3.1-8b'];
  const knobs = { ropePreset: state.ropePreset };
  for (const key of LAB_KEYS.slice(1)) knobs[key] = state[key] ?? preset[key];
  // LongRoPE's factors are one per pair: its head dimension is the preset's lists' (Phi-3.5-mini's when the
  // preset has none).
  if (knobs.ropeType === 'longrope') {
    const lists = preset.longFactor ? preset : ROPE_PRESETS['phi3.5-mini'];
    knobs.shortFactor = lists.shortFactor;
    knobs.longFactor = lists.longFactor;
    knobs.headDim = 2 * lists.longFactor.length;
    knobs.headDimFixed = knobs.headDim !== (state.headDim ?? preset.headDim);
  }
  knobs.layout = preset.layout;
  return knobs;
}

/**
 * The options of pe.ropeFrequencies / ropeCache / codeSnippet for resolved
 * knobs, with Hugging Face's field names in camelCase (what ropeFromConfig
 * gives for the same config.json).
 */
export function labOptions(k) {
  const options = { headDim: k.headDim, base: k.ropeTheta };
  const L0 = k.originalMaxPositionEmbeddings;
  switch (k.ropeType) {
    case 'default':
      break;
    case 'linear':
      options.scaling = { type: 'linear', factor: k.factor };
      break;
    case 'dynamic':
      // HF's dynamic type reads max_position_embeddings as the trained context.
      options.scaling = { type: 'dynamic', factor: k.factor, maxPositionEmbeddings: L0 };
      options.seqLen = k.seqLen;
      break;
    case 'yarn':
      options.scaling = {
        type: 'yarn',
        factor: k.factor,
        originalMaxPositionEmbeddings: L0,
        betaFast: k.betaFast,
        betaSlow: k.betaSlow,
      };
      if (k.mscale) options.scaling.mscale = k.mscale;
      if (k.mscaleAllDim) options.scaling.mscaleAllDim = k.mscaleAllDim;
      if (k.attentionFactor !== null) options.scaling.attentionFactor = k.attentionFactor;
      break;
    case 'llama3':
      options.scaling = {
        type: 'llama3',
        factor: k.factor,
        originalMaxPositionEmbeddings: L0,
        lowFreqFactor: k.lowFreqFactor,
        highFreqFactor: k.highFreqFactor,
      };
      break;
    case 'longrope':
      options.scaling = {
        type: 'longrope',
        factor: k.factor,
        originalMaxPositionEmbeddings: L0,
        shortFactor: k.shortFactor,
        longFactor: k.longFactor,
      };
      if (k.attentionFactor !== null) options.scaling.attentionFactor = k.attentionFactor;
      options.seqLen = k.seqLen;
      break;
    default:
      throw new RangeError(`no RoPE type ${k.ropeType}`);
  }
  return options;
}

// Relative tolerance for "unchanged" and "divided by factor": the core's HF order of operations
// (1 / (factor * pos_freqs)) differs from w / factor in the last bits.
const SAME = 1e-9;

/** 'kept' (turns as in training), 'interpolated' (w / factor) or 'blended' (anything else), per pair. */
function classify(before, after, factor) {
  return Array.from(before, (w, i) => {
    const ratio = w / after[i];
    if (Math.abs(ratio - 1) <= SAME) return 'kept';
    if (Math.abs(ratio - factor) <= SAME * factor) return 'interpolated';
    return 'blended';
  });
}

/** The first position m whose angle m·w reaches `angle` (the division's rounding corrected either way). */
function firstReaching(w, angle) {
  let m = Math.ceil(angle / w);
  while (m > 0 && (m - 1) * w >= angle) m--;
  while (m * w < angle) m++;
  return m;
}

/** The angle of each pair at `position` (in [0, 2π)), from the core's float64 cache row. */
function anglesAt(pe, options, position) {
  const { cos, sin } = pe.ropeCache({ ...options, start: position, length: 1, dtype: 'float64' });
  const pairs = cos.length / 2;
  // Half layout: pair i is at i (and i + pairs).
  return Float64Array.from({ length: pairs }, (_, i) => {
    const angle = Math.atan2(sin[i], cos[i]);
    return angle < 0 ? angle + TWO_PI : angle;
  });
}

/** The dynamic type's base at sequence length L, read back from the core's second inverse frequency. */
function dynamicBase(pe, options, d, length) {
  const { invFreq } = pe.ropeFrequencies({ ...options, seqLen: length });
  return invFreq[1] ** (-d / 2);
}

/**
 * Everything the lab shows for a page state: numbers and typed arrays only.
 * before: the unscaled ladder (same head_dim and rope_theta); after: the
 * chosen type's; trained: per pair the arc that the original context's
 * range of positions [0, L0) sweeps (a position between two trained ones
 * counts as seen: that is what position interpolation relies on);
 * firstUnseen: the first position whose angle leaves that arc (Infinity for
 * a pair that turned fully in training), before and after scaling;
 * unseen: how many pairs are at an angle outside their arc at the last
 * position, counted on the circle (mod 2π), as the dials show them.
 */
export function labNumbers(pe, state) {
  const k = labKnobs(state);
  const options = labOptions(k);
  const scaled = pe.ropeFrequencies(options);
  const plain = pe.ropeFrequencies({ headDim: k.headDim, base: k.ropeTheta });
  const before = plain.invFreq;
  const after = scaled.invFreq;
  const L0 = k.originalMaxPositionEmbeddings;
  const pairs = before.length;
  const trained = before.map((w) => L0 * w);
  const fullTurn = Array.from(trained, (angle) => angle >= TWO_PI);
  const firstUnseenAfter = Float64Array.from(after, (w, i) => (fullTurn[i] ? Infinity : firstReaching(w, trained[i])));
  const last = k.seqLen - 1;
  const anglesBefore = anglesAt(pe, { headDim: k.headDim, base: k.ropeTheta }, last);
  const anglesAfter = anglesAt(pe, options, last);
  const unseenAt = (angles) => fullTurn.reduce((n, full, i) => n + (!full && angles[i] >= trained[i]), 0);
  const numbers = {
    knobs: k,
    options,
    pairs,
    rotaryDim: scaled.rotaryDim,
    before,
    after,
    wavelengthBefore: before.map((w) => TWO_PI / w),
    wavelengthAfter: after.map((w) => TWO_PI / w),
    kinds: classify(before, after, k.factor),
    attentionFactor: scaled.attentionFactor,
    original: L0,
    seqLen: k.seqLen,
    trained,
    fullTurns: fullTurn.filter(Boolean).length,
    firstUnseenBefore: fullTurn.every(Boolean) ? Infinity : L0,
    firstUnseenAfter: Math.min(...firstUnseenAfter),
    unseenBefore: last >= L0 ? unseenAt(anglesBefore) : 0,
    unseenAfter: unseenAt(anglesAfter),
    // The dials read the sequence's last position.
    position: last,
    anglesBefore,
    anglesAfter,
    dynamicBases: null,
  };
  if (k.ropeType === 'dynamic') {
    const lengths = [...new Set([L0, 2 * L0, 4 * L0, 8 * L0, Math.max(L0, k.seqLen)])].sort((a, b) => a - b);
    numbers.dynamicBases = lengths.map((length) => ({ length, base: dynamicBase(pe, options, pairs * 2, length) }));
  }
  return numbers;
}

/**
 * What the readout says of pair i: its wavelength before and after scaling,
 * their ratio (the pair's own factor), what the method did to it, and the
 * share of its circle that the training range [0, L0) swept (1 once it turned
 * a full circle).
 */
export function pairNumbers(n, i) {
  return {
    pair: i,
    wavelengthBefore: n.wavelengthBefore[i],
    wavelengthAfter: n.wavelengthAfter[i],
    factor: n.wavelengthAfter[i] / n.wavelengthBefore[i],
    kind: n.kinds[i],
    seenShare: Math.min(1, n.trained[i] / TWO_PI),
  };
}

/**
 * The types whose attention_factor, when the config gives one, replaces the
 * computed factor: Hugging Face reads it in _compute_yarn_parameters and
 * _compute_longrope_parameters only (llama3, linear and dynamic return 1).
 */
export const GIVEN_ATTENTION_TYPES = Object.freeze(['yarn', 'longrope']);

/**
 * What the sentences on the pair split and the attention factor say, for the
 * lab's numbers: the lab and Check my RoPE word these same facts.
 */
export function splitFacts(n) {
  const k = n.knobs;
  const count = (kind) => n.kinds.filter((each) => each === kind).length;
  return {
    kinds: {
      pairs: n.pairs,
      kept: count('kept'),
      interpolated: count('interpolated'),
      blended: count('blended'),
      factor: k.factor,
      type: k.ropeType,
    },
    attention: {
      type: k.ropeType,
      value: n.attentionFactor,
      given: k.attentionFactor !== null && GIVEN_ATTENTION_TYPES.includes(k.ropeType),
      mscale: k.mscale,
      mscaleAllDim: k.mscaleAllDim,
      factor: k.factor,
    },
  };
}

/** The lab's state for ropeFromConfig's options, when the lab can show them (null otherwise). */
function labStateOf(options, headDim) {
  const s = options.scaling ?? { type: 'default' };
  if (!LAB_TYPES.includes(s.type) || s.type === 'longrope' || options.partialRotaryFactor) return null;
  const next = { ropeType: s.type, headDim, ropeTheta: options.base ?? 10000 };
  // What a yarn config leaves out takes Hugging Face's defaults, not the lab preset's (DeepSeek-V3's mscale 1).
  if (s.type === 'yarn') Object.assign(next, { betaFast: 32, betaSlow: 1, mscale: 0, mscaleAllDim: 0 });
  if (s.factor !== undefined) next.factor = s.factor;
  const original = s.originalMaxPositionEmbeddings ?? s.maxPositionEmbeddings;
  if (original !== undefined) next.originalMaxPositionEmbeddings = original;
  for (const key of [
    'betaFast',
    'betaSlow',
    'mscale',
    'mscaleAllDim',
    'attentionFactor',
    'lowFreqFactor',
    'highFreqFactor',
  ])
    if (s[key] !== undefined) next[key] = s[key];
  // Only what the lab's fields accept (params.js): anything else stays out of the lab.
  for (const [key, value] of Object.entries(next)) {
    try {
      parse(PARAM[key], String(value), { ropePreset: 'llama3.1-8b' });
    } catch {
      return null;
    }
  }
  return next;
}

/**
 * What "Check my RoPE" says of a parsed config.json (throws the library's
 * error when it cannot be read): ropeFromConfig's options and warnings, the
 * summary's facts, and when the lab can show the config, its lab state, the
 * lab's numbers at the config's max_position_embeddings and (for the types
 * with a trained context, yarn and llama3) how that length compares with
 * factor·L0, the length whose slowest pairs just fill the arcs they swept in
 * training.
 */
export function configFacts(pe, config) {
  const { options, warnings } = pe.ropeFromConfig(config);
  const f = pe.ropeFrequencies(options);
  const headDim = options.headDim ?? Math.floor(options.hiddenSize / options.numHeads);
  const summary = {
    type: options.scaling?.type ?? 'default',
    headDim,
    rotaryDim: f.rotaryDim,
    base: options.base ?? 10000,
    attentionFactor: f.attentionFactor,
    invFreq: f.invFreq,
  };
  const lab = labStateOf(options, headDim);
  const facts = { options, warnings, summary, lab, numbers: null, split: null, context: null };
  if (!lab) return facts;
  const fields =
    config.hidden_size === undefined && config.head_dim === undefined ? (config.text_config ?? config) : config;
  const max = Number.isInteger(fields.max_position_embeddings) ? fields.max_position_embeddings : null;
  const withTrained = (lab.ropeType === 'yarn' || lab.ropeType === 'llama3') && lab.originalMaxPositionEmbeddings;
  const numbers = labNumbers(pe, { ropePreset: 'llama3.1-8b', ...lab, ...(max && withTrained ? { seqLen: max } : {}) });
  Object.assign(facts, { numbers, split: splitFacts(numbers) });
  if (!max || !withTrained) return facts;
  const covered = lab.factor * lab.originalMaxPositionEmbeddings;
  facts.context = {
    max,
    factor: lab.factor,
    original: lab.originalMaxPositionEmbeddings,
    covered,
    ratio: max / covered,
    firstUnseen: numbers.firstUnseenAfter,
    unseen: numbers.unseenAfter,
    pairs: numbers.pairs,
  };
  return facts;
}

/** The lab's part of a page state (the memo key of its numbers). */
export const labState = (state) => Object.fromEntries(LAB_KEYS.map((key) => [key, state[key] ?? null]));

/** Per lab plot: compute({ model, state }) -> numbers (run in the page's worker; model.remember memoises). */
export const ROPE_LAB_COMPUTE = {
  'rope-scaling': ({ model, state }) => model.remember('ropeLab', labNumbers, labState(state)),
  'rope-dials': ({ model, state }) => model.remember('ropeLab', labNumbers, labState(state)),
};
