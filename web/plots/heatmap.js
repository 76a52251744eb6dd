// The positional-encoding table as an image: the (position, dimension) cells
// painted as one ImageData at the container's device resolution; d3 axes, a
// colour legend, and a readout of the exact stored value under the pointer
// (or the keyboard cursor: arrow keys move it, Enter picks the cell).
// The image is repainted only when the values, colours or size change; when
// they change in quick succession (a slider drag) a cheap preview is painted
// and refined once they settle. Values whose maker holds them off the main
// thread too come with a painter (data.painter) that paints them there: the
// main thread only puts the pixels, so a drag never waits on a pass over a
// million cells.
import { scaleLinear } from 'd3-scale';
import { interpolateRdBu } from './palettes.js';
import { drawAxis } from './axes.js';
import { colorTable, drawColorLegend } from './colours.js';
import { createFrame, deviceBox } from './frame.js';
import { averagesCells, paintCells, valueRange } from './paint.js';
import { clamp } from './path-data.js';
import { clear, htmlElement, notesContainer, setText, showNotes, svgElement } from './svg.js';
import { cssColor } from './theme.js';

// Red for +1, blue for -1: t = 0 is the low end of the domain.
const RED_BLUE = (t) => interpolateRdBu(1 - t);
const LEGEND_WIDTH = 12;
// Repaints closer together than this are previews; the exact image follows once the repaints
// pause for REFINE_MS: longer than the frames of a drag on a slow phone are apart, short enough
// that the image a drag stops on soon turns exact.
const SETTLE_MS = 150;
const REFINE_MS = 70;

const defaultReadout = (row, column, value) => `PE[${row}, ${column}] = ${value.toPrecision(8)}`;
const defaultDescribe = ({ rows, columns, min, max }) =>
  `Heatmap of ${rows} rows by ${columns} columns, values from ${min.toFixed(3)} to ${max.toFixed(3)}.`;

/**
 * data: { values (row-major), rows, columns, marks?: { row?, column? }, painter?,
 *         notes?: [{ text, testId? }] (lines under the plot, as curves.js shows them) }
 *   painter: given by whoever made `values` when it holds them off the main thread too (the
 *   page's worker), so that the plot asks there for pixels and the value range instead of
 *   reading the whole array here:
 *     min, max: the value range;
 *     paint(request, owner) -> Promise<{ pixels, width, height, exact, superseded? } | null>,
 *       request as for paintCells: { rows, columns, colours, low, high, width, height, exact,
 *       symmetric? }; null when a later request of the same owner superseded it; superseded:
 *       a preview of values that newer ones already replace (no refinement needed);
 *     subtract?(otherPainter, owner) -> Promise<{ values, painter } | null>: values − other's
 *       (other: a painter with subtract too, from the same maker), itself held off the main thread;
 *     retain?(owner), release?(owner): a plot that may still read `values` (a readout) holds
 *       them; the maker may reuse an array nobody holds.
 *   Without one the plot paints and measures the values itself.
 * options: { domain?: [low, high], interpolator?: t -> colour, xTitle, yTitle,
 *            rowOrigin?, columnOrigin?: what the axes call row 0 and column 0 (0),
 *            legendTitle, readout?(row, column, value), readoutHint,
 *            describe?(summary), onPick?({ row, column }), height?(width), testId,
 *            coverNote?({ rows, columns }): said under the plot when a pixel covers
 *            more than one cell (rows, columns: cells per device pixel, rounded),
 *            symmetric?: the domain is symmetricDomain of the values' range (paint.js),
 *            ranged?: the domain is the values' range [min, max] }
 */
