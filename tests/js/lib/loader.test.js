// load(): one module per source (equal bytes included), URLs it refuses or
// reads, and a bounded wait: a .wasm that never arrives rejects after
// `timeout`, and the next load() tries again.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { paperValue } from '../reference.js';
import { expectClose, FLOAT32_EPSILON, maxAbsDiff } from '../tolerance.js';

const simdBytes = readFileSync(new URL('../../../web/lib/wasm/posenc-simd.wasm', import.meta.url));

/** The paper's row 3 at dModel 6, from pe, against the float64 formula. */
function expectWorks(pe) {
  const want = Float64Array.from({ length: 6 }, (_, j) => paperValue(3, j, 6));
  expect(maxAbsDiff(pe.row(3, { dModel: 6, dtype: 'float64' }), want)).toBeLessThanOrEqual(1e-12);
}

describe('load: one module per source', () => {
  it('fresh copies of the same wasmBinary bytes get the same module, not a new instance each', async () => {
    const loads = [];
    for (let k = 0; k < 200; k++) loads.push(load({ wasmBinary: Uint8Array.from(simdBytes), simd: true }));
    // An ArrayBuffer holding them, and a view at an offset inside a larger buffer.
    loads.push(load({ wasmBinary: Uint8Array.from(simdBytes).buffer, simd: true }));
    const padded = new Uint8Array(simdBytes.length + 16);
    padded.set(simdBytes, 8);
    loads.push(load({ wasmBinary: padded.subarray(8, 8 + simdBytes.length), simd: true }));
    const modules = await Promise.all(loads);
    expect(new Set(modules).size).toBe(1);
    expectWorks(modules[0]);
    // Changing the buffer afterwards does not change what was cached.
    padded.fill(0);
    expect(await load({ wasmBinary: Uint8Array.from(simdBytes), simd: true })).toBe(modules[0]);
  });
});

describe('load: URLs', () => {
  it('reads a data: URL as the bytes it holds, not as a file path', async () => {
    const url = `data:application/wasm;base64,${simdBytes.toString('base64')}`;
    expectWorks(await load({ wasmUrl: url, simd: true }));
    await expect(load({ wasmUrl: 'data:application/wasm;base64,AGFzbQkJ', simd: true })).rejects.toThrow(
      /^posenc\.load: could not instantiate the WebAssembly module from data:/,
    );
  });
});

