// The precision knobs (positionDtype, frequencyDtype, exponentDtype,
// angleDtype) against references written here: float16 by integer rounding of
// the bits of the double, bfloat16 by round-to-nearest-even on the top 16 bits
// of a float32, float32 by Math.fround; the snippets' round_to helper against
// NumPy's own float16 and float32 casts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSnippet, load, PRECISION_DTYPES } from '../../../web/lib/index.js';
import en from '../../../web/i18n/precision.en.js';
import zh from '../../../web/i18n/precision.zh.js';
import { bfloat16, float16, ROUND } from '../../precision-reference.mjs';
import { expectClose, FLOAT32_EPSILON, FLOAT64_EPSILON } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

describe('each format rounds as its reference', () => {
  // dModel 2, base irrelevant: pair 0 has frequency 1, so the angle is the
  // rounded position and row() gives [sin, cos] of it.
  const angleOf = (x, dtype) => pe.row(x, { dModel: 2, dtype: 'float64', positionDtype: dtype });
  function expectRounded(x, dtype, want) {
    const [s, c] = angleOf(x, dtype);
    if (!Number.isFinite(want)) {
      expect(s).toBeNaN();
      return;
    }
    // sin and cos of the same angle; two neighbouring formats' values differ far more than this.
    expectClose([s, c], [Math.sin(want), Math.cos(want)], FLOAT64_EPSILON);
  }

  it('float16: values, midpoints (ties to even), subnormals, overflow to inf', () => {
    const values = [];
    for (let e = -24; e <= 15; e++)
      for (const m of [1, 1.0009765625, 1.5, 1.4990234375, 1.999, 1.0004882812, 1.0014648438]) values.push(m * 2 ** e);
    for (let k = 2040; k < 2060; k++) values.push(k, k + 0.5);
    values.push(65504, 65519.999, 65520, 1e6, 3 * 2 ** -26, 2 ** -25, 1857.25);
    for (const x of values) {
      expectRounded(x, 'float16', float16(x));
      expectRounded(-x, 'float16', float16(-x));
    }
    expect(float16(2049)).toBe(2048);
    expect(float16(2051)).toBe(2052);
    expect(float16(65520)).toBe(Infinity);
  });

  it('bfloat16: random float32 values against bit rounding', () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let k = 0; k < 2000; k++) {
      const x = Math.fround((random() - 0.5) * 2 ** (60 * random() - 20));
      expectRounded(x, 'bfloat16', bfloat16(x));
    }
    expect(bfloat16(257)).toBe(256);
    expect(bfloat16(65536 + 256)).toBe(65536);
  });

  it('float32: Math.fround', () => {
    for (const x of [0.1, 1 / 3, 2 ** 24 + 1, 2 ** 24 + 3, 123456789.123, 1e-40])
      expectRounded(x, 'float32', Math.fround(x));
  });
});

