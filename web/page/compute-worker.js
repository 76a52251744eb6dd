// Computes the big arrays off the main thread: tables (a fresh 4 MB array
// costs more in first-touched memory than the core takes to fill it) and the
// [length x length] similarity matrix. A slider drag then never waits on them.
import { load } from '../lib/index.js';

const posenc = load();
// Per slot, only the latest request matters: older ones are dropped unanswered.
const pending = new Map();
let busy = false;

async function drain() {
  if (busy) return;
  busy = true;
  const pe = await posenc;
  while (pending.size > 0) {
    const [slot, { id, kind, options }] = pending.entries().next().value;
    pending.delete(slot);
    try {
      const values = kind === 'similarity' ? pe.similarity(options) : pe.table(options);
      self.postMessage({ id, slot, values }, [values.buffer]);
    } catch (error) {
      self.postMessage({ id, slot, error: String(error?.message ?? error) });
    }
    // Let requests queued during the computation arrive before picking the next.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  busy = false;
}

self.onmessage = ({ data }) => {
  pending.delete(data.slot);
  pending.set(data.slot, data);
  drain();
};
