// Starts the page's compute worker as early as the page can: the page's first
// script (web/boot.js) starts it before the page's own code has loaded, so
// that the worker's script and the .wasm it fetches load while the page's
// code does. The compute client takes the worker over (takeWorker); an error
// the worker reported before then (its script missing) is kept for it.

let started = null;

/** Starts the compute worker (once, until taken over). */
export function startWorker() {
  if (started) return;
  // Started already by the built page's first classic script (web/vite-early-worker.js).
  if (self.posencEarlyWorker) {
    started = self.posencEarlyWorker;
    delete self.posencEarlyWorker;
    return;
  }
  const worker = new Worker(new URL('./compute-worker.js', import.meta.url), { type: 'module' });
  started = { worker, errors: [] };
  const kept = started.errors;
  worker.onerror = (event) => {
    event.preventDefault();
    kept.push({ message: event.message });
  };
}

/** The started worker and the errors it reported so far ({ message }), or null; the next call starts afresh. */
export function takeWorker() {
  const taken = started;
  started = null;
  return taken;
}
