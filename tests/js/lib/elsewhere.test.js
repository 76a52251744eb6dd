// pe.timestepEmbedding, pe.sincosGrid2d and pe.table({ positions }): against
// float64 formulas written here, and against tables computed the way
// diffusers, guided-diffusion (DiT, latent-diffusion), MAE, DiT, ESPnet and
// Transformer-XL compute them (tests/fixtures/sinusoids_elsewhere.py and
// dit_pos_embed.py, run by Debian's python3 with NumPy and torch).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { expectClose } from '../tolerance.js';

// Every fixture table of this file, made by one python3 run (importing torch takes
// seconds, tens of them under load): the specs are listed here, the tables read by spec.
const SPECS = [];
const spec = (s) => (SPECS.push(s), JSON.stringify(s));
let tables;
const elsewhere = (key) => tables.get(key);

let pe;
beforeAll(async () => {
  pe = await load();
  const out = execFileSync('/usr/bin/python3', [fixture('sinusoids_elsewhere.py'), JSON.stringify(SPECS)], {
    maxBuffer: 1 << 28,
  });
  const made = JSON.parse(out.toString());
  tables = new Map(SPECS.map((s, k) => [JSON.stringify(s), Float64Array.from(made[k])]));
}, 300000);

const fixture = (name) => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));
const float64s = (out) => new Float64Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.length));
// diffusers' formula in float64: w_i = scale * maxPeriod^(-i / (h - shift)).
function timestepReference({
  timesteps,
  dim,
  maxPeriod = 10000,
  flipSinToCos = false,
  downscaleFreqShift = 1,
  scale = 1,
}) {
  const h = Math.floor(dim / 2);
  const out = new Float64Array(timesteps.length * dim);
  timesteps.forEach((t, k) => {
    for (let i = 0; i < h; i++) {
      const angle = scale * (t * Math.exp((-Math.log(maxPeriod) * i) / (h - downscaleFreqShift)));
      out[k * dim + (flipSinToCos ? h : 0) + i] = Math.sin(angle);
      out[k * dim + (flipSinToCos ? 0 : h) + i] = Math.cos(angle);
    }
  });
  return out;
}

// Per row, what a float32 framework may differ by: the output's rounding plus
// its angles' (exponent, exp, products in float32: a few ulps of the largest angle).
function expectWithinFloat32Angles(got, want, dim, largestAngles, message) {
  largestAngles.forEach((angle, k) =>
    expectClose(
      got.subarray(k * dim, (k + 1) * dim),
      want.subarray(k * dim, (k + 1) * dim),
      2 ** -23 + Math.abs(angle) * 2 ** -19,
      `${message}, row ${k}`,
    ),
  );
}

