// The Sources section a chapter ends with (web/build/sources-markup.mjs): one
// numbered entry per source of the chapter, in the list's order, each the
// target of the text's citations and a link to the source; the heading worded
// in both languages; the text escaped.
import { describe, expect, it } from 'vitest';
import { sourcesSection } from '../../../web/build/sources-markup.mjs';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { SOURCES, SOURCE_CHAPTERS } from '../../../web/model/sources.js';

const ESCAPED = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe('sourcesSection', () => {
  for (const chapter of SOURCE_CHAPTERS)
    it(`lists the sources of ${chapter} in order, each with its anchor, link, authors, year and title`, () => {
      const html = sourcesSection(chapter).join('\n');
      const entries = [...html.matchAll(/<li id="source-([^"]+)">(.*?)<\/li>/g)];
      const expected = SOURCES.filter((s) => s.chapter === chapter);
      expect(entries.map((m) => m[1])).toEqual(expected.map((s) => s.id));
      entries.forEach(([, , body], index) => {
        const { href, authors, year, title } = expected[index];
        expect(body).toBe(
          `${ESCAPED(authors)}${year === null ? '' : ` (${year})`}. <a href="${href}" rel="noopener"><cite>${ESCAPED(title)}</cite></a>`,
        );
      });
      expect(html).toContain(`<h2 id="h-sources-${chapter}" data-i18n="sources.title"></h2>`);
      expect(html.match(/<ol class="sources-list">/g)).toHaveLength(1);
    });

  it('writes the Chinese titles as they are, and the heading has words in both languages', () => {
    expect(sourcesSection('rope').join('\n')).toContain('<cite>Transformer升级之路：18、RoPE的底数选择原则</cite>');
    expect(en['sources.title']).toBe('Sources');
    expect(zh['sources.title']).toBe('参考资料');
  });

  it('refuses a chapter without a list, naming the function and the parameter', () => {
    expect(() => sourcesSection('attention')).toThrow(RangeError);
    expect(() => sourcesSection('attention')).toThrow(
      /^sourcesSection: chapter must be one of sinusoidal, implementations, rope/,
    );
    expect(() => sourcesSection(undefined)).toThrow(TypeError);
    expect(() => sourcesSection(undefined)).toThrow(/^sourcesSection: chapter must be a string/);
  });
});
