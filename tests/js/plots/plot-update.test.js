// @vitest-environment jsdom
// A plot's update() redraws in place: the svg's nodes (and the key's items and
// the notes' paragraphs under it) are the same nodes as before, set to what a
// fresh draw() of the new data shows, and nothing reads the page's layout
// (a slider drag calls update() at every step).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { draw as drawCurves } from '../../../web/plots/curves.js';
import { draw as drawPanels } from '../../../web/plots/panels.js';
import { draw as drawOffsetDots } from '../../../web/plots/offset-dots.js';
import { draw as drawRotation } from '../../../web/plots/rotation.js';

const WIDTH = 640;
const layoutReads = vi.fn(() => 0);

beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    disconnect() {}
  };
  // jsdom has no canvas: a 2d context whose methods do nothing, and whose text is 6 px a character.
  const context = new Proxy(
    { measureText: (text) => ({ width: 6 * text.length }), getTransform: () => ({ a: 1 }) },
    { get: (target, key) => target[key] ?? (() => {}), set: () => true },
  );
  HTMLCanvasElement.prototype.getContext = () => context;
  // A text's length from the svg would be a layout of the page (jsdom has none: counted, not measured).
  window.SVGElement.prototype.getComputedTextLength = layoutReads;
});

afterEach(() => {
  document.body.replaceChildren();
  layoutReads.mockClear();
});

/** A container of a fixed width, as the page lays it out. */
function container() {
  const element = document.createElement('div');
  Object.defineProperty(element, 'clientWidth', { value: WIDTH });
  document.body.append(element);
  return element;
}

/**
 * Every element under `root` in document order, but for the ticks inside an
 * axis: d3 keys those by value and replaces the ones whose value changed.
 */
const elementsOf = (root) => [...root.querySelectorAll('*')].filter((node) => !node.parentElement.closest('.axis'));

/** The text nodes under `root` outside the axes: set anew, Chromium lays a text node out anew. */
function textsOf(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) if (!walker.currentNode.parentElement.closest('.axis')) texts.push(walker.currentNode);
  return texts;
}

/**
 * What `root` shows: each element's name, attributes (in any order) and text,
 * with its children; an axis's children in any order (d3 appends new ticks
 * after the title, a fresh axis has them before it).
 */
function picture(node) {
  const children = [...node.children].map(picture);
  if (node.classList.contains('axis')) children.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return {
    name: node.localName,
    // (Each rotation plot names its arrowhead marker at random: two plots never share one.)
    attributes: Object.fromEntries(
      [...node.attributes].map(({ name, value }) => [name, value.replace(/posenc-arrow-\w+/g, 'posenc-arrow')]).sort(),
    ),
    text: [...node.childNodes]
      .filter((child) => child.nodeType === 3)
      .map((child) => child.data)
      .join(''),
    children,
  };
}

/** Draws `before`, updates it to `after`; returns the plot's root and its nodes before and after the update. */
async function updated(draw, before, after, options) {
  const plot = draw(container(), before, options);
  const root = document.body.lastChild.firstChild;
  const nodesBefore = elementsOf(root);
  const textsBefore = textsOf(root);
  plot.update(after, options);
  // Nodes a redraw did not reuse are removed in a microtask.
  await Promise.resolve();
  return { root, nodesBefore, nodesAfter: elementsOf(root), textsBefore, textsAfter: textsOf(root) };
}

/** The same plot drawn from `data` at once. */
async function fresh(draw, data, options) {
  draw(container(), data, options);
  await Promise.resolve();
  return document.body.lastChild.firstChild;
}

const wave = (count, phase, scale = 1) =>
  Float64Array.from({ length: count }, (_, i) => scale * Math.sin(i / 7 + phase));

function panelsData(position) {
  const x = Float64Array.from({ length: 97 }, (_, i) => position - 48 + i);
  const markers = [{ x: position - 3, label: 'before' }];
  return {
    panels: [
      {
        label: `scores of the query at position ${position}`,
        markers,
        series: [
          { label: 'plain', x, y: wave(97, position) },
          { label: `rotated by ${position % 7}`, x, y: wave(97, position + 1, 2) },
        ],
      },
      {
        // Longer than the plot is wide: squeezed to fit.
        label: `weights ${'of the keys '.repeat(12)}at ${position}`,
        markers,
        series: [
          { label: 'plain', x, y: wave(97, position, 0.5), dots: true },
          { label: 'scaled', x, y: wave(97, position + 2, 0.1), colour: 2, dashed: true },
        ],
      },
    ],
    notes: [
      { text: `the peak is at ${position - 3}`, testId: 'peak' },
      { text: `${position} keys in the window`, testId: 'count' },
    ],
  };
}