describe('timestepEmbedding', () => {
  const timesteps = [0, 1, 7, 250.5, 999, 42];
  it.each([
    ['diffusers defaults', { dim: 320 }],
    ['flip, shift 0 (Stable Diffusion UNet)', { dim: 320, flipSinToCos: true, downscaleFreqShift: 0 }],
    ['odd dim: a zero last column', { dim: 33, flipSinToCos: true, downscaleFreqShift: 0 }],
    ['scale 1000, max period 1000', { dim: 64, scale: 1000, maxPeriod: 1000 }],
  ])('%s: float32 is the float64 value rounded; float64 the formula', (_, knobs) => {
    const want = timestepReference({ timesteps, ...knobs });
    const largest = Math.max(...timesteps) * (knobs.scale ?? 1);
    expectClose(pe.timestepEmbedding({ timesteps, ...knobs, dtype: 'float64' }), want, 1e-15 * (1 + largest));
    const got = pe.timestepEmbedding({ timesteps: Float32Array.from(timesteps), ...knobs });
    expect(got).toBeInstanceOf(Float32Array);
    expectClose(got, Float32Array.from(want), 2 ** -24 + 1e-15 * largest);
    if (knobs.dim % 2) for (let k = 0; k < timesteps.length; k++) expect(got[(k + 1) * knobs.dim - 1]).toBe(0);
  });

  // t in 0..1000 and in [0, 1] (the flow-matching timesteps that scale 1000 is for).
  const diffusersCases = [
    [{ dim: 256 }, { flip: false, shift: 1, scale: 1, maxPeriod: 10000 }],
    [
      { dim: 255, flipSinToCos: true, downscaleFreqShift: 0 },
      { flip: true, shift: 0, scale: 1, maxPeriod: 10000 },
    ],
    [
      { dim: 128, scale: 1000 },
      { flip: false, shift: 1, scale: 1000, maxPeriod: 10000 },
    ],
  ].map(([knobs, s]) => {
    const steps = s.scale === 1 ? [0, 1, 2, 500, 999, 12.75] : [0, 0.001, 0.25, 0.5, 0.999, 1];
    return [knobs, s, steps, spec({ kind: 'diffusers', timesteps: steps, dim: knobs.dim, ...s })];
  });
  it.each(diffusersCases)("matches diffusers' get_timestep_embedding %o", (knobs, s, steps, key) => {
    const got = pe.timestepEmbedding({ timesteps: steps, ...knobs });
    expectWithinFloat32Angles(
      got,
      elsewhere(key),
      knobs.dim,
      steps.map((t) => t * s.scale),
      'diffusers',
    );
  });

  const steps = Array.from({ length: 50 }, (_, k) => k * 20.5);
  const guidedKeys = Object.fromEntries(
    [256, 33].map((dim) => [dim, spec({ kind: 'guided', timesteps: steps, dim, maxPeriod: 10000 })]),
  );
  it.each(['guided-diffusion', 'improved-diffusion', 'dit', 'latent-diffusion'])(
    "preset '%s' matches guided-diffusion's timestep_embedding ([cos | sin], i / half)",
    (preset) => {
      for (const dim of [256, 33]) {
        const want = elsewhere(guidedKeys[dim]);
        expectWithinFloat32Angles(pe.timestepEmbedding({ timesteps: steps, dim, preset }), want, dim, steps, preset);
        // The diffusers default (sin first, shift 1) is not it.
        expect(Math.abs(pe.timestepEmbedding({ timesteps: [3], dim })[0] - want[dim])).toBeGreaterThan(0.1);
      }
    },
  );

  it('consecutive timesteps (the recurrence) equal the same timesteps one at a time', () => {
    const steps = Float64Array.from({ length: 1000 }, (_, k) => k);
    const all = pe.timestepEmbedding({ timesteps: steps, dim: 128, preset: 'dit' });
    for (const k of [0, 1, 499, 998, 999]) {
      const one = pe.timestepEmbedding({ timesteps: [k], dim: 128, preset: 'dit' });
      expectClose(all.subarray(k * 128, (k + 1) * 128), one, 1.2e-7, `t = ${k}`);
    }
  });
});

