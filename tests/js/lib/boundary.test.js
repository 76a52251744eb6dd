// The JS <-> C++ boundary: the module reports the fields it reads from the
// staged blocks, its enums and its limits (cpp/bindings/boundary.h), and
// load() refuses a module whose report differs from what web/lib stages.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ENCODING_FIELDS, ENUMS, moduleReport, ROPE_FIELDS } from '../../../web/lib/boundary.js';
import { ANGLES, EXPONENTS, LAYOUTS, ODD_COLUMNS, ORDERS, PRECISION_DTYPES } from '../../../web/lib/conventions.js';
import { load } from '../../../web/lib/index.js';
import { LIMITS, ROPE_LIMITS } from '../../../web/lib/limits.js';
import { ROPE_LAYOUTS, ROPE_SCALING_TYPES } from '../../../web/lib/rope-options.js';
import { LIMITS as SLIDER_RANGES } from '../../../web/model/params.js';
import { paperValue } from '../reference.js';
import { maxAbsDiff } from '../tolerance.js';

// Each instantiated module's boundary() passes through `alter` (null: unchanged).
let alter = null;
const wrapped = (original) => async (args) => {
  const module = await original(args);
  const report = module.boundary.bind(module);
  // The view of the report's text, or a copy of it altered.
  module.boundary = () =>
    alter === null ? report() : new TextEncoder().encode(alter(new TextDecoder().decode(report())));
  return module;
};
vi.mock('../../../web/lib/wasm/posenc-simd.mjs', async (importOriginal) => ({
  default: wrapped((await importOriginal()).default),
}));
vi.mock('../../../web/lib/wasm/posenc-scalar.mjs', async (importOriginal) => ({
  default: wrapped((await importOriginal()).default),
}));

const bytes = readFileSync(new URL('../../../web/lib/wasm/posenc-simd.wasm', import.meta.url));
// Every load of this file from its own copy of the bytes: a failed load is forgotten, a good one kept.
const loadAltered = (change) => {
  alter = change;
  return load({ wasmBinary: bytes, simd: true }).finally(() => (alter = null));
};

describe('a module whose report differs from what web/lib stages is refused at load', () => {
  it('two encoding fields in another order: the Error names the index and both names', async () => {
    await expect(loadAltered((text) => text.replace(' exponent order ', ' order exponent '))).rejects.toThrow(
      /^posenc\.load: the WebAssembly module does not match this library: the staged encoding fields differ at index 2: the module reads 'order' where this library stages 'exponent'/,
    );
  });

  it('a RoPE field missing, an enum numbered otherwise, a limit changed', async () => {
    await expect(loadAltered((text) => text.replace(' frequencyDtype\n', '\n'))).rejects.toThrow(
      /the staged RoPE fields differ at index 16: the module reads nothing where this library stages 'frequencyDtype'/,
    );
    await expect(loadAltered((text) => text.replace(' half 1', ' half 0'))).rejects.toThrow(
      /enum layout: 'half' is 0 in the module but 1 in this library/,
    );
    await expect(loadAltered((text) => text.replace('maxDModel 1048576', 'maxDModel 1024'))).rejects.toThrow(
      /limit 'maxDModel' is 1024 in the module but 1048576 in this library/,
    );
    await expect(loadAltered((text) => text.replace('maxHeadDim 65536', 'maxHeadDim 256'))).rejects.toThrow(
      /limit 'maxHeadDim' is 256 in the module but 65536 in this library/,
    );
    await expect(loadAltered((text) => text.replace(/limit maxBase .*\n/, ''))).rejects.toThrow(
      /limit 'maxBase' is undefined in the module but 1000000000000 in this library/,
    );
  });

  it('the same bytes, reported as built, load and compute', async () => {
    const pe = await loadAltered(null);
    const want = Float64Array.from({ length: 6 }, (_, j) => paperValue(3, j, 6));
    expect(maxAbsDiff(pe.row(3, { dModel: 6, dtype: 'float64' }), want)).toBeLessThanOrEqual(1e-12);
  });
});

