// identify() on the sinusoids beyond token positions: diffusion timestep
// embeddings, 2-D sin-cos grids, relative (descending) positions and any start.
// Tables come from float64 formulas written here, each following one
// project's convention (named with its repository and path; no code copied),
// and from posenc's own timestepEmbedding, sincosGrid2d and table({ positions }).
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { FLOAT64_EPSILON, expectClose } from '../tolerance.js';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { diagnosisWords } from '../../../web/page/check-words.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const codes = (entries) => entries.map((d) => d.code);

// huggingface/diffusers src/diffusers/models/embeddings.py get_timestep_embedding:
// half = dim // 2; exponent = -ln(max_period) * arange(half) / (half - downscale_freq_shift);
// angles = scale * t * exp(exponent); [sin | cos], halves swapped when flip_sin_to_cos; odd dim: a zero column.
function diffusersTimesteps(timesteps, dim, { flip = false, shift = 1, scale = 1, maxPeriod = 10000 } = {}) {
  const half = Math.floor(dim / 2);
  const out = new Float64Array(timesteps.length * dim);
  timesteps.forEach((t, r) => {
    for (let i = 0; i < half; i++) {
      const angle = scale * t * Math.exp((-Math.log(maxPeriod) * i) / (half - shift));
      const [sin, cos] = flip ? [half + i, i] : [i, half + i];
      out[r * dim + sin] = Math.sin(angle);
      out[r * dim + cos] = Math.cos(angle);
    }
  });
  return out;
}

// openai/guided-diffusion guided_diffusion/nn.py timestep_embedding (DiT models.py and
// latent-diffusion ldm/modules/diffusionmodules/util.py follow it):
// freqs = exp(-ln(max_period) * arange(half) / half); [cos(t freqs) | sin(t freqs)].
function guidedTimesteps(timesteps, dim, maxPeriod = 10000) {
  const half = Math.floor(dim / 2);
  const out = new Float64Array(timesteps.length * dim);
  timesteps.forEach((t, r) => {
    for (let i = 0; i < half; i++) {
      const angle = t * Math.exp((-Math.log(maxPeriod) * i) / half);
      out[r * dim + i] = Math.cos(angle);
      out[r * dim + half + i] = Math.sin(angle);
    }
  });
  return out;
}

// openai/whisper whisper/model.py sinusoids(length, channels, max_timescale=10000):
// log_timescale_increment = ln(max_timescale) / (channels // 2 - 1);
// inv_timescales = exp(-log_timescale_increment * arange(channels // 2)); [sin | cos] of t * inv_timescales.
function whisperSinusoids(length, channels, maxTimescale = 10000) {
  const half = channels / 2;
  const increment = Math.log(maxTimescale) / (half - 1);
  const out = new Float64Array(length * channels);
  for (let t = 0; t < length; t++)
    for (let i = 0; i < half; i++) {
      const angle = t * Math.exp(-increment * i);
      out[t * channels + i] = Math.sin(angle);
      out[t * channels + half + i] = Math.cos(angle);
    }
  return out;
}

// facebookresearch/mae util/pos_embed.py get_2d_sincos_pos_embed (DiT models.py the same):
// grid = meshgrid(grid_w, grid_h): patch row y * w + x gets the 1-D embedding of x in its first half
// ([sin | cos] of x / 10000^(i / (dim/4)), i < dim/4) and of y in its second; cls_token: a zero row first.
// `swap` puts y first (what swapping grid[0] and grid[1] gives: facebookresearch/mae#18).
function maeGrid(dim, height, width, { clsToken = false, swap = false } = {}) {
  const quarter = dim / 4;
  const extra = clsToken ? 1 : 0;
  const out = new Float64Array((extra + height * width) * dim);
  const oneD = (at, p) => {
    for (let i = 0; i < quarter; i++) {
      const angle = p / 10000 ** (i / quarter);
      out[at + i] = Math.sin(angle);
      out[at + quarter + i] = Math.cos(angle);
    }
  };
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (extra + y * width + x) * dim;
      oneD(at, swap ? y : x);
      oneD(at + dim / 2, swap ? x : y);
    }
  return out;
}

