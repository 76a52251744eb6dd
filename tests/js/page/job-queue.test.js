// The compute worker's queue (web/page/job-queue.js): per lane only the latest
// job runs, a newer job keeps its lane's place (a lane asked again at every
// step of a drag is not starved by lanes asked once), urgent jobs first.
import { describe, expect, it } from 'vitest';
import { createJobQueue } from '../../../web/page/job-queue.js';

const drain = (queue) => {
  const order = [];
  for (let job = queue.take(); job; job = queue.take()) order.push(job.id);
  return order;
};

describe('createJobQueue', () => {
  it('runs lanes in the order they were first queued, one job each', () => {
    const queue = createJobQueue();
    for (const [id, lane] of [
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ])
      expect(queue.put({ id, lane })).toBe(null);
    expect(queue.size).toBe(3);
    expect(drain(queue)).toEqual([1, 2, 3]);
    expect(queue.size).toBe(0);
    expect(queue.take()).toBe(null);
  });

  it('a newer job of a lane replaces the older in its place; the older is handed back to be dropped', () => {
    const queue = createJobQueue();
    queue.put({ id: 1, lane: 'table' });
    for (let id = 2; id <= 25; id++) queue.put({ id, lane: `section:${id}` });
    // A drag asks for the table again at every step: its latest job still runs first, only it.
    let waiting = 1;
    for (let id = 26; id <= 30; id++) {
      expect(queue.put({ id, lane: 'table' })).toEqual({ id: waiting, lane: 'table' });
      waiting = id;
    }
    expect(queue.has('table')).toBe(true);
    const order = drain(queue);
    expect(order[0]).toBe(30);
    expect(order).toHaveLength(25);
    expect(order.filter((id) => id < 30 && id > 25)).toEqual([]);
    expect(order.includes(1)).toBe(false);
  });

  it('urgent jobs run before the others, each group in its order', () => {
    const queue = createJobQueue();
    queue.put({ id: 1, lane: 'off-1' });
    queue.put({ id: 2, lane: 'off-2' });
    queue.put({ id: 3, lane: 'paint', urgent: true });
    queue.put({ id: 4, lane: 'off-3' });
    queue.put({ id: 5, lane: 'table', urgent: true });
    expect(queue.urgent).toBe(2);
    expect(drain(queue)).toEqual([3, 5, 1, 2, 4]);
    expect(queue.urgent).toBe(0);
  });

  it('a lane asked again as urgent moves up; asked again as not urgent it stays urgent', () => {
    const queue = createJobQueue();
    queue.put({ id: 1, lane: 'a' });
    queue.put({ id: 2, lane: 'b' });
    expect(queue.put({ id: 3, lane: 'b', urgent: true })).toEqual({ id: 2, lane: 'b' });
    queue.put({ id: 4, lane: 'c', urgent: true });
    expect(queue.put({ id: 5, lane: 'c' })).toEqual({ id: 4, lane: 'c', urgent: true });
    expect(drain(queue)).toEqual([3, 5, 1]);
  });

  it('takeAll empties the queue, urgent jobs first', () => {
    const queue = createJobQueue();
    queue.put({ id: 1, lane: 'a' });
    queue.put({ id: 2, lane: 'b', urgent: true });
    expect(queue.takeAll().map((job) => job.id)).toEqual([2, 1]);
    expect(queue.size).toBe(0);
    expect(queue.has('a')).toBe(false);
  });

  it('takes the first job `preferred` accepts, urgent ones first, else the first', () => {
    const queue = createJobQueue();
    queue.put({ id: 1, lane: 'paint:1', urgent: true, kind: 'paint' });
    queue.put({ id: 2, lane: 'section:waves', kind: 'section' });
    queue.put({ id: 3, lane: 'paint:2', urgent: true, kind: 'paint' });
    queue.put({ id: 4, lane: 'slot:table', urgent: true, kind: 'compute' });
    const makes = (job) => job.kind !== 'paint';
    // The urgent compute before the urgent paints queued before it; the relaxed section still waits.
    expect(queue.take(makes).id).toBe(4);
    // No urgent job is accepted: the first urgent one.
    expect(queue.take(makes).id).toBe(1);
    expect(queue.take(makes).id).toBe(3);
    expect(queue.take(makes).id).toBe(2);
    expect(queue.take(makes)).toBe(null);
  });
});
