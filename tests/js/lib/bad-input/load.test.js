// load(): every option it refuses, as a rejected promise whose TypeError or
// RangeError names posenc.load and the option.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from '../../../../web/lib/index.js';

const simdBytes = readFileSync(new URL('../../../../web/lib/wasm/posenc-simd.wasm', import.meta.url));

describe('load', () => {
  it('rejects unknown load options', async () => {
    // Rejected promises, not synchronous throws: `load(bad).catch(...)` sees them.
    await expect(load({ wasmURL: 'x' })).rejects.toThrow(TypeError);
    await expect(load({ simd: 'yes' })).rejects.toThrow(/simd/);
  });

  it('refuses an empty wasmUrl instead of returning the default module', async () => {
    await expect(load({ wasmUrl: '' })).rejects.toThrow(/^posenc\.load: wasmUrl must be a non-empty string/);
    await expect(load({ wasmUrl: '  ' })).rejects.toThrow(TypeError);
  });

  it('refuses wasmUrl and wasmBinary together, and a bad timeout', async () => {
    await expect(load({ wasmUrl: 'x.wasm', wasmBinary: simdBytes })).rejects.toThrow(/^posenc\.load: give either/);
    for (const timeout of [0, -1, NaN, Infinity, 600001])
      await expect(load({ timeout })).rejects.toThrow(/^posenc\.load: timeout must be a number of milliseconds in/);
    await expect(load({ timeout: '1000' })).rejects.toThrow(TypeError);
    await expect(load({ timeout: Object.create(null) })).rejects.toThrow(/^posenc\.load: timeout must be/);
  });

  it('refuses a rope option that is no boolean', async () => {
    await expect(load({ rope: 'no' })).rejects.toThrow(/^posenc\.load: rope must be true or false \(got /);
    await expect(load({ rope: 0 })).rejects.toThrow(TypeError);
  });
});
