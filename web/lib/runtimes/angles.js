// How each runtime forms the angle of pair i at position p in float32, and
// how far that may be from the exact p × invFreq[i]: a checker that compares
// caches across runtimes needs these position-dependent bounds, not one epsilon.
const f32 = Math.fround;
// Half an ulp of 1 in float32: one rounding moves a value by at most this, relatively.
export const EPS32 = 2 ** -24;

/**
 * PyTorch's (transformers, vLLM): float32 inv_freq times a float32 position,
 * one rounding of the product (inv_freq @ position_ids, or einsum).
 */
export const torchAngle = (invFreq32) => (p, i) => f32(f32(p) * invFreq32[i]);

/** Its bound: the inverse frequency's rounding (already in invFreq32) and the product's. */
export const torchBound = (p, w) => 2 * EPS32 * Math.abs(p * w) + 2 ** -149;

/**
 * MLX's mx.fast.rope with `freqs` (periods): 1 / period in float32, then
 * position × that, rounded once more.
 */
export const mlxAngle = (periods32) => (p, i) => f32(f32(p) * f32(1 / periods32[i]));
export const mlxBound = (p, w) => 3 * EPS32 * Math.abs(p * w) + 2 ** -149;

/**
 * ggml's ggml_rope_cache_init: theta = p, then theta *= theta_scale (float32,
 * theta_scale = powf(freq_base, -2 / n_dims)) pair after pair, each pair's
 * theta divided by its frequency factor and mixed by rope_yarn. Returns the
 * extrapolated angle theta_extrap of every pair at p (float32, exactly the
 * recurrence's values).
 */
export function ggmlThetaExtrap(p, thetaScale32, pairs) {
  const out = new Float64Array(pairs);
  let theta = f32(p);
  for (let i = 0; i < pairs; i++) {
    out[i] = theta;
    theta = f32(theta * thetaScale32);
  }
  return out;
}

/**
 * The recurrence's bound against p × theta_scale^i in exact arithmetic: i
 * roundings of the running product (and powf's own error on theta_scale, at
 * most an ulp, compounded i times), relative to the angle.
 */
export const ggmlBound = (p, w, i) => (2 * i + 2) * EPS32 * Math.abs(p * w) + 2 ** -149;
