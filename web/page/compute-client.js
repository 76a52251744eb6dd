// Talks to compute-worker.js. Each slot (the table, the compared table, the
// similarity matrix) keeps only the answer to its latest request, handed
// back with the options it was computed for.
export function createComputeClient(onResult) {
  const worker = new Worker(new URL('./compute-worker.js', import.meta.url), { type: 'module' });
  const latest = new Map();
  let nextId = 0;
  worker.onmessage = ({ data }) => {
    const request = latest.get(data.slot);
    if (request?.id === data.id) onResult({ ...data, options: request.options });
  };
  return {
    /** kind: 'table' | 'similarity'; options: as for pe.table / pe.similarity. */
    request(slot, kind, options) {
      nextId += 1;
      const request = { id: nextId, slot, kind, options };
      latest.set(slot, request);
      worker.postMessage(request);
    },
  };
}
