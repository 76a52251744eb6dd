// The first view: the plots on screen when the page opens. Everything else
// (off-screen plots, the later chapters, the check tool, the embed tools)
// waits until its first plot is shown (with none on screen, until a moment
// after the page is interactive): until then it would compete with that plot
// for the main thread, the worker and the network.
//
// User Timing marks of the load, read by `npm run bench` (tests/bench/page-load.mjs):
// posenc:first-plot once a plot on screen shows its data (its pixels from the
// worker put in too) and a frame has shown it; posenc:interactive once the
// controls respond (the core is loaded and the strings of the language are set).
import { whenIdle } from './frame-scheduler.js';

const FIRST_VIEW_PATIENCE_MS = 1000;
// With a plot on screen still to come (a slow machine), the rest waits for it, up to this long.
const FIRST_PLOT_PATIENCE_MS = 8000;
// The later parts load this long after the first view, when the browser is idle.
const LATER_AFTER_MS = 500;

/**
 * `painted()`: resolves once the worker's pixels sent so far are put in;
 * `waitingForPlot()`: whether a plot on screen is not drawn yet;
 * `onShown()`: the first view is shown; `loadLater()`: load what comes after it.
 */
export function createFirstView({ painted, waitingForPlot, onShown, loadLater }) {
  let plotMarked = false;
  let done = false;

  function shown() {
    if (done) return;
    done = true;
    onShown();
    setTimeout(() => whenIdle(loadLater, { timeout: 1000 }), LATER_AFTER_MS);
  }

  return {
    /** Whether the first view is shown. */
    get done() {
      return done;
    },
    /** A plot on screen was drawn. */
    plotDrawn() {
      if (plotMarked) return;
      plotMarked = true;
      painted().then(() =>
        requestAnimationFrame(() =>
          setTimeout(() => {
            performance.mark('posenc:first-plot');
            shown();
          }),
        ),
      );
    },
    /** The controls respond: the first view is given a moment, or longer while a plot on screen is coming. */
    interactive() {
      if (performance.getEntriesByName('posenc:interactive').length === 0) performance.mark('posenc:interactive');
      setTimeout(
        () => setTimeout(shown, waitingForPlot() ? FIRST_PLOT_PATIENCE_MS - FIRST_VIEW_PATIENCE_MS : 0),
        FIRST_VIEW_PATIENCE_MS,
      );
    },
  };
}