export function draw(element, data, options = {}) {
  let current = { data, options };
  let palette = { interpolator: null, table: null };
  // What the canvas shows (or will, once the painter answers); marks and cursor
  // live in the svg, so moving them repaints nothing.
  let wantedKey = null;
  let legendKey = null;
  let lastPaint = -Infinity;
  let refine = 0;
  // Painter answers arrive in request order; an older one never covers a newer one.
  let requested = 0;
  let shown = 0;
  let image = null;
  let destroyed = false;
  // The values a readout may still read: held, so that their maker keeps them.
  let heldValues = null;
  let heldPainter = null;
  let summaryOf = null;
  let summary = null;
  let cursor = null;
  let cursorGroup = null;
  let box = null;

  const frame = createFrame(element, {
    className: 'posenc-heatmap',
    canvas: true,
    height: (width) => (current.options.height ?? ((w) => clamp(w * 0.62, 220, 460)))(width),
    render,
  });
  const readout = htmlElement('p', 'posenc-readout', frame.root);
  readout.setAttribute('aria-live', 'polite');
  readout.dataset.testid = options.testId ?? 'heatmap-readout';
  // What a pixel shows when it covers several cells (a fast column averages to a middle tone).
  const coverNote = htmlElement('p', 'posenc-caption', frame.root);
  coverNote.hidden = true;
  // Made with the first notes: a heatmap without any has no container (and no room kept for one).
  let notes = null;
  const showNotesOf = (d) => {
    if (!d.notes?.length && !notes) return;
    notes ??= notesContainer(frame.root, options);
    showNotes(notes, d.notes ?? []);
  };
  showNotesOf(data);
  let cover = null;
  // Arrow keys move a cursor over the cells: an application to screen readers
  // (which then pass the keys on), described by the readout and its hint.
  frame.surface.tabIndex = 0;
  frame.surface.setAttribute('role', 'application');
  readout.id = `posenc-readout-${Math.random().toString(36).slice(2)}`;
  frame.surface.setAttribute('aria-describedby', readout.id);

  function hold({ values, painter }) {
    if (heldValues === values) return;
    heldPainter?.release?.(frame);
    heldValues = values;
    heldPainter = painter ?? null;
    heldPainter?.retain?.(frame);
  }

  function summarise({ values, painter }) {
    if (summaryOf === values) return;
    // The painter knows the range already: no pass over the values here.
    const { min, max } = painter ?? valueRange(values);
    summary = { rows: current.data.rows, columns: current.data.columns, min, max };
    summaryOf = values;
  }

  const sameKey = (a, b) => a !== null && a.length === b.length && a.every((part, i) => part === b[i]);

  /** Repaints the cells' image when what it shows changed. */
  function paint(low, high, interpolator) {
    const { data } = current;
    const { canvas, context } = frame;
    const device = deviceBox(context, box);
    cover = { rows: data.rows / device.height, columns: data.columns / device.width };
    const key = [
      data.values,
      data.rows,
      data.columns,
      low,
      high,
      interpolator,
      device.width,
      device.height,
      canvas.width,
      canvas.height,
    ];
    if (sameKey(wantedKey, key)) return;
    wantedKey = key;
    if (palette.interpolator !== interpolator) palette = { interpolator, table: colorTable(interpolator) };
    const now = performance.now();
    // Where no pixel covers more than one cell (as the attention window's 128 positions), the exact
    // image is a lookup per pixel as the preview is: painted at once, with nothing to refine (a
    // refinement would put it REFINE_MS after the data that a drag stopped on).
    const exact = !averagesCells(data.rows, data.columns, device.width, device.height) || now - lastPaint > SETTLE_MS;
    lastPaint = now;
    clearTimeout(refine);
    if (!exact) {
      refine = setTimeout(() => {
        wantedKey = null;
        lastPaint = -Infinity;
        render();
      }, REFINE_MS);
    }
    const request = {
      rows: data.rows,
      columns: data.columns,
      colours: palette.table,
      low,
      high,
      width: device.width,
      height: device.height,
      exact,
      // The domain follows the values' range (symmetricDomain): painted ahead for new values in theirs.
      ...(current.options.symmetric && { symmetric: true }),
      ...(current.options.ranged && { ranged: true }),
    };
    const { painter } = data;
    if (!painter) {
      if (image?.width !== device.width || image.height !== device.height) {
        image = context.createImageData(device.width, device.height);
      }
      const { rows, columns, colours } = request;
      paintCells(data.values, rows, columns, colours, low, high, image.width, image.height, exact, image.data);
      context.putImageData(image, device.x, device.y);
      shown = ++requested;
      return;
    }
    const sequence = ++requested;
    const size = [canvas.width, canvas.height];
    painter.paint(request, frame).then(
      (result) => {
        if (!result) return;
        // A resize since the request cleared the canvas and asked for a new image.
        const fits = canvas.width === size[0] && canvas.height === size[1];
        if (!destroyed && sequence > shown && fits) {
          shown = sequence;
          context.putImageData(new ImageData(result.pixels, result.width, result.height), device.x, device.y);
          // The worker painted the latest request exact (it had no newer values to make), or newer values
          // are on their way (superseded): nothing to refine.
          if ((result.exact || result.superseded) && sequence === requested) clearTimeout(refine);
        }
      },
      (error) => console.error(error),
    );
  }

  function render() {
    if (frame.width === 0) return;
    const { data, options } = current;
    summarise(data);
    const margin = { top: 8, right: 70, bottom: 42, left: 52 };
    box = {
      left: margin.left,
      top: margin.top,
      width: Math.max(10, frame.width - margin.left - margin.right),
      height: Math.max(10, frame.height - margin.top - margin.bottom),
    };
    const [low, high] = options.domain ?? [-1, 1];
    const interpolator = options.interpolator ?? RED_BLUE;
    paint(low, high, interpolator);
    // The ramp is painted again only when the canvas was cleared or the colours changed.
    const legend = [interpolator, frame.canvas.width, frame.canvas.height, box.left, box.top, box.height];
    const repaintLegend = !sameKey(legendKey, legend);
    legendKey = legend;

    const svg = clear(frame.svg);
    const x = scaleLinear()
      .domain([-0.5, data.columns - 0.5])
      .range([box.left, box.left + box.width]);
    const y = scaleLinear()
      .domain([-0.5, data.rows - 0.5])
      .range([box.top, box.top + box.height]);
    // Ticks at whole rows and columns, labelled from the origins (e.g. positions from a table's start).
    // (Rounded: a fractional origin would print 0.1 + 2 as 2.1000000000000001.)
    const label = (origin) => (v) => (Number.isInteger(v) ? String(Number((v + origin).toPrecision(12))) : '');
    drawAxis(svg, x, 'bottom', {
      y: box.top + box.height,
      ticks: Math.max(2, box.width / 70),
      format: label(options.columnOrigin ?? 0),
      title: options.xTitle,
    });
    drawAxis(svg, y, 'left', {
      x: box.left,
      ticks: Math.max(2, box.height / 40),
      format: label(options.rowOrigin ?? 0),
      title: options.yTitle,
      titleOffset: 40,
    });
    drawColorLegend(repaintLegend ? frame.context : null, svg, {
      // The image's own colour table (paint() made it for this interpolator).
      colours: palette.table,
      scale: scaleLinear().domain([low, high]),
      x: box.left + box.width + 12,
      y: box.top,
      width: LEGEND_WIDTH,
      height: box.height,
      title: options.legendTitle,
    });
    // In a group of their own: how many there are changes nothing after them.
    drawMarks(svgElement('g', {}, svg), data.marks ?? {});
    cursorGroup = svgElement('g', { 'pointer-events': 'none' }, svg);
    drawCursor();
    frame.setLabel((options.describe ?? defaultDescribe)(summary));
    // Said only where a pixel spans two cells or more (rounded), in either direction.
    const [rows, columns] = [Math.max(1, Math.round(cover.rows)), Math.max(1, Math.round(cover.columns))];
    const note = options.coverNote && (rows > 1 || columns > 1) ? options.coverNote({ rows, columns }) : '';
    // Set only when it changes: setting it anyway restyles the note at every step of a drag.
    if (coverNote.hidden !== (note === '')) coverNote.hidden = note === '';
    setText(coverNote, note);
  }

  function cellRect(row, column) {
    const width = box.width / current.data.columns;
    const height = box.height / current.data.rows;
    return { x: box.left + column * width, y: box.top + row * height, width, height };
  }

  // Thin lines through the selected row and column.
  function drawMarks(svg, { row, column }) {
    const style = { stroke: cssColor('fg'), 'stroke-width': 1, 'stroke-dasharray': '4 3', 'pointer-events': 'none' };
    // Each dashed line over a faint background-coloured one: visible on any cell.
    const halo = { stroke: cssColor('bg'), 'stroke-width': 3, 'stroke-opacity': 0.7, 'pointer-events': 'none' };
    const line = (ends) => {
      svgElement('line', { ...halo, ...ends }, svg);
      svgElement('line', { ...style, ...ends }, svg);
    };
    if (Number.isInteger(row) && row >= 0 && row < current.data.rows) {
      const r = cellRect(row, 0);
      line({ x1: box.left, x2: box.left + box.width, y1: r.y + r.height / 2, y2: r.y + r.height / 2 });
    }
    if (Number.isInteger(column) && column >= 0 && column < current.data.columns) {
      const r = cellRect(0, column);
      line({ x1: r.x + r.width / 2, x2: r.x + r.width / 2, y1: box.top, y2: box.top + box.height });
    }
  }

  // Rewritten only when it changes: a redraw while a slider moves usually leaves it.
  const setReadout = (text) => {
    setText(readout, text);
  };

  function drawCursor() {
    const { data, options } = current;
    clear(cursorGroup);
    if (!cursor || cursor.row >= data.rows || cursor.column >= data.columns) {
      cursor = null;
      setReadout(options.readoutHint ?? '');
      return;
    }
    const r = cellRect(cursor.row, cursor.column);
    // At least a few pixels, so a single cell of a 2048-row table stays visible.
    const w = Math.max(r.width, 5);
    const h = Math.max(r.height, 5);
    const rect = { x: r.x + r.width / 2 - w / 2, y: r.y + r.height / 2 - h / 2, width: w, height: h, fill: 'none' };
    // A background-coloured halo under the line: visible on dark and light cells alike.
    svgElement('rect', { ...rect, stroke: cssColor('bg'), 'stroke-width': 4 }, cursorGroup);
    svgElement('rect', { ...rect, stroke: cssColor('fg'), 'stroke-width': 1.5 }, cursorGroup);
    const value = data.values[cursor.row * data.columns + cursor.column];
    setReadout((options.readout ?? defaultReadout)(cursor.row, cursor.column, value));
  }

  function cellAt(event) {
    const bounds = frame.surface.getBoundingClientRect();
    const column = Math.floor(((event.clientX - bounds.left - box.left) / box.width) * current.data.columns);
    const row = Math.floor(((event.clientY - bounds.top - box.top) / box.height) * current.data.rows);
    if (row < 0 || column < 0 || row >= current.data.rows || column >= current.data.columns) return null;
    return { row, column };
  }

  const onPointerMove = (event) => {
    if (!box) return;
    cursor = cellAt(event);
    drawCursor();
  };
  const onPointerLeave = () => {
    cursor = null;
    drawCursor();
  };
  const onClick = (event) => {
    const cell = box && cellAt(event);
    if (cell) current.options.onPick?.(cell);
  };
  // Leaving the plot (or Escape) drops the keyboard cursor: its readout would
  // otherwise keep announcing new values as other controls change the data.
  const dropCursor = () => {
    cursor = null;
    drawCursor();
  };
  const onKey = (event) => {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const { rows, columns, marks = {} } = current.data;
    if (event.key === 'Escape' && cursor) {
      dropCursor();
      return;
    }
    if (event.key === 'Enter' && cursor) {
      current.options.onPick?.(cursor);
      return;
    }
    if (!moves[event.key]) return;
    event.preventDefault();
    const step = event.shiftKey ? 10 : 1;
    const start = cursor ?? {
      row: clamp(marks.row ?? 0, 0, rows - 1),
      column: clamp(marks.column ?? 0, 0, columns - 1),
    };
    const [dr, dc] = moves[event.key];
    cursor = {
      row: clamp(start.row + dr * step, 0, rows - 1),
      column: clamp(start.column + dc * step, 0, columns - 1),
    };
    drawCursor();
  };
  const surface = frame.surface;
  surface.addEventListener('pointermove', onPointerMove);
  surface.addEventListener('pointerleave', onPointerLeave);
  surface.addEventListener('click', onClick);
  surface.addEventListener('keydown', onKey);
  surface.addEventListener('blur', dropCursor);

  hold(data);
  render();
  return {
    update(nextData, nextOptions = current.options) {
      current = { data: nextData, options: nextOptions };
      hold(nextData);
      showNotesOf(nextData);
      frame.measure();
      render();
    },
    destroy() {
      destroyed = true;
      hold({ values: null });
      clearTimeout(refine);
      surface.removeEventListener('pointermove', onPointerMove);
      surface.removeEventListener('pointerleave', onPointerLeave);
      surface.removeEventListener('click', onClick);
      surface.removeEventListener('keydown', onKey);
      surface.removeEventListener('blur', dropCursor);
      frame.destroy();
    },
  };
}
