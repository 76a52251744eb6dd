// pe.allocate() and the WasmArray it returns as an out: bad arguments get a
// TypeError or RangeError naming the parameter, and nothing is allocated or written.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../../web/lib/index.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

describe('allocate', () => {
  it('bad arguments: RangeError / TypeError naming the parameter, nothing allocated', () => {
    const heap = pe.heapBytes();
    for (const count of [0, -1, 1.5, NaN, Infinity, 2 ** 31]) expect(() => pe.allocate(count)).toThrow(RangeError);
    expect(() => pe.allocate('8')).toThrow(/count must be a number/);
    expect(() => pe.allocate()).toThrow(TypeError);
    expect(() => pe.allocate(8, { dtype: 'int8' })).toThrow(/dtype must be one of 'float32', 'float64'/);
    expect(() => pe.allocate(8, { dtype: 32 })).toThrow(TypeError);
    expect(() => pe.allocate(8, { dtyp: 'float32' })).toThrow(/unknown option 'dtyp'/);
    expect(() => pe.allocate(8, 'float64')).toThrow(TypeError);
    // More than the wasm memory can hold (2 GB): a RangeError, and the module stays usable.
    expect(() => pe.allocate(2 ** 29 - 1)).toThrow(/not enough wasm memory/);
    expect(pe.heapBytes()).toBe(heap);
    expect(pe.table({ length: 2, dModel: 2 })[1]).toBe(1);
  });

  it('an out of the wrong dtype or length is refused, and left as it was', () => {
    const f32 = pe.allocate(12);
    const f64 = pe.allocate(12, { dtype: 'float64' });
    try {
      f32.array.fill(7);
      expect(() => pe.table({ length: 2, dModel: 6, dtype: 'float64', out: f32 })).toThrow(
        /out must be a float64 WasmArray, as dtype is 'float64'/,
      );
      expect(() => pe.table({ length: 3, dModel: 6, out: f32 })).toThrow(/out must have length 18/);
      expect(() => pe.similarity({ length: 3, dModel: 6, out: f32 })).toThrow(/out must have length 9/);
      expect(() => pe.similarity({ length: 3, dModel: 6, out: f64 })).toThrow(/out must be a float32 WasmArray/);
      expect(Array.from(f32.array)).toEqual(new Array(12).fill(7));
      // Other functions take plain typed arrays only, and say so.
      expect(() => pe.row(0, { dModel: 12, out: f32 })).toThrow(/out must be a Float32Array/);
      expect(() => pe.table({ length: 2, dModel: 2, out: new Float64Array(4) })).toThrow(/or a WasmArray/);
    } finally {
      f32.free();
      f64.free();
    }
  });
});