function offsetData(dModel) {
  const curve = (first, count, phase) => ({ label: `from ${-first}`, first, values: wave(count, phase) });
  return {
    offset: dModel % 40,
    curves: [curve(-100, 300, 0), curve(-60, 260, dModel / 100), curve(0, 200, 1)],
    contributions: {
      first: -100,
      bands: [0, 1, 2].map((band) => ({ label: `pairs ${band}`, values: wave(300, band + dModel / 50, 0.3) })),
    },
  };
}

function rotationData(k) {
  const angle = 0.3 * k;
  return {
    start: [Math.cos(0.5), Math.sin(0.5)],
    end: [Math.cos(0.5 + angle), Math.sin(0.5 + angle)],
    trail: {
      cos: Float64Array.from({ length: k + 1 }, (_, i) => Math.cos(0.5 + 0.3 * i)),
      sin: Float64Array.from({ length: k + 1 }, (_, i) => Math.sin(0.5 + 0.3 * i)),
    },
    angle,
    startLabel: 'p',
    endLabel: `p + ${k}`,
    notes: [
      { text: `k = ${k} turns it by ${angle.toFixed(3)} rad`, testId: 'turn' },
      { text: `largest residual ${(k * 1e-16).toExponential(2)}`, testId: 'residual' },
    ],
  };
}

const cases = [
  {
    name: 'rotation',
    draw: drawRotation,
    before: rotationData(8),
    after: rotationData(11),
    options: { xTitle: 'cos', yTitle: 'sin', describe: (data) => `to ${data.endLabel}` },
  },
  {
    name: 'panels',
    draw: drawPanels,
    before: panelsData(100),
    after: panelsData(117),
    options: { xTitle: 'key position', describe: (data) => `${data.panels.length} panels` },
  },
  {
    name: 'offset-dots',
    draw: drawOffsetDots,
    before: offsetData(128),
    after: offsetData(192),
    options: { xTitle: 'offset k', yTitle: 's(k)', contributionsTitle: 'by pair', offsetLabel: (k) => `k = ${k}` },
  },
];

describe.each(cases)('$name: update() in place', ({ draw, before, after, options }) => {
  it('keeps every node and shows what a fresh draw() of the new data shows', async () => {
    const { root, nodesBefore, nodesAfter, textsBefore, textsAfter } = await updated(draw, before, after, options);
    const drawn = await fresh(draw, after, options);
    expect(picture(root)).toEqual(picture(drawn));
    expect(picture(root)).not.toEqual(picture(await fresh(draw, before, options)));
    // The same structure drawn from other numbers: not one node replaced.
    expect(nodesAfter.length).toBe(nodesBefore.length);
    nodesAfter.forEach((node, index) => expect(node).toBe(nodesBefore[index]));
    // Their texts changed in place, not set as new text nodes.
    expect(textsAfter.length).toBe(textsBefore.length);
    textsAfter.forEach((node, index) => expect(node).toBe(textsBefore[index]));
  });

  it('changes nothing in the page when updated with the same data again', async () => {
    // A drag over values the plot does not depend on redraws it with the same numbers: nothing may be
    // restyled or laid out again for it (the offset-dots plot set its mirror label's anchor anew each time).
    const plot = draw(container(), before, options);
    plot.update(before, options);
    await Promise.resolve();
    const changes = [];
    const observer = new MutationObserver((records) => changes.push(...records));
    observer.observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
    plot.update(before, options);
    await Promise.resolve();
    changes.push(...observer.takeRecords());
    observer.disconnect();
    expect(
      changes.map(({ type, target, attributeName }) => `${type} ${target.localName} ${attributeName ?? ''}`),
    ).toEqual([]);
  });

  it('reads no layout while it updates', async () => {
    await updated(draw, before, after, options);
    expect(layoutReads).not.toHaveBeenCalled();
  });
});

