// Curves of y against x on linear or log axes, with vertical marks (values of
// x worth naming: a base, a context) and horizontal guides, a key, notes
// under the plot and a caption. For the quantities that change with the base
// or with the offset over several decades (the RoPE chapter, "why 10000").
import { scaleLinear, scaleLog } from 'd3-scale';
import { drawAxis } from './axes.js';
import { createFrame, plotHandle } from './frame.js';
import { affine, clamp, linePathTenths, strokeTenths, TENTHS } from './path-data.js';
import { clear, htmlElement, notesContainer, setText, showNotes, svgElement, svgText } from './svg.js';
import { cssColor, seriesColor } from './theme.js';

const defaultDescribe = ({ series }) => `${series.length} curves.`;

/** A log scale as a plain function (affine on log10): for the loops over every point. */
function logAffine(scale) {
  const [d0, d1] = scale.domain().map(Math.log10);
  const [r0, r1] = scale.range();
  const k = (r1 - r0) / (d1 - d0);
  return (v) => (v > 0 ? r0 + (Math.log10(v) - d0) * k : NaN);
}

function extent(series, axis, marks, log) {
  let low = Infinity;
  let high = -Infinity;
  for (const values of [...series.map((s) => s[axis]), marks]) {
    for (const v of values) {
      if (!Number.isFinite(v) || (log && v <= 0)) continue;
      low = Math.min(low, v);
      high = Math.max(high, v);
    }
  }
  if (!(low <= high)) return log ? [1, 10] : [0, 1];
  if (log) return low === high ? [low / 2, high * 2] : [low / 1.3, high * 1.3];
  const pad = (high - low) * 0.06 || 1;
  return [low - pad, high + pad];
}

/**
 * data: { series: [{ label, x: Float64Array, y: Float64Array, dashed? }],
 *         marks?: [{ x, label }] (vertical lines), guides?: [{ y, label }] (horizontal),
 *         notes?: [{ text, testId? }] }
 * options: { xTitle, yTitle, xLog?, yLog?, yDomain?, describe?(data), height?(width) }
 */
export function draw(element, data, options = {}) {
  const current = { data, options };
  const frame = createFrame(element, {
    className: 'posenc-curves',
    height: (width) => current.options.height?.(width) ?? clamp(width * 0.5, 220, 340),
    render,
  });
  const key = htmlElement('ul', 'posenc-key', frame.root);
  const notes = notesContainer(frame.root, options);
  const caption = htmlElement('p', 'posenc-caption', frame.root);
  caption.setAttribute('aria-hidden', 'true');

  function render() {
    if (frame.width === 0) return;
    const { data, options } = current;
    const svg = clear(frame.svg);
    const margin = { top: 30, right: 16, bottom: 42, left: 62 };
    const marks = data.marks ?? [];
    const guides = data.guides ?? [];
    const xDomain = extent(
      data.series,
      'x',
      marks.map((m) => m.x),
      options.xLog,
    );
    const yDomain =
      options.yDomain ??
      extent(
        data.series,
        'y',
        guides.map((g) => g.y),
        options.yLog,
      );
    const x = (options.xLog ? scaleLog() : scaleLinear())
      .domain(xDomain)
      .range([margin.left, frame.width - margin.right]);
    const y = (options.yLog ? scaleLog() : scaleLinear())
      .domain(yDomain)
      .range([frame.height - margin.bottom, margin.top]);
    const ticks = Math.max(2, Math.floor(frame.width / 90));
    drawAxis(svg, x, 'bottom', {
      y: frame.height - margin.bottom,
      ticks: options.xLog ? [ticks, '~s'] : ticks,
      title: options.xTitle,
    });
    drawAxis(svg, y, 'left', {
      x: margin.left,
      ticks: options.yLog ? [5, '~s'] : 5,
      title: options.yTitle,
      titleOffset: 48,
    });
    const px = options.xLog ? logAffine(x) : affine(x);
    const py = options.yLog ? logAffine(y) : affine(y);
    const [top, bottom] = [margin.top, frame.height - margin.bottom];
    const clampY = (v) => (Number.isFinite(v) ? clamp(v, top, bottom) : v);

    for (const { y: value, label } of guides) {
      const at = py(value);
      if (!Number.isFinite(at)) continue;
      svgElement(
        'line',
        { x1: x.range()[0], x2: x.range()[1], y1: at, y2: at, stroke: cssColor('muted'), 'stroke-dasharray': '5 4' },
        svg,
      );
      svgText(svg, label, {
        x: x.range()[1] - 4,
        y: at - 4,
        'text-anchor': 'end',
        fill: cssColor('muted'),
        'paint-order': 'stroke',
        stroke: cssColor('bg'),
        'stroke-width': 3,
      });
    }
    data.series.forEach(({ x: xs, y: ys, dashed }, index) => {
      svgElement(
        'path',
        {
          d: linePathTenths(
            xs.length,
            (i) => px(xs[i]),
            (i) => clampY(py(ys[i])),
          ),
          transform: TENTHS,
          fill: 'none',
          stroke: seriesColor(index),
          'stroke-width': strokeTenths(dashed ? 1.6 : 2.2),
          'stroke-dasharray': dashed ? strokeTenths('7 5') : null,
        },
        svg,
      );
    });
    // Marks last, labelled at the top (neighbouring marks may be close).
    // Labelled in staggered rows by their order along x: neighbours never share a row.
    const sorted = [...marks].sort((a, b) => a.x - b.x);
    sorted.forEach(({ x: value, label }, index) => {
      const at = px(value);
      if (!Number.isFinite(at)) return;
      svgElement(
        'line',
        { x1: at, x2: at, y1: top, y2: bottom, stroke: cssColor('accent'), 'stroke-dasharray': '3 3' },
        svg,
      );
      const nearRight = at > frame.width - 80;
      svgText(svg, label, {
        x: nearRight ? at - 3 : at + 3,
        y: top - 18 + (index % 3) * 11,
        'text-anchor': nearRight ? 'end' : 'start',
        'font-size': 10,
        fill: cssColor('accent'),
        'paint-order': 'stroke',
        stroke: cssColor('bg'),
        'stroke-width': 3,
      });
    });

    key.replaceChildren(
      ...data.series.map(({ label, dashed }, index) => {
        const item = htmlElement('li', `posenc-key-${dashed ? 'dashed' : 'solid'}`);
        const swatch = htmlElement('span', 'posenc-swatch', item);
        swatch.setAttribute('aria-hidden', 'true');
        swatch.style.borderTop = `3px ${dashed ? 'dashed' : 'solid'} ${seriesColor(index)}`;
        item.append(document.createTextNode(label));
        return item;
      }),
    );
    showNotes(notes, data.notes ?? []);
    const description = (options.describe ?? defaultDescribe)(data);
    frame.setLabel(description);
    setText(caption, description);
  }

  return plotHandle(frame, current, render);
}
