// Float64 references of RoPE, written from the formulas of transformers'
// src/transformers/modeling_rope_utils.py (docs/rope.md names the commit) and
// of the RoFormer paper; never from posenc's own results. Shared by
// rope.test.js, rope-hostile.test.js and fuzz.test.js.

export const TWO_PI = 2 * Math.PI;

/** 1 / base^(2i/d) for the d/2 pairs: the unscaled ladder (_compute_default_rope_parameters). */
export const ladder = (d, base) => Array.from({ length: d / 2 }, (_, i) => 1 / base ** ((2 * i) / d));

/** YaRN (_compute_yarn_parameters): blend of w and w / factor by a ramp over [low, high]. */
export function yarnReference({ d, base, factor, original, betaFast = 32, betaSlow = 1, truncate = true }) {
  const correctionDim = (rotations) => (d * Math.log(original / (rotations * TWO_PI))) / (2 * Math.log(base));
  let low = correctionDim(betaFast);
  let high = correctionDim(betaSlow);
  if (truncate) [low, high] = [Math.floor(low), Math.ceil(high)];
  low = Math.max(low, 0);
  high = Math.min(high, d - 1);
  if (low === high) high += 0.001;
  return ladder(d, base).map((w, i) => {
    const ramp = Math.min(Math.max((i - low) / (high - low), 0), 1);
    return w * (1 - ramp) + (w / factor) * ramp;
  });
}

export const mscale = (scale, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);

/** Llama 3.1 (_compute_llama3_parameters), by wavelength. */
export function llama3Reference({ d, base, factor, low, high, original }) {
  return ladder(d, base).map((w) => {
    const wavelength = TWO_PI / w;
    if (wavelength < original / high) return w;
    if (wavelength > original / low) return w / factor;
    const smooth = (original / wavelength - low) / (high - low);
    return (1 - smooth) * (w / factor) + smooth * w;
  });
}

/** cos/sin rows for positions start.., per layout, times af: the definition. */
export function cacheReference(invFreq, af, layout, start, length) {
  const n = invFreq.length;
  const d = 2 * n;
  const cos = new Float64Array(length * d);
  const sin = new Float64Array(length * d);
  for (let r = 0; r < length; r++)
    for (let j = 0; j < d; j++) {
      const i = layout === 'interleaved' ? j >> 1 : j % n;
      const angle = (start + r) * invFreq[i];
      cos[r * d + j] = af * Math.cos(angle);
      sin[r * d + j] = af * Math.sin(angle);
    }
  return { cos, sin };
}

/** x rotated by the RoFormer rotation, pair by pair, in float64. */
export function applyReference(x, invFreq, af, layout, headDim, heads, positions) {
  const y = Float64Array.from(x);
  const n = invFreq.length;
  positions.forEach((p, t) => {
    for (let h = 0; h < heads; h++)
      for (let i = 0; i < n; i++) {
        const at = (t * heads + h) * headDim;
        const a = at + (layout === 'interleaved' ? 2 * i : i);
        const b = at + (layout === 'interleaved' ? 2 * i + 1 : i + n);
        const c = af * Math.cos(p * invFreq[i]);
        const s = af * Math.sin(p * invFreq[i]);
        y[a] = x[a] * c - x[b] * s;
        y[b] = x[b] * c + x[a] * s;
      }
  });
  return y;
}

/** A float32 ulp at v. */
export const ulp32 = (v) => 2 ** (Math.floor(Math.log2(Math.max(Math.abs(v), 2 ** -126))) - 23);

/**
 * invFreq and attentionFactor of RoPE options as rope-options.js takes them
 * (headDim, base, partialRotaryFactor, seqLen, scaling), for every type.
 */
export function frequenciesReference({ headDim, base = 10000, partialRotaryFactor = 1, seqLen, scaling = {} }) {
  const d = Math.floor(headDim * partialRotaryFactor) & ~1;
  const s = scaling;
  const original = s.originalMaxPositionEmbeddings ?? s.maxPositionEmbeddings;
  const factorOrRatio = s.factor ?? s.maxPositionEmbeddings / original;
  switch (s.type ?? 'default') {
    case 'default':
      return { rotaryDim: d, invFreq: ladder(d, base), attentionFactor: 1 };
    case 'linear':
      return { rotaryDim: d, invFreq: ladder(d, base).map((w) => w / s.factor), attentionFactor: 1 };
    case 'dynamic': {
      const length = Math.max(seqLen ?? 0, s.maxPositionEmbeddings);
      const grown = base * ((s.factor * length) / s.maxPositionEmbeddings - (s.factor - 1)) ** (d / (d - 2));
      return { rotaryDim: d, invFreq: ladder(d, grown), attentionFactor: 1 };
    }
    case 'yarn': {
      let attentionFactor = s.attentionFactor;
      if (attentionFactor === undefined)
        attentionFactor =
          s.mscale && s.mscaleAllDim
            ? mscale(factorOrRatio, s.mscale) / mscale(factorOrRatio, s.mscaleAllDim)
            : mscale(factorOrRatio);
      const invFreq = yarnReference({
        d,
        base,
        factor: factorOrRatio,
        original,
        betaFast: s.betaFast,
        betaSlow: s.betaSlow,
        truncate: s.truncate,
      });
      return { rotaryDim: d, invFreq, attentionFactor };
    }
    case 'longrope': {
      const ext = (seqLen ?? 0) > original ? s.longFactor : s.shortFactor;
      const attentionFactor =
        s.attentionFactor ?? (factorOrRatio <= 1 ? 1 : Math.sqrt(1 + Math.log(factorOrRatio) / Math.log(original)));
      return { rotaryDim: d, invFreq: ladder(d, base).map((w, i) => w / ext[i]), attentionFactor };
    }
    case 'llama3': {
      const invFreq = llama3Reference({
        d,
        base,
        factor: s.factor,
        low: s.lowFreqFactor,
        high: s.highFreqFactor,
        original,
      });
      return { rotaryDim: d, invFreq, attentionFactor: 1 };
    }
  }
  throw new Error(`no reference for scaling type ${s.type}`);
}
