// The compute worker's waiting jobs: per lane (a slot, a plot's numbers, a
// plot's paints) only the latest job matters. A newer job of a lane takes the
// place of the one it replaces: sent to the back instead, a lane asked again
// at every step of a drag would wait behind everything asked once (the numbers
// of every plot off screen, say), and the first image behind them all. Urgent
// jobs (for plots on screen) go before the others.

export function createJobQueue() {
  // Lane -> job, each in the order its lane was first queued.
  const urgent = new Map();
  const relaxed = new Map();

  return {
    /**
     * Queues `job` ({ lane, urgent?, ... }); returns the job of its lane it
     * replaces (to be answered as dropped), or null.
     */
    put(job) {
      const replaced = urgent.get(job.lane) ?? relaxed.get(job.lane) ?? null;
      if (urgent.has(job.lane)) urgent.set(job.lane, job);
      else if (relaxed.has(job.lane) && !job.urgent) relaxed.set(job.lane, job);
      else {
        relaxed.delete(job.lane);
        (job.urgent ? urgent : relaxed).set(job.lane, job);
      }
      return replaced;
    },
    /**
     * The next job to run (taken off the queue), or null: the first of the
     * urgent ones (else of the others) that `preferred(job)` accepts, if one
     * does, else the first.
     */
    take(preferred = null) {
      const from = urgent.size > 0 ? urgent : relaxed;
      let chosen = null;
      for (const [lane, job] of from) {
        if (chosen === null) chosen = [lane, job];
        if (!preferred) break;
        if (preferred(job)) {
          chosen = [lane, job];
          break;
        }
      }
      if (chosen === null) return null;
      from.delete(chosen[0]);
      return chosen[1];
    },
    /** Whether a job of `lane` waits. */
    has(lane) {
      return urgent.has(lane) || relaxed.has(lane);
    },
    /** Every waiting job, taken off the queue. */
    takeAll() {
      const all = [...urgent.values(), ...relaxed.values()];
      urgent.clear();
      relaxed.clear();
      return all;
    },
    get size() {
      return urgent.size + relaxed.size;
    },
    /** How many of the waiting jobs are urgent. */
    get urgent() {
      return urgent.size;
    },
  };
}
