// identify() on the sinusoids beyond token positions, tried when no 1-D table
// at starts −3…3 explains the data: 2-D sin-cos grids (MAE, DiT, diffusers),
// 3-D ones (diffusers' get_3d_sincos_pos_embed, CogVideoX; base 10000 only),
// diffusion timestep embeddings at evenly spaced timesteps (t in [0, 1]
// included), and the names a 1-D answer also has (a timestep embedding at
// timesteps 0, 1, …; Whisper's sinusoids). Every candidate table comes from
// the library (sincosGrid2d, timestepEmbedding); the data only gives the
// structure and first estimates of the knobs.
import { TIMESTEP_PRESETS } from '../elsewhere-options.js';
import { compare } from './compare.js';
import { diagnosisOf } from './diagnosis.js';
import { roundCandidates } from './explain.js';
import { significantDigits, within } from './storage.js';

// A column is a sinusoid of evenly spaced positions when x[r-1] + x[r+1] = 2 cos(w) x[r]
// leaves at most this share of its energy unexplained (float32 data: ~1e-7).
const SINUSOID_RESIDUAL = 1e-4;
// Share of the columns that must be such sinusoids before a search for any start or step is worth its time.
const SINUSOID_COLUMNS = 0.5;

/**
 * Whether most columns are sinusoids of the row index (rows at evenly spaced
 * positions or timesteps, any start, any step, either direction): the cheap
 * test before the searches for them. Each column's recurrence residual over its energy.
 */
export function looksSinusoidal(values, length, dModel, tolerance) {
  if (length < 4) return false;
  let sinusoids = 0;
  let columns = 0;
  for (let j = 0; j < dModel; j++) {
    let [xx, xy, yy] = [0, 0, 0];
    for (let r = 1; r + 1 < length; r++) {
      const x = values[r * dModel + j];
      const y = values[(r - 1) * dModel + j] + values[(r + 1) * dModel + j];
      [xx, xy, yy] = [xx + x * x, xy + x * y, yy + y * y];
    }
    // A column within the tolerance of zero tells nothing (an odd width's padding column).
    if (Math.sqrt(xx / (length - 2)) <= tolerance) continue;
    columns++;
    // y = c x by least squares: the residual y·y - (x·y)²/(x·x), over the energy.
    const residual = (yy - (xy * xy) / xx) / (yy + xx);
    if (residual <= SINUSOID_RESIDUAL + (tolerance * tolerance * length) / xx) sinusoids++;
  }
  return columns > 0 && sinusoids >= SINUSOID_COLUMNS * columns;
}

/** Whether every value of `table` is within the tolerance of the data's: the comparison, or null. */
function reproduces(values, table, dModel, tolerance) {
  const comparison = compare(values, table, dModel, tolerance);
  return comparison.firstBeyond === null ? comparison : null;
}

// ---------------------------------------------------------------- 2-D grids

/** Whether half `from` of the columns (dModel/2 each) repeats with period w over the grid rows. */
function periodic(values, dModel, extra, rows, w, from) {
  const half = dModel / 2;
  for (let r = w; r < rows; r++) {
    const [a, b] = [(extra + r) * dModel + from, (extra + (r % w)) * dModel + from];
    for (let j = 0; j < half; j++) if (values[a + j] !== values[b + j]) return false;
  }
  return true;
}

/** Whether half `from` of the columns is constant over each block of w grid rows. */
function blockConstant(values, dModel, extra, rows, w, from) {
  const half = dModel / 2;
  for (let r = 0; r < rows; r++) {
    if (r % w === 0) continue;
    const [a, b] = [(extra + r) * dModel + from, (extra + r - (r % w)) * dModel + from];
    for (let j = 0; j < half; j++) if (values[a + j] !== values[b + j]) return false;
  }
  return true;
}

/**
 * The grids whose structure the data has: extra leading zero rows, then h × w
 * patch rows, row y·w + x, whose one half of the columns depends on x only
 * (repeats with period w) and the other on y only (constant over blocks of w).
 * 'w-h': x fills the first half (MAE's and DiT's table). Both sides at least 2.
 * Equal rows are compared exactly: they come from the same 1-D rows.
 */