// The paper's table (§3.5) at any positions: sin on even, cos on odd columns, pos / 10000^(2i/d).
// ESPnet espnet/nets/pytorch_backend/transformer/embedding.py RelPositionalEncoding builds its
// table at positions L-1 … -(L-1) this way; StreamPositionalEncoding its rows from start_idx.
function paperAt(positions, d) {
  const out = new Float64Array(positions.length * d);
  positions.forEach((p, r) => {
    for (let j = 0; j < d; j++) {
      const angle = p / 10000 ** ((2 * Math.floor(j / 2)) / d);
      out[r * d + j] = j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }
  });
  return out;
}

describe('timestep embeddings', () => {
  it("diffusers' defaults at t in [0, 1]: named, with the timesteps, and how nearly constant the rows are", () => {
    const ts = Array.from({ length: 101 }, (_, k) => k / 100);
    const data = diffusersTimesteps(ts, 256);
    const id = pe.identify(data, ts.length, 256);
    expect(id).toMatchObject({ match: true, kind: 'timestep' });
    expect(id.timestep).toMatchObject({
      preset: 'diffusers',
      dim: 256,
      maxPeriod: 10000,
      flipSinToCos: false,
      downscaleFreqShift: 1,
      scale: 1,
    });
    expect(id.timestep.timesteps.first).toBe(0);
    // The step read back from 101 float64 rows: within a few roundings of 0.01.
    expectClose(id.timestep.timesteps.step, 0.01, { relative: 8 * FLOAT64_EPSILON }, 'timestep step');
    const dx = id.diagnosis.find((d) => d.code === 'timesteps-unit-interval');
    // Rows 0 and 1: [0… | 1…] and [sin w_i | cos w_i]: cosine similarity mean(cos w_i).
    const half = 128;
    let sum = 0;
    for (let i = 0; i < half; i++) sum += Math.cos(Math.exp((-Math.log(10000) * i) / (half - 1)));
    // A cosine similarity over 256 float64 terms: a rounding per term, relative to the result.
    expectClose(dx.ends, sum / half, { relative: 2 * 256 * FLOAT64_EPSILON }, 'first and last rows');
    expect(dx.ends).toBeGreaterThan(0.9);
    expect(dx.message).toContain('nearly constant');
  });

  it('posenc’s own timestepEmbedding in float32, t in [0, 1], cos first and shift 0 (DiT)', () => {
    const ts = Array.from({ length: 64 }, (_, k) => k / 63);
    const data = pe.timestepEmbedding({ timesteps: ts, dim: 128, preset: 'dit' });
    const id = pe.identify(data, 64, 128);
    expect(id.kind).toBe('timestep');
    expect(id.timestep).toMatchObject({ preset: 'guided-diffusion', flipSinToCos: true, downscaleFreqShift: 0 });
    expect(id.timestep.presets).toEqual(['guided-diffusion', 'improved-diffusion', 'dit', 'latent-diffusion']);
    expect(id.timestep.timesteps.step).toBe(1 / 63);
  });

  it("guided-diffusion's formula at timesteps 0…n−1: a 1-D table, also named as that timestep embedding", () => {
    const ts = Array.from({ length: 80 }, (_, k) => k);
    const id = pe.identify(guidedTimesteps(ts, 64), 80, 64);
    expect(id).toMatchObject({ match: true, kind: 'table' });
    expect(id.timestep).toMatchObject({
      preset: 'guided-diffusion',
      maxPeriod: 10000,
      timesteps: { first: 0, step: 1 },
    });
  });

  it('halves swapped against the presets with its exponent (Wan, flashinfer#3819): says which order it has', () => {
    const ts = Array.from({ length: 50 }, (_, k) => k / 49);
    const id = pe.identify(diffusersTimesteps(ts, 64, { flip: false, shift: 0 }), 50, 64);
    expect(id.timestep).toMatchObject({ preset: null, flipSinToCos: false, downscaleFreqShift: 0 });
    const dx = id.diagnosis.find((d) => d.code === 'timestep-order');
    expect(dx).toMatchObject({ found: 'sin-cos', expected: 'cos-sin' });
    expect(dx.message).toContain('flip_sin_to_cos=False');
  });

  it("downscale_freq_shift 1 with cos first: 'this is shift 1; diffusers' SDXL uses 0' (kohya-ss/sd-scripts#1187)", () => {
    const ts = Array.from({ length: 40 }, (_, k) => 25 * k);
    const id = pe.identify(diffusersTimesteps(ts, 320, { flip: true, shift: 1 }), 40, 320);
    expect(id.match).toBe(true);
    expect(id.timestep).toMatchObject({ flipSinToCos: true, downscaleFreqShift: 1, maxPeriod: 10000 });
    expect(id.timestep.timesteps).toMatchObject({ first: 0, step: 25 });
    const dx = id.diagnosis.find((d) => d.code === 'timestep-shift');
    expect(dx).toMatchObject({ found: 1, expected: 0 });
    expect(dx.message).toMatch(/downscale_freq_shift=1.*SDXL.*use 0/);
  });

  it("diffusers' scale 1000 on t in [0, 1] is read as timesteps 1000 t; odd dim and max_period 1000", () => {
    const ts = Array.from({ length: 21 }, (_, k) => k / 20);
    const data = diffusersTimesteps(ts, 65, { scale: 1000, maxPeriod: 1000 });
    const id = pe.identify(data, 21, 65);
    expect(id.timestep).toMatchObject({ maxPeriod: 1000, downscaleFreqShift: 1, timesteps: { first: 0, step: 50 } });
  });

  it("Whisper's sinusoids are the exponent i/(d/2 − 1): tensor2tensor, with Whisper named in the notes", () => {
    const id = pe.identify(whisperSinusoids(100, 384), 100, 384);
    expect(id).toMatchObject({ match: true, preset: 'tensor2tensor', diagnosis: [] });
    expect(id.options.exponent).toBe('half-minus-one');
    const note = id.notes.find((d) => d.code === 'whisper-sinusoids');
    expect(note.message).toContain('log(max_timescale) / (channels/2 − 1)');
  });
});

