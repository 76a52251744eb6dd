// The arrays the page's worker computes (tables, similarity matrices), asked
// for by slot: a slot is asked for again only when its call changed, and only
// for the sections that draw it.
import { wantedArrays } from '../model/arrays.js';

/**
 * `compute`: the compute client (compute-client.js); `pageSections()`: every section the page
 * holds now (a chapter holds some of the site's sections: a slot none of them draws is never due).
 */
export function createArrayRequests(compute, pageSections) {
  // Slot -> the call last asked for it.
  const requested = {};
  return {
    /**
     * Asks for the arrays `from` (sections) draw in `state`, unless the same
     * ones were asked for last; true when an array some section of the page
     * draws is not asked for yet. A slot that none of `from` needs is left
     * alone while a slider moves.
     */
    ask(from, state, urgent = true) {
      let outdated = false;
      for (const [slot, [kind, options]] of Object.entries(wantedArrays(state))) {
        const key = JSON.stringify([kind, options]);
        if (requested[slot] === key) continue;
        if (!from.some((section) => section.deps.includes(slot))) {
          if (pageSections().some((section) => section.deps.includes(slot))) outdated = true;
          continue;
        }
        requested[slot] = key;
        compute.request(slot, kind, options, urgent);
      }
      return outdated;
    },
    /** Forgets what was asked for (a new worker knows nothing of it). */
    forget() {
      for (const slot of Object.keys(requested)) delete requested[slot];
    },
  };
}
