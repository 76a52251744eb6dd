// When the page redraws: changes are drawn once per animation frame (the plots
// on screen), and the rest when the browser is idle, once the controls have
// been still for QUIET_MS and no slider is held, so that those rebuilds never
// delay the next step of a drag (a timer can run before input that waited
// behind a long task).
const QUIET_MS = 250;

// Where requestIdleCallback is missing (Safari), a timer stands in for it.
export const whenIdle =
  globalThis.requestIdleCallback?.bind(globalThis) ??
  ((callback) => setTimeout(() => callback({ timeRemaining: () => 0, didTimeout: true }), 1));

/**
 * `onFrame()`: the frame's redraw; `onIdle(deadline)`: the idle time's work;
 * `idleWanted()`: whether there is idle work at all.
 */
export function createFrameScheduler({ onFrame, onIdle, idleWanted }) {
  let frame = 0;
  let idle = 0;
  let lastChange = 0;
  let dragging = false;

  function runFrame() {
    frame = 0;
    onFrame();
  }

  function scheduleIdle() {
    if (idle || dragging || !idleWanted()) return;
    const wait = Math.max(0, lastChange + QUIET_MS - performance.now());
    idle = setTimeout(() => {
      whenIdle(
        (deadline) => {
          idle = 0;
          if (!dragging && performance.now() - lastChange >= QUIET_MS) onIdle(deadline);
          scheduleIdle();
        },
        { timeout: 300 },
      );
    }, wait);
  }

  return {
    /** A redraw in the next animation frame. */
    frame() {
      if (!frame) frame = requestAnimationFrame(runFrame);
    },
    /** Idle work once the controls rest (if there is some). */
    idle: scheduleIdle,
    /** The state changed now: idle work waits QUIET_MS from here. */
    changed() {
      lastChange = performance.now();
    },
    /**
     * Follows drags of the sliders inside `root`; `onDrag(held)` hears when one starts and ends.
     * A release outside the window may never reach it: losing focus ends the drag too.
     */
    watchDrags(root, onDrag) {
      root.addEventListener('pointerdown', (event) => {
        if (event.target.type !== 'range') return;
        dragging = true;
        onDrag(true);
      });
      for (const type of ['pointerup', 'pointercancel', 'blur']) {
        window.addEventListener(type, () => {
          if (dragging) onDrag(false);
          dragging = false;
          scheduleIdle();
        });
      }
    },
  };
}
