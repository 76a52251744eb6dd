// The sinusoids beyond token positions, on one instantiated module:
// pe.timestepEmbedding, pe.sincosGrid2d, pe.sincosGrid3d, pe.resizeGrid, and
// the rows of pe.table at any positions. Options are validated in elsewhere-options.js; this file sizes
// outputs, places the timesteps or positions in wasm memory and frees them.
import { checkWork, COST } from './cost.js';
import { checkSize, outOfMemory } from './outputs.js';
import { GRID3D_FIELDS, GRID_FIELDS, stager, TIMESTEP_FIELDS } from './boundary.js';
import { grid3dParams, gridParams, resizeParams, timestepParams } from './elsewhere-options.js';

// Rows at arbitrary numbers cost a sin/cos per value at worst (runs of
// consecutive integers take the recurrence, but the estimate cannot count on them).
const valueWork = (values) => values * COST.direct;

/**
 * The result of call(address) for `numbers` (a Float64Array) copied into the
 * module's memory at `address`, freed afterwards whatever happens; null from
 * the module (out of memory) throws.
 */
function withNumbers(module, where, numbers, call) {
  const address = module.allocateArray(numbers.length, 8);
  if (address === 0) throw outOfMemory(where);
  try {
    new Float64Array(module.HEAPU8.buffer, address, numbers.length).set(numbers);
    const result = call(address);
    if (result === null) throw outOfMemory(where);
    return result;
  } finally {
    module.freeArray(address);
  }
}

/**
 * Throws unless the module has the functions of this file: the modules of
 * load({ rope: false }) leave them out (cpp: CMakeLists.txt, for their size budget).
 */
function checkPresent(module, where) {
  if (typeof module.timestepEmbedding !== 'function')
    throw new Error(
      `posenc.${where}: this instance was loaded with load({ rope: false }), without timestep embeddings, 2-D and 3-D grids, grid resizing and tables at positions: use the one of await load()`,
    );
}

