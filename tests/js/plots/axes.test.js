// @vitest-environment jsdom
// The plots' axes (drawAxis in web/plots/axes.js) draw d3-axis's markup
// themselves, updated in place: checked against d3-axis itself (tick
// positions, labels, lines, the domain path) on each side, and for what an
// update must keep (a tick label's text node, a tick line's attributes).
import { describe, expect, it } from 'vitest';
import { axisBottom, axisLeft, axisRight } from 'd3-axis';
import { scaleLinear, scaleLog } from 'd3-scale';
import { select } from 'd3-selection';
import { drawAxis } from '../../../web/plots/axes.js';
import { clear } from '../../../web/plots/svg.js';

const SVG = 'http://www.w3.org/2000/svg';
const D3 = { bottom: axisBottom, left: axisLeft, right: axisRight };

/** What an axis group shows: its domain path, and per tick its transform, line and label. */
function picture(group) {
  return {
    domain: group.querySelector(':scope > path.domain').getAttribute('d'),
    ticks: [...group.querySelectorAll(':scope > g.tick')].map((tick) => {
      const [line, text] = [tick.querySelector('line'), tick.querySelector('text')];
      return {
        transform: tick.getAttribute('transform'),
        opacity: tick.getAttribute('opacity'),
        line: ['x2', 'y2', 'stroke'].map((name) => line.getAttribute(name)),
        text: [text.textContent, ...['x', 'y', 'dy', 'fill'].map((name) => text.getAttribute(name))],
      };
    }),
    anchor: group.getAttribute('text-anchor'),
  };
}

function d3Picture(scale, side, ticks) {
  const group = document.createElementNS(SVG, 'g');
  select(group).call(D3[side](scale).ticks(...[].concat(ticks)));
  return picture(group);
}

const svg = () => document.body.appendChild(document.createElementNS(SVG, 'svg'));

describe('drawAxis', () => {
  const cases = [
    ['bottom', scaleLinear().domain([0, 511]).range([52, 560]), 6],
    ['left', scaleLinear().domain([-2.5, 3]).range([300, 20]), 3],
    ['right', scaleLinear().domain([-1, 1]).range([280, 8]), 5],
    ['bottom', scaleLog().domain([1, 10000]).range([40, 600]), [4, '~g']],
  ];
  for (const [side, scale, ticks] of cases)
    it(`draws what d3-axis draws: ${side}, domain ${scale.domain().join(' … ')}`, () => {
      const group = drawAxis(svg(), scale, side, { ticks });
      expect(picture(group)).toEqual(d3Picture(scale, side, ticks));
    });

  it('updates in place: a tick keeps its nodes, a label its text node where it reads the same', () => {
    const parent = svg();
    const scale = scaleLinear().domain([0, 500]).range([50, 550]);
    const group = drawAxis(parent, scale, 'bottom', { ticks: 5 });
    const before = [...group.querySelectorAll('g.tick text')].map((text) => text.firstChild);
    const lines = [...group.querySelectorAll('g.tick line')];
    // Redrawn as a plot redraws (clear(), then everything again): the same ticks (0, 100, … 500)
    // a little further right, then others.
    const moved = scale.copy().range([60, 560]);
    expect(drawAxis(clear(parent), moved, 'bottom', { ticks: 5 })).toBe(group);
    const after = [...group.querySelectorAll('g.tick text')].map((text) => text.firstChild);
    expect(after).toHaveLength(before.length);
    after.forEach((node, i) => expect(node).toBe(before[i]));
    [...group.querySelectorAll('g.tick line')].forEach((line, i) => expect(line).toBe(lines[i]));
    expect(picture(group)).toEqual(d3Picture(moved, 'bottom', 5));
    const wider = scale.copy().domain([0, 1200]);
    expect(drawAxis(clear(parent), wider, 'bottom', { ticks: 5 })).toBe(group);
    expect(picture(group)).toEqual(d3Picture(wider, 'bottom', 5));
    const fewer = scale.copy().domain([0, 2]);
    expect(drawAxis(clear(parent), fewer, 'bottom', { ticks: 2 })).toBe(group);
    expect(picture(group)).toEqual(d3Picture(fewer, 'bottom', 2));
  });

  it('a redraw whose ticks move sets nothing on the group and the title that stay the same', async () => {
    // (A set attribute marks its element for restyling even when the value is the same.)
    for (const side of ['bottom', 'left']) {
      const parent = svg();
      const scale = scaleLinear().domain([0, 500]).range([300, 20]);
      const group = drawAxis(parent, scale, side, { ticks: 5, title: 'position' });
      const title = group.querySelector('text.axis-title');
      const changes = [];
      const observer = new MutationObserver((records) => changes.push(...records));
      observer.observe(group, { attributes: true });
      observer.observe(title, { attributes: true });
      drawAxis(clear(parent), scale.copy().domain([0, 640]), side, { ticks: 5, title: 'position' });
      await Promise.resolve();
      changes.push(...observer.takeRecords());
      observer.disconnect();
      // The group's key of what it shows changes; nothing else on it or on the title.
      expect(changes.map((record) => `${record.target.localName} ${record.attributeName}`)).toEqual(['g data-axis']);
      // And the ticks did move.
      expect(group.dataset.axis).toContain('640');
    }
  });
});
