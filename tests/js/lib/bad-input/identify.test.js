// identify(): bad arguments get a TypeError or RangeError naming the parameter.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../../web/lib/index.js';
import { identify } from '../../../../web/lib/identify.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

describe('identify', () => {
  it('rejects bad arguments, naming them', () => {
    const data = new Float32Array(8);
    expect(() => identify(undefined, data, 2, 4)).toThrow(TypeError);
    expect(() => identify(pe, 'table', 2, 4)).toThrow(/data must be a Float32Array/);
    expect(() => identify(pe, data, 3, 4)).toThrow(RangeError);
    expect(() => identify(pe, data, 3, 4)).toThrow(/data must hold length \* dModel = 12 values/);
    expect(() => identify(pe, data, 0, 4)).toThrow(/length/);
    expect(() => identify(pe, data, 2, 4.5)).toThrow(/dModel/);
    expect(() => identify(pe, data, 2, '4')).toThrow(TypeError);
    expect(() => identify(pe, [0, 1, 'x', 1], 1, 4)).toThrow(/data\[2\] must be a number/);
    expect(() => identify(pe, [0, 1, NaN, 1], 1, 4)).toThrow(/finite.*row 0, column 2/);
  });
});
