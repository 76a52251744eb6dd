// A cursor over a plot's items (the RoPE lab's pairs) with a readout under
// the plot, as the heatmap has over its cells: hover or tap an item, or focus
// the plot and move with the arrow keys. Same pieces as the heatmap's: an
// application surface described by an aria-live readout, Escape and leaving
// drop the cursor (its readout would otherwise keep announcing as other
// controls change the data).
import { clamp } from './path-data.js';
import { htmlElement, setText } from './svg.js';

/**
 * frame: from createFrame. hooks: { testId, count(), itemAt(event) -> index | null,
 * step(key) -> how far the key moves (undefined: not a move key), mark(index | null): draws the
 * cursor, readout(index), hint() }. Returns { refresh() (after a render), destroy() }.
 */
export function itemCursor(frame, hooks) {
  const readout = htmlElement('p', 'posenc-readout', frame.root);
  readout.setAttribute('aria-live', 'polite');
  readout.dataset.testid = hooks.testId;
  readout.id = `posenc-readout-${Math.random().toString(36).slice(2)}`;
  const surface = frame.surface;
  surface.tabIndex = 0;
  surface.setAttribute('role', 'application');
  surface.setAttribute('aria-describedby', readout.id);
  let index = null;

  function refresh() {
    if (index !== null && index >= hooks.count()) index = null;
    hooks.mark(index);
    setText(readout, index === null ? hooks.hint() : hooks.readout(index));
  }
  const moveTo = (next) => {
    index = next;
    refresh();
  };

  const onPointer = (event) => {
    const item = hooks.itemAt(event);
    // A finger lifted leaves the plot: the tapped pair's readout stays until the next tap.
    if (item === null && event.pointerType !== 'mouse') return;
    if (item !== index) moveTo(item);
  };
  const onLeave = (event) => {
    if (event.pointerType === 'mouse') moveTo(null);
  };
  const drop = () => moveTo(null);
  const onKey = (event) => {
    if (event.key === 'Escape' && index !== null) return drop();
    const last = hooks.count() - 1;
    const jumps = { Home: -Infinity, End: Infinity };
    const step = jumps[event.key] ?? hooks.step(event.key);
    if (step === undefined) return;
    event.preventDefault();
    const size = Number.isFinite(step) && event.shiftKey ? step * 10 : step;
    moveTo(index === null && Number.isFinite(step) ? 0 : clamp((index ?? 0) + size, 0, last));
  };
  surface.addEventListener('pointermove', onPointer);
  surface.addEventListener('pointerdown', onPointer);
  surface.addEventListener('pointerleave', onLeave);
  surface.addEventListener('keydown', onKey);
  surface.addEventListener('blur', drop);

  return {
    refresh,
    destroy() {
      surface.removeEventListener('pointermove', onPointer);
      surface.removeEventListener('pointerdown', onPointer);
      surface.removeEventListener('pointerleave', onLeave);
      surface.removeEventListener('keydown', onKey);
      surface.removeEventListener('blur', drop);
    },
  };
}
