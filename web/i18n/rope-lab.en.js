// English prose of the RoPE chapter's sections 4-6 (the context-extension lab,
// Check my RoPE, Code): spread into en.js. Rich texts as in en.js.
import { formatGrouped as n, groupDigits as count } from './number.js';

// A base: grouped digits from 100,000 up (500,000, not 5.00000e+5), else 6 significant digits.
const big = (value) => (Math.abs(value) >= 1e5 && Math.abs(value) < 1e15 ? count(Math.round(value)) : n(value, 6));

const r = String.raw;

// ropeFromConfig's warnings, by code (web/lib/rope-config.js), in words.
const warnings = {
  'rope-theta-missing': 'The config has no rope_theta: 10000 is assumed (Llama 2’s config.json has none either).',
  'unknown-scaling-type': 'The rope type is not one posenc computes: the frequencies shown are unscaled.',
  'legacy-type': 'The type “su” is Phi-3’s first name for longrope: read as longrope.',
  'yarn-factor-mismatch':
    'The yarn factor differs from max_position_embeddings / original_max_position_embeddings: the factor is used.',
  'llama3-fields-missing':
    'A llama3 field is missing (Hugging Face refuses such a config): Llama 3.1’s values are assumed for it.',
  'longrope-factor-length': 'short_factor / long_factor do not hold one factor per rotary pair: they cannot be used.',
  'longrope-depends-on-length': 'The frequencies depend on the sequence length (short or long factors): pass seq_len.',
  'dynamic-depends-on-length': 'The frequencies depend on the sequence length (dynamic NTK): pass seq_len.',
  'odd-rotary-dim': 'partial_rotary_factor leaves an odd number of rotary dims: rounded down to even.',
  'per-layer-rope': 'The config has one RoPE per layer type: the full-attention one is shown.',
  'odd-head-dim':
    'head_dim is odd: posenc rotates one dim fewer; Hugging Face computes head_dim / 2 + 1/2 frequencies that cannot pair up.',
  'local-rope-base':
    'Most layers (sliding window) rotate with rope_local_base_freq, unscaled: the values shown are those of the full-attention layers.',
  'text-config': 'The RoPE fields came from text_config (a vision-language model).',
  'interleaved-layout': 'rope_interleave is true (DeepSeek-V3): the cache is laid out interleaved.',
};

