// identify() on tables it cannot explain: the closest candidate's knobs and preset are
// reported only when it is near (off by at most NEAR_MISFIT of the largest value), and the
// answer says how near. DiT's 2-D sin-cos grid, made by DiT's own code
// (tests/fixtures/dit_pos_embed.py, verbatim, run by Debian's python3 with NumPy), is named as a
// grid; the far table is that grid with its rows shuffled (the same values, no structure).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { NEAR_MISFIT } from '../../../web/lib/identify.js';
import { expectClose, FLOAT64_EPSILON } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const script = fileURLToPath(new URL('../../fixtures/dit_pos_embed.py', import.meta.url));
function ditTable(embedDim, gridSize) {
  const out = execFileSync('/usr/bin/python3', [script, String(embedDim), String(gridSize)]);
  return new Float64Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.length));
}

describe('identify reports a nearest preset only when it is near', () => {
  it("DiT's 2-D grid is named: a 16 x 16 grid in MAE's axis order", () => {
    const found = pe.identify(ditTable(64, 16), 256, 64);
    expect(found).toMatchObject({ match: true, kind: 'grid', diagnosis: [] });
    expect(found.grid).toMatchObject({ preset: 'mae', height: 16, width: 16, axisOrder: 'w-h', extraTokens: 0 });
  });

  it("DiT's grid with its rows shuffled: no match, not near, no knobs or preset in its diagnosis, and how far", () => {
    const grid = ditTable(64, 16);
    // Row k of the shuffle is grid row (k * 97) mod 256 (97 is prime to 256: a permutation).
    const data = new Float64Array(grid.length);
    for (let k = 0; k < 256; k++) data.set(grid.subarray(((k * 97) % 256) * 64, (((k * 97) % 256) + 1) * 64), k * 64);
    const largest = data.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const found = pe.identify(data, 256, 64);
    expect(found.match).toBe(false);
    expect(found.near).toBe(false);
    // One division on each side.
    expectClose(found.relativeMisfit, found.maxAbsError / largest, { relative: 2 * FLOAT64_EPSILON });
    expect(found.relativeMisfit).toBeGreaterThan(NEAR_MISFIT);
    expect(found.diagnosis).toHaveLength(1);
    const [entry] = found.diagnosis;
    expect(entry.code).toBe('unexplained-far');
    expect(entry.message).toContain(`${Number((100 * found.relativeMisfit).toPrecision(3))}% of the largest value`);
    expect(entry.message).not.toMatch(/base|start|scale|question|closest \(/);
  });

  it('a paper table with a few values corrupted by 5% of its range: near, with the closest knobs and how near', () => {
    const data = pe.table({ preset: 'vaswani', length: 128, dModel: 64, dtype: 'float64' });
    for (const k of [700, 3001, 6000]) data[k] += 0.05;
    const found = pe.identify(data, 128, 64);
    expect(found.match).toBe(false);
    expect(found.near).toBe(true);
    expect(found.relativeMisfit).toBeLessThanOrEqual(NEAR_MISFIT);
    expect(found.diagnosis[0].code).toBe('unexplained');
    expect(found.diagnosis[0].message).toMatch(/the closest \(interleaved, exponent pair, sin-cos, .*base 10000/);
    expect(found.diagnosis[0].message).toContain('% of the largest value');
  });

  it('a match is near, with no misfit', () => {
    const found = pe.identify(pe.table({ preset: 'vaswani', length: 64, dModel: 32, dtype: 'float64' }), 64, 32);
    expect(found).toMatchObject({ match: true, near: true, preset: 'vaswani' });
    // The library's own float64 table read back: roundings only.
    expectClose(found.relativeMisfit, 0, 1e-12);
  });
});
