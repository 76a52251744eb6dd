// timestepSnippet, gridSnippet and codeSnippet's positions: each generated
// snippet run by Debian's python3 (NumPy: python3-numpy, PyTorch: python3-torch)
// and compared with the core's pe.timestepEmbedding, pe.sincosGrid2d and
// pe.table({ positions }) within float32 rounding; bad input named.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSnippet, gridSnippet, load, timestepSnippet } from '../../../web/lib/index.js';

const steps = (count, stride, divisor = 1) => Array.from({ length: count }, (_, k) => (k * stride) / divisor);

// [name, snippet function, options, the core's call, the variable the snippet leaves]
const CASES = [
  ['timestep: diffusers, 0 … 1000', timestepSnippet, { timesteps: steps(51, 20), dim: 64 }],
  ['timestep: DiT, 0 … 1 (odd dim)', timestepSnippet, { timesteps: steps(21, 50, 1000), dim: 33, preset: 'dit' }],
  [
    'timestep: knobs, irregular timesteps, float64',
    timestepSnippet,
    {
      timesteps: [0, 0.37, 999, 12.5, -3],
      dim: 40,
      maxPeriod: 1000,
      flipSinToCos: true,
      downscaleFreqShift: 1,
      scale: 1000,
      dtype: 'float64',
    },
  ],
  ['timestep: dim 2 (half - shift = 0)', timestepSnippet, { timesteps: [0, 1, 2], dim: 2 }],
  ['grid: MAE, non-square, class row', gridSnippet, { dim: 32, height: 5, width: 7, extraTokens: 1 }],
  ['grid: h-w, float64', gridSnippet, { dim: 16, height: 6, width: 3, axisOrder: 'h-w', dtype: 'float64' }],
  [
    'grid: diffusers (float32 coordinates, base size 16)',
    gridSnippet,
    { dim: 24, height: 4, width: 9, preset: 'diffusers' },
  ],
  [
    'grid: interpolation scale 2, base 100',
    gridSnippet,
    { dim: 8, height: 3, width: 3, interpolationScale: 2, base: 100 },
  ],
  ['positions: ESPnet +31 … -31', codeSnippet, { dModel: 64, positions: steps(63, -1).map((p) => p + 31) }],
  ['positions: chunk at 64', codeSnippet, { dModel: 48, positions: steps(16, 1).map((p) => p + 64) }],
  [
    'positions: Transformer-XL [sin | cos], descending, float64',
    codeSnippet,
    { dModel: 20, layout: 'concat', positions: steps(30, -1).map((p) => p + 29), dtype: 'float64' },
  ],
  ['positions: irregular, padding at 0', codeSnippet, { dModel: 10, positions: [3.5, 0, -2, 1e4, 0], paddingRow: 0 }],
];

const coreOf = (pe, snippet, options) =>
  snippet === timestepSnippet
    ? pe.timestepEmbedding(options)
    : snippet === gridSnippet
      ? pe.sincosGrid2d(options)
      : pe.table(options);
const resultName = (snippet) => (snippet === timestepSnippet ? 'emb' : 'pe');

let pe;
beforeAll(async () => {
  pe = await load();
});

for (const language of ['numpy', 'pytorch'])
  describe(`the elsewhere snippets in ${language}, run by Debian's python3`, () => {
    let dir;
    let results;
    let setupError;
    beforeAll(() => {
      try {
        dir = mkdtempSync(join(tmpdir(), 'posenc-elsewhere-snippet-'));
        const scripts = CASES.map(([, snippet, options], k) => {
          const script = join(dir, `case${k}.py`);
          const out = join(dir, `case${k}.json`);
          const name = resultName(snippet);
          const save = `import json\njson.dump({'values': ${name}.ravel().tolist(), 'shape': list(${name}.shape), 'dtype': str(${name}.dtype).replace('torch.', '')}, open(${JSON.stringify(out)}, 'w'))`;
          writeFileSync(script, `${snippet(language, options)}${save}\n`);
          return script;
        });
        execFileSync('/usr/bin/python3', [
          '-c',
          'import runpy, sys\nfor path in sys.argv[1:]: runpy.run_path(path)',
          ...scripts,
        ]);
        results = CASES.map((_, k) => JSON.parse(readFileSync(join(dir, `case${k}.json`), 'utf8')));
      } catch (error) {
        // Reported by every case below: they fail, they do not skip.
        setupError = error;
      }
      // Importing PyTorch takes seconds on a loaded machine.
    }, 120_000);
    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    for (const [k, [name, snippet, options]] of CASES.entries())
      it(`${name}: the core's values within float32 rounding`, () => {
        if (setupError) throw setupError;
        const got = results[k];
        const want = coreOf(pe, snippet, options);
        const float64 = options.dtype === 'float64';
        expect(got.dtype).toBe(float64 ? 'float64' : 'float32');
        expect(got.values.length).toBe(want.length);
        expect(got.shape[0] * got.shape[1]).toBe(want.length);
        // float32: the same float64 value rounded, or the float32 next to it when the two float64
        // values (other orders of operations, other libms) straddle a rounding boundary. float64: the
        // angles' rounding, up to a few ulps of the largest angle.
        const largestAngle = Math.max(
          1,
          ...(options.timesteps ?? options.positions ?? [options.height ?? 1, options.width ?? 1]).map(
            (x) => Math.abs(x) * (options.scale ?? 1),
          ),
        );
        const tolerance = float64 ? 2 ** -50 * largestAngle : 2 ** -23 + 2 ** -50 * largestAngle;
        let worst = 0;
        for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got.values[i] - want[i]));
        expect(worst).toBeLessThanOrEqual(tolerance);
      });
  });

describe('the elsewhere snippets refuse bad input, naming the function and the parameter', () => {
  it.each([
    [() => timestepSnippet('jax', { timesteps: [1], dim: 4 }), RangeError, /posenc\.timestepSnippet: language/],
    [() => timestepSnippet(3, { timesteps: [1], dim: 4 }), TypeError, /posenc\.timestepSnippet: language/],
    [() => timestepSnippet('numpy', { dim: 4 }), TypeError, /posenc\.timestepSnippet: timesteps is required/],
    [() => timestepSnippet('numpy', { timesteps: [NaN], dim: 4 }), RangeError, /timestepSnippet: timesteps\[0\]/],
    [() => gridSnippet('numpy', { dim: 6, height: 2, width: 2 }), RangeError, /posenc\.gridSnippet: dim must be/],
    [() => gridSnippet('numpy', { dim: 8, height: 0, width: 2 }), RangeError, /posenc\.gridSnippet: height/],
    [
      () => gridSnippet('pytorch', { dim: 8, height: 2, width: 2, axisOrder: 'x' }),
      RangeError,
      /gridSnippet: axisOrder/,
    ],
    [() => codeSnippet('numpy', { dModel: 8, positions: [] }), RangeError, /posenc\.codeSnippet: positions/],
    [
      () => codeSnippet('numpy', { dModel: 8, positions: [1], start: 3 }),
      TypeError,
      /codeSnippet: give either positions or start/,
    ],
  ])('%#', (call, ErrorType, message) => {
    expect(call).toThrow(ErrorType);
    expect(call).toThrow(message);
  });
});