function gridShapes(values, length, dModel, tolerance) {
  if (dModel % 4 !== 0) return { extra: 0, shapes: [] };
  let extra = 0;
  while (extra < length && values.subarray(extra * dModel, (extra + 1) * dModel).every((v) => within(v, tolerance)))
    extra++;
  const rows = length - extra;
  const shapes = [];
  for (let w = 2; w <= rows / 2; w++) {
    if (rows % w !== 0) continue;
    const height = rows / w;
    for (const axisOrder of ['w-h', 'h-w']) {
      const [fast, slow] = axisOrder === 'w-h' ? [0, dModel / 2] : [dModel / 2, 0];
      if (periodic(values, dModel, extra, rows, w, fast) && blockConstant(values, dModel, extra, rows, w, slow))
        shapes.push({ height, width: w, axisOrder });
    }
  }
  return { extra, shapes };
}

/**
 * One axis's coordinate step and base from its 1-D rows ([sin | cos] of
 * dim/4 frequencies base^(-i/(dim/4)), the first one 1): the angle at
 * coordinate index 1 of pair i is step · base^(-i/(dim/4)).
 */
function axisSteps(values, dModel, rowOf, from) {
  const quarter = dModel / 4;
  const angle = (i) => Math.atan2(values[rowOf(1) * dModel + from + i], values[rowOf(1) * dModel + from + quarter + i]);
  const step = angle(0);
  // ln(angle_i / step) = -(i / quarter) ln(base), weighted by the angle (its error is absolute).
  let [num, den] = [0, 0];
  for (let i = 1; i < quarter; i++) {
    const a = angle(i);
    if (!(a > 1e-6 && a < 3)) continue;
    const e = i / quarter;
    num += a * a * e * -Math.log(a / step);
    den += a * a * e * e;
  }
  return { step, base: den > 0 ? Math.exp(num / den) : null };
}

/**
 * The 2-D grid that reproduces the data, as pe.sincosGrid2d makes it:
 * { grid, table, comparison } or null. The coordinates' step tells the
 * preset: 1 for MAE and DiT, baseSize / (side · interpolationScale) for diffusers.
 */
export function identifyGrid(pe, values, length, dModel, tolerance) {
  const { extra, shapes } = gridShapes(values, length, dModel, tolerance);
  for (const shape of shapes) {
    const { height, width, axisOrder } = shape;
    const [fast, slow] = axisOrder === 'w-h' ? [0, dModel / 2] : [dModel / 2, 0];
    const x = axisSteps(values, dModel, (k) => extra + k, fast);
    const y = axisSteps(values, dModel, (k) => extra + k * width, slow);
    const bases = [...new Set([10000, ...[x.base, y.base].filter((b) => b > 1).flatMap((b) => roundCandidates(b))])];
    // diffusers: step = baseSize / (side · interpolationScale), the same baseSize / interpolationScale on both axes.
    const ratio = (x.step * width + y.step * height) / 2;
    const coordinates = [{ preset: 'mae', baseSize: null, interpolationScale: 1 }];
    if (!within(x.step - 1, 1e-6) || !within(y.step - 1, 1e-6))
      for (const r of roundCandidates(ratio, (r) => r > 0)) {
        const scale = 16 / r;
        // diffusers' default base size 16, when the interpolation scale it then needs is round.
        if (significantDigits(scale) <= 3)
          coordinates.push({ preset: 'diffusers', baseSize: 16, interpolationScale: scale });
        coordinates.push({ preset: 'diffusers', baseSize: r, interpolationScale: 1 });
      }
    for (const base of bases)
      for (const { preset, baseSize, interpolationScale } of coordinates)
        for (const coordinateDtype of preset === 'diffusers' ? ['float32', 'float64'] : ['float64']) {
          const grid = {
            dim: dModel,
            height,
            width,
            axisOrder,
            extraTokens: extra,
            base,
            baseSize,
            interpolationScale,
            coordinateDtype,
          };
          if (!(baseSize === null || baseSize <= 16384) || !(interpolationScale <= 16384)) continue;
          const table = pe.sincosGrid2d({ ...grid, dtype: 'float64' });
          const comparison = reproduces(values, table, dModel, tolerance);
          if (!comparison) continue;
          const named = preset === 'mae' ? (base === 10000 ? 'mae' : null) : base === 10000 ? 'diffusers' : null;
          return { grid: { ...grid, preset: named, shapes }, comparison };
        }
  }
  return null;
}

// ---------------------------------------------------------------- 3-D grids