describe('sincosGrid2d', () => {
  const maeKey = spec({ kind: 'mae', dim: 64, size: 7, clsToken: true });
  it("preset 'mae' with a class token matches MAE's get_2d_sincos_pos_embed(cls_token=True)", () => {
    const want = elsewhere(maeKey);
    const got = pe.sincosGrid2d({ dim: 64, height: 7, width: 7, extraTokens: 1, preset: 'mae', dtype: 'float64' });
    expectClose(got, want, 1e-15);
    expectClose(pe.sincosGrid2d({ dim: 64, height: 7, width: 7, extraTokens: 1 }), Float32Array.from(want), 2 ** -24);
  });

  it("preset 'dit' matches DiT's get_2d_sincos_pos_embed (tests/fixtures/dit_pos_embed.py)", () => {
    const want = float64s(execFileSync('/usr/bin/python3', [fixture('dit_pos_embed.py'), '32', '8']));
    expectClose(pe.sincosGrid2d({ dim: 32, height: 8, width: 8, preset: 'dit', dtype: 'float64' }), want, 1e-15);
  });

  const diffusersGrids = [
    [12, 20, 16, 1],
    [24, 24, 16, 2],
    [9, 5, 6, 0.5],
  ].map(([height, width, baseSize, interpolationScale]) => {
    const options = { dim: 32, height, width, extraTokens: 2, baseSize, interpolationScale };
    return [height, width, baseSize, interpolationScale, spec({ kind: 'diffusers-grid', ...options })];
  });
  it.each(diffusersGrids)(
    "preset 'diffusers': a %i x %i grid, base size %i, interpolation scale %f, 2 extra tokens, as diffusers makes it",
    (height, width, baseSize, interpolationScale, key) => {
      const options = { dim: 32, height, width, extraTokens: 2, baseSize, interpolationScale, preset: 'diffusers' };
      expectClose(pe.sincosGrid2d({ ...options, dtype: 'float64' }), elsewhere(key), 1e-15);
    },
  );

  const roundingKey = spec({
    kind: 'diffusers-grid',
    dim: 32,
    height: 24,
    width: 24,
    extraTokens: 0,
    baseSize: 16,
    interpolationScale: 1,
  });
  it("float64 coordinates differ from diffusers' float32 ones where a division rounds (k / 1.5)", () => {
    const options = { dim: 32, height: 24, width: 24, baseSize: 16, preset: 'diffusers', dtype: 'float64' };
    const want = elsewhere(roundingKey);
    const exact = pe.sincosGrid2d({ ...options, coordinateDtype: 'float64' });
    let worst = 0;
    for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(exact[i] - want[i]));
    expect(worst).toBeGreaterThan(1e-8);
    expectClose(pe.sincosGrid2d(options), want, 1e-15);
  });

  it("on a non-square grid the first half is the column (w) coordinate; axisOrder 'h-w' swaps the halves", () => {
    const wh = pe.sincosGrid2d({ dim: 8, height: 2, width: 3, dtype: 'float64' });
    const hw = pe.sincosGrid2d({ dim: 8, height: 2, width: 3, axisOrder: 'h-w', dtype: 'float64' });
    // Patch (y 1, x 2) is row 1 * 3 + 2 = 5: sin(2), sin(2 / 100), cos(2), cos(2 / 100), then the same of 1.
    const of = (p) => [Math.sin(p), Math.sin(p / 100), Math.cos(p), Math.cos(p / 100)];
    expectClose(wh.subarray(40, 48), [...of(2), ...of(1)], 1e-15);
    expectClose(hw.subarray(40, 48), [...of(1), ...of(2)], 1e-15);
  });
});

// diffusers' get_3d_sincos_pos_embed in float64: [temporal dim/4 | spatial 3*dim/4], each
// part's halves [sin(c w_i) | cos(c w_i)], w_i = 10000^(-i / (columns/4)), spatial first half x.
function grid3dReference({ dim, frames, height, width, extraTokens = 0, spatialScale = 1, temporalScale = 1 }) {
  const out = new Float64Array((extraTokens + frames * height * width) * dim);
  const part = (columns, c, p) => {
    const pairs = columns / 2;
    const angle = p * 10000 ** (-(c % pairs) / pairs);
    return c < pairs ? Math.sin(angle) : Math.cos(angle);
  };
  const [temporal, half] = [dim / 4, (3 * dim) / 8];
  for (let t = 0; t < frames; t++)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const row = extraTokens + (t * height + y) * width + x;
        for (let c = 0; c < dim; c++) {
          const s = c - temporal;
          out[row * dim + c] =
            c < temporal
              ? part(temporal, c, t / temporalScale)
              : part(half, s % half, (s < half ? x : y) / spatialScale);
        }
      }
  return out;
}