describe('tables through every step', () => {
  it('table, row and float32 output equal the reference at every knob combination', () => {
    for (const position of PRECISION_DTYPES)
      for (const frequency of PRECISION_DTYPES)
        for (const angle of PRECISION_DTYPES) {
          const opts = { dModel: 12, length: 40, start: 2030, positionDtype: position, frequencyDtype: frequency };
          opts.angleDtype = angle;
          opts.exponentDtype = angle; // a fourth rounding, varied with the third
          const t64 = pe.table({ ...opts, dtype: 'float64' });
          const t32 = pe.table(opts);
          for (let p = 0; p < 40; p++) {
            const pos = ROUND[position](2030 + p);
            for (let j = 0; j < 12; j++) {
              const i = Math.floor(j / 2);
              const w = ROUND[frequency](10000 ** -ROUND[angle]((2 * i) / 12));
              const a = ROUND[angle](pos * w);
              const want = j % 2 === 0 ? Math.sin(a) : Math.cos(a);
              const got = t64[p * 12 + j];
              if (!(Math.abs(got - want) <= 1e-15))
                throw new Error(`${position}/${frequency}/${angle} at ${p}, ${j}: ${got} vs ${want}`);
              expect(t32[p * 12 + j]).toBe(Math.fround(got));
            }
          }
        }
  });

  it('rows of rounded angles (rounded a row at a time, sin/cos kept per float16/bfloat16 value) equal the reference at ties, subnormals, overflow and -0', () => {
    // float16 frequencies times integer positions below 2048 have at most 22
    // significant bits: many products lie exactly halfway between two float16
    // values. Base 1e12: the slowest pairs' angles are subnormal (or round to
    // -0 at negative positions). From 65504 on, angles overflow to inf (NaN values).
    const cases = [
      { start: 1000, base: 10000, frequencyDtype: 'float16', angleDtype: 'float16' },
      { start: -40, base: 1e12, angleDtype: 'float16' },
      { start: 1, base: 1e12, angleDtype: 'float16' },
      { start: 65490, base: 10000, angleDtype: 'float16' },
      { start: 250, base: 10000, frequencyDtype: 'bfloat16', angleDtype: 'bfloat16' },
      { start: -3, base: 1e30, angleDtype: 'bfloat16' },
      { start: 3000, base: 10000, positionDtype: 'float32', angleDtype: 'float32' },
      { start: 200, base: 10000, positionDtype: 'bfloat16' },
    ];
    let ties = 0;
    let negativeZeros = 0;
    for (const c of cases) {
      const opts = {
        dModel: 38,
        length: 200,
        positionDtype: 'float64',
        frequencyDtype: 'float64',
        angleDtype: 'float64',
        ...c,
      };
      // Each column's frequency as the library rounds it (tested above); pow may differ by an ulp from JS's **.
      const { start, length, ...encoding } = opts;
      const frequencies = pe.frequencies(encoding);
      for (let j = 0; j < 38; j++)
        expectClose(frequencies[j], c.base ** -((2 * Math.floor(j / 2)) / 38), { relative: 2 ** -7 });
      const t64 = pe.table({ ...opts, dtype: 'float64' });
      const t32 = pe.table(opts);
      for (let p = 0; p < 200; p++) {
        const pos = ROUND[opts.positionDtype](c.start + p);
        for (let j = 0; j < 38; j++) {
          const w = frequencies[j];
          expectClose(w, c.base ** -((2 * Math.floor(j / 2)) / 38), { relative: 2 ** -7 });
          const exact = pos * w;
          const a = ROUND[opts.angleDtype](exact);
          if (opts.angleDtype === 'float16' && Number.isFinite(a) && a !== exact) {
            const other = 2 * exact - a; // a tie: exact lies halfway between a and another float16 value
            if (float16(other) === other && other !== a) ties++;
          }
          const want = j % 2 === 0 ? Math.sin(a) : Math.cos(a);
          const got = t64[p * 38 + j];
          if (Number.isNaN(want)) {
            expect(got).toBeNaN();
            continue;
          }
          if (Object.is(want, -0)) negativeZeros++;
          if (!(Math.abs(got - want) <= 1e-15) || Object.is(want, -0) !== Object.is(got, -0))
            throw new Error(`${JSON.stringify(c)} at ${p}, ${j}: ${got} vs ${want}`);
          expect(t32[p * 38 + j]).toBe(Math.fround(got));
        }
      }
    }
    expect(ties).toBeGreaterThan(10);
    expect(negativeZeros).toBeGreaterThan(0);
  });

  it('gpt-neox #1003: float16 positions, frequencies and angles put cos at position 1857 off by 0.71', () => {
    const opts = { dModel: 64, dtype: 'float64' };
    const half = { positionDtype: 'float16', frequencyDtype: 'float16', angleDtype: 'float16' };
    const exact = pe.row(1857, opts);
    const rounded = pe.row(1857, { ...opts, ...half });
    let worst = 0;
    for (let j = 1; j < 64; j += 2) {
      const w = 10000 ** (-(j - 1) / 64);
      // An angle of up to 1857 rad whose frequency may be an ulp or two apart.
      expectClose(exact[j], Math.cos(1857 * w), 4096 * FLOAT64_EPSILON);
      worst = Math.max(worst, Math.abs(rounded[j] - Math.cos(1857 * w)));
    }
    // Pair 2: 1857 * float16(0.56234) = 1857 * 0.5625 = 1044.5625 rounds to 1045.
    // The same two cosines on both sides, each within an ulp.
    expectClose(worst, Math.abs(Math.cos(1045) - Math.cos(1857 * 10000 ** (-4 / 64))), 4 * FLOAT64_EPSILON);
    expect(worst).toBeGreaterThan(0.7);
  });

  it('positions collide: bfloat16 256 = 257, blocks of 512 above 65536; float16 overflows at 65520; float32 above 2^24', () => {
    const rowAt = (position, positionDtype) => Array.from(pe.row(position, { dModel: 8, positionDtype }));
    expect(rowAt(257, 'bfloat16')).toEqual(rowAt(256, 'bfloat16'));
    expect(rowAt(258, 'bfloat16')).not.toEqual(rowAt(256, 'bfloat16'));
    expect(rowAt(65536 + 255, 'bfloat16')).toEqual(rowAt(65536, 'bfloat16'));
    expect(rowAt(65536 + 257, 'bfloat16')).toEqual(rowAt(65536 + 512, 'bfloat16'));
    expect(rowAt(65504, 'float16').every(Number.isFinite)).toBe(true);
    expect(rowAt(65520, 'float16').every(Number.isNaN)).toBe(true);
    expect(rowAt(2 ** 24 + 1, 'float32')).toEqual(rowAt(2 ** 24, 'float32'));
    expect(rowAt(2 ** 24 + 1, 'float64')).not.toEqual(rowAt(2 ** 24, 'float64'));
  });

  it('offsetDots and similarity multiply the rounded rows out', () => {
    const opts = { dModel: 16, positionDtype: 'bfloat16', angleDtype: 'float16' };
    const rows = pe.table({ ...opts, length: 30, start: 250, dtype: 'float64' });
    const dots = pe.offsetDots({ ...opts, from: 250, maxOffset: 29 });
    const matrix = pe.similarity({ ...opts, length: 30, start: 250 });
    for (let k = 0; k < 30; k++) {
      let s = 0;
      for (let j = 0; j < 16; j++) s += rows[j] * rows[k * 16 + j];
      // 16 products of rows at angles up to 280 rad (each within ~280 ulps) against the recurrence.
      expectClose(dots[k], s, 16 * 512 * FLOAT64_EPSILON);
      // A float32 value of magnitude up to 8, rounded once.
      expectClose(matrix[k], s, 8 * FLOAT32_EPSILON);
    }
  });
});

