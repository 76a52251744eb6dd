// One (sin, cos) pair of the encoding as a point (cos, sin) on a circle (of
// radius |scale|, 1 unless the values are scaled): stepping the position by k turns it by the angle w·k, whatever the
// starting position. The positions in between are drawn as a trail; numeric
// notes (the angle, the residual of PE(p+k) = M_k·PE(p)) are printed below.
import { scaleLinear } from 'd3-scale';
import { createFrame, plotHandle } from './frame.js';
import { affine, clamp, strokeTenths, tenths, TENTHS } from './path-data.js';
import { clear, notesContainer, showNotes, svgElement, svgText } from './svg.js';
import { cssColor } from './theme.js';

const defaultDescribe = ({ start, end }) =>
  `A pair of the encoding as a point on a circle, moving from (${start[0].toFixed(3)}, ${start[1].toFixed(3)}) to (${end[0].toFixed(3)}, ${end[1].toFixed(3)}).`;

/**
 * data: { start: [cos, sin], end: [cos, sin], trail?: { cos, sin }, angle?: w·k (radians),
 *         radius?: the circle's (default 1), startLabel, endLabel, notes?: [{ text, testId? }] }
 * options: { xTitle, yTitle, describe?(data), height?(width) }
 */
export function draw(element, data, options = {}) {
  const current = { data, options };
  const frame = createFrame(element, {
    className: 'posenc-rotation',
    height: (width) => current.options.height?.(width) ?? clamp(width * 0.8, 220, 340),
    render,
  });
  const notes = notesContainer(frame.root, options);
  const marker = `posenc-arrow-${Math.random().toString(36).slice(2)}`;

  function render() {
    if (frame.width === 0) return;
    const { data, options } = current;
    const svg = clear(frame.svg);
    const size = Math.min(frame.width, frame.height) - 36;
    const cx = frame.width / 2;
    const cy = frame.height / 2;
    // Drawn in units of the radius: the picture is the same for any scale.
    const radius = data.radius ?? 1;
    const scale = scaleLinear()
      .domain([-1.25, 1.25])
      .range([-size / 2, size / 2]);
    // Plain arithmetic: a d3 scale's call costs more, and the trail has up to 721 points.
    const unit = affine(scale);
    const px = (c) => cx + unit(c / radius);
    const py = (s) => cy - unit(s / radius);

    const defs = svgElement('defs', {}, svg);
    const head = svgElement(
      'marker',
      {
        id: marker,
        viewBox: '0 0 10 10',
        refX: 9,
        refY: 5,
        markerWidth: 7,
        markerHeight: 7,
        orient: 'auto-start-reverse',
      },
      defs,
    );
    svgElement('path', { d: 'M0,0L10,5L0,10Z', fill: 'context-stroke' }, head);

    const reach = 1.2 * radius;
    svgElement('line', { x1: px(-reach), x2: px(reach), y1: py(0), y2: py(0), stroke: cssColor('grid') }, svg);
    svgElement('line', { x1: px(0), x2: px(0), y1: py(-reach), y2: py(reach), stroke: cssColor('grid') }, svg);
    svgElement(
      'circle',
      { cx: px(0), cy: py(0), r: scale(1) - scale(0), fill: 'none', stroke: cssColor('muted') },
      svg,
    );
    svgText(svg, options.xTitle ?? 'cos', { x: px(1.22 * radius), y: py(0) - 6, 'text-anchor': 'end' });
    svgText(svg, options.yTitle ?? 'sin', { x: px(0) + 6, y: py(reach) + 4 });

    if (data.trail) {
      let d = '';
      const { cos, sin } = data.trail;
      // In tenths of a pixel (see TENTHS): up to 721 points, redrawn while a slider moves.
      for (let i = 0; i < cos.length; i++) d += `M${tenths(px(cos[i]))},${tenths(py(sin[i]))}h0`;
      const style = { stroke: cssColor('muted'), 'stroke-width': strokeTenths(4), 'stroke-linecap': 'round' };
      svgElement('path', { d, transform: TENTHS, ...style, 'stroke-opacity': 0.6 }, svg);
    }
    if (Number.isFinite(data.angle) && data.angle !== 0) {
      // The arc shows the turn modulo a full circle, from the starting angle.
      const from = Math.atan2(data.start[1], data.start[0]);
      const turn = ((data.angle % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
      const r = (scale(1) - scale(0)) * 0.35;
      const steps = Math.max(2, Math.ceil(turn * 20));
      let d = '';
      for (let i = 0; i <= steps; i++) {
        const a = from + (turn * i) / steps;
        d += `${i ? 'L' : 'M'}${(px(0) + r * Math.cos(a)).toFixed(1)},${(py(0) - r * Math.sin(a)).toFixed(1)}`;
      }
      svgElement(
        'path',
        { d, fill: 'none', stroke: cssColor('accent'), 'stroke-width': 1.5, 'marker-end': `url(#${marker})` },
        svg,
      );
    }
    const arrow = (point, colour) =>
      svgElement(
        'line',
        {
          x1: px(0),
          y1: py(0),
          x2: px(point[0]),
          y2: py(point[1]),
          stroke: colour,
          'stroke-width': 2.5,
          'marker-end': `url(#${marker})`,
        },
        svg,
      );
    arrow(data.start, cssColor('series-1'));
    arrow(data.end, cssColor('series-2'));
    // The start is labelled inside the circle and the end outside, so that
    // the two stay readable when the turn is small; the inside label sits
    // beside its arrow, clockwise of it (the arc turns anticlockwise from it),
    // unless the other arrow is just there.
    const label = (point, text, colour, inside, other) => {
      const reach = inside ? 0.55 : 1.12;
      let x = px(point[0] * reach);
      let y = py(point[1] * reach) + 4;
      let right = point[0] >= 0 !== inside;
      if (inside) {
        const a = Math.atan2(point[1], point[0]);
        const behind = (a - Math.atan2(other[1], other[0]) + 4 * Math.PI) % (2 * Math.PI);
        const away = behind > 0 && behind < Math.PI / 4 ? -1 : 1;
        // The screen normal of the arrow, clockwise (away = 1) or anticlockwise.
        const [nx, ny] = [away * Math.sin(a), away * Math.cos(a)];
        x += 10 * nx;
        y += 10 * ny;
        right = nx >= 0;
      }
      svgText(svg, text, {
        x,
        y,
        'text-anchor': right ? 'start' : 'end',
        'paint-order': 'stroke',
        stroke: cssColor('bg'),
        'stroke-width': 3,
        fill: colour,
      });
    };
    label(data.start, data.startLabel ?? 'p', cssColor('series-1'), true, data.end);
    label(data.end, data.endLabel ?? 'p + k', cssColor('series-2'), false, data.start);

    showNotes(notes, data.notes ?? []);
    frame.setLabel((options.describe ?? defaultDescribe)(data));
  }

  return plotHandle(frame, current, render);
}
