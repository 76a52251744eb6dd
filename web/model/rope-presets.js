// The RoPE lab's presets (real models' settings) and types: plain values the
// parameter table (params.js) reads at load; the lab's numbers (rope-lab-data.js)
// load with its chapter.

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