export default {
  // The lab's fields: Hugging Face's names (config.json keys), the same in every language.
  'controls.ropePreset': 'Model config',
  'controls.ropeType': 'rope_type',
  'controls.headDim': 'head_dim',
  'controls.ropeTheta': 'rope_theta',
  'controls.factor': 'factor',
  'controls.originalMaxPositionEmbeddings': 'original_max_position_embeddings',
  'controls.seqLen': 'seq_len',
  'controls.betaFast': 'beta_fast',
  'controls.betaSlow': 'beta_slow',
  'controls.mscale': 'mscale',
  'controls.mscaleAllDim': 'mscale_all_dim',
  'controls.attentionFactor': 'attention_factor',
  'controls.lowFreqFactor': 'low_freq_factor',
  'controls.highFreqFactor': 'high_freq_factor',
  'ropeLab.title': 'The context-extension lab',
  'ropeLab.text': r`A model trained on $L_0$ positions saw each rotary pair $i$ turn by the angles $p\,\omega_i$, $p < L_0$, $\omega_i = \text{rope\_theta}^{-2i/d}$. Pairs whose wavelength $2\pi/\omega_i$ is shorter than $L_0$ turned full circles and met every angle; the slow pairs did not, and beyond $L_0$ they reach angles the model never saw. Every context-extension method changes this frequency ladder: **linear** (position interpolation{cite:chen2023-pi}) divides every $\omega_i$ by the factor; **dynamic NTK** enlarges the base with the sequence length; **YaRN**{cite:yarn} keeps the pairs that turn more than $\beta_\text{fast}$ times in $L_0$, interpolates those that turn less than $\beta_\text{slow}$ times and ramps in between, and scales the attention; **Llama 3**{cite:llama3} does the same with wavelength bands ($L_0$/high_freq_factor, $L_0$/low_freq_factor); **LongRoPE**{cite:longrope} divides each pair by its own searched factor.

Pick a real model’s config or set the fields yourself (Hugging Face’s names{cite:hf-rope-utils}): the plot shows each pair’s wavelength without scaling (rings) and with it (dots), the sentences below it what the method did, computed by posenc’s ropeFrequencies.`,
  'ropeLab.dialsText': r`The same pairs as dials that turn once per wavelength. Su Jianlin{cite:su-beta} reads RoPE as a number written in base $\beta = \text{rope\_theta}^{2/d}$: the fast dials are the low digits, the slow ones the high digits. Interpolation slows the high digits down so that they stay inside the range they learned.`,
  'ropeLab.controls': 'Lab settings',
  'ropeLab.presetName.llama2-7b': 'Llama 2 7B (no scaling)',
  'ropeLab.presetName.llama3.1-8b': 'Llama 3.1 8B (llama3)',
  'ropeLab.presetName.qwen2.5-7b-yarn': 'Qwen2.5 7B Instruct with YaRN',
  'ropeLab.presetName.deepseek-v3': 'DeepSeek-V3 (YaRN, mscale)',
  'ropeLab.presetName.phi3.5-mini': 'Phi-3.5-mini-instruct (LongRoPE)',
  'ropeLab.sources': r`Sources of the presets: meta-llama/Llama-2-7b-hf config.json (no rope_theta: 10000); meta-llama/Llama-3.1-8B config.json; Qwen/Qwen2.5-7B-Instruct config.json and its model card’s YaRN block for texts beyond 32,768 tokens; deepseek-ai/DeepSeek-V3 config.json (qk_rope_head_dim 64); microsoft/Phi-3.5-mini-instruct config.json (48 short and 48 long factors). Phi-3-mini-128k’s own config.json could not be read here, so its successor Phi-3.5-mini stands for LongRoPE.`,
  'ropeLab.invalid': (name, message) => `${name}: ${message}.`,
  'ropeLab.failed': (message) => `These settings cannot be computed: ${message}`,

  'ropeCheck.title': 'Check my RoPE',
  'ropeCheck.text': r`Paste a model’s config.json: posenc’s ropeFromConfig reads its RoPE fields as Hugging Face does, and the frequencies, the attention factor and every warning appear below. Or give a cos or sin cache (.npy, CSV or JSON, one row per position): the page names its layout, base, scaling and dtype where they explain the values. Nothing pasted leaves your browser.`,
  'ropeCheck.configLabel': 'config.json',
  'ropeCheck.configButton': 'Read the config',
  'ropeCheck.cacheLabel': 'cos or sin cache (.npy, CSV, JSON)',
  'ropeCheck.cacheText': 'or paste its values',
  'ropeCheck.cacheButton': 'Identify the cache',
  'ropeCheck.configTooLong': (limit) => `The config could not be read: it has more than ${count(limit)} characters.`,
  'ropeCheck.configField': ({ field, missing }) =>
    missing
      ? `The config could not be read: ${field} is missing.`
      : `The config could not be read: ${field} has a value posenc cannot use.`,
  'ropeCheck.configNotJson': 'The config could not be read: the text is not valid JSON.',
  'ropeCheck.configRefused': 'The config could not be read: posenc cannot compute RoPE from its fields.',
  'ropeCheck.originalMessage': 'The message in English',
  'ropeCheck.config': ({ type, headDim, rotaryDim, base, attentionFactor, invFreq }) =>
    `RoPE type ${type}, head_dim ${headDim} (${rotaryDim} rotary dims), rope_theta ${big(base)}, attention factor ${n(attentionFactor, 6)}. ${invFreq.length} inverse frequencies, from ${n(invFreq[0], 6)} (wavelength ${n((2 * Math.PI) / invFreq[0], 4)}) to ${n(invFreq[invFreq.length - 1], 6)} (wavelength ${n((2 * Math.PI) / invFreq[invFreq.length - 1], 6)}).`,
  'ropeCheck.context': ({ max, factor, original, covered, ratio, firstUnseen, unseen, pairs }) =>
    `max_position_embeddings ${count(max)} = ${ratio === 1 ? '' : `${n(ratio, 4)} × `}factor·L₀ (factor ${n(factor, 6)} × original_max_position_embeddings ${count(original)} = ${count(covered)}). ${
      firstUnseen >= max
        ? `No position below ${count(max)} turns a pair to an angle it never reached in training.`
        : `From position ${count(firstUnseen)} on, the slow pairs reach angles they never saw in training: at position ${count(max - 1)}, ${unseen} of ${pairs} pairs are outside the arc they swept in training.`
    }`,
  'ropeCheck.warning': (code, message) => warnings[code] ?? message,
  'ropeCheck.noWarnings': 'No warnings: every RoPE field was read as given.',
  'ropeCheck.useInLab': 'Show in the lab',
  'ropeCheck.cacheReading': (name) => `Reading ${name}…`,
  'ropeCheck.cacheIdentifying': (name) => `Reading the numbers of ${name} and naming the cache…`,
  'ropeCheck.cacheFailed':
    'The cache check could not start, or stopped unexpectedly: its script or the WebAssembly core did not load. Retry, or reload the page.',
  'ropeCheck.cacheError': (message) => `The cache could not be read: ${message}`,
  'ropeCheck.cacheShape': (rows, columns, dtype) =>
    `${count(rows)} positions × ${columns} columns${dtype ? `, ${dtype}` : ''}.`,
  'ropeCheck.verdict': ({ kind, layout, rotaryDim, base, type, factor, attentionFactor, dtype, error }) =>
    `A ${kind} cache, ${layout === 'half' ? 'half-split layout (rotate_half, GPT-NeoX)' : 'interleaved layout (GPT-J, RoFormer)'}, ${rotaryDim} rotary dims: rope_theta ${big(base)}, ${type === 'default' ? 'no scaling' : `${type} scaling${factor ? `, factor ${n(factor, 4)}` : ''}`}, attention factor ${n(attentionFactor, 6)}, ${dtype} values; posenc rebuilds it within ${n(error, 2)}.`,
  'ropeCheck.partial': ({ kind, layout, rotaryDim, base, error }) =>
    `A ${kind} cache, ${layout === 'half' ? 'half-split layout (rotate_half)' : 'interleaved layout'}, ${rotaryDim} rotary dims. Its frequencies follow no scaling type posenc knows; the closest plain ladder has rope_theta ${big(base)} and misses by ${n(error, 2)}.`,
  'ropeCheck.unknown': (reason) => `Not a RoPE cache posenc can explain: ${reason}`,
  'ropeCheck.reason.pairs': 'no column pairs up with another (neither half-split nor interleaved).',
  'ropeCheck.reason.start': 'its first row is not position 0 (cos 1, sin 0 times a constant).',
  'ropeCheck.reason.shape': 'it needs at least 3 rows and an even number of columns.',
  'ropeCheck.reason.rows': ({ rowsNeeded }) =>
    `too few rows to tell its scaling (several fit these rows alike): give about ${count(rowsNeeded)} rows from position 0.`,

  'ropeCode.title': 'Code',
  'ropeCode.text': r`The code that rebuilds the exact inv_freq, attention factor and cos/sin cache of the lab’s current settings, with Hugging Face’s formulas{cite:hf-rope-utils} in float64 (the NumPy version is run against posenc in the project’s tests).`,
  'ropeCode.language': 'Language',
  'ropeCode.length': 'Cache length (positions)',
  'ropeCode.copy': 'Copy',
  'ropeCode.copied': 'Copied.',
};