describe("the module's report", () => {
  const bytesOf = (name) => readFileSync(new URL(`../../../web/lib/wasm/${name}.wasm`, import.meta.url));
  const reportOf = async (name) => {
    const { default: factory } = await import(`../../../web/lib/wasm/${name}.mjs`);
    return moduleReport(await factory({ wasmBinary: bytesOf(name) }));
  };
  let report;
  beforeAll(async () => {
    report = await reportOf('posenc-scalar');
  });

  it('of a module without RoPE has no RoPE block and no RoPE limits, and the rest as the full one', async () => {
    const core = await reportOf('posenc-core-scalar');
    expect(core.ropeFields).toBeUndefined();
    expect(core.enums.scaling).toBeUndefined();
    expect(core.encodingFields).toEqual(report.encodingFields);
    const { maxHeadDim, maxContext, maxBase, ...sinusoidal } = report.limits;
    expect(Object.keys(report.limits).filter((name) => !(name in sinusoidal))).toEqual([...ROPE_LIMITS]);
    expect(core.limits).toEqual(sinusoidal);
  });

  it('names the fields options.js and rope-options.js resolve, in the order JS stages them', () => {
    expect(report.encodingFields).toEqual([...ENCODING_FIELDS]);
    expect(report.ropeFields).toEqual([...ROPE_FIELDS]);
    expect(report.encodingAddress % 8).toBe(0);
    expect(report.ropeAddress).toBe(report.encodingAddress + 8 * ENCODING_FIELDS.length);
  });

  it('numbers each option name as its index in conventions.js, and both layouts with one numbering', () => {
    const indices = (names) => Object.fromEntries(names.map((name, i) => [name, i]));
    expect(report.enums.exponent).toEqual(indices(EXPONENTS));
    expect(report.enums.order).toEqual(indices(ORDERS));
    expect(report.enums.angle).toEqual(indices(ANGLES));
    expect(report.enums.oddColumn).toEqual(indices(ODD_COLUMNS));
    expect(report.enums.dtype).toEqual(indices(PRECISION_DTYPES));
    expect(report.enums.scaling).toEqual(indices(ROPE_SCALING_TYPES));
    // RoPE's 'half' (pair i at i, i + d/2) is the sinusoids' 'concat'; 'interleaved' is one number in both.
    expect(report.enums.layout).toEqual({ interleaved: 0, concat: 1, half: 1 });
    for (const name of [...LAYOUTS, ...ROPE_LAYOUTS]) expect(report.enums.layout[name]).toBe(ENUMS.layout[name]);
  });

  it('gives the limits of limits.js: 2^20 columns, positions up to 2^53, 2^31 - 1 bytes, RoPE heads of 2^16', () => {
    expect(report.limits).toEqual({
      maxDModel: 2 ** 20,
      maxMagnitude: 2 ** 53,
      maxBytes: 2 ** 31 - 1,
      maxHeadDim: 2 ** 16,
      maxContext: 2 ** 20,
      maxBase: 1e12,
    });
    expect(report.limits).toEqual({ ...LIMITS });
  });
});

describe('limits', () => {
  it("the page's slider ranges (a UI choice) lie within the library's limits", () => {
    const [low, high] = SLIDER_RANGES.dModel;
    expect(low).toBeGreaterThanOrEqual(1);
    expect(high).toBeLessThanOrEqual(LIMITS.maxDModel);
    for (const [lowest, highest] of Object.values(SLIDER_RANGES)) {
      expect(Math.abs(lowest)).toBeLessThanOrEqual(LIMITS.maxMagnitude);
      expect(Math.abs(highest)).toBeLessThanOrEqual(LIMITS.maxMagnitude);
    }
  });

  it('validation refuses dModel just beyond the exported limit and accepts it at the limit', async () => {
    const pe = await load();
    expect(() => pe.frequencies({ dModel: LIMITS.maxDModel + 1 })).toThrow(
      /^posenc\.frequencies: dModel must be an integer in \[1, 1048576\]/,
    );
    expect(pe.frequencies({ dModel: LIMITS.maxDModel }).length).toBe(2 ** 20);
    expect(() => pe.row(2 ** 53 + 2, { dModel: 2 })).toThrow(/magnitude at most 2\^53/);
  });

  it('the RoPE functions refuse a head, a context just beyond the exported limits and accept them at the limits', async () => {
    const pe = await load();
    const { maxHeadDim, maxContext } = LIMITS;
    expect(() => pe.ropeFrequencies({ headDim: maxHeadDim + 1 })).toThrow(
      /^posenc\.ropeFrequencies: headDim must be an integer in \[2, 65536\]/,
    );
    expect(pe.ropeFrequencies({ headDim: maxHeadDim }).invFreq).toHaveLength(maxHeadDim / 2);
    expect(() => pe.ropeSmallestBase({ headDim: maxHeadDim + 2, context: 2 })).toThrow(
      /headDim must be an integer in \[2, 65536\]/,
    );
    expect(pe.ropeSmallestBase({ headDim: maxHeadDim, context: 2 })).toBe(1);
    expect(() => pe.ropeSupportedContext({ headDim: 2, limit: maxContext + 1 })).toThrow(
      /^posenc\.ropeSupportedContext: limit must be an integer in \[0, 1048576\]/,
    );
    // One pair of frequency 1: cos m first turns negative at m = 2, whatever the limit.
    expect(pe.ropeSupportedContext({ headDim: 2, limit: maxContext })).toBe(2);
    expect(() => pe.ropeSmallestBase({ headDim: 8, context: maxContext + 1 })).toThrow(
      /context must be an integer in \[1, 1048576\]/,
    );
  });
});
