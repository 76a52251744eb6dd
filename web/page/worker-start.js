// The built page's compute worker is started by a classic script at the top
// of <head> (web/vite-early-worker.js), before the document is parsed, so that
// its script and the .wasm it fetches load while the page's code does. The
// compute client takes it over once (takeWorker), with any error it reported
// before then (its script missing); where there is none (the dev server, or a
// host whose CSP blocks the inline script) and at every restart, the client
// starts its own.

/** The early worker and the errors it reported so far ({ message }), or null (none, or taken already). */
export function takeWorker() {
  const early = self.posencEarlyWorker ?? null;
  delete self.posencEarlyWorker;
  return early;
}
