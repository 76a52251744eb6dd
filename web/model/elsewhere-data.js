// The numbers of the chapter "the same sinusoids elsewhere", as a function of
// the page state: diffusion timestep embeddings (pe.timestepEmbedding), a 2-D
// sin-cos grid (pe.sincosGrid2d) and tables at any positions (pe.table({
// positions })), every value from the core, no text, so that the page computes
// them in its worker (section-data.js spreads ELSEWHERE_COMPUTE into COMPUTE);
// elsewhere-sections.js turns them into each plot's data and options.
import { TIMESTEP_PRESETS } from '../lib/elsewhere-options.js';
import { gridDim } from './params.js';

/** Timesteps drawn per range: 0, 10, …, 1000 (or those divided by 1000). */
export const TIMESTEP_COUNT = 101;
/** Rows of the streaming chunk: positions chunkStart … chunkStart + CHUNK_ROWS − 1. */
export const CHUNK_ROWS = 16;

/** The timesteps of range `range` ('1000': 0 … 1000; '1': 0 … 1), each k·10 (divided by 1000). */
export function timestepsOf(range) {
  const divisor = range === '1' ? 1000 : 1;
  return Float64Array.from({ length: TIMESTEP_COUNT }, (_, k) => (k * 10) / divisor);
}

/** pe.timestepEmbedding's options for the state's knobs (null: the timestep preset's). */
export function timestepOptions(state) {
  const preset = TIMESTEP_PRESETS[state.tsPreset];
  return {
    dim: state.dModel,
    preset: state.tsPreset,
    maxPeriod: state.maxPeriod,
    flipSinToCos: state.flipSinToCos ?? preset.flipSinToCos,
    downscaleFreqShift: state.freqShift ?? preset.downscaleFreqShift,
  };
}

/** pe.sincosGrid2d's options for the state (the paper's base, MAE's integer coordinates). */
export const gridOptions = (state) => ({
  dim: gridDim(state),
  height: state.gridHeight,
  width: state.gridWidth,
  axisOrder: state.axisOrder,
});

/** The positions of ESPnet's RelPositionalEncoding for a sequence of `length`: length − 1 down to −(length − 1). */
export const relativePositions = (length) => Float64Array.from({ length: 2 * length - 1 }, (_, k) => length - 1 - k);

/** Cosine similarity of rows a and b of a row-major [rows × dim] table. */
function cosine(values, dim, a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let j = 0; j < dim; j++) {
    const x = values[a * dim + j];
    const y = values[b * dim + j];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return dot / Math.sqrt(na * nb);
}

/** The dot products of patch `from` with every patch of a row-major [patches × dim] grid. */
function dotsFrom(values, dim, patches, from) {
  const dots = new Float64Array(patches);
  for (let q = 0; q < patches; q++) {
    let dot = 0;
    for (let j = 0; j < dim; j++) dot += values[from * dim + j] * values[q * dim + j];
    dots[q] = dot;
  }
  return dots;
}

/**
 * How far the dot products of a [height × width] grid's patches are from depending on the 2-D
 * offset alone: the largest difference between the products of patch `from` with each patch and
 * those of each corner patch with the patch the same (rows, columns) away from it.
 */
function offsetSpread(values, dim, height, width, from) {
  const patches = height * width;
  const ofFrom = dotsFrom(values, dim, patches, from);
  const [r0, c0] = [Math.floor(from / width), from % width];
  let spread = 0;
  for (const corner of new Set([0, width - 1, patches - width, patches - 1])) {
    const ofCorner = dotsFrom(values, dim, patches, corner);
    const [r1, c1] = [Math.floor(corner / width), corner % width];
    for (let q = 0; q < patches; q++) {
      const r = Math.floor(q / width) - r0 + r1;
      const c = (q % width) - c0 + c1;
      if (r >= 0 && r < height && c >= 0 && c < width)
        spread = Math.max(spread, Math.abs(ofFrom[q] - ofCorner[r * width + c]));
    }
  }
  return spread;
}

const largestDifference = (a, b) => a.reduce((worst, value, i) => Math.max(worst, Math.abs(value - b[i])), 0);

