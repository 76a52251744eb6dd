// timestepEmbedding, sincosGrid2d and table's positions: bad input gets a
// TypeError or RangeError naming the function and the parameter, and the
// module stays usable.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../../web/lib/index.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const grid = { dim: 16, height: 2, width: 3 };

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
  });

  it('load({ rope: false }) has none of them: each throws an Error saying to use load()', async () => {
    const core = await load({ rope: false });
    for (const call of [
      () => core.timestepEmbedding({ timesteps: [1], dim: 8 }),
      () => core.sincosGrid2d(grid),
      () => core.table({ dModel: 8, positions: [1, 2] }),
    ])
      expect(call).toThrow(/loaded with load\(\{ rope: false \}\).*use the one of await load\(\)/);
    expect(core.table({ dModel: 8, length: 2 })).toEqual(pe.table({ dModel: 8, length: 2 }));
  });
});
