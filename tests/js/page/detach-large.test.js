// web/page/detach-large.js: a plot's numbers posted by the compute worker, the
// large arrays as transferred copies, the model's own arrays left intact.
import { describe, expect, it } from 'vitest';
import { detachLarge, LARGE_BYTES } from '../../../web/page/detach-large.js';

describe('detachLarge', () => {
  const largeLength = LARGE_BYTES / 4;
  const map = Float32Array.from({ length: largeLength }, (_, i) => Math.sin(i * 0.001));
  const small = Float64Array.from([0.5, -0.25, 3]);
  const numbers = {
    format: 'float16',
    map,
    again: map,
    formats: [{ format: 'bfloat16', largest: { row: 3, column: 7, value: 0.0078125 } }],
    curves: [{ values: small, label: null }],
  };

  it('copies the large arrays (once each, however often they appear) and lists their buffers', () => {
    const { numbers: posted, transfer } = detachLarge(numbers);
    expect(posted.map).not.toBe(map);
    expect(posted.map).toBeInstanceOf(Float32Array);
    expect(posted.map).toEqual(map);
    expect(posted.again).toBe(posted.map);
    expect(transfer).toEqual([posted.map.buffer]);
    // Small arrays and everything else as they were.
    expect(posted.curves[0].values).toBe(small);
    expect(posted.format).toBe('float16');
    expect(posted.formats).toEqual(numbers.formats);
    expect(posted.curves[0].label).toBe(null);
  });

  it('transferring the copies leaves the memoised originals usable', () => {
    const { numbers: posted, transfer } = detachLarge(numbers);
    const received = structuredClone(posted, { transfer });
    expect(posted.map.length).toBe(0);
    expect(map.length).toBe(largeLength);
    expect(map[1000]).toBe(Math.fround(Math.sin(1)));
    expect(received.map[1000]).toBe(Math.fround(Math.sin(1)));
    expect(received.again).toBe(received.map);
  });

  it('a view of part of a buffer is copied alone', () => {
    const whole = new Float64Array(largeLength);
    whole.fill(2);
    const part = whole.subarray(8, 8 + LARGE_BYTES / 8);
    const { numbers: posted, transfer } = detachLarge({ part });
    expect(posted.part.buffer.byteLength).toBe(LARGE_BYTES);
    expect(transfer).toHaveLength(1);
    expect([...posted.part.slice(0, 3)]).toEqual([2, 2, 2]);
  });
});