/** Whether columns [from, from + count) repeat with period p over the grid rows. */
function repeatsEvery(values, dModel, extra, rows, p, from, count) {
  for (let r = p; r < rows; r++) {
    const [a, b] = [(extra + r) * dModel + from, (extra + (r % p)) * dModel + from];
    for (let j = 0; j < count; j++) if (values[a + j] !== values[b + j]) return false;
  }
  return true;
}

/** Whether columns [from, from + count) are constant over each block of b grid rows. */
function constantOver(values, dModel, extra, rows, b, from, count) {
  for (let r = 0; r < rows; r++) {
    if (r % b === 0) continue;
    const [a, c] = [(extra + r) * dModel + from, (extra + r - (r % b)) * dModel + from];
    for (let j = 0; j < count; j++) if (values[a + j] !== values[c + j]) return false;
  }
  return true;
}

/**
 * The 3-D grids whose structure the data has (diffusers' get_3d_sincos_pos_embed):
 * extra leading zero rows, then frames × height × width rows, row (t·h + y)·w + x,
 * whose first dim/4 columns depend on t only (constant over blocks of h·w), and
 * whose two spatial halves of 3·dim/8 depend on x only (period w) and y only
 * (constant over blocks of w, period h·w). At least 2 frames, both sides at least 2.
 */
function grid3dShapes(values, length, dModel, tolerance) {
  if (dModel % 16 !== 0) return { extra: 0, shapes: [] };
  let extra = 0;
  while (extra < length && values.subarray(extra * dModel, (extra + 1) * dModel).every((v) => within(v, tolerance)))
    extra++;
  const rows = length - extra;
  const [temporal, half] = [dModel / 4, (3 * dModel) / 8];
  const shapes = [];
  for (let s = 4; s <= rows / 2; s++) {
    if (rows % s !== 0) continue;
    if (!constantOver(values, dModel, extra, rows, s, 0, temporal)) continue;
    if (!repeatsEvery(values, dModel, extra, rows, s, temporal, 2 * half)) continue;
    for (let w = 2; w <= s / 2; w++) {
      if (s % w !== 0) continue;
      for (const axisOrder of ['w-h', 'h-w']) {
        const [fast, slow] = axisOrder === 'w-h' ? [temporal, temporal + half] : [temporal + half, temporal];
        if (
          repeatsEvery(values, dModel, extra, rows, w, fast, half) &&
          constantOver(values, dModel, extra, rows, w, slow, half) &&
          repeatsEvery(values, dModel, extra, rows, s, slow, half)
        )
          shapes.push({ frames: rows / s, height: s / w, width: w, axisOrder });
      }
    }
  }
  return { extra, shapes };
}

/**
 * The 3-D grid that reproduces the data, as pe.sincosGrid3d makes it:
 * { grid, comparison } or null. The coordinate steps at index 1 (the lowest
 * frequency's angle) give 1 / interpolation scale on each axis.
 */
export function identifyGrid3d(pe, values, length, dModel, tolerance) {
  const { extra, shapes } = grid3dShapes(values, length, dModel, tolerance);
  const [temporal, half] = [dModel / 4, (3 * dModel) / 8];
  const angleAt = (row, from, pairs) => Math.atan2(values[row * dModel + from], values[row * dModel + from + pairs]);
  const scales = (step, known) => [
    ...new Set([...known, ...(step > 0 ? roundCandidates(1 / step, (s) => s > 0 && s <= 16384) : [])]),
  ];
  for (const shape of shapes) {
    const { frames, height, width, axisOrder } = shape;
    const fast = axisOrder === 'w-h' ? temporal : temporal + half;
    const spatialStep = angleAt(extra + 1, fast, half / 2);
    const temporalStep = angleAt(extra + height * width, 0, temporal / 2);
    for (const spatialInterpolationScale of scales(spatialStep, [1, 1.875]))
      for (const temporalInterpolationScale of scales(temporalStep, [1]))
        for (const coordinateDtype of ['float32', 'float64']) {
          const grid = {
            dim: dModel,
            frames,
            height,
            width,
            axisOrder,
            extraTokens: extra,
            spatialInterpolationScale,
            temporalInterpolationScale,
            base: 10000,
            coordinateDtype,
          };
          const comparison = reproduces(values, pe.sincosGrid3d({ ...grid, dtype: 'float64' }), dModel, tolerance);
          if (!comparison) continue;
          const diffusers = axisOrder === 'w-h' && coordinateDtype === 'float32' && temporalInterpolationScale === 1;
          const preset = !diffusers
            ? null
            : spatialInterpolationScale === 1
              ? 'diffusers'
              : spatialInterpolationScale === 1.875
                ? 'cogvideox'
                : null;
          return { grid: { ...grid, preset, shapes }, comparison };
        }
  }
  return null;
}