/** Per plot: compute({ model, state }) -> plain objects and typed arrays (see section-data.js). */
export const ELSEWHERE_COMPUTE = {
  /** The embedding of each timestep of the chosen range: [101 × dModel], float32 as a model holds it. */
  'timestep-embedding': ({ model, state }) => {
    const pe = model.core;
    const timesteps = timestepsOf(state.tsRange);
    const options = timestepOptions(state);
    return {
      values: pe.timestepEmbedding({ ...options, timesteps }),
      rows: timesteps.length,
      columns: state.dModel,
      last: timesteps[timesteps.length - 1],
      options,
    };
  },

  /**
   * For both ranges, in float64: the cosine similarity of the embedding at t to the one at 0, at
   * each timestep; of the first and last timestep; the least of neighbouring timesteps'.
   */
  'timestep-similarity': ({ model, state }) => {
    const pe = model.core;
    const options = timestepOptions(state);
    const dim = state.dModel;
    const fractions = Float64Array.from({ length: TIMESTEP_COUNT }, (_, k) => k / (TIMESTEP_COUNT - 1));
    const ranges = Object.fromEntries(
      ['1000', '1'].map((range) => {
        const timesteps = timestepsOf(range);
        const values = pe.timestepEmbedding({ ...options, timesteps, dtype: 'float64' });
        const toFirst = Float64Array.from({ length: timesteps.length }, (_, k) => cosine(values, dim, 0, k));
        let neighbours = Infinity;
        for (let k = 1; k < timesteps.length; k++) neighbours = Math.min(neighbours, cosine(values, dim, k - 1, k));
        return [range, { toFirst, ends: toFirst[timesteps.length - 1], neighbours, step: timesteps[1] }];
      }),
    );
    return { fractions, ranges, dim, maxPeriod: options.maxPeriod };
  },

  /** Column `gridColumn` of the grid as an [height × width] image, and which axis and frequency it holds. */
  'grid-column': ({ model, state }) => {
    const pe = model.core;
    const options = gridOptions(state);
    const { dim, height, width } = options;
    const column = Math.min(state.gridColumn, dim - 1);
    const grid = pe.sincosGrid2d(options);
    const values = Float32Array.from({ length: height * width }, (_, p) => grid[p * dim + column]);
    const half = dim / 2;
    const firstHalf = column < half;
    const axis = firstHalf === (state.axisOrder === 'w-h') ? 'width' : 'height';
    const inHalf = column % half;
    const pair = inHalf % (dim / 4);
    return {
      values,
      rows: height,
      columns: width,
      column,
      dim,
      axis,
      fn: inHalf < dim / 4 ? 'sin' : 'cos',
      pair,
      frequency: 10000 ** (-pair / (dim / 4)),
    };
  },

  /**
   * The dot products of patch `gridPatch` with every patch (float64), as an [height × width]
   * image; how far they are from depending only on the 2-D offset; the same for the grid whose
   * height and width were swapped (built for width × height, read as height × width: mae#18).
   */
  'grid-dots': ({ model, state }) => {
    const pe = model.core;
    const options = gridOptions(state);
    const { dim, height, width } = options;
    const patches = height * width;
    const patch = Math.min(state.gridPatch, patches - 1);
    const grid = pe.sincosGrid2d({ ...options, dtype: 'float64' });
    const swapped = pe.sincosGrid2d({ ...options, height: width, width: height, dtype: 'float64' });
    return {
      values: dotsFrom(grid, dim, patches, patch),
      swappedValues: dotsFrom(swapped, dim, patches, patch),
      rows: height,
      columns: width,
      patch,
      dim,
      spread: offsetSpread(grid, dim, height, width, patch),
      swappedSpread: offsetSpread(swapped, dim, height, width, patch),
    };
  },

  /**
   * ESPnet's relative table (positions relLength − 1 … −(relLength − 1)) and a streaming chunk
   * (chunkStart …), the paper's convention: how far each is from the rows of the one table from 0
   * (at −p: the row at p with its sines negated).
   */
  'relative-table': ({ model, state }) => {
    const pe = model.core;
    const dModel = state.dModel;
    const positions = relativePositions(state.relLength);
    const values = pe.table({ dModel, positions });
    const chunkPositions = Float64Array.from({ length: CHUNK_ROWS }, (_, k) => state.chunkStart + k);
    const chunk = pe.table({ dModel, positions: chunkPositions });
    const longest = Math.max(state.relLength, state.chunkStart + CHUNK_ROWS);
    const table = pe.table({ dModel, length: longest });
    let relativeDifference = 0;
    positions.forEach((p, k) => {
      const row = table.subarray(Math.abs(p) * dModel, (Math.abs(p) + 1) * dModel);
      // sin(−x) = −sin(x), cos(−x) = cos(x): the even columns (sines) change sign.
      const mirrored = p < 0 ? row.map((v, j) => (j % 2 === 0 ? -v : v)) : row;
      relativeDifference = Math.max(
        relativeDifference,
        largestDifference(values.subarray(k * dModel, (k + 1) * dModel), mirrored),
      );
    });
    const chunkRows = table.subarray(state.chunkStart * dModel, (state.chunkStart + CHUNK_ROWS) * dModel);
    return {
      values,
      rows: positions.length,
      columns: dModel,
      first: positions[0],
      chunk,
      chunkStart: state.chunkStart,
      chunkRows: CHUNK_ROWS,
      relativeDifference,
      chunkDifference: largestDifference(chunk, chunkRows),
    };
  },
};
// The swapped grid's image comes with the same numbers.
ELSEWHERE_COMPUTE['grid-swapped'] = ELSEWHERE_COMPUTE['grid-dots'];
