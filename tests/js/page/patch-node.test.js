// @vitest-environment jsdom
// An explanation reworded at a drag's step is patched in place
// (web/page/patch-node.js): the page ends up showing exactly the new wording,
// and the nodes that did not change, formulas above all, stay the same nodes,
// also when a sentence gains or loses a formula (the offset section's "= 256 =
// d/2" at even d only), which used to replace the whole paragraph.
import fc from 'fast-check';
import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { lazyFormulas, paragraphNode, rememberTypeset, richHtml } from '../../../web/page/rich-text.js';
import { patchNode } from '../../../web/page/patch-node.js';

/** A <div> holding the build's HTML of a rich string (normalised, as the page patches it). */
function rendered(text) {
  const div = document.createElement('div');
  div.innerHTML = richHtml(text, katex);
  div.normalize();
  return div;
}

const peak = (value, even) =>
  String.raw`Top: the peak at $k = 0$ is $|PE(p)|^2$ = ${value}${even ? ' = $d/2$' : ''}; it falls. The dashed lines mark $\pm k$.`;
const formulas = (node) => [...node.querySelectorAll('span.math')];

describe('patchNode', () => {
  it('rewords a number: the text node changes, every other node stays', () => {
    const page = rendered(peak(256, true));
    const paragraph = page.firstChild;
    const before = formulas(page);
    patchNode(paragraph, rendered(peak(258, true)).firstChild);
    expect(page.isEqualNode(rendered(peak(258, true)))).toBe(true);
    expect(page.firstChild).toBe(paragraph);
    expect(formulas(page)).toEqual(before);
    expect(formulas(page).every((span, i) => span === before[i])).toBe(true);
  });

  it('a formula that goes (odd d) or comes back (even d) changes only the run around it', () => {
    const page = rendered(peak(256, true));
    const paragraph = page.firstChild;
    const [k0, norm, half, plusMinus] = formulas(page);
    expect(half.textContent).toContain('d/2');
    const value = norm.nextSibling;
    expect(value.data).toBe(' = 256 = ');

    patchNode(paragraph, rendered(peak(256.5, false)).firstChild);
    expect(page.isEqualNode(rendered(peak(256.5, false)))).toBe(true);
    expect(page.firstChild).toBe(paragraph);
    // The formulas before and after the change are the page's own nodes still.
    expect(formulas(page)).toHaveLength(3);
    expect(formulas(page)[0]).toBe(k0);
    expect(formulas(page)[1]).toBe(norm);
    expect(formulas(page)[2]).toBe(plusMinus);
    // And the text beside the formula that went is the same text node, its data changed.
    expect(norm.nextSibling).toBe(value);
    expect(value.data).toBe(' = 256.5; it falls. The dashed lines mark ');

    patchNode(paragraph, rendered(peak(258, true)).firstChild);
    expect(page.isEqualNode(rendered(peak(258, true)))).toBe(true);
    expect(page.firstChild).toBe(paragraph);
    const again = formulas(page);
    expect(again).toHaveLength(4);
    expect([again[0], again[1], again[3]]).toEqual([k0, norm, plusMinus]);
    expect(again[2]).not.toBe(half);
  });

  it('another element or a text turned element is replaced', () => {
    const page = document.createElement('div');
    page.innerHTML = '<p>a <strong>b</strong></p>';
    const strong = page.querySelector('strong');
    const next = document.createElement('p');
    next.innerHTML = 'a <em>b</em>';
    patchNode(page.firstChild, next);
    expect(page.innerHTML).toBe('<p>a <em>b</em></p>');
    expect(strong.isConnected).toBe(false);
  });

  // Children: text, or elements of a few kinds holding a text; any old list patched to any new one.
  const child = fc.oneof(
    fc.record({ text: fc.constantFrom('a', 'b', '= 256', ' ') }),
    fc.record({ tag: fc.constantFrom('span', 'strong', 'em'), inner: fc.constantFrom('x', 'y') }),
  );
  const build = (children) => {
    const p = document.createElement('p');
    for (const c of children) {
      if (c.text !== undefined) p.append(c.text);
      else p.append(Object.assign(document.createElement(c.tag), { textContent: c.inner }));
    }
    p.normalize();
    return p;
  };

  it('whatever the old and new children, the page shows the new ones exactly', () => {
    fc.assert(
      fc.property(fc.array(child, { maxLength: 8 }), fc.array(child, { maxLength: 8 }), (old, fresh) => {
        const page = document.createElement('div');
        page.append(build(old));
        const paragraph = page.firstChild;
        const expected = build(fresh);
        patchNode(paragraph, build(fresh));
        expect(page.firstChild.isEqualNode(expected)).toBe(true);
        expect(page.childNodes).toHaveLength(1);
        expect(page.firstChild).toBe(paragraph);
      }),
      { numRuns: 500 },
    );
  });

  describe('with formulas left empty (paragraphNode lazy, lazyFormulas)', () => {
    // The build's paragraphs in the page, their formulas remembered as the page remembers them.
    function page(text) {
      const div = rendered(text);
      rememberTypeset(div);
      return div;
    }
    const lazy = (text) => {
      const p = paragraphNode(text, null, { lazy: true });
      p.normalize();
      return p;
    };

    it('rewords a number without copying the formulas the page shows', () => {
      const div = page(peak(256, true));
      const before = formulas(div);
      const next = lazy(peak(258, true));
      patchNode(div.firstChild, next, lazyFormulas);
      expect(div.isEqualNode(rendered(peak(258, true)))).toBe(true);
      expect(formulas(div).every((span, i) => span === before[i])).toBe(true);
      // The new paragraph's formulas were never filled: nothing was copied.
      expect(formulas(next).every((span) => span.childNodes.length === 0)).toBe(true);
    });

    it('fills a formula that comes back, and only that one', () => {
      const div = page(peak(256, true));
      patchNode(div.firstChild, lazy(peak(256.5, false)), lazyFormulas);
      expect(div.isEqualNode(rendered(peak(256.5, false)))).toBe(true);
      const [k0, norm, plusMinus] = formulas(div);
      const next = lazy(peak(258, true));
      patchNode(div.firstChild, next, lazyFormulas);
      expect(div.isEqualNode(rendered(peak(258, true)))).toBe(true);
      const again = formulas(div);
      expect([again[0], again[1], again[3]]).toEqual([k0, norm, plusMinus]);
      expect(again[2].textContent).toContain('d/2');
      // A formula filled in the page is known there by its formula for the next patch.
      const half = again[2];
      patchNode(div.firstChild, lazy(peak(260, true)), lazyFormulas);
      expect(formulas(div)[2]).toBe(half);
      expect(div.isEqualNode(rendered(peak(260, true)))).toBe(true);
    });

    it('whatever the old and new wording, the page shows the new one exactly', () => {
      const words = fc.constantFrom('at', ' = 256', 'the peak', '; ', '**bold $d$**', '*slanted*');
      const formula = fc.constantFrom('$k = 0$', '$d/2$', '$\\pm k$', '$|PE(p)|^2$', '$$s(k)$$');
      const wording = fc
        .array(fc.oneof(words, formula), { minLength: 1, maxLength: 8 })
        .map((parts) => parts.join(' '));
      // Every formula the wordings use, typeset once as the build would have.
      const all = page('$k = 0$ $d/2$ $\\pm k$ $|PE(p)|^2$ **$d$** $$s(k)$$');
      expect(formulas(all).length).toBeGreaterThan(0);
      fc.assert(
        fc.property(wording, wording, wording, (first, second, third) => {
          const div = page(first);
          for (const text of [second, third]) {
            patchNode(div.firstChild, lazy(text), lazyFormulas);
            const expected = rendered(text);
            expect(div.isEqualNode(expected)).toBe(true);
          }
        }),
        { numRuns: 300 },
      );
    });
  });
});