describe('RoPE', () => {
  it('ropeFrequencies, ropeCache and ropeScores round as the reference', () => {
    const half = {
      exponentDtype: 'float32',
      frequencyDtype: 'float16',
      positionDtype: 'float16',
      angleDtype: 'float16',
    };
    const { invFreq } = pe.ropeFrequencies({ headDim: 16, ...half });
    for (let i = 0; i < 8; i++) expect(invFreq[i]).toBe(float16(1 / 10000 ** Math.fround((2 * i) / 16)));
    const cache = pe.ropeCache({ headDim: 16, length: 30, start: 2040, ...half });
    for (let r = 0; r < 30; r++)
      for (let j = 0; j < 16; j++) {
        const a = float16(float16(2040 + r) * invFreq[j % 8]);
        expect(cache.cos[r * 16 + j]).toBe(Math.fround(Math.cos(a)));
        expect(cache.sin[r * 16 + j]).toBe(Math.fround(Math.sin(a)));
      }
    const { scores } = pe.ropeScores({ headDim: 16, maxOffset: 9, from: 2040, ...half });
    for (let k = 0; k < 10; k++) {
      let s = 0;
      for (let i = 0; i < 8; i++)
        s += Math.cos(float16(float16(2040 + k) * invFreq[i]) - float16(float16(2040) * invFreq[i]));
      // 8 pairs' cos a cos b + sin a sin b against cos(a - b), a few ulps each, weighted 2/16.
      expectClose(scores[k], (2 * s) / 16, 32 * FLOAT64_EPSILON);
    }
    const x = new Float64Array(16).fill(0).fill(1, 0, 8);
    const turned = pe.ropeApply(x, { headDim: 16, positions: [3001], ...half });
    // cos of the same rounded angle, within an ulp each.
    for (let i = 0; i < 8; i++)
      expectClose(turned[i], Math.cos(float16(float16(3001) * invFreq[i])), 2 * FLOAT64_EPSILON);
  });
});

