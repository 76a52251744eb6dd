// web/page/load-once.js: one load for every caller, a failed one forgotten.
import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../../web/page/load-once.js';

describe('loadOnce', () => {
  it('loads once for every caller while it runs and after it succeeded', async () => {
    let loads = 0;
    const get = loadOnce(async () => ({ load: ++loads }));
    const [a, b] = [get(), get()];
    expect(a).toBe(b);
    expect(await a).toEqual({ load: 1 });
    expect(await get()).toBe(await a);
    expect(loads).toBe(1);
  });

  it('forgets a failed load: every caller of it gets the error, the next call loads again', async () => {
    let loads = 0;
    const get = loadOnce(async () => {
      loads++;
      if (loads === 1) throw new Error('offline');
      return 'module';
    });
    const [a, b] = [get(), get()];
    await expect(a).rejects.toThrow('offline');
    await expect(b).rejects.toThrow('offline');
    expect(await get()).toBe('module');
    expect(await get()).toBe('module');
    expect(loads).toBe(2);
  });
});