/** What identify() says of a grid: a swapped axis order (diagnosis), and the h/w naming of a non-square grid (note). */
export function gridFindings(grid, nearestPreset) {
  const diagnosis = [];
  const notes = [];
  const fields = {
    knob: 'axisOrder',
    preset: nearestPreset,
    against: 'mae',
    found: { height: grid.height, width: grid.width, axisOrder: grid.axisOrder },
    expected: 'w-h',
  };
  if (grid.axisOrder === 'h-w') diagnosis.push(diagnosisOf({ code: 'grid-axes-swapped', ...fields }, null, grid.dim));
  else if (grid.height !== grid.width) notes.push(diagnosisOf({ code: 'grid-naming', ...fields }, null, grid.dim));
  if (grid.shapes.length > 1)
    notes.push(
      diagnosisOf(
        { code: 'grid-several-fit', knob: null, preset: nearestPreset, found: grid.shapes, expected: null },
        null,
        grid.dim,
      ),
    );
  return { diagnosis, notes };
}

// ---------------------------------------------------------- timestep embeddings

const TIMESTEP_KNOBS = ['maxPeriod', 'flipSinToCos', 'downscaleFreqShift', 'scale'];

/** The timestep preset with these knobs (the first of equals), else null. */
function timestepPresetOf(knobs) {
  for (const [name, preset] of Object.entries(TIMESTEP_PRESETS))
    if (TIMESTEP_KNOBS.every((k) => preset[k] === knobs[k])) return name;
  return null;
}

/**
 * The timestep embedding a 1-D answer also is (timesteps start, start + 1, …):
 * [sin | cos] or [cos | sin] with exponent i/half (shift 0) or i/(half − 1)
 * (shift 1), no padding row, scale 1, a zero last column at odd dim; else null.
 */
export function timestepOfTable(options, length, dModel) {
  const shifts = { pair: 0, 'half-minus-one': 1 };
  if (
    options.layout !== 'concat' ||
    options.angle !== 'divide' ||
    !(options.exponent in shifts) ||
    options.scale !== 1 ||
    options.paddingRow !== null ||
    (dModel % 2 === 1 && options.oddColumn !== 'zero') ||
    dModel < 4
  )
    return null;
  return timestepAnswer(
    {
      dim: dModel,
      maxPeriod: options.base,
      flipSinToCos: options.order === 'cos-sin',
      downscaleFreqShift: shifts[options.exponent],
      scale: 1,
    },
    { first: options.start, step: 1, last: options.start + length - 1 },
  );
}

function timestepAnswer(knobs, timesteps) {
  const preset = timestepPresetOf(knobs);
  return {
    ...knobs,
    preset,
    // Every preset with these knobs (guided-diffusion, improved-diffusion, DiT and latent-diffusion share theirs).
    presets: Object.keys(TIMESTEP_PRESETS).filter((n) =>
      TIMESTEP_KNOBS.every((k) => TIMESTEP_PRESETS[n][k] === knobs[k]),
    ),
    timesteps,
  };
}

/**
 * What identify() says of a timestep embedding: halves in the other order
 * than the presets with its exponent (Wan's report, flashinfer-ai/flashinfer#3819),
 * shift 1 with cos first (SDXL's UNet uses 0: kohya-ss/sd-scripts#1187), and
 * timesteps in [0, 1] at a large max_period (nearly constant rows: how close).
 */
