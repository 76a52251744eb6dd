// compareRuntimes: what Hugging Face transformers 5 and 4.4x, vLLM, llama.cpp and
// MLX-LM each compute for a config.json's RoPE, layer type by layer type, and
// where they differ from transformers 5, as named facts. Cos/sin differences
// within the runtimes' float32 angle formation bounds are not differences.
import { fail, integer, MAX_MAGNITUDE } from '../options.js';
import { readModel } from './model.js';
import { TRANSFORMERS5, transformers5 } from './transformers5.js';
import { TRANSFORMERS4, transformers4 } from './transformers4.js';
import { VLLM_SOURCE, vllm } from './vllm.js';
import { LLAMACPP_SOURCE, ggufFromConfig, llamacpp } from './llamacpp.js';
import { MLX_SOURCE, mlx } from './mlx.js';

export { readModel, ggufFromConfig, llamacpp };
export { ggufRopeKeys } from './gguf.js';
export const RUNTIME_SOURCES = [TRANSFORMERS5, TRANSFORMERS4, VLLM_SOURCE, LLAMACPP_SOURCE, MLX_SOURCE];

// Issues behind a difference, by runtime and quantity (checked against the code above, not taken from them).
const ISSUES = {
  'vllm:longrope':
    'vllm-project/vllm: Phi3LongRoPEScaledRotaryEmbedding forces long factors when max_model_len > original (KV cache invalidation)',
  'llamacpp:longrope': 'ggml-org/llama.cpp#24823',
  'vllm:dynamic': 'vllm-project/vllm: DynamicNTKScalingRotaryEmbedding computes one base (max_trained_positions)',
  'llamacpp:dynamic': 'convert_hf_to_gguf.py writes nothing for rope_type dynamic',
  'llamacpp:angle': 'ggml ggml_rope_cache_init: theta *= theta_scale in float32',
  'llamacpp:yarn-attention': 'ggml-org/llama.cpp#17945',
  'mlx:yarn-attention': 'mlx_lm YarnRoPE reads no attention_factor',
  'transformers4:longrope':
    'transformers 4.4x _compute_longrope_parameters: long_factor whenever max_position_embeddings > original',
};

// What a half-split rotation on the checkpoint's rows is, once llama.cpp's permutation is undone.
const effectiveLayout = (r) => (r.layout === 'interleaved' && r.weightsPermuted ? 'half' : r.layout);

/** Positions where angles are compared: powers of two minus one up to seqLen - 1, and seqLen - 1. */
function positionsUpTo(seqLen) {
  const out = [];
  for (let p = 1; p < seqLen; p = p * 2 + 1) out.push(p);
  if (out[out.length - 1] !== seqLen - 1) out.push(seqLen - 1);
  return out;
}

function compareLayer(runtime, ref, got, positions) {
  const facts = [];
  const fact = (quantity, maxAbs, atPositions, extra = {}) =>
    facts.push({ runtime, quantity, layerType: ref.layerType, maxAbs, atPositions, codePath: got.codePath, ...extra });
  if (ref.rope !== got.rope) {
    fact('rope', 1, [], { reference: ref.rope, value: got.rope });
    return facts;
  }
  if (!ref.rope) return facts;
  if (ref.rotaryDim !== got.rotaryDim)
    fact('rotaryDim', Math.abs(ref.rotaryDim - got.rotaryDim), [], { reference: ref.rotaryDim, value: got.rotaryDim });
  if (effectiveLayout(ref) !== effectiveLayout(got))
    fact('layout', 1, [], {
      reference: effectiveLayout(ref),
      value: `${got.layout}${got.weightsPermuted ? ' (q/k permuted)' : ''}`,
    });
  if (Math.abs(ref.attentionFactor - got.attentionFactor) > 1e-6 * ref.attentionFactor)
    fact('attentionFactor', Math.abs(ref.attentionFactor - got.attentionFactor), [], {
      reference: ref.attentionFactor,
      value: got.attentionFactor,
    });
  if (got.softmaxFactor !== null && Math.abs(ref.softmaxFactor - got.softmaxFactor) > 1e-6)
    fact('softmaxFactor', Math.abs(ref.softmaxFactor - got.softmaxFactor), [], {
      reference: ref.softmaxFactor,
      value: got.softmaxFactor,
    });
  if (ref.rotaryDim !== got.rotaryDim) return facts;
  const pairs = ref.rotaryDim / 2;
  let worstFreq = 0;
  for (let i = 0; i < pairs; i++)
    worstFreq = Math.max(worstFreq, Math.abs(ref.invFreq[i] - got.invFreq[i]) / ref.invFreq[i]);
  // Beyond float32 rounding of the frequencies (powf, the factor tensors) and llama.cpp's theta_scale^i.
  if (worstFreq > pairs * 2 ** -22) fact('invFreq', worstFreq, [], { relative: true });
  // cos of each runtime's own float32 angle: a difference only past both angle bounds.
  let worst = 0;
  const at = [];
  for (const p of positions) {
    let here = 0;
    for (let i = 0; i < pairs; i++) {
      const a = ref.angle(p, i);
      const b = got.angle(p, i);
      const bound = ref.angleBound(p, ref.invFreq[i], i) + got.angleBound(p, got.invFreq[i], i);
      const d = Math.abs(ref.attentionFactor * Math.cos(a) - got.attentionFactor * Math.cos(b));
      if (d > bound * Math.max(ref.attentionFactor, got.attentionFactor) + 1e-6) here = Math.max(here, d);
    }
    if (here > 0) at.push(p);
    worst = Math.max(worst, here);
  }
  if (worst > 0) fact('cos', worst, at);
  return facts;
}

