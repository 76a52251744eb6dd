// timestepEmbedding, sincosGrid2d, sincosGrid3d, resizeGrid and table's positions: bad input gets a
// TypeError or RangeError naming the function and the parameter, and the
// module stays usable.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../../web/lib/index.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const grid = { dim: 16, height: 2, width: 3 };
const video = { dim: 16, frames: 2, height: 2, width: 3 };
const resize = { dim: 2, height: 2, width: 2, toHeight: 3, toWidth: 3 };
const fourPatches = [1, 2, 3, 4, 5, 6, 7, 8];

describe('bad input names the function and parameter; the module stays usable', () => {
  it.each([
    [() => pe.timestepEmbedding(), TypeError, /^posenc\.timestepEmbedding: options must be an object/],
    [() => pe.timestepEmbedding({ dim: 8 }), TypeError, /^posenc\.timestepEmbedding: timesteps is required/],
    [() => pe.timestepEmbedding({ timesteps: [1] }), TypeError, /dim is required/],
    [() => pe.timestepEmbedding({ timesteps: 5, dim: 8 }), TypeError, /timesteps must be an array of numbers/],
    [() => pe.timestepEmbedding({ timesteps: [], dim: 8 }), RangeError, /timesteps must hold at least one number/],
    [() => pe.timestepEmbedding({ timesteps: [1, '2'], dim: 8 }), TypeError, /timesteps\[1\] must be a number/],
    [() => pe.timestepEmbedding({ timesteps: [NaN], dim: 8 }), RangeError, /timesteps\[0\] must be a finite number/],
    [() => pe.timestepEmbedding({ timesteps: new BigInt64Array(2), dim: 8 }), TypeError, /timesteps must be an array/],
    [() => pe.timestepEmbedding({ timesteps: [1], dim: 0 }), RangeError, /dim must be an integer in \[1, 1048576\]/],
    [
      () => pe.timestepEmbedding({ timesteps: [1], dim: 8, maxPeriod: 0 }),
      RangeError,
      /maxPeriod must be a finite number > 0/,
    ],
    [
      () => pe.timestepEmbedding({ timesteps: [1], dim: 8, downscaleFreqShift: 4 }),
      RangeError,
      /downscaleFreqShift must differ from floor\(dim \/ 2\) = 4/,
    ],
    [
      () => pe.timestepEmbedding({ timesteps: [1], dim: 8, flipSinToCos: 1 }),
      TypeError,
      /flipSinToCos must be true or false/,
    ],
    [
      () => pe.timestepEmbedding({ timesteps: [1], dim: 8, scale: Infinity }),
      RangeError,
      /scale must be a finite number/,
    ],
    [
      () => pe.timestepEmbedding({ timesteps: [1], dim: 8, preset: 'ddim' }),
      RangeError,
      /preset must be one of 'diffusers'/,
    ],
    [() => pe.timestepEmbedding({ timesteps: [1], dim: 8, dtype: 'float16' }), RangeError, /dtype must be one of/],
    [() => pe.timestepEmbedding({ timesteps: [1], dim: 8, length: 1 }), TypeError, /unknown option 'length'/],
    [() => pe.sincosGrid2d({ height: 2, width: 2 }), TypeError, /^posenc\.sincosGrid2d: dim is required/],
    [() => pe.sincosGrid2d({ ...grid, dim: 18 }), RangeError, /dim must be a multiple of 4/],
    [() => pe.sincosGrid2d({ dim: 16, width: 2 }), TypeError, /height is required/],
    [() => pe.sincosGrid2d({ ...grid, width: 2.5 }), RangeError, /width must be an integer in \[1, 16384\]/],
    [() => pe.sincosGrid2d({ ...grid, axisOrder: 'hw' }), RangeError, /axisOrder must be one of 'w-h', 'h-w'/],
    [() => pe.sincosGrid2d({ ...grid, extraTokens: -1 }), RangeError, /extraTokens must be an integer/],
    [() => pe.sincosGrid2d({ ...grid, baseSize: 0 }), RangeError, /baseSize must be null \(none\) or a number/],
    [() => pe.sincosGrid2d({ ...grid, interpolationScale: -1 }), RangeError, /interpolationScale must be a number in/],
    [() => pe.sincosGrid2d({ ...grid, base: 1 }), RangeError, /base must be a finite number > 1/],
    [() => pe.sincosGrid2d({ ...grid, coordinateDtype: 'float16' }), RangeError, /coordinateDtype must be one of/],
    [() => pe.sincosGrid2d({ ...grid, gridSize: 4 }), TypeError, /unknown option 'gridSize'/],
    [
      () => pe.sincosGrid2d({ dim: 1024, height: 16384, width: 16384 }),
      RangeError,
      /^posenc\.sincosGrid2d: a 16384 x 16384 grid/,
    ],
    [
      () => pe.sincosGrid2d({ ...grid, resizedFrom: 4 }),
      TypeError,
      /resizedFrom must be an object \{ height, width \}/,
    ],
    [() => pe.sincosGrid2d({ ...grid, resizedFrom: { height: 2 } }), TypeError, /resizedFrom\.width is required/],
    [
      () => pe.sincosGrid2d({ ...grid, resizedFrom: { height: 2, width: 0 } }),
      RangeError,
      /resizedFrom\.width must be an integer in \[1, 16384\]/,
    ],
    [
      () => pe.sincosGrid2d({ ...grid, resizedFrom: { h: 2, width: 2 } }),
      TypeError,
      /resizedFrom has an unknown key 'h'/,
    ],
    [() => pe.sincosGrid3d({ frames: 1, height: 2, width: 2 }), TypeError, /^posenc\.sincosGrid3d: dim is required/],
    [() => pe.sincosGrid3d({ ...video, dim: 24 }), RangeError, /^posenc\.sincosGrid3d: dim must be a multiple of 16/],
    [() => pe.sincosGrid3d({ ...video, frames: undefined }), TypeError, /frames is required/],
    [() => pe.sincosGrid3d({ ...video, frames: 0 }), RangeError, /frames must be an integer in \[1, 16384\]/],
    [
      () => pe.sincosGrid3d({ ...video, spatialInterpolationScale: 0 }),
      RangeError,
      /spatialInterpolationScale must be a number in \(0, 16384\]/,
    ],
    [
      () => pe.sincosGrid3d({ ...video, temporalInterpolationScale: '1' }),
      TypeError,
      /temporalInterpolationScale must be a number/,
    ],
    [
      () => pe.sincosGrid3d({ ...video, preset: 'latte' }),
      RangeError,
      /preset must be one of 'diffusers', 'cogvideox'/,
    ],
    [() => pe.sincosGrid3d({ ...video, baseSize: 16 }), TypeError, /unknown option 'baseSize'/],
    [
      () => pe.sincosGrid3d({ dim: 1024, frames: 4096, height: 4096, width: 4096 }),
      RangeError,
      /^posenc\.sincosGrid3d: a 4096 x 4096 x 4096 grid/,
    ],
    [
      () => pe.resizeGrid(fourPatches, { ...resize, dim: undefined }),
      TypeError,
      /^posenc\.resizeGrid: dim is required/,
    ],
    [() => pe.resizeGrid('abc', resize), TypeError, /^posenc\.resizeGrid: table must be an array of numbers/],
    [() => pe.resizeGrid([1, 2, 3], resize), RangeError, /table must hold \(extraTokens \+ height \* width\) \* dim/],
    [() => pe.resizeGrid([...fourPatches.slice(1), NaN], resize), RangeError, /table\[7\] must be a finite number/],
    [() => pe.resizeGrid(fourPatches, { ...resize, toWidth: 0 }), RangeError, /toWidth must be an integer in/],
    [() => pe.resizeGrid(fourPatches, { ...resize, toHeight: undefined }), TypeError, /toHeight is required/],
    [() => pe.resizeGrid(fourPatches, { ...resize, mode: 'bilinear' }), TypeError, /unknown option 'mode'/],
    [() => pe.resizeGrid(fourPatches), TypeError, /^posenc\.resizeGrid: options must be an object/],
    [
      () => pe.table({ dModel: 8, positions: 'abc' }),
      TypeError,
      /^posenc\.table: positions must be an array of numbers/,
    ],
    [() => pe.table({ dModel: 8, positions: [1, Infinity] }), RangeError, /positions\[1\] must be a finite number/],
    [() => pe.table({ dModel: 8, positions: [1, 2], start: 3 }), TypeError, /give either positions or start/],
    [
      () => pe.table({ dModel: 8, positions: [1, 2], out: new Float32Array(16) }),
      TypeError,
      /give either positions or out/,
    ],
    [
      () => pe.table({ dModel: 8, positions: [1, 2], length: 3 }),
      RangeError,
      /length must equal positions\.length \(2\)/,
    ],
    [
      () => pe.table({ dModel: 8, positions: [1, -2], preset: 'question' }),
      RangeError,
      /every position must be >= 0 with angle 'ratio-power'/,
    ],
    [() => pe.row(1, { dModel: 8, positions: [1] }), TypeError, /'positions' is an option of table, not of row/],
  ])('%#: %s', (call, ErrorType, message) => {
    expect(call).toThrow(ErrorType);
    expect(call).toThrow(message);
  });

  it('the module still computes afterwards', () => {
    expect(() => pe.timestepEmbedding({ timesteps: [1], dim: 8, downscaleFreqShift: 4 })).toThrow(RangeError);
    expect(pe.timestepEmbedding({ timesteps: [0], dim: 4 })).toEqual(new Float32Array([0, 0, 1, 1]));
    expect(pe.sincosGrid2d({ dim: 4, height: 1, width: 1 })).toEqual(new Float32Array([0, 1, 0, 1]));
    expect(pe.resizeGrid([1, 2], { dim: 2, height: 1, width: 1, toHeight: 1, toWidth: 1 })).toEqual(
      new Float32Array([1, 2]),
    );
  });

  it('load({ rope: false }) has none of them: each throws an Error saying to use load()', async () => {
    const core = await load({ rope: false });
    for (const call of [
      () => core.timestepEmbedding({ timesteps: [1], dim: 8 }),
      () => core.sincosGrid2d(grid),
      () => core.sincosGrid3d(video),
      () => core.resizeGrid(fourPatches, resize),
      () => core.table({ dModel: 8, positions: [1, 2] }),
    ])
      expect(call).toThrow(/loaded with load\(\{ rope: false \}\).*use the one of await load\(\)/);
    expect(core.table({ dModel: 8, length: 2 })).toEqual(pe.table({ dModel: 8, length: 2 }));
  });
});
