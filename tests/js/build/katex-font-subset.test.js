// KaTeX's fonts cut down at build time (web/build/katex-font-subset.js): which
// characters a formula's HTML holds, the unicode-ranges written, and the
// split of one @font-face into the full font and its subset. The fonts are
// read back here with harfbuzzjs directly.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fontverter from 'fontverter';
import * as harfbuzz from 'harfbuzzjs';
import katex from 'katex';
import { afterAll, describe, expect, it } from 'vitest';
import { charactersByFont, subsetKatexCss, subsetOf, unicodeRange } from '../../../web/build/katex-font-subset.js';

const fonts = fileURLToPath(new URL('../../../node_modules/katex/dist/fonts/', import.meta.url));
const cmap = async (bytes) =>
  new Set(new harfbuzz.Face(new harfbuzz.Blob(await fontverter.convert(Buffer.from(bytes), 'sfnt'))).collectUnicodes());
const points = (text) => new Set([...text].map((character) => character.codePointAt(0)));

describe('KaTeX font subsets', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'posenc-subset-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("finds the font each character of a formula is drawn in, from KaTeX's CSS, its MathML copy left out", () => {
    const css = readFileSync(`${fonts}../katex.min.css`, 'utf8');
    const html = [
      katex.renderToString(String.raw`\alpha+x\text{Q<\&}\sum_i`),
      katex.renderToString(String.raw`\left(\frac{a}{b}\right)\mathbf{v}`, { displayMode: true }),
    ];
    const found = Object.fromEntries(
      [...charactersByFont(css, html)].map(([url, points]) => [
        url,
        String.fromCodePoint(...[...points].sort((a, b) => a - b)),
      ]),
    );
    expect(found).toEqual({
      'fonts/KaTeX_Math-Italic.woff2': 'abixα', // \mathnormal: letters in math
      'fonts/KaTeX_Main-Regular.woff2': '&+<Q\u200b', // \text, operators, KaTeX's zero-width spaces; x only in the MathML
      'fonts/KaTeX_Size1-Regular.woff2': '∑', // an inline \sum
      'fonts/KaTeX_Size2-Regular.woff2': '()', // \left( around a display fraction
      'fonts/KaTeX_Main-Bold.woff2': 'v', // \mathbf
    });
  });

  it('writes sorted code points as a unicode-range of runs', () => {
    expect(unicodeRange([0x20, 0x41, 0x42, 0x43, 0x61, 0x3b1, 0x10ffff])).toBe('U+20,U+41-43,U+61,U+3B1,U+10FFFF');
    expect(unicodeRange([])).toBe('');
  });

  it('keeps exactly the wanted characters the font has, with their advances', async () => {
    const full = readFileSync(`${fonts}KaTeX_Main-Regular.woff2`);
    const subset = await subsetOf(full, points('a=b中'));
    expect(subset.points).toEqual([...'=ab'].map((c) => c.codePointAt(0)));
    expect([...(await cmap(subset.woff2))].sort((a, b) => a - b)).toEqual(subset.points);
    const fullPoints = await cmap(full);
    expect(subset.rest.length).toBe(fullPoints.size - 3);
    expect(subset.rest.some((point) => subset.points.includes(point))).toBe(false);
    expect(subset.woff2.length).toBeLessThan(full.length / 4);
    const advances = async (bytes) => {
      const font = new harfbuzz.Font(
        new harfbuzz.Face(new harfbuzz.Blob(await fontverter.convert(Buffer.from(bytes), 'sfnt'))),
      );
      return [...'a=b'].map((c) => font.glyphHAdvance(font.nominalGlyph(c.codePointAt(0))));
    };
    expect(await advances(subset.woff2)).toEqual(await advances(full));
    expect(await subsetOf(full, points('中文'))).toBe(null);
  });

  it('splits a used face into the full font (the other characters) and the subset; leaves unused faces', async () => {
    const cssFile = `${fonts}../katex.min.css`;
    const css =
      '.katex{font:normal 1.21em KaTeX_Main,Times New Roman,serif}@font-face{font-display:swap;font-family:KaTeX_Main;font-style:normal;font-weight:400;src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2")}' +
      '@font-face{font-display:swap;font-family:KaTeX_Size4;font-style:normal;font-weight:400;src:url(fonts/KaTeX_Size4-Regular.woff2) format("woff2")}';
    const formulas = [katex.renderToString(String.raw`\text{ab}`)];
    const out = await subsetKatexCss(css, {
      cssFile,
      formulas,
      outDir: scratch,
      extra: { 'KaTeX_Main-Regular.woff2': '7' },
    });
    const faces = [...out.matchAll(/@font-face\{([^}]*)\}/g)].map((m) => m[1]);
    expect(out.startsWith('.katex{font:normal 1.21em KaTeX_Main,Times New Roman,serif}')).toBe(true);
    expect(faces).toHaveLength(3);
    const subsetUrl = /src:url\(([^)]+)\)/.exec(faces[1])[1];
    expect(faces[1]).toContain('font-family:KaTeX_Main;font-style:normal;font-weight:400');
    expect(faces[1]).toContain('font-display:swap');
    // The space besides (see the next test).
    expect(faces[1].endsWith('unicode-range:U+20,U+37,U+61-62')).toBe(true);
    expect([...(await cmap(readFileSync(join(fonts, '..', subsetUrl))))].sort()).toEqual([0x20, 0x37, 0x61, 0x62]);
    // The full font keeps every other character it has: its range, read back, is its cmap less the subset's.
    expect(faces[0]).toContain('src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2");unicode-range:');
    const fullRange = new Set(
      /unicode-range:(.*)$/
        .exec(faces[0])[1]
        .split(',')
        .flatMap((run) => {
          const [first, last = first] = run
            .replace('U+', '')
            .split('-')
            .map((hex) => parseInt(hex, 16));
          return Array.from({ length: last - first + 1 }, (_, i) => first + i);
        }),
    );
    const expected = [...(await cmap(readFileSync(`${fonts}KaTeX_Main-Regular.woff2`)))].filter(
      (point) => ![0x20, 0x37, 0x61, 0x62].includes(point),
    );
    expect([...fullRange].sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    // Size4 (large delimiters) has neither: it stays as it was.
    expect(faces[2]).toBe(/@font-face\{([^}]*KaTeX_Size4[^}]*)\}/.exec(css)[1]);
    const none = await subsetKatexCss(css, {
      cssFile,
      formulas: [katex.renderToString('\\text{中}')],
      outDir: scratch,
    });
    expect(none).toBe(css);
  });

  it('keeps the space in every subset, so that no full font is the first available font of its family', async () => {
    // A browser takes the face whose unicode-range holds U+0020 as a family's first available font and may
    // fetch it for the line's metrics alone: with the space in the full font's range, a formula without
    // one still fetched the full font whenever it was laid out before the subset was ready.
    const cssFile = `${fonts}../katex.min.css`;
    const css = readFileSync(cssFile, 'utf8');
    const formulas = [
      katex.renderToString(String.raw`\sin(p\cdot w_i)`),
      katex.renderToString('x^2', { displayMode: true }),
    ];
    const out = await subsetKatexCss(css, { cssFile, formulas, outDir: scratch });
    const faces = [...out.matchAll(/@font-face\{([^}]*)\}/g)].map((m) => m[1]);
    const ranges = (subset) =>
      faces
        .filter((face) => /\.subset\.woff2/.test(face) === subset && face.includes('unicode-range:'))
        .map((face) => /unicode-range:(.*)$/.exec(face)[1]);
    const holdsSpace = (range) => range.split(',').some((run) => /^U\+20(-|$)/.test(run));
    expect(ranges(true).length).toBeGreaterThanOrEqual(2);
    for (const range of ranges(true)) expect(holdsSpace(range), range).toBe(true);
    for (const range of ranges(false)) expect(holdsSpace(range), range).toBe(false);
  });
});