describe('2-D sin-cos grids', () => {
  it("MAE's grid with a class-token row: h, w, axis order, the zero row, preset", () => {
    const id = pe.identify(maeGrid(64, 14, 14, { clsToken: true }), 1 + 196, 64);
    expect(id).toMatchObject({ match: true, kind: 'grid', diagnosis: [] });
    expect(id.grid).toMatchObject({
      preset: 'mae',
      height: 14,
      width: 14,
      axisOrder: 'w-h',
      extraTokens: 1,
      base: 10000,
    });
  });

  it('a non-square grid (h ≠ w) among several factorisations of its row count: the one that fits, and the naming note', () => {
    // 48 rows: 2×24, 3×16, 4×12, 6×8, 8×6, …
    const id = pe.identify(maeGrid(32, 6, 8), 48, 32);
    expect(id.grid).toMatchObject({ height: 6, width: 8, axisOrder: 'w-h', extraTokens: 0 });
    expect(id.grid.shapes).toHaveLength(1);
    expect(codes(id.notes)).toContain('grid-naming');
  });

  it('h and w swapped against MAE (the row coordinate first): a warning', () => {
    const id = pe.identify(maeGrid(32, 6, 8, { swap: true }), 48, 32);
    expect(id.grid).toMatchObject({ height: 6, width: 8, axisOrder: 'h-w' });
    const dx = id.diagnosis.find((d) => d.code === 'grid-axes-swapped');
    expect(dx.message).toContain('facebookresearch/mae#18');
  });

  it("posenc's sincosGrid2d, diffusers preset (base size 16, interpolation 2, 2 extra tokens), in float32", () => {
    const grid = { dim: 32, height: 12, width: 20, extraTokens: 2, baseSize: 16, interpolationScale: 2 };
    const id = pe.identify(pe.sincosGrid2d({ ...grid, preset: 'diffusers' }), 2 + 240, 32);
    expect(id.grid).toMatchObject({ ...grid, preset: 'diffusers', axisOrder: 'w-h' });
  });

  it('a grid with one column perturbed is no match, and says what it tried', () => {
    const data = maeGrid(32, 8, 8);
    for (let r = 0; r < 64; r++) data[r * 32 + 5] += 0.01 * Math.sin(r);
    const id = pe.identify(data, 64, 32);
    expect(id.match).toBe(false);
    expect(id.grid).toBe(null);
    expect(id.tried).toContain('grid');
  });
});