/** The functions added to the API of `module` whose report (boundary.js) loader.js has checked. */
export function elsewhereApi(module, report) {
  // (No blocks in the modules without these functions: checkPresent() throws first.)
  const present = typeof module.timestepEmbedding === 'function';
  const stageTimestep = present ? stager(module, report.timestepAddress, TIMESTEP_FIELDS) : null;
  const stageGrid = present ? stager(module, report.gridAddress, GRID_FIELDS) : null;
  const stageGrid3d = present ? stager(module, report.grid3dAddress, GRID3D_FIELDS) : null;

  /** The grid of `values` (a Float64Array of extraTokens + height × width rows) resized to toHeight × toWidth. */
  function resized(where, values, size, ArrayType) {
    const { dim, height, width, toHeight, toWidth, extraTokens } = size;
    const rows = extraTokens + toHeight * toWidth;
    const describe = () =>
      `a ${height} x ${width} grid (+${extraTokens}) of dim ${dim} resized to ${toHeight} x ${toWidth}`;
    checkSize(where, describe, rows * dim, ArrayType, 'reduce toHeight, toWidth or dim');
    // 4 multiply-adds per value along each axis (the first axis on every source row).
    const work = (4 * (height * toWidth + toHeight * toWidth) * dim + values.length) * COST.step;
    checkWork(where, describe, work, 'reduce the grid sizes or dim');
    return withNumbers(module, where, values, (address) =>
      module.resizeGrid(address, dim, height, width, toHeight, toWidth, extraTokens, ArrayType === Float64Array),
    );
  }

  /** The 2-D grid of `params` (gridParams()). */
  function grid2d(where, params, ArrayType) {
    const rows = params.extraTokens + params.height * params.width;
    const describe = () => `a ${params.height} x ${params.width} grid (+${params.extraTokens}) of dim ${params.dim}`;
    checkSize(where, describe, rows * params.dim, ArrayType, 'reduce height, width or dim');
    // A sin/cos per value of the height + width axis rows, then a copy per value.
    const work = valueWork((params.height + params.width) * (params.dim / 2)) + rows * params.dim * COST.step;
    checkWork(where, describe, work, 'reduce height, width or dim');
    stageGrid(params);
    const grid = module.grid2d(ArrayType === Float64Array);
    if (grid === null) throw outOfMemory(where);
    return grid;
  }

  return {
    /** Diffusion timestep embeddings: [timesteps.length × dim], row k at timesteps[k]. */
    timestepEmbedding(opts) {
      const where = 'timestepEmbedding';
      checkPresent(module, where);
      const { params, timesteps, ArrayType } = timestepParams(where, opts);
      const count = timesteps.length * params.dim;
      checkSize(
        where,
        () => `${timesteps.length} timesteps x dim ${params.dim}`,
        count,
        ArrayType,
        'reduce timesteps or dim',
      );
      checkWork(
        where,
        () => `${timesteps.length} timesteps x dim ${params.dim}`,
        valueWork(count),
        'reduce timesteps or dim',
      );
      return withNumbers(module, where, timesteps, (address) => {
        stageTimestep(params);
        return module.timestepEmbedding(address, timesteps.length, ArrayType === Float64Array);
      });
    },

    /** A 2-D sin-cos grid: extraTokens zero rows, then height × width patch rows of dim values. */
    sincosGrid2d(opts) {
      const where = 'sincosGrid2d';
      checkPresent(module, where);
      const { params, resizedFrom, ArrayType } = gridParams(where, opts);
      if (resizedFrom === null) return grid2d(where, params, ArrayType);
      // The grid a checkpoint was made at, then resized as MAE's interpolate_pos_embed does.
      const made = grid2d(where, Object.freeze({ ...params, ...resizedFrom }), Float64Array);
      const size = { dim: params.dim, ...resizedFrom, toHeight: params.height, toWidth: params.width };
      return resized(where, made, { ...size, extraTokens: params.extraTokens }, ArrayType);
    },

    /** A 3-D sin-cos grid: extraTokens zero rows, then frames × height × width rows of [temporal | spatial] values. */
    sincosGrid3d(opts) {
      const where = 'sincosGrid3d';
      checkPresent(module, where);
      const { params, ArrayType } = grid3dParams(where, opts);
      const rows = params.extraTokens + params.frames * params.height * params.width;
      const describe = () =>
        `a ${params.frames} x ${params.height} x ${params.width} grid (+${params.extraTokens}) of dim ${params.dim}`;
      checkSize(where, describe, rows * params.dim, ArrayType, 'reduce frames, height, width or dim');
      const work =
        valueWork(params.frames * (params.dim / 4) + (params.height + params.width) * ((3 * params.dim) / 8)) +
        rows * params.dim * COST.step;
      checkWork(where, describe, work, 'reduce frames, height, width or dim');
      stageGrid3d(params);
      const grid = module.grid3d(ArrayType === Float64Array);
      if (grid === null) throw outOfMemory(where);
      return grid;
    },

    /**
     * A grid's table (extraTokens + height × width rows of dim values) resized to
     * toHeight × toWidth by PyTorch's bicubic interpolation, the extra rows kept.
     */
    resizeGrid(table, opts) {
      const where = 'resizeGrid';
      checkPresent(module, where);
      const { table: values, size, ArrayType } = resizeParams(where, table, opts);
      return resized(where, values, size, ArrayType);
    },
  };
}

/**
 * pe.table({ ..., positions }): the rows of the convention `params` (staged by
 * `stage`) at each of `positions` (a Float64Array).
 */
export function tableAtPositions(module, stage, params, positions, ArrayType) {
  const where = 'table';
  checkPresent(module, where);
  const count = positions.length * params.dModel;
  checkSize(
    where,
    () => `${positions.length} positions x dModel ${params.dModel}`,
    count,
    ArrayType,
    'reduce positions or dModel',
  );
  checkWork(
    where,
    () => `${positions.length} positions x dModel ${params.dModel}`,
    valueWork(count),
    'reduce positions or dModel',
  );
  return withNumbers(module, where, positions, (address) => {
    stage(params);
    return module.tableAt(address, positions.length, ArrayType === Float64Array);
  });
}
