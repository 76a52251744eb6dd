// A chunk or module that several places ask for (a click, a plot nearing the
// screen, the idle time after the first view): one load for all of them, and
// a failed one (offline) forgotten, so that the next ask tries again.

/** A function returning load()'s promise, the same one at every call until it rejects. */
export function loadOnce(load) {
  let loading = null;
  return () =>
    (loading ??= load().catch((error) => {
      loading = null;
      throw error;
    }));
}