export function timestepFindings(timestep, values, length, dModel, nearestPreset) {
  const out = [];
  // preset: the 1-D answer's nearest (what a diagnosis is measured against); against: the timestep preset.
  const add = (code, fields) =>
    out.push(
      diagnosisOf({ code, knob: null, found: null, expected: null, ...fields, preset: nearestPreset }, null, dModel),
    );
  const { flipSinToCos, downscaleFreqShift, maxPeriod } = timestep;
  if (!flipSinToCos && downscaleFreqShift === 0)
    add('timestep-order', {
      knob: 'flipSinToCos',
      against: 'guided-diffusion',
      found: 'sin-cos',
      expected: 'cos-sin',
    });
  if (flipSinToCos && downscaleFreqShift === 1)
    add('timestep-shift', { knob: 'downscaleFreqShift', against: 'guided-diffusion', found: 1, expected: 0 });
  const { first, last } = timestep.timesteps;
  if (Math.max(Math.abs(first), Math.abs(last)) <= 1 && maxPeriod >= 100 && length >= 2) {
    // How close the rows are: the cosine similarity of the first and last rows, and the smallest between neighbours.
    const row = (r) => values.subarray(r * dModel, (r + 1) * dModel);
    const cosine = (a, b) => {
      let [ab, aa, bb] = [0, 0, 0];
      for (let j = 0; j < a.length; j++) [ab, aa, bb] = [ab + a[j] * b[j], aa + a[j] * a[j], bb + b[j] * b[j]];
      return ab / Math.sqrt(aa * bb);
    };
    let neighbours = 1;
    for (let r = 1; r < length; r++) neighbours = Math.min(neighbours, cosine(row(r - 1), row(r)));
    add('timesteps-unit-interval', {
      knob: 'maxPeriod',
      against: timestep.preset ?? 'diffusers',
      found: { first, last, maxPeriod },
      expected: null,
      ends: cosine(row(0), row(length - 1)),
      neighbours,
    });
  }
  return out;
}

/** Angle difference wrapped into (−π, π]. */
const wrap = (a) => a - 2 * Math.PI * Math.round(a / (2 * Math.PI));

/**
 * The timestep embedding at evenly spaced timesteps t0 + Δt·r that reproduces
 * the data: { timestep, table, comparison } or null. Each pair (i, half + i)
 * of columns holds the sin and cos of one angle W_i · t, W_i =
 * maxPeriod^(−i / (half − shift)): the angles' steps between rows give Δt (W_0 = 1)
 * and ln maxPeriod / (half − shift), the first row's angles t0.
 */
export function identifyTimestep(pe, values, length, dModel, tolerance) {
  const half = Math.floor(dModel / 2);
  if (half < 2 || length < 3) return null;
  if (
    dModel % 2 === 1 &&
    !Array.from({ length }, (_, r) => values[r * dModel + dModel - 1]).every((v) => within(v, tolerance))
  )
    return null;
  // Every pair on the unit circle (scale 1): a cheap refusal of other tables.
  for (let r = 0; r < length; r++)
    for (let i = 0; i < half; i++)
      if (!within(Math.hypot(values[r * dModel + i], values[r * dModel + half + i]) - 1, 4 * tolerance + 1e-6))
        return null;
  for (const flipSinToCos of [false, true]) {
    const [sinAt, cosAt] = flipSinToCos ? [half, 0] : [0, half];
    const angle = (r, i) => Math.atan2(values[r * dModel + sinAt + i], values[r * dModel + cosAt + i]);
    // Each pair's angle step, from the lowest frequency up: between rows 0 and 1 (wrapped), unwrapped by the
    // line ln |δ_i| = ln |Δt| − i c fitted so far (high frequencies turn by more than π a row), then over
    // the whole table (an error of the tolerance spread over length − 1 steps); fitted by least squares.
    const last = length - 1;
    let [n, si, sy, sii, siy] = [0, 0, 0, 0, 0];
    let [c, lnStep, sign] = [NaN, NaN, 0];
    for (let i = half - 1; i >= 0; i--) {
      let d = wrap(angle(1, i) - angle(0, i));
      if (n >= 2) {
        const predicted = sign * Math.exp(lnStep - c * i);
        d += 2 * Math.PI * Math.round((predicted - d) / (2 * Math.PI));
      }
      const total = angle(last, i) - angle(0, i);
      d = (total + 2 * Math.PI * Math.round((d * last - total) / (2 * Math.PI))) / last;
      if (!(Math.abs(d) > 1e3 * tolerance)) continue;
      if (sign === 0) sign = Math.sign(d);
      const y = Math.log(Math.abs(d));
      [n, si, sy, sii, siy] = [n + 1, si + i, sy + y, sii + i * i, siy + i * y];
      if (n >= 2) {
        c = -(n * siy - si * sy) / (n * sii - si * si);
        lnStep = (sy + c * si) / n;
      }
    }
    if (n < 2 || !(c > 0) || !Number.isFinite(lnStep)) continue;
    const step = sign * Math.exp(lnStep);
    // t0 from the first row's angles, lowest frequency first (unambiguous there), refined pair by pair.
    let t0 = angle(0, half - 1) / Math.exp(-c * (half - 1));
    for (let i = half - 2; i >= 0; i--) {
      const W = Math.exp(-c * i);
      const a = angle(0, i);
      t0 = (a + 2 * Math.PI * Math.round((W * t0 - a) / (2 * Math.PI))) / W;
    }
    const found = timestepKnobs(pe, values, length, dModel, tolerance, { half, c, step, t0, flipSinToCos });
    if (found) return found;
  }
  return null;
}

