// The RoPE context-extension lab's numbers (the RoPE chapter, sections 4-6):
// the presets of real model configs, the lab's knobs resolved against them,
// the library options they make, and what the lab shows (per-pair
// frequencies before and after scaling, the attention factor, the angles
// never seen in training, the dials, dynamic NTK's base by length). Every
// frequency, attention factor and angle comes from the core
// (pe.ropeFrequencies, pe.ropeCache); no text here (rope-lab-sections.js
// words it), so the page can compute it in its worker.

const TWO_PI = 2 * Math.PI;

/**
 * Real models' RoPE settings (sources in docs/rope-lab.md and on the page).
 * Every lab knob has a value in every preset; the ones its type does not read
 * hold Hugging Face's defaults.
 */
const COMMON = {
  betaFast: 32,
  betaSlow: 1,
  mscale: 0,
  mscaleAllDim: 0,
  attentionFactor: null,
  lowFreqFactor: 1,
  highFreqFactor: 4,
};

// Phi-3.5-mini-instruct's config.json (rope_scaling, type "longrope"): one factor per rotary pair (head_dim 96).
const PHI35_LONG = [
  1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115, 1.600000023841858,
  1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432,
  7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945, 24.46000099182129, 28.57000160217285,
  30.420001983642578, 30.840002059936523, 32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992,
  50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457,
  62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094,
  63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688, 64.06999969482422, 64.08000183105469,
  64.12000274658203, 64.41000366210938, 64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062,
];
const PHI35_SHORT = [
  1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842,
  1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684,
  1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022,
  1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788, 1.8799997568130493, 1.9099997282028198,
  1.9399996995925903, 1.9899996519088745, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
  2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0299997329711914, 2.0299997329711914,
  2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
  2.0299997329711914, 2.0299997329711914, 2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713,
  2.5899994373321533, 2.729999542236328, 2.749999523162842, 2.8399994373321533,
];

export const ROPE_PRESETS = Object.freeze({
  // meta-llama/Llama-2-7b-hf config.json: hidden_size 4096, 32 heads, max_position_embeddings 4096, no rope_theta.
  'llama2-7b': {
    ...COMMON,
    ropeType: 'default',
    headDim: 128,
    ropeTheta: 10000,
    factor: 1,
    originalMaxPositionEmbeddings: 4096,
    seqLen: 8192,
    layout: 'half',
  },
  // meta-llama/Llama-3.1-8B config.json: rope_theta 500000, rope_scaling llama3 (8, 1, 4, 8192), 131072 positions.
  'llama3.1-8b': {
    ...COMMON,
    ropeType: 'llama3',
    headDim: 128,
    ropeTheta: 500000,
    factor: 8,
    lowFreqFactor: 1,
    highFreqFactor: 4,
    originalMaxPositionEmbeddings: 8192,
    seqLen: 131072,
    layout: 'half',
  },
  // Qwen/Qwen2.5-7B-Instruct: config.json (rope_theta 1e6, 3584 / 28 heads) and its model card's YaRN
  // block {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}.
  'qwen2.5-7b-yarn': {
    ...COMMON,
    ropeType: 'yarn',
    headDim: 128,
    ropeTheta: 1000000,
    factor: 4,
    originalMaxPositionEmbeddings: 32768,
    seqLen: 131072,
    layout: 'half',
  },
  // deepseek-ai/DeepSeek-V3 config.json: qk_rope_head_dim 64, rope_theta 10000, rope_scaling yarn
  // (factor 40, mscale 1.0, mscale_all_dim 1.0, beta_fast 32, beta_slow 1, original 4096), 163840 positions.
  'deepseek-v3': {
    ...COMMON,
    ropeType: 'yarn',
    headDim: 64,
    ropeTheta: 10000,
    factor: 40,
    mscale: 1,
    mscaleAllDim: 1,
    originalMaxPositionEmbeddings: 4096,
    seqLen: 163840,
    layout: 'interleaved',
  },
  // microsoft/Phi-3.5-mini-instruct config.json: 3072 / 32 heads, rope_theta 10000, longrope with 48 short and
  // 48 long factors, original_max_position_embeddings 4096, max_position_embeddings 131072 (factor 32 by HF's ratio).
  'phi3.5-mini': {
    ...COMMON,
    ropeType: 'longrope',
    headDim: 96,
    ropeTheta: 10000,
    factor: 32,
    originalMaxPositionEmbeddings: 4096,
    seqLen: 131072,
    layout: 'half',
    shortFactor: PHI35_SHORT,
    longFactor: PHI35_LONG,
  },
});
export const ROPE_PRESET_NAMES = Object.freeze(Object.keys(ROPE_PRESETS));
export const LAB_TYPES = Object.freeze(['default', 'linear', 'dynamic', 'yarn', 'llama3', 'longrope']);

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

/** The first position m whose angle m·w exceeds `angle` (the division's rounding corrected either way). */
function firstBeyond(w, angle) {
  let m = Math.floor(angle / w) + 1;
  while (m > 0 && (m - 1) * w > angle) m--;
  while (m * w <= angle) m++;
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
 * chosen type's; trained: the largest angle each pair reached over the
 * original context (positions 0 .. L0 − 1); firstUnseen: per pair, the first
 * position whose scaled angle exceeds it (Infinity for a pair that turned
 * fully in training), before and after scaling.
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
  const trained = before.map((w) => (L0 - 1) * w);
  const fullTurn = Array.from(trained, (angle) => angle >= TWO_PI);
  const firstUnseenAfter = Float64Array.from(after, (w, i) => (fullTurn[i] ? Infinity : firstBeyond(w, trained[i])));
  const last = k.seqLen - 1;
  const unseenAt = (invFreq) => fullTurn.reduce((n, full, i) => n + (!full && last * invFreq[i] > trained[i]), 0);
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
    unseenBefore: last >= L0 ? unseenAt(before) : 0,
    unseenAfter: unseenAt(after),
    // The dials read the sequence's last position.
    position: last,
    anglesBefore: anglesAt(pe, { headDim: k.headDim, base: k.ropeTheta }, last),
    anglesAfter: anglesAt(pe, options, last),
    dynamicBases: null,
  };
  if (k.ropeType === 'dynamic') {
    const lengths = [...new Set([L0, 2 * L0, 4 * L0, 8 * L0, Math.max(L0, k.seqLen)])].sort((a, b) => a - b);
    numbers.dynamicBases = lengths.map((length) => ({ length, base: dynamicBase(pe, options, pairs * 2, length) }));
  }
  return numbers;
}

/** The lab's part of a page state (the memo key of its numbers). */
export const labState = (state) => Object.fromEntries(LAB_KEYS.map((key) => [key, state[key] ?? null]));

/** Per lab plot: compute({ model, state }) -> numbers (run in the page's worker; model.ropeLab memoises). */
export const ROPE_LAB_COMPUTE = {
  'rope-scaling': ({ model, state }) => model.ropeLab(labState(state)),
  'rope-dials': ({ model, state }) => model.ropeLab(labState(state)),
};