describe('bad values', () => {
  it('names the function and the knob; the module stays usable', () => {
    expect(() => pe.table({ dModel: 4, length: 2, angleDtype: 'half' })).toThrow(RangeError);
    expect(() => pe.table({ dModel: 4, length: 2, angleDtype: 'half' })).toThrow(
      /^posenc\.table: angleDtype must be one of 'float64', 'float32', 'float16', 'bfloat16' \(got "half"\)/,
    );
    expect(() => pe.row(1, { dModel: 4, positionDtype: 16 })).toThrow(TypeError);
    expect(() => pe.row(1, { dModel: 4, positionDtype: 16 })).toThrow(/^posenc\.row: positionDtype must be/);
    expect(() => pe.offsetDots({ dModel: 4, maxOffset: 2, frequencyDtype: null })).toThrow(
      /^posenc\.offsetDots: frequencyDtype/,
    );
    expect(() => pe.ropeCache({ headDim: 8, length: 2, exponentDtype: 'fp16' })).toThrow(
      /^posenc\.ropeCache: exponentDtype/,
    );
    expect(() => pe.ropeScores({ headDim: 8, maxOffset: 2, angleDtype: 'float8' })).toThrow(RangeError);
    expect(pe.row(0, { dModel: 2, positionDtype: 'float16' })).toEqual(new Float32Array([0, 1]));
  });
});