describe('sincosGrid3d', () => {
  const cogKey = spec({
    kind: 'diffusers-3d',
    dim: 64,
    frames: 3,
    height: 4,
    width: 6,
    extraTokens: 5,
    spatialInterpolationScale: 1.875,
    temporalInterpolationScale: 1,
  });
  const oddKey = spec({
    kind: 'diffusers-3d',
    dim: 32,
    frames: 4,
    height: 3,
    width: 2,
    extraTokens: 0,
    spatialInterpolationScale: 0.7,
    temporalInterpolationScale: 1.3,
  });
  it("preset 'cogvideox' with text tokens matches diffusers' get_3d_sincos_pos_embed as CogVideoX joins it", () => {
    const options = { dim: 64, frames: 3, height: 4, width: 6, extraTokens: 5, preset: 'cogvideox' };
    const want = elsewhere(cogKey);
    expectClose(pe.sincosGrid3d({ ...options, dtype: 'float64' }), want, 1e-15);
    const got = pe.sincosGrid3d(options);
    expect(got).toBeInstanceOf(Float32Array);
    expect(got.length).toBe((5 + 72) * 64);
    expectClose(got, Float32Array.from(want), 2 ** -24);
  });

  it('scales that round in float32 (0.7, 1.3) as diffusers rounds them; float64 coordinates are the formula', () => {
    const options = { dim: 32, frames: 4, height: 3, width: 2, spatialInterpolationScale: 0.7 };
    const grid = { ...options, temporalInterpolationScale: 1.3, dtype: 'float64' };
    expectClose(pe.sincosGrid3d(grid), elsewhere(oddKey), 1e-15);
    const exact = pe.sincosGrid3d({ ...grid, coordinateDtype: 'float64' });
    expectClose(exact, grid3dReference({ ...options, spatialScale: 0.7, temporalScale: 1.3 }), 1e-15);
    let worst = 0;
    for (let i = 0; i < exact.length; i++) worst = Math.max(worst, Math.abs(exact[i] - elsewhere(oddKey)[i]));
    expect(worst).toBeGreaterThan(1e-9);
  });

  it("axisOrder 'h-w' swaps the spatial halves and leaves the temporal quarter", () => {
    const grid = { dim: 16, frames: 2, height: 2, width: 3, dtype: 'float64' };
    const wh = pe.sincosGrid3d(grid);
    const hw = pe.sincosGrid3d({ ...grid, axisOrder: 'h-w' });
    for (let r = 0; r < 12; r++) {
      expect(hw.subarray(r * 16, r * 16 + 4)).toEqual(wh.subarray(r * 16, r * 16 + 4));
      expect(hw.subarray(r * 16 + 4, r * 16 + 10)).toEqual(wh.subarray(r * 16 + 10, r * 16 + 16));
    }
  });
});

// MAE's 2-D grid in float64: `extra` zero rows, then patch y * w + x: [sin | cos](x w_i), [sin | cos](y w_i),
// w_i = 10000^(-i / (dim/4)).
function maeGridReference(dim, height, width, extra) {
  const out = new Float64Array((extra + height * width) * dim);
  const quarter = dim / 4;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < dim; c++) {
        const i = c % quarter;
        const angle = (c < dim / 2 ? x : y) * 10000 ** (-i / quarter);
        out[(extra + y * width + x) * dim + c] = c % (dim / 2) < quarter ? Math.sin(angle) : Math.cos(angle);
      }
  return out;
}

describe('resizeGrid and sincosGrid2d({ resizedFrom })', () => {
  // A sin-cos grid and a table of arbitrary numbers (a learned embedding), each resized by PyTorch itself.
  const cases = [
    ['7 x 7 (+1) up to 9 x 9', 8, 7, 7, 9, 9, 1],
    ['6 x 8 down to 4 x 5', 4, 6, 8, 4, 5, 0],
    ['3 x 5 to 8 x 2 (+2)', 3, 3, 5, 8, 2, 2],
  ].map(([name, dim, height, width, toHeight, toWidth, extraTokens]) => {
    const count = (extraTokens + height * width) * dim;
    const values = Array.from({ length: count }, (_, i) => Math.fround(Math.sin(0.37 * i * i + 1.1)));
    const size = { dim, height, width, toHeight, toWidth, extraTokens };
    const keys = ['float64', 'float32'].map((dtype) => spec({ kind: 'mae-resize', values, ...size, dtype }));
    return [name, values, size, ...keys];
  });
  it.each(cases)(
    "%s: torch.nn.functional.interpolate(mode='bicubic', align_corners=False), extra rows kept",
    (_, values, size, key64, key32) => {
      expectClose(pe.resizeGrid(values, { ...size, dtype: 'float64' }), elsewhere(key64), 1e-14);
      // torch in float32: each of its 16 weights, products and sums rounded to float32 (values up to 1,
      // weights' magnitudes summing to about 1.6): up to some 2^-24 · 16 · 1.6 from the float64 result.
      const got = pe.resizeGrid(Float32Array.from(values), size);
      expect(got).toBeInstanceOf(Float32Array);
      expectClose(got, elsewhere(key32), 2e-6);
      expect(Array.from(got.subarray(0, size.extraTokens * size.dim))).toEqual(
        values.slice(0, size.extraTokens * size.dim),
      );
    },
  );

  const maeResizeKey = spec({
    kind: 'mae-resize',
    values: Array.from(maeGridReference(32, 7, 7, 1)),
    dim: 32,
    height: 7,
    width: 7,
    toHeight: 10,
    toWidth: 10,
    extraTokens: 1,
    dtype: 'float64',
  });
  it("resizedFrom: MAE's grid made at 7 x 7 and resized to 10 x 10 as interpolate_pos_embed does", () => {
    const got = pe.sincosGrid2d({
      dim: 32,
      height: 10,
      width: 10,
      extraTokens: 1,
      resizedFrom: { height: 7, width: 7 },
    });
    expectClose(got, Float32Array.from(elsewhere(maeResizeKey)), 2 ** -23);
    const table = pe.sincosGrid2d({ dim: 32, height: 7, width: 7, extraTokens: 1, dtype: 'float64' });
    const size = { dim: 32, height: 7, width: 7, toHeight: 10, toWidth: 10, extraTokens: 1, dtype: 'float64' };
    expect(
      pe.sincosGrid2d({
        dim: 32,
        height: 10,
        width: 10,
        extraTokens: 1,
        resizedFrom: { height: 7, width: 7 },
        dtype: 'float64',
      }),
    ).toEqual(pe.resizeGrid(table, size));
  });

  it('how far a resized grid is from one computed at the new size: not zero for a size change, zero for the same size', () => {
    const largestDifference = (a, b) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
    const fresh = (height, width) => pe.sincosGrid2d({ dim: 64, height, width, dtype: 'float64' });
    const resized = (height, width) =>
      pe.sincosGrid2d({ dim: 64, height, width, resizedFrom: { height: 14, width: 14 }, dtype: 'float64' });
    expect(largestDifference(resized(14, 14), fresh(14, 14))).toBe(0);
    // 14 -> 16: the 16 patches span the 14 trained coordinates, so patch x = 8 holds about x = 8.5 · 14/16 − 0.5.
    const up = largestDifference(resized(16, 16), fresh(16, 16));
    expect(up).toBeGreaterThan(0.3);
    const sinOfX = resized(16, 16)[8 * 64];
    expect(Math.abs(sinOfX - Math.sin(8.5 * (14 / 16) - 0.5))).toBeLessThan(0.1);
    expect(Math.abs(sinOfX - Math.sin(8))).toBeGreaterThan(0.25);
  });
});

