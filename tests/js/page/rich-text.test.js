// The page's rich strings rendered to HTML at build time (web/page/rich-text.js,
// used by web/build/vite-rich-text.js): paragraphs, bold, italic, math typeset by
// KaTeX, and every other character escaped: a string can never inject markup.
import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { parseRich, richHtml } from '../../../web/page/rich-text.js';

describe('rich strings rendered at build time', () => {
  it('makes {ref:<id>} a link to that section: its number, its chapter document and heading', () => {
    // Written out here: the question is the second section of the second chapter (implementations.html).
    expect(richHtml('see {ref:question}, and *{ref:rope-lab}*', katex)).toBe(
      '<p>see <a class="ref" href="./implementations.html#h-question">§2.2</a>, and ' +
        '<em><a class="ref" href="./rope.html#h-rope-lab">§3.5</a></em></p>',
    );
    expect(richHtml('{ref:heatmap}', katex)).toBe('<p><a class="ref" href="./sinusoidal.html#h-heatmap">§1.1</a></p>');
    expect(() => richHtml('see {ref:nowhere}', katex)).toThrow(/\{ref:nowhere\} names no section/);
  });

  it('splits paragraphs on blank lines and renders **bold** and *italic*, nested', () => {
    expect(richHtml('one **two** *three*\n\n  four **five *six* seven**  ', katex)).toBe(
      '<p>one <strong>two</strong> <em>three</em></p><p>four <strong>five <em>six</em> seven</strong></p>',
    );
  });

  it('escapes every character that means something in HTML, in text, bold and italic alike', () => {
    expect(richHtml(`<img src=x onerror="alert(1)"> & 'q' **<b>** *<i>*`, katex)).toBe(
      '<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;q&#39; <strong>&lt;b&gt;</strong> <em>&lt;i&gt;</em></p>',
    );
  });

  it('typesets $inline$ and $$display$$ math with KaTeX, keeping the TeX for screen readers', () => {
    const html = richHtml(String.raw`a $\omega_i$ b $$x^2$$ c`, katex);
    expect(html.startsWith('<p>a <span class="math"><span class="katex">')).toBe(true);
    expect(html).toContain('<span class="math-display"><span class="katex-display">');
    expect(html).toContain('<annotation encoding="application/x-tex">\\omega_i</annotation>');
    expect(html).toContain('<annotation encoding="application/x-tex">x^2</annotation>');
    expect(html.endsWith(' c</p>')).toBe(true);
  });

  it('math inside the text is not escaped twice, and a $ in a formula stays in it', () => {
    expect(parseRich('$$a$b$$ and $<$')).toEqual([
      [{ math: 'a$b', display: true }, ' and ', { math: '<', display: false }],
    ]);
    expect(richHtml('$<$', katex)).toContain('<annotation encoding="application/x-tex">&lt;</annotation>');
  });

  it('keeps an inline formula and the Chinese punctuation after it on one line', () => {
    expect(parseRich('当 $d$，而最慢的 $x$）。但有 $y$ 和')).toEqual([
      [
        '当 ',
        { tag: 'span', className: 'nobr', children: [{ math: 'd', display: false }, '，'] },
        '而最慢的 ',
        { tag: 'span', className: 'nobr', children: [{ math: 'x', display: false }, '）。'] },
        '但有 ',
        { math: 'y', display: false },
        ' 和',
      ],
    ]);
    // A formula that ends the paragraph with its punctuation, and display math (a block of its own), stay as they are.
    expect(parseRich('$a$。')).toEqual([
      [{ tag: 'span', className: 'nobr', children: [{ math: 'a', display: false }, '。'] }],
    ]);
    expect(parseRich('$$a$$。')).toEqual([[{ math: 'a', display: true }, '。']]);
    expect(richHtml('$a$，b', katex)).toMatch(/^<p><span class="nobr"><span class="math">.*<\/span>，<\/span>b<\/p>$/);
    // A long formula: only what follows its last top-level "=" joins the punctuation (the group must fit a line).
    const long = String.raw`\sin a \sin b + \cos a \cos b = \cos(b - a)`;
    expect(parseRich(`即 $${long}$。`)).toEqual([
      [
        '即 ',
        { math: String.raw`\sin a \sin b + \cos a \cos b = {}`, display: false },
        { tag: 'span', className: 'nobr', children: [{ math: String.raw`\cos(b - a)`, display: false }, '。'] },
      ],
    ]);
    // No "=" outside braces to split at: left as it is.
    const unsplittable = String.raw`{a + b + c + d + e + f + g + h + i + j + k = l}`;
    expect(parseRich(`$${unsplittable}$，`)).toEqual([[{ math: unsplittable, display: false }, '，']]);
  });
});

describe('citations in rich strings', () => {
  it('renders {cite:id} as a superscript link to the source in its chapter’s list, numbered by its place there', () => {
    expect(richHtml('the paper{cite:vaswani2017}, and RoFormer{cite:men2024}.', katex)).toBe(
      '<p>the paper<sup class="cite"><a href="#source-vaswani2017">[1]</a></sup>, and RoFormer<sup class="cite"><a href="#source-men2024">[2]</a></sup>.</p>',
    );
    expect(parseRich('a{cite:su-base}')).toEqual([
      ['a', { tag: 'sup', className: 'cite', children: [{ tag: 'a', href: '#source-su-base', children: ['[3]'] }] }],
    ]);
  });

  it('leaves a marker inside a formula to the formula, and in bold it stays a citation', () => {
    expect(parseRich('$\\{cite:x\\}$')).toEqual([[{ math: '\\{cite:x\\}', display: false }]]);
    expect(richHtml('**b{cite:roformer}**', katex)).toBe(
      '<p><strong>b<sup class="cite"><a href="#source-roformer">[1]</a></sup></strong></p>',
    );
  });

  it('refuses a marker that names no source', () => {
    expect(() => richHtml('x{cite:vaswani2071}', katex)).toThrow(/\{cite:vaswani2071\} names no source/);
  });
});