/** The roundest maxPeriod, shift, step and t0 near the estimates whose embedding reproduces the data. */
function timestepKnobs(pe, values, length, dModel, tolerance, { half, c, step, t0, flipSinToCos }) {
  const embed = (knobs, timesteps) =>
    pe.timestepEmbedding({ timesteps, dim: dModel, ...knobs, scale: 1, flipSinToCos, dtype: 'float64' });
  const at = (first, dt, rows) => rows.map((r) => first + dt * r);
  // Sample rows (the last first: a wrong knob shows most there), then the whole table.
  const samples = [...new Set([length - 1, Math.floor(length / 2), 1, 0])];
  const sampleData = new Float64Array(samples.length * dModel);
  samples.forEach((r, k) => sampleData.set(values.subarray(r * dModel, (r + 1) * dModel), k * dModel));
  const fitsSamples = (knobs, first, dt) =>
    reproduces(sampleData, embed(knobs, at(first, dt, samples)), dModel, tolerance) !== null;
  // linspace(0, 1, n) and its multiples by 1000 (diffusers' scale) before the rounded estimate.
  const sign = Math.sign(step);
  const steps = [
    ...[1 / (length - 1), 1 / length, 1000 / (length - 1)].map((s) => sign * s),
    ...roundCandidates(step),
  ].filter((s) => within(s - step, 1e-3 * Math.abs(step)));
  const firsts = [...new Set([0, ...roundCandidates(t0)])].filter((t) => within(t - t0, 1e-3 * (1 + Math.abs(t0))));
  // Every (shift, period) the estimate allows, the roundest period first (10000 under shift 0 before 7498.94 under
  // shift 1: the two describe nearly the same frequencies); ties go to the shift the presets with this order use.
  const periods = [];
  for (const downscaleFreqShift of flipSinToCos ? [0, 1] : [1, 0]) {
    const period = Math.exp(c * (half - downscaleFreqShift));
    if (!(period > 1) || half - downscaleFreqShift <= 0) continue;
    for (const maxPeriod of roundCandidates(period, (p) => p > 1)) periods.push({ maxPeriod, downscaleFreqShift });
  }
  periods.sort((a, b) => significantDigits(a.maxPeriod) - significantDigits(b.maxPeriod));
  for (const knobs of periods) {
    const { maxPeriod, downscaleFreqShift } = knobs;
    for (const dt of [...steps, step])
      for (const first of [...firsts, t0]) {
        if (!fitsSamples(knobs, first, dt)) continue;
        const timesteps = at(
          first,
          dt,
          Array.from({ length }, (_, r) => r),
        );
        const comparison = reproduces(values, embed(knobs, timesteps), dModel, tolerance);
        if (!comparison) continue;
        const answer = timestepAnswer(
          { dim: dModel, maxPeriod, flipSinToCos, downscaleFreqShift, scale: 1 },
          { first, step: dt, last: timesteps[length - 1] },
        );
        return { timestep: answer, comparison };
      }
  }
  return null;
}

/**
 * Notes on a 1-D answer: the same numbers under other names (no departure).
 * Exponent i/(d/2 − 1) in [sin | cos] is Whisper's sinusoids(length, channels,
 * max_timescale), log_timescale_increment = log(max_timescale) / (channels/2 − 1).
 */
export function tableNotes(options, dModel) {
  const notes = [];
  if (
    options.layout === 'concat' &&
    options.exponent === 'half-minus-one' &&
    options.order === 'sin-cos' &&
    options.angle === 'divide' &&
    dModel % 2 === 0
  )
    notes.push(
      diagnosisOf(
        { code: 'whisper-sinusoids', knob: 'exponent', preset: 'tensor2tensor', found: options.base, expected: null },
        options,
        dModel,
      ),
    );
  return notes;
}