// diffusers' get_3d_sincos_pos_embed in float64 (integer coordinates divided by the scales, no float32 rounding):
// [temporal dim/4 | x 3*dim/8 | y 3*dim/8], each part [sin | cos] with w_i = 10000^(-i / (columns/2)).
function videoGrid(dim, frames, height, width, { extra = 0, spatialScale = 1, temporalScale = 1 } = {}) {
  const out = new Float64Array((extra + frames * height * width) * dim);
  const part = (columns, c, p) => {
    const pairs = columns / 2;
    const angle = p * 10000 ** (-(c % pairs) / pairs);
    return c < pairs ? Math.sin(angle) : Math.cos(angle);
  };
  const [temporal, half] = [dim / 4, (3 * dim) / 8];
  for (let t = 0; t < frames; t++)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        for (let c = 0; c < dim; c++) {
          const s = c - temporal;
          out[(extra + (t * height + y) * width + x) * dim + c] =
            c < temporal
              ? part(temporal, c, t / temporalScale)
              : part(half, s % half, (s < half ? x : y) / spatialScale);
        }
  return out;
}

describe('3-D sin-cos grids and resized grids', () => {
  it('a 3-D grid (float64 formula): frames, h, w, the dim split, the scales', () => {
    const data = videoGrid(32, 3, 4, 5, { extra: 2, spatialScale: 2, temporalScale: 0.5 });
    const id = pe.identify(data, 2 + 60, 32);
    expect(id).toMatchObject({ match: true, kind: 'grid3d', grid: null, timestep: null });
    expect(id.grid3d).toMatchObject({
      dim: 32,
      frames: 3,
      height: 4,
      width: 5,
      axisOrder: 'w-h',
      extraTokens: 2,
      spatialInterpolationScale: 2,
      temporalInterpolationScale: 0.5,
    });
  });

  it("posenc's sincosGrid3d with CogVideoX's preset and 4 text tokens, in float32: named 'cogvideox'", () => {
    const grid = { dim: 64, frames: 2, height: 3, width: 4, extraTokens: 4 };
    const id = pe.identify(pe.sincosGrid3d({ ...grid, preset: 'cogvideox' }), 4 + 24, 64);
    expect(id.kind).toBe('grid3d');
    expect(id.grid3d).toMatchObject({
      ...grid,
      preset: 'cogvideox',
      spatialInterpolationScale: 1.875,
      coordinateDtype: 'float32',
    });
  });

  it('a 2-D grid resized by bicubic interpolation: no match, and no grid, timestep or near guess', () => {
    const resized = pe.sincosGrid2d({
      dim: 32,
      height: 9,
      width: 9,
      extraTokens: 1,
      resizedFrom: { height: 7, width: 7 },
    });
    const id = pe.identify(resized, 82, 32);
    expect(id).toMatchObject({ match: false, near: false, kind: null, grid: null, grid3d: null, timestep: null });
    expect(id.tried).toContain('grid');
    // The same size (the identity resize) is the grid itself.
    const same = pe.sincosGrid2d({
      dim: 32,
      height: 7,
      width: 7,
      extraTokens: 1,
      resizedFrom: { height: 7, width: 7 },
    });
    expect(pe.identify(same, 50, 32)).toMatchObject({ match: true, kind: 'grid' });
  });
});

