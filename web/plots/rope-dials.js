// Every rotary pair as a dial that turns once per wavelength: its hand shows
// the pair's angle at one position (mod 2π, 0 at the top, clockwise), before
// (thin) and after (thick) a scaling method; the shaded sector is the range of
// angles the pair reached in training. A pair whose training covered a full
// turn has a fully shaded dial. Read together, the dials are Su Jianlin's
// "β-base odometer": the fast dials spin, the slow ones barely move. Hovering,
// tapping or the arrow keys read one pair out.
import { createFrame, plotHandle } from './frame.js';
import { itemCursor } from './item-cursor.js';
import { clamp } from './path-data.js';
import { clear, htmlElement, svgElement, svgText } from './svg.js';
import { cssColor } from './theme.js';

const TWO_PI = 2 * Math.PI;
const CELL = 46;
const LABEL = 12;

const defaultDescribe = ({ pairs }) => `${pairs} dials, one per rotary pair.`;

/** Path of the sector from angle 0 to `angle` (clockwise from the top), or the whole disc. */
function sector(cx, cy, r, angle) {
  if (angle >= TWO_PI) return `M${cx},${cy - r}a${r},${r} 0 1,1 0,${2 * r}a${r},${r} 0 1,1 0,${-2 * r}Z`;
  const ex = cx + r * Math.sin(angle);
  const ey = cy - r * Math.cos(angle);
  return `M${cx},${cy}L${cx},${cy - r}A${r},${r} 0 ${angle > Math.PI ? 1 : 0},1 ${ex},${ey}Z`;
}

/**
 * data: { anglesBefore, anglesAfter: Float64Array (radians, per pair), trained: per pair the largest angle
 *         reached in training, legend: [{ text }] }
 * options: { describe?(summary), height?(width), readout?(pair), readoutHint? }
 */
export function draw(element, data, options = {}) {
  const current = { data, options };
  const columnsFor = (width) => Math.max(4, Math.floor(width / CELL));
  const rowsFor = (width) => Math.ceil(current.data.anglesAfter.length / columnsFor(width));
  const frame = createFrame(element, {
    className: 'posenc-rope-dials',
    height: (width) => current.options.height?.(width) ?? rowsFor(width) * (CELL + LABEL) + 8,
    render,
  });
  let legendShown = null;
  // The grid as last drawn: where each dial is.
  let grid = null;
  let cursorGroup = null;
  const cursor = itemCursor(frame, {
    testId: 'rope-dials-readout',
    count: () => current.data.anglesAfter.length,
    itemAt(event) {
      if (!grid) return null;
      const bounds = frame.surface.getBoundingClientRect();
      const column = Math.floor((event.clientX - bounds.left) / grid.cellWidth);
      const row = Math.floor((event.clientY - bounds.top) / grid.cellHeight);
      const pair = row * grid.columns + column;
      return column >= 0 && column < grid.columns && row >= 0 && pair < grid.pairs ? pair : null;
    },
    step: (key) =>
      grid ? { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -grid.columns, ArrowDown: grid.columns }[key] : undefined,
    mark(pair) {
      // Nothing drawn yet (no width): nothing to mark.
      if (!cursorGroup) return;
      clear(cursorGroup);
      if (pair === null) return;
      const { cellWidth, cellHeight, columns } = grid;
      const box = {
        x: cellWidth * (pair % columns) + 1,
        y: cellHeight * Math.floor(pair / columns) + 1,
        width: cellWidth - 2,
        height: cellHeight - 2,
        fill: 'none',
        rx: 4,
      };
      svgElement('rect', { ...box, stroke: cssColor('fg'), 'stroke-width': 1.5 }, cursorGroup);
    },
    readout: (pair) => current.options.readout?.(pair) ?? `pair ${pair}`,
    hint: () => current.options.readoutHint ?? '',
  });
  // Under the readout: the readout stays next to the plot it reads. Not notesContainer: this is
  // the dials' legend, read with them, and never folded away.
  const legend = htmlElement('div', 'posenc-notes', frame.root);

  function render() {
    if (frame.width === 0) return;
    const { data, options } = current;
    const svg = clear(frame.svg);
    const pairs = data.anglesAfter.length;
    const columns = columnsFor(frame.width);
    const cellWidth = frame.width / columns;
    const rows = Math.ceil(pairs / columns);
    const cellHeight = Math.max(20, (frame.height - 8) / rows);
    const r = clamp(Math.min(cellWidth, cellHeight - LABEL) / 2 - 3, 6, 20);
    grid = { cellWidth, cellHeight, columns, pairs };
    for (let i = 0; i < pairs; i++) {
      const cx = cellWidth * (i % columns) + cellWidth / 2;
      const cy = cellHeight * Math.floor(i / columns) + r + 4;
      svgElement('path', { d: sector(cx, cy, r, data.trained[i]), fill: cssColor('grid') }, svg);
      svgElement('circle', { cx, cy, r, fill: 'none', stroke: cssColor('muted') }, svg);
      const hand = (angle, attributes) =>
        svgElement(
          'line',
          { x1: cx, y1: cy, x2: cx + r * Math.sin(angle), y2: cy - r * Math.cos(angle), ...attributes },
          svg,
        );
      hand(data.anglesBefore[i], { stroke: cssColor('muted'), 'stroke-width': 1 });
      hand(data.anglesAfter[i], { stroke: cssColor('accent'), 'stroke-width': 2.5, 'stroke-linecap': 'round' });
      svgText(svg, String(i), { x: cx, y: cy + r + 11, 'text-anchor': 'middle', 'font-size': 10 });
    }
    const text = JSON.stringify(data.legend ?? []);
    if (text !== legendShown) {
      legendShown = text;
      legend.replaceChildren();
      for (const { text: line, testId } of data.legend ?? []) {
        const p = htmlElement('p', null, legend);
        p.textContent = line;
        if (testId) p.dataset.testid = testId;
      }
    }
    frame.setLabel((options.describe ?? defaultDescribe)({ pairs }));
    cursorGroup = svgElement('g', { 'pointer-events': 'none' }, svg);
    cursor.refresh();
  }

  const handle = plotHandle(frame, current, render);
  return {
    ...handle,
    destroy() {
      cursor.destroy();
      handle.destroy();
    },
  };
}
