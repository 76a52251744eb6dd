// The RoPE context-extension lab's plot: the wavelength 2π/θ_i of every
// rotary pair before (rings) and after (dots) a scaling method, on a log
// scale, against the original context and the method's own thresholds
// (YaRN's β_fast, β_slow turns; Llama 3's low/high frequency bands). A dot's
// colour says what the method did to that pair: kept (extrapolated, it turns
// as in training), interpolated (divided by the factor) or blended. Notes
// with the live numbers are printed below; hovering, tapping or the arrow
// keys read one pair out.
import { scaleLinear, scaleLog } from 'd3-scale';
import { drawAxis } from './axes.js';
import { createFrame, plotHandle } from './frame.js';
import { itemCursor } from './item-cursor.js';
import { clamp, dotsPathTenths, TENTHS } from './path-data.js';
import { clear, htmlElement, notesContainer, svgElement, svgText } from './svg.js';
import { cssColor } from './theme.js';

export const KIND_COLOURS = Object.freeze({ kept: 'series-1', interpolated: 'series-2', blended: 'series-4' });

const defaultDescribe = ({ pairs }) => `Wavelengths of ${pairs} rotary pairs before and after scaling.`;

/** Legend and notes as text nodes (never markup: the numbers may come from a pasted config). */
function writeLines(container, lines, shown) {
  const text = JSON.stringify(lines);
  if (text === shown) return shown;
  container.replaceChildren();
  for (const { text: line, testId, swatch } of lines) {
    const p = htmlElement(swatch ? 'span' : 'p', swatch ? 'posenc-legend-entry' : null, container);
    if (swatch) {
      const mark = htmlElement('span', 'posenc-swatch', p);
      mark.style.background = cssColor(swatch);
      if (swatch === 'muted')
        Object.assign(mark.style, { background: 'none', border: `2px solid ${cssColor('muted')}` });
      p.append(` ${line}`);
    } else p.textContent = line;
    if (testId) p.dataset.testid = testId;
  }
  return text;
}

/**
 * data: { wavelengthBefore, wavelengthAfter: Float64Array (per pair), kinds: ['kept' | 'interpolated' | 'blended'],
 *         guides: [{ value, label, short? }], legend: [{ text, swatch }], notes?: [{ text, testId? }] }
 * options: { xTitle, yTitle, describe?(summary), height?(width), readout?(pair), readoutHint? }
 */
export function draw(element, data, options = {}) {
  const current = { data, options };
  const frame = createFrame(element, {
    className: 'posenc-rope-scaling',
    height: (width) => current.options.height?.(width) ?? clamp(width * 0.55, 240, 360),
    render,
  });
  let legendShown = null;
  let notesShown = null;
  let x = null;
  let y = null;
  let cursorGroup = null;
  const cursor = itemCursor(frame, {
    testId: 'rope-scaling-readout',
    count: () => current.data.wavelengthBefore.length,
    itemAt(event) {
      if (!x) return null;
      const pair = Math.round(x.invert(event.clientX - frame.surface.getBoundingClientRect().left));
      return pair >= 0 && pair < current.data.wavelengthBefore.length ? pair : null;
    },
    step: (key) => ({ ArrowLeft: -1, ArrowRight: 1, ArrowDown: -1, ArrowUp: 1 })[key],
    mark(pair) {
      // Nothing drawn yet (no width): nothing to mark.
      if (!cursorGroup) return;
      clear(cursorGroup);
      if (pair === null) return;
      const half = Math.max((x(1) - x(0)) / 2, 3);
      const [bottom, top] = y.range();
      const band = { x: x(pair) - half, y: top, width: 2 * half, height: bottom - top, fill: 'none' };
      svgElement('rect', { ...band, stroke: cssColor('bg'), 'stroke-width': 4 }, cursorGroup);
      svgElement('rect', { ...band, stroke: cssColor('fg'), 'stroke-width': 1.5 }, cursorGroup);
    },
    readout: (pair) => current.options.readout?.(pair) ?? `pair ${pair}`,
    hint: () => current.options.readoutHint ?? '',
  });
  // Under the readout: the readout stays next to the plot it reads.
  const legend = htmlElement('div', 'posenc-legend', frame.root);
  const notes = notesContainer(frame.root, options);

  function render() {
    if (frame.width === 0) return;
    const { data, options } = current;
    const svg = clear(frame.svg);
    const { wavelengthBefore: before, wavelengthAfter: after, kinds } = data;
    const pairs = before.length;
    const margin = { top: 12, right: 12, bottom: 42, left: 62 };
    const guides = data.guides ?? [];
    const values = [...before, ...after, ...guides.map((g) => g.value)].filter((v) => v > 0 && Number.isFinite(v));
    y = scaleLog()
      .domain([Math.min(...values) / 1.5, Math.max(...values) * 1.5])
      .range([frame.height - margin.bottom, margin.top]);
    x = scaleLinear()
      .domain([-0.5, pairs - 0.5])
      .range([margin.left, frame.width - margin.right]);
    drawAxis(svg, x, 'bottom', {
      y: frame.height - margin.bottom,
      ticks: Math.max(2, frame.width / 70),
      format: (v) => (Number.isInteger(v) ? String(v) : ''),
      title: options.xTitle,
    });
    drawAxis(svg, y, 'left', { x: margin.left, ticks: 5, title: options.yTitle, titleOffset: 50 });
    // A label wider than the plot gives way to its short form (at 11 px: about 6.3 px a Latin character, 11 a CJK one).
    const room = x.range()[1] - x.range()[0] - 8;
    const widthOf = (text) => [...text].reduce((sum, c) => sum + (c.codePointAt(0) >= 0x2e80 ? 11 : 6.3), 0);
    guides.forEach(({ value, label: long, short }, index) => {
      const label = widthOf(long) <= room || !short ? long : short;
      svgElement(
        'line',
        {
          x1: x.range()[0],
          x2: x.range()[1],
          y1: y(value),
          y2: y(value),
          stroke: cssColor(index === 0 ? 'fg' : 'muted'),
          'stroke-dasharray': index === 0 ? '6 3' : '3 3',
        },
        svg,
      );
      // The wavelengths rise to the right: labels at the left end stay clear of the dots above the line.
      svgText(svg, label, {
        x: x.range()[0] + 4,
        y: y(value) - 4,
        'font-size': 11,
        'paint-order': 'stroke',
        stroke: cssColor('bg'),
        'stroke-width': 3,
        fill: cssColor(index === 0 ? 'fg' : 'muted'),
      });
    });
    const radius = clamp((x(1) - x(0)) / 2.5, 1.5, 3.5);
    const ring = dotsPathTenths(
      pairs,
      (i) => x(i),
      (i) => y(before[i]),
      radius + 1.5,
    );
    svgElement(
      'path',
      { d: ring, transform: TENTHS, fill: 'none', stroke: cssColor('muted'), 'stroke-width': 10 },
      svg,
    );
    for (const [kind, colour] of Object.entries(KIND_COLOURS)) {
      const d = dotsPathTenths(
        pairs,
        (i) => x(i),
        (i) => (kinds[i] === kind ? y(after[i]) : NaN),
        radius,
      );
      svgElement('path', { d, transform: TENTHS, fill: cssColor(colour) }, svg);
    }
    legendShown = writeLines(legend, data.legend ?? [], legendShown);
    notesShown = writeLines(notes, data.notes ?? [], notesShown);
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