describe('table at any positions', () => {
  const length = 40;
  const relKey = spec({ kind: 'espnet-rel', dModel: 64, length, maxLen: 100 });
  const xlKey = spec({ kind: 'transformer-xl', dModel: 32, length: 50 });
  const streamKey = spec({ kind: 'espnet-stream', dModel: 64, length: 16, start: 64 });
  it("positions L-1 … -(L-1) are ESPnet's RelPositionalEncoding", () => {
    const want = elsewhere(relKey);
    const positions = Array.from({ length: 2 * length - 1 }, (_, k) => length - 1 - k);
    const got = pe.table({ dModel: 64, positions });
    expect(got.length).toBe(positions.length * 64);
    expectWithinFloat32Angles(got, want, 64, positions, 'ESPnet');
  });

  it("descending positions in [sin | cos] are Transformer-XL's PositionalEmbedding", () => {
    const want = elsewhere(xlKey);
    const positions = Float64Array.from({ length: 50 }, (_, k) => 49 - k);
    expectWithinFloat32Angles(
      pe.table({ dModel: 32, layout: 'concat', positions }),
      want,
      32,
      positions,
      'Transformer-XL',
    );
  });

  it("a streaming chunk from position 64 (start) is ESPnet's StreamPositionalEncoding(start_idx=64)", () => {
    const want = elsewhere(streamKey);
    const positions = Array.from({ length: 16 }, (_, k) => 64 + k);
    expectWithinFloat32Angles(pe.table({ dModel: 64, length: 16, start: 64 }), want, 64, positions, 'start 64');
    expect(pe.table({ dModel: 64, positions })).toEqual(pe.table({ dModel: 64, length: 16, start: 64 }));
  });

  it('any positions give the rows row() gives, in float64 exactly; the padding row is by position', () => {
    const positions = [3.5, -2, 1e6, 0, 1, 2, 3, 4, 5, -0.25, 17];
    const options = { dModel: 11, preset: 'fairseq', dtype: 'float64' };
    const got = pe.table({ ...options, positions });
    positions.forEach((p, k) => expect(got.subarray(k * 11, (k + 1) * 11)).toEqual(pe.row(p, options)));
    expect(got.subarray(4 * 11, 5 * 11).every((v) => v === 0)).toBe(true); // position 1: fairseq's padding row
  });
});
