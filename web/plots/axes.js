// Axes: d3-axis's markup, updated in place.
import { place, reusable, setText, SVG_NS } from './svg.js';

/** Sets an attribute only when its value changes (setting it anyway marks the element for restyling). */
function setChanged(node, name, value) {
  if (node.getAttribute(name) !== String(value)) node.setAttribute(name, value);
}

/**
 * Draws the axis of `scale` on `side` ('bottom', 'left', 'right') into `group` as d3-axis does
 * (its markup, tick sizes, offsets and labels: the same picture), but in place: a tick kept from
 * the last draw changes only the attributes and the label that differ. d3-axis sets every tick's
 * attributes and replaces every label's text node at each call: in a slider drag, whose every
 * step changes a domain, that was most of the elements restyled and laid out per frame.
 */
function renderAxis(group, scale, side, ticks, format) {
  const vertical = side !== 'bottom';
  const k = side === 'left' ? -1 : 1;
  const across = vertical ? 'x' : 'y';
  const tickArguments = ticks === undefined ? [] : [].concat(ticks);
  const values = scale.ticks ? scale.ticks(...tickArguments) : scale.domain();
  const label = format ?? (scale.tickFormat ? scale.tickFormat(...tickArguments) : (value) => value);
  const [inner, outer, padding] = [6, 6, 3];
  const offset = window.devicePixelRatio > 1 ? 0 : 0.5;
  const range = scale.range();
  const [range0, range1] = [+range[0] + offset, +range[range.length - 1] + offset];
  let position = (value) => +scale(value);
  if (scale.bandwidth) {
    let shift = Math.max(0, scale.bandwidth() - offset * 2) / 2;
    if (scale.round()) shift = Math.round(shift);
    position = (value) => +scale(value) + shift;
  }
  if (!group.hasAttribute('text-anchor')) {
    // What d3-axis sets on a new axis only.
    group.setAttribute('fill', 'none');
    group.setAttribute('font-family', 'sans-serif');
    group.setAttribute('text-anchor', side === 'right' ? 'start' : side === 'left' ? 'end' : 'middle');
  }
  let domain = group.querySelector(':scope > path.domain');
  if (!domain) {
    domain = document.createElementNS(SVG_NS, 'path');
    domain.setAttribute('class', 'domain');
    domain.setAttribute('stroke', 'currentColor');
    group.prepend(domain);
  }
  setChanged(
    domain,
    'd',
    vertical
      ? `M${k * outer},${range0}H${offset}V${range1}H${k * outer}`
      : `M${range0},${k * outer}V${offset}H${range1}V${k * outer}`,
  );
  const kept = [...group.querySelectorAll(':scope > g.tick')];
  let before = domain;
  values.forEach((value, i) => {
    let tick = kept[i];
    if (!tick) {
      tick = document.createElementNS(SVG_NS, 'g');
      tick.setAttribute('class', 'tick');
      tick.setAttribute('opacity', 1);
      const line = document.createElementNS(SVG_NS, 'line');
      line.setAttribute('stroke', 'currentColor');
      line.setAttribute(`${across}2`, k * inner);
      const text = document.createElementNS(SVG_NS, 'text');
      text.setAttribute('fill', 'currentColor');
      text.setAttribute(across, k * (inner + padding));
      text.setAttribute('dy', vertical ? '0.32em' : '0.71em');
      tick.append(line, text);
      before.after(tick);
    }
    before = tick;
    const at = position(value) + offset;
    setChanged(tick, 'transform', vertical ? `translate(0,${at})` : `translate(${at},0)`);
    const text = tick.lastChild;
    const named = label(value, i);
    const content = named == null ? '' : String(named);
    setText(text, content);
  });
  for (const tick of kept.slice(values.length)) tick.remove();
}

/**
 * What an axis shows: where each tick goes, its label, the line, the title.
 * Without a format the labels follow from the scale's domain and tick count.
 */
function axisKey(scale, side, { x, y, ticks, format, title, titleOffset }) {
  const args = ticks === undefined ? [] : [].concat(ticks);
  const values = scale.ticks ? scale.ticks(...args) : scale.domain();
  const labels = format ? values.map(format).join(';') : `${scale.domain()}|${args}`;
  // d3 offsets by half a pixel at devicePixelRatio 1.
  return `${side}|${x},${y}|${scale.range()}|${window.devicePixelRatio}|${title}|${titleOffset}|${values.map(scale)}|${labels}`;
}

/**
 * A d3 axis in a group at (x, y), with an optional title. A redraw reuses the
 * group: untouched when the axis shows the same, else d3 updates its ticks in
 * place.
 */
export function drawAxis(parent, scale, side, { x = 0, y = 0, ticks, format, title, titleOffset = 32 } = {}) {
  const key = axisKey(scale, side, { x, y, ticks, format, title, titleOffset });
  const kept = reusable(parent, 'g', (node) => node.dataset.side === side);
  const group = kept ?? document.createElementNS(SVG_NS, 'g');
  place(parent, group);
  if (group.dataset.axis === key) return group;
  group.dataset.axis = key;
  if (group.dataset.side !== side) group.dataset.side = side;
  setChanged(group, 'transform', `translate(${x},${y})`);
  setChanged(group, 'class', `axis axis-${side}`);
  renderAxis(group, scale, side, ticks, format);
  setChanged(group, 'font-size', 11);
  setChanged(group, 'font-family', 'inherit');
  let text = group.querySelector(':scope > text.axis-title');
  if (!title) {
    text?.remove();
    return group;
  }
  if (!text) {
    text = document.createElementNS(SVG_NS, 'text');
    text.setAttribute('class', 'axis-title');
    text.setAttribute('fill', 'currentColor');
    text.setAttribute('text-anchor', 'middle');
    group.append(text);
  }
  const [start, end] = scale.range();
  const middle = (start + end) / 2;
  if (side === 'bottom') {
    setChanged(text, 'x', middle);
    setChanged(text, 'y', titleOffset);
  } else {
    setChanged(text, 'transform', `translate(${side === 'left' ? -titleOffset : titleOffset},${middle}) rotate(-90)`);
  }
  setText(text, title);
  return group;
}
