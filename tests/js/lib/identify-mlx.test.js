// identify() on a float32 table made by MLX's nn.SinusoidalPositionalEncoding
// (tests/fixtures/mlx_sinusoidal.py: its code, verbatim, on a NumPy float32 shim,
// run by Debian's python3): [sin | cos], frequencies 1e-4^(i / (d/2 - 1)) formed as
// exp(one_zero * ln(1e4) + ln(1e-4)) in float32, scale sqrt(2 / d).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { expectClose } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const script = fileURLToPath(new URL('../../fixtures/mlx_sinusoidal.py', import.meta.url));
function mlxTable(dims, length) {
  const out = execFileSync('/usr/bin/python3', [script, String(dims), String(length)], { maxBuffer: 1 << 26 });
  return Float32Array.from(new Float64Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.length)));
}

describe("identify names MLX's float32 sinusoidal table", () => {
  it.each([
    [128, 256],
    [64, 128],
  ])('d = %i, %i positions: [sin | cos], exponent i / (d/2 - 1), base 10000, scale sqrt(2/d)', (dims, length) => {
    const found = pe.identify(mlxTable(dims, length), length, dims);
    expect(found.match).toBe(true);
    expect(found.options).toMatchObject({
      layout: 'concat',
      exponent: 'half-minus-one',
      order: 'sin-cos',
      base: 10000,
    });
    // Read from a float32 table (MLX computes in float32): values within a few 2^-24.
    expectClose(found.options.scale, Math.sqrt(2 / dims), 1e-6);
    expect(found.float32Angle).toBe(true);
  });
});