describe('panels: a label too long for the plot', () => {
  it('is squeezed to the plot, a short one is not', async () => {
    const root = await fresh(drawPanels, panelsData(100), {});
    const title = (start) => [...root.querySelectorAll('text')].find((text) => text.textContent.startsWith(start));
    const [short, long] = [title('scores'), title('weights')];
    expect(short.hasAttribute('textLength')).toBe(false);
    expect(Number(long.getAttribute('textLength'))).toBeLessThan(WIDTH);
    expect(long.getAttribute('lengthAdjust')).toBe('spacingAndGlyphs');
  });
});

describe('offset-dots: the dashed marks of ±k', () => {
  it('run over both plots but not across the bands’ title between them', async () => {
    const options = { xTitle: 'offset k', contributionsTitle: 'by bands of pairs', offsetLabel: (k) => `k = ${k}` };
    drawOffsetDots(container(), offsetData(128), options);
    await Promise.resolve();
    const svg = document.body.lastChild.querySelector('svg');
    const title = [...svg.querySelectorAll('text')].find((text) => text.textContent === options.contributionsTitle);
    // The title's line of text: 11 px up from its baseline.
    const baseline = Number(title.getAttribute('y'));
    const marks = [...svg.querySelectorAll('line[stroke-dasharray="3 3"]')];
    // Each of k and −k, in two pieces.
    expect(marks).toHaveLength(4);
    for (const line of marks) {
      const [y1, y2] = [Number(line.getAttribute('y1')), Number(line.getAttribute('y2'))];
      expect(y2 <= baseline - 11 || y1 >= baseline).toBe(true);
    }
    // Together they reach from the top plot's top to the bands' bottom.
    const ends = marks.flatMap((line) => [Number(line.getAttribute('y1')), Number(line.getAttribute('y2'))]);
    expect(Math.min(...ends)).toBe(10);
    expect(Math.max(...ends)).toBe(Number(svg.getAttribute('height')) - 40);
  });
});

describe('curves: the notes under the plot', () => {
  it('are reworded in place, their paragraphs and text nodes kept, test ids followed', async () => {
    const series = [{ label: 'supported', x: Float64Array.of(10, 100, 1000), y: Float64Array.of(5, 80, 900) }];
    const data = (base) => ({
      series,
      notes: [
        { text: `base ${base} supports ${base / 10}`, testId: 'first' },
        { text: `smallest ${base / 2}`, testId: 'second' },
      ],
    });
    const plot = drawCurves(container(), data(1000), { xTitle: 'base', xLog: true, yLog: true });
    const notes = document.body.lastChild.querySelector('.posenc-notes');
    const [paragraphs, texts] = [[...notes.children], [...notes.children].map((p) => p.firstChild)];
    plot.update(data(5000));
    expect([...notes.children]).toEqual(paragraphs);
    [...notes.children].forEach((p, index) => expect(p.firstChild).toBe(texts[index]));
    expect([...notes.children].map((p) => [p.textContent, p.dataset.testid])).toEqual([
      ['base 5000 supports 500', 'first'],
      ['smallest 2500', 'second'],
    ]);
    plot.update({ series, notes: [{ text: 'one note' }] });
    expect([...notes.children].map((p) => [p.textContent, p.dataset.testid])).toEqual([['one note', undefined]]);
  });
});