describe('relative positions and any start', () => {
  it("ESPnet's relative table, positions L−1 … −(L−1): descending, through 0", () => {
    const positions = Array.from({ length: 79 }, (_, k) => 39 - k);
    const id = pe.identify(paperAt(positions, 64), 79, 64);
    expect(id).toMatchObject({ match: true, kind: 'positions', positions: { first: 39, step: -1 } });
    expect(id.options).toMatchObject({ layout: 'interleaved', exponent: 'pair', base: 10000, start: 39 });
    expect(codes(id.diagnosis)).toEqual(['relative-positions']);
    expect(id.diagnosis[0].found).toEqual({ first: 39, last: -39 });
    // The answer rebuilds the data.
    const again = pe.table({ ...id.options, dModel: 64, start: undefined, positions, dtype: 'float64' });
    for (let k = 0; k < again.length; k++) expect(Math.abs(again[k] - paperAt(positions, 64)[k])).toBeLessThan(1e-12);
  });

  it('posenc’s table({ positions }) of a relative concat table in float32', () => {
    const positions = Array.from({ length: 33 }, (_, k) => 16 - k);
    const id = pe.identify(pe.table({ dModel: 48, layout: 'concat', positions }), 33, 48);
    expect(id).toMatchObject({ match: true, kind: 'positions', positions: { first: 16, step: -1 } });
    expect(id.options.layout).toBe('concat');
  });

  it('a streaming chunk starting at position 64', () => {
    const positions = Array.from({ length: 16 }, (_, k) => 64 + k);
    const id = pe.identify(paperAt(positions, 64), 16, 64);
    expect(id).toMatchObject({ match: true, kind: 'table', preset: null, positions: { first: 64, step: 1 } });
    expect(id.options.start).toBe(64);
    expect(id.diagnosis[0]).toMatchObject({ code: 'start-offset', found: 64, expected: 0 });
  });

  it('random numbers: no match, no grid, no timestep, no misleading knobs', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const data = Float64Array.from({ length: 96 * 64 }, random);
    const id = pe.identify(data, 96, 64);
    expect(id).toMatchObject({ match: false, near: false, kind: null, grid: null, timestep: null });
    expect(codes(id.diagnosis)).toEqual(['unexplained-far']);
  });

  it('a timestep embedding with one column perturbed: no match', () => {
    const ts = Array.from({ length: 50 }, (_, k) => k / 49);
    const data = diffusersTimesteps(ts, 64);
    for (let r = 0; r < 50; r++) data[r * 64 + 3] *= 1.01;
    const id = pe.identify(data, 50, 64);
    expect(id.match).toBe(false);
    expect(id.timestep).toBe(null);
  });
});

describe('the new findings are worded in English and Chinese', () => {
  it('every code, with its numbers, nothing undefined', () => {
    const cases = [
      [
        diffusersTimesteps(
          Array.from({ length: 50 }, (_, k) => k / 49),
          64,
          { shift: 0 },
        ),
        50,
        64,
      ],
      [
        diffusersTimesteps(
          Array.from({ length: 40 }, (_, k) => k),
          64,
          { flip: true },
        ),
        40,
        64,
      ],
      [maeGrid(32, 6, 8, { swap: true }), 48, 32],
      [maeGrid(32, 6, 8), 48, 32],
      [
        paperAt(
          Array.from({ length: 21 }, (_, k) => 10 - k),
          32,
        ),
        21,
        32,
      ],
      [whisperSinusoids(30, 32), 30, 32],
      [Float64Array.from({ length: 256 }, (_, k) => Math.sin(k * k * 1.3)), 16, 16],
    ];
    const seen = new Set();
    for (const [data, length, dModel] of cases) {
      const id = pe.identify(data, length, dModel);
      for (const dx of [...id.diagnosis, ...id.notes]) {
        seen.add(dx.code);
        const words = diagnosisWords(dx, { identification: id, length, dModel });
        for (const strings of [en, zh]) {
          const sentence = strings[`check.dx.${dx.code}`](words);
          expect(sentence, `${dx.code}: ${sentence}`).not.toMatch(/undefined|NaN|null|\[object/);
        }
      }
    }
    for (const code of [
      'timestep-order',
      'timestep-shift',
      'timesteps-unit-interval',
      'grid-axes-swapped',
      'grid-naming',
      'relative-positions',
      'whisper-sinusoids',
      'unexplained-far',
    ])
      expect(seen, code).toContain(code);
  });
});
