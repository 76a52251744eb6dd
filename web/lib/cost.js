// The cost model: what each call's work is estimated in, and the limit one
// call may do.
import { textOf } from './options.js';

// Work limits: every call estimates its work before it starts and refuses
// more than MAX_WORK units, one unit being about a nanosecond on the 2-core
// test VM (docs/reliability.md gives the measured times at each limit). The
// costs per value below are those measured there, rounded up, sin/cos and pow
// doubled: measured under load, 2^28 direct float32 values (1 GiB) took 23 s.
export const MAX_WORK = 2 ** 32;
export const COST = Object.freeze({
  // A float32 table value of the angle-addition recurrence, a value copied out,
  // one term of a sum of cosines (offsetDots, similarity), a matrix entry.
  step: 1,
  // A value evaluated directly with sin/cos (float64 tables; sin and cos of a
  // pair at different frequencies).
  direct: 32,
  // A value whose angle (and position) is rounded to a dtype: at most a
  // sin/cos (float32 angles; float16 and bfloat16 angles keep the sin/cos of
  // each of their 65536 values, about 4 ns a value) plus the rounding.
  rounded: 48,
  // A value of angle 'ratio-power': a pow and a sin/cos.
  power: 80,
  // A multiply-add of the real row products ('ratio-power' similarity).
  product: 3,
  // The sin and cos of one angle of magnitude beyond 2^20 (RoPE: far positions
  // or large inverse frequencies), where musl's argument reduction takes its
  // slow path: 400-800 ns measured under load, against about 60 for both below.
  farAngle: 800,
  // One pair at one offset of ropeScores: two oscillator steps, a term of the
  // dot product and of the partial sums, a square root (11-26 ns measured under load).
  ropeScore: 32,
});

/** Throws unless `work` is within `limit`; `what` (or what it returns) spells out the estimate. */
export function checkWork(where, what, work, advice, limit = MAX_WORK) {
  if (work > limit)
    throw new RangeError(
      `posenc.${where}: ${textOf(what)} = ${work} work units exceeds ${limit}, the most one call may do (a few seconds); ${advice}`,
    );
}
