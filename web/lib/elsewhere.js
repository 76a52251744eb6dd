// The sinusoids beyond token positions, on one instantiated module:
// pe.timestepEmbedding, pe.sincosGrid2d, and the rows of pe.table at any
// positions. Options are validated in elsewhere-options.js; this file sizes
// outputs, places the timesteps or positions in wasm memory and frees them.
import { checkWork, COST } from './cost.js';
import { checkSize, outOfMemory } from './outputs.js';
import { GRID_FIELDS, stager, TIMESTEP_FIELDS } from './boundary.js';
import { gridParams, timestepParams } from './elsewhere-options.js';

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
      `posenc.${where}: this instance was loaded with load({ rope: false }), without timestep embeddings, 2-D grids and tables at positions: use the one of await load()`,
    );
}

/** The functions added to the API of `module` whose report (boundary.js) loader.js has checked. */
export function elsewhereApi(module, report) {
  // (No blocks in the modules without these functions: checkPresent() throws first.)
  const present = typeof module.timestepEmbedding === 'function';
  const stageTimestep = present ? stager(module, report.timestepAddress, TIMESTEP_FIELDS) : null;
  const stageGrid = present ? stager(module, report.gridAddress, GRID_FIELDS) : null;
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
      const { params, ArrayType } = gridParams(where, opts);
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