describe('snippets', () => {
  let python;
  let dir;
  beforeAll(() => {
    for (const candidate of [process.env.PYTHON, '/usr/bin/python3', 'python3'].filter(Boolean)) {
      try {
        execFileSync(candidate, ['-c', 'import numpy'], { stdio: 'ignore' });
        python = candidate;
        break;
      } catch {
        // next
      }
    }
    dir = mkdtempSync(join(tmpdir(), 'posenc-precision-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // The float64 values of a version-1 .npy file (parseTable refuses NaN, which overflowed positions give).
  const readNpy = (path) => {
    const bytes = readFileSync(path);
    expect(bytes.toString('latin1', 10, 40)).toContain("'<f8'");
    const start = 10 + bytes.readUInt16LE(8);
    return new Float64Array(bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + bytes.length));
  };
  const run = (code) => {
    if (!python) throw new Error('the snippet tests need python3 with NumPy: apt-get install -y python3-numpy');
    const script = join(dir, 'snippet.py');
    writeFileSync(script, code);
    return execFileSync(python, [script], { encoding: 'utf8' });
  };

  it("round_to agrees with NumPy's float16 and float32 casts, and the table snippet reproduces pe.table", () => {
    const options = {
      length: 700,
      dModel: 33,
      start: 65000,
      exponentDtype: 'float32',
      frequencyDtype: 'bfloat16',
      positionDtype: 'float16',
      angleDtype: 'float16',
      dtype: 'float64',
    };
    const code = codeSnippet('numpy', options);
    const out = join(dir, 'table.npy');
    // The helper as the snippet defines it, against NumPy's casts on values of every scale and their midpoints.
    const check = [
      'rng = np.random.default_rng(1)',
      'x = np.concatenate([rng.uniform(-1, 1, 200000) * 2.0 ** rng.uniform(-30, 17, 200000),',
      '    np.arange(0, 70000, 0.5), np.arange(-2048, 2048) * 2.0 ** -24 + 2.0 ** -25])',
      'with np.errstate(over="ignore", invalid="ignore"):',
      '    bad16 = np.sum(round_to(x, 11, -14, 65504.0) != x.astype(np.float16).astype(np.float64))',
      '    y = x * 2.0 ** 100',
      '    bad32 = np.sum(round_to(y, 24, -126, 3.4028234663852886e+38) != y.astype(np.float32).astype(np.float64))',
      'print(bad16, bad32)',
    ];
    const printed = run(`${code}np.save(${JSON.stringify(out)}, pe)\n${check.join('\n')}\n`);
    expect(printed.trim()).toBe('0 0');
    const data = readNpy(out);
    const expected = pe.table(options);
    expect(data.length).toBe(expected.length);
    for (let i = 0; i < expected.length; i++) expect(Number.isNaN(data[i])).toBe(Number.isNaN(expected[i]));
    // numpy's sin and cos of the same rounded angles (within an ulp each), its pow within an ulp of the
    // core's where an angle is not rounded: 1e-12 holds both.
    const finite = (values) => values.filter((_, i) => !Number.isNaN(expected[i]));
    expectClose(finite(data), finite(expected), 1e-12);
    expect(expected.some(Number.isNaN)).toBe(true); // positions from 65520 overflow
    // PyTorch and JAX carry the same helper.
    expect(codeSnippet('pytorch', options)).toContain('_, e = torch.frexp(x)');
    expect(codeSnippet('jax', options)).toContain('r = jnp.round(x / spacing) * spacing');
  });

  it('the RoPE snippet reproduces pe.ropeCache', () => {
    const options = {
      headDim: 32,
      length: 300,
      start: 1800,
      exponentDtype: 'float32',
      frequencyDtype: 'float16',
      positionDtype: 'float16',
      angleDtype: 'float16',
      dtype: 'float64',
    };
    const out = join(dir, 'rope.npy');
    run(`${codeSnippet('numpy', options)}np.save(${JSON.stringify(out)}, np.concatenate([cos, sin]))\n`);
    const data = readNpy(out);
    const { cos, sin } = pe.ropeCache(options);
    const n = cos.length;
    expect(data.length).toBe(2 * n);
    // As for the table above: the same rounded angles.
    expectClose(data.subarray(0, n), cos, 1e-12);
    expectClose(data.subarray(n), sin, 1e-12);
  });
});

describe('what the page says of float32 angles', () => {
  it('inv_freq rounded to float32 and the product rounded again err by more than 2^-24 and at most 2^-23 of the angle', () => {
    let worst = 0;
    for (const d of [64, 128, 256, 512])
      for (let i = 0; i < d / 2; i++) {
        const w = Math.pow(10000, (-2 * i) / d);
        const rounded = Math.fround(w);
        for (let p = 1; p < 8192; p++) worst = Math.max(worst, Math.abs(Math.fround(p * rounded) - p * w) / (p * w));
      }
    expect(worst).toBeGreaterThan(2 ** -24);
    expect(worst).toBeLessThanOrEqual(2 ** -23);
    // At position 8192 (pair 0, angle 8192 rad) that is about 1e-3 rad.
    // The text's "about 1e-3" is one significant digit.
    expectClose(2 ** -23 * 8192, 1e-3, { relative: 0.05 });
    for (const strings of [en, zh]) {
      expect(strings['precision.fix']).toContain('$2^{-23}$');
      expect(strings['precision.fix']).toContain('$10^{-3}$');
      expect(strings['precision.fix']).not.toContain('2^{-24}');
    }
  });
});