/**
 * @param {object} config a parsed config.json
 * @param {{ seqLen?: number, nCtx?: number, maxModelLen?: number }} opts seqLen: the sequence length
 *   (Hugging Face's dynamic and LongRoPE rules; default max_position_embeddings); nCtx: llama.cpp's
 *   context per sequence (default the model's); maxModelLen: vLLM's --max-model-len (default the model's)
 */
export function compareRuntimes(pe, config, opts) {
  const where = 'compareRuntimes';
  if (typeof pe?.ropeFrequencies !== 'function')
    fail(TypeError, where, 'pe must be the module `await load()` gives (with the RoPE functions)', pe);
  const frequencies = pe.ropeFrequencies;
  const model = readModel(where, config);
  if (opts !== undefined && (opts === null || typeof opts !== 'object'))
    fail(TypeError, where, 'opts must be an object { seqLen, nCtx, maxModelLen }', opts);
  const o = opts ?? {};
  for (const key of Object.keys(o))
    if (!['seqLen', 'nCtx', 'maxModelLen'].includes(key))
      fail(TypeError, where, `unknown option '${key}' (it reads seqLen, nCtx, maxModelLen)`, o[key]);
  const seqLen =
    o.seqLen === undefined
      ? (model.maxPositionEmbeddings ?? 4096)
      : integer(where, 'seqLen', o.seqLen, 1, MAX_MAGNITUDE);
  const nCtx = o.nCtx === undefined ? undefined : integer(where, 'nCtx', o.nCtx, 1, MAX_MAGNITUDE);
  const maxModelLen =
    o.maxModelLen === undefined ? undefined : integer(where, 'maxModelLen', o.maxModelLen, 1, MAX_MAGNITUDE);
  const gguf = ggufFromConfig(model);
  const results = {
    transformers5: transformers5(model, { seqLen }, frequencies),
    transformers4: transformers4(model, { seqLen }, frequencies),
    vllm: vllm(model, { seqLen, maxModelLen }, frequencies),
    llamacpp: llamacpp(gguf, { nCtx, layerTypes: model.layerTypes }),
    mlx: mlx(model, { seqLen }, frequencies),
  };
  const positions = positionsUpTo(seqLen);
  // Each runtime's float32 angle formation against p × invFreq in float64, at the last position.
  const last = positions[positions.length - 1];
  for (const layers of Object.values(results))
    for (const layer of layers)
      if (layer.rope) {
        let maxAbs = 0;
        for (let i = 0; i < layer.rotaryDim / 2; i++)
          maxAbs = Math.max(maxAbs, Math.abs(layer.angle(last, i) - last * layer.invFreq[i]));
        layer.angleError = { position: last, maxAbs };
      }
  const differences = [];
  for (const runtime of ['transformers4', 'vllm', 'llamacpp', 'mlx'])
    results[runtime].forEach((layer, k) => {
      // A model type the runtime has no class for is said so in its layers, not compared.
      if (layer.supported === false) return;
      for (const f of compareLayer(runtime, results.transformers5[k], layer, positions)) {
        const t = results.transformers5[k].type;
        f.issue =
          ISSUES[`${runtime}:${t}`] ??
          (f.quantity === 'attentionFactor' && t === 'yarn' ? ISSUES[`${runtime}:yarn-attention`] : undefined) ??
          (f.quantity === 'cos' && runtime === 'llamacpp' ? ISSUES['llamacpp:angle'] : undefined) ??
          null;
        differences.push(f);
      }
    });
  return {
    seqLen,
    positions,
    sources: RUNTIME_SOURCES.map(({ id, name, repo, commit, paths }) => ({ id, name, repo, commit, paths })),
    runtimes: results,
    gguf,
    differences,
    tolerance:
      'cos differences count past |Δangle| <= 2·2^-24·|p·w| per runtime (PyTorch: float32 inv_freq × position), 3·2^-24·|p·w| (MLX), (2i + 2)·2^-24·|p·w| for pair i (ggml: theta *= theta_scale, i float32 products); invFreq past rotaryDim/2 · 2^-22 relative',
  };
}