describe('load: a .wasm that never arrives', () => {
  let server;
  let stall = true;
  let requests = 0;
  beforeAll(async () => {
    // The first requests hang (no answer, ever); once `stall` is off, the .wasm is served.
    server = createServer((request, response) => {
      requests++;
      if (stall) return;
      response.writeHead(200, { 'content-type': 'application/wasm' });
      response.end(simdBytes);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('rejects after the timeout with a posenc.load error, and a later load() tries again', async () => {
    const url = `http://127.0.0.1:${server.address().port}/posenc-simd.wasm`;
    const started = Date.now();
    await expect(load({ wasmUrl: url, simd: true, timeout: 300 })).rejects.toThrow(
      /^posenc\.load: timeout: the WebAssembly module from http:\/\/127\.0\.0\.1:\d+\/posenc-simd\.wasm did not load within 300 ms/,
    );
    // Bounded: the test's own timeout would otherwise end it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(requests).toBeGreaterThanOrEqual(1);
    // The failed load is not kept: the next call requests the .wasm again.
    stall = false;
    const pe = await load({ wasmUrl: url, simd: true, timeout: 10000 });
    expectWorks(pe);
    expect(await load({ wasmUrl: url, simd: true })).toBe(pe);
  });
});

describe('load({ rope: false }): the module without RoPE', () => {
  // The page's first view fetches this one (docs/performance.md): budgets of the .wasm it transfers
  // (62 KB when it was split off; the batch rounding of float16/bfloat16/float32 angles added 4.6 KB).
  const CORE_BUDGET = { bytes: 68 * 1024, gzip: 31 * 1024 };

  it('computes tables, rows, dots and similarity as the full module does, within its size budget', async () => {
    const core = await load({ rope: false });
    const full = await load();
    expect(core).not.toBe(full);
    expect(await load({ rope: false })).toBe(core);
    expectWorks(core);
    // 3000 x 64 float32 goes through the chunk writers: against the formula, and equal to the full module's.
    const table = core.table({ length: 3000, dModel: 64 });
    let worst = 0;
    for (let pos = 0; pos < 3000; pos += 37)
      for (let j = 0; j < 64; j++) worst = Math.max(worst, Math.abs(table[pos * 64 + j] - paperValue(pos, j, 64)));
    expect(worst).toBeLessThanOrEqual(1.2e-7);
    expect(table).toEqual(full.table({ length: 3000, dModel: 64 }));
    // s(k) = sum_i cos(k w_i) over the pairs, and the similarity matrix's entries are s(|p - q|).
    const s = (k) => {
      let sum = 0;
      for (let i = 0; i < 4; i++) sum += Math.cos(k / Math.pow(10000, (2 * i) / 8));
      return sum;
    };
    const dots = core.offsetDots({ dModel: 8, maxOffset: 20 });
    // The float64 recurrence drifts by about k^2 1e-16 (4e-14 at k = 20, tests/cpp), and 4 cosines by ulps.
    for (let k = 0; k <= 20; k++) expectClose(dots[k], s(k), 1e-13);
    const similarity = core.similarity({ length: 300, dModel: 8 });
    for (const [p, q] of [
      [0, 299],
      [150, 7],
      [299, 298],
    ])
      // float32 values of magnitude up to 4, rounded once.
      expectClose(similarity[p * 300 + q], s(Math.abs(p - q)), 4 * FLOAT32_EPSILON);
    const bytes = readFileSync(
      new URL(`../../../web/lib/wasm/posenc-core-${core.simd ? 'simd' : 'scalar'}.wasm`, import.meta.url),
    );
    const gzip = gzipSync(bytes, { level: 9 }).length;
    expect(bytes.length, `${bytes.length} bytes`).toBeLessThanOrEqual(CORE_BUDGET.bytes);
    expect(gzip, `${gzip} bytes gzip`).toBeLessThanOrEqual(CORE_BUDGET.gzip);
  });

  it('its RoPE functions and leastSquaresResiduals throw an Error saying how to get them; ropeFromConfig works; load() has them', async () => {
    const core = await load({ rope: false, simd: false });
    expectWorks(core);
    for (const [name, call] of [
      ['ropeFrequencies', () => core.ropeFrequencies({ headDim: 8 })],
      ['ropeCache', () => core.ropeCache({ headDim: 8, length: 4 })],
      ['ropeApply', () => core.ropeApply(new Float32Array(8), { headDim: 8 })],
      ['ropeScores', () => core.ropeScores({ headDim: 8, maxOffset: 4 })],
      ['ropeSupportedContext', () => core.ropeSupportedContext({ headDim: 8, limit: 4 })],
      ['ropeSmallestBase', () => core.ropeSmallestBase({ headDim: 8, context: 4 })],
      ['ropeIdentify', () => core.ropeIdentify({ cos: new Float32Array(8), length: 1, headDim: 8 })],
      ['leastSquaresResiduals', () => core.leastSquaresResiduals({ inputs: [1], targets: [1], rows: 1 })],
    ])
      expect(call, name).toThrow(
        new RegExp(`^posenc\\.${name}: this instance was loaded with load\\(\\{ rope: false \\}\\)`),
      );
    expect(core.ropeFromConfig({ rope_theta: 500000, hidden_size: 64, num_attention_heads: 2 }).options).toEqual({
      headDim: 32,
      base: 500000,
    });
    // The full module: cos(p w_0) = cos(p) in column 0 of the cache.
    const { cos } = (await load({ simd: false })).ropeCache({ headDim: 8, length: 3 });
    // A float32 cache value, rounded once.
    expectClose(cos[2 * 8], Math.cos(2), FLOAT32_EPSILON);
  });
});