describe('the notes folded on the page (options.notesSummary)', () => {
  const series = [{ label: 'supported', x: Float64Array.of(10, 100, 1000), y: Float64Array.of(5, 80, 900) }];
  const data = { series, notes: [{ text: 'base 1000 supports 100', testId: 'first' }] };
  const curves = (options) =>
    drawCurves(container(), data, { xTitle: 'base', xLog: true, yLog: true, ...options }) && document.body.lastChild;

  it('sit in a closed details under the summary given, drawn at once and kept by update()', () => {
    const element = curves({ notesSummary: 'The numbers' });
    const notes = element.querySelector('.posenc-notes');
    const folded = notes.parentElement;
    expect(folded.matches('details.plot-numbers')).toBe(true);
    expect(folded.open).toBe(false);
    const summary = folded.firstElementChild;
    expect([summary.localName, summary.textContent, summary.dataset.i18n]).toEqual([
      'summary',
      'The numbers',
      'notes.summary',
    ]);
    // Still in the document: a screen reader and find-in-page reach them.
    expect(notes.querySelector('[data-testid="first"]').textContent).toBe('base 1000 supports 100');
    expect(element.querySelectorAll('details')).toHaveLength(1);
  });

  it('stay open without it (the elements and the embed)', () => {
    const element = curves({});
    expect(element.querySelector('details')).toBeNull();
    expect(element.querySelector('.posenc-notes').parentElement.matches('.posenc-plot')).toBe(true);
  });

  it('fold in every plot module that writes notes of numbers', () => {
    const drawn = [
      drawPanels(container(), panelsData(100), { notesSummary: 'S' }),
      drawRotation(container(), rotationData(8), { notesSummary: 'S' }),
    ];
    for (const element of document.body.children)
      expect(element.querySelector('.posenc-notes').parentElement.matches('details.plot-numbers')).toBe(true);
    for (const plot of drawn) plot.destroy();
  });
});

describe('offset-dots: bands off screen', () => {
  // An IntersectionObserver the test drives: the plot's watchers, told when their box scrolls in or out.
  const watchers = [];
  class FakeIntersectionObserver {
    constructor(callback) {
      this.callback = callback;
      this.targets = [];
      watchers.push(this);
    }
    observe(target) {
      this.targets.push(target);
    }
    disconnect() {
      this.targets = [];
    }
    report(isIntersecting) {
      this.callback(this.targets.map((target) => ({ target, isIntersecting })));
    }
  }
  const options = { xTitle: 'offset k', yTitle: 's(k)', contributionsTitle: 'by pair', offsetLabel: (k) => `k = ${k}` };
  // The bands' group: the svg's only g of filled paths.
  const bandsOf = (root) =>
    picture(
      [...root.querySelector('svg').children].find(
        (node) => node.localName === 'g' && node.querySelector(':scope > path[fill-opacity]'),
      ),
    );

  beforeAll(() => {
    globalThis.IntersectionObserver = FakeIntersectionObserver;
  });
  afterEach(() => {
    watchers.length = 0;
    vi.useRealTimers();
  });
  afterAll(() => {
    delete globalThis.IntersectionObserver;
  });

  it('wait while off screen and are drawn for the latest data when they scroll in', async () => {
    const plot = drawOffsetDots(container(), offsetData(128), options);
    const root = document.body.lastChild.firstChild;
    const [watcher] = watchers;
    const bandsBefore = bandsOf(root);
    watcher.report(false);
    plot.update(offsetData(192), options);
    plot.update(offsetData(256), options);
    await Promise.resolve();
    // Not redrawn (nor removed), while the curves above them follow the data.
    expect(bandsOf(root)).toEqual(bandsBefore);
    const freshRoot = await fresh(drawOffsetDots, offsetData(256), options);
    expect(bandsOf(root)).not.toEqual(bandsOf(freshRoot));
    watcher.report(true);
    await Promise.resolve();
    expect(picture(root)).toEqual(picture(freshRoot));
  });

  it('are drawn a moment after the last change if they stay off screen', async () => {
    vi.useFakeTimers();
    const plot = drawOffsetDots(container(), offsetData(128), options);
    const root = document.body.lastChild.firstChild;
    watchers[0].report(false);
    plot.update(offsetData(192), options);
    await vi.advanceTimersByTimeAsync(200);
    plot.update(offsetData(256), options);
    await vi.advanceTimersByTimeAsync(200);
    const freshRoot = await fresh(drawOffsetDots, offsetData(256), options);
    expect(bandsOf(root)).not.toEqual(bandsOf(freshRoot));
    await vi.advanceTimersByTimeAsync(200);
    expect(picture(root)).toEqual(picture(freshRoot));
  });

  it('on screen, are drawn at every update; destroy() stops watching', async () => {
    const plot = drawOffsetDots(container(), offsetData(128), options);
    const root = document.body.lastChild.firstChild;
    const [watcher] = watchers;
    watcher.report(true);
    plot.update(offsetData(192), options);
    await Promise.resolve();
    expect(picture(root)).toEqual(picture(await fresh(drawOffsetDots, offsetData(192), options)));
    plot.destroy();
    expect(watcher.targets).toEqual([]);
  });
});
