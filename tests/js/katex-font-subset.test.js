// KaTeX's fonts cut down at build time (web/katex-font-subset.js): which
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
import { codePointsOf, subsetKatexCss, subsetOf, unicodeRange } from '../../web/katex-font-subset.js';

const fonts = fileURLToPath(new URL('../../node_modules/katex/dist/fonts/', import.meta.url));
const cmap = async (bytes) =>
  new Set(new harfbuzz.Face(new harfbuzz.Blob(await fontverter.convert(Buffer.from(bytes), 'sfnt'))).collectUnicodes());
const points = (text) => new Set([...text].map((character) => character.codePointAt(0)));

describe('KaTeX font subsets', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'posenc-subset-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('reads the characters of a formula from its HTML, entities decoded, tags left out', () => {
    expect(codePointsOf(['<span class="a">x&lt;y&amp;&#x27;&#39;&quot;&gt;</span><b>−</b>'])).toEqual(
      points(`x<y&'">−`),
    );
    const html = katex.renderToString('\\alpha+\\text{Q}');
    const found = codePointsOf([html]);
    for (const character of 'αQ+') expect(found.has(character.codePointAt(0))).toBe(true);
    expect(found.has('<'.codePointAt(0))).toBe(false);
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
      '.a{color:red}@font-face{font-display:swap;font-family:KaTeX_Main;font-style:normal;font-weight:400;src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2")}' +
      '@font-face{font-display:swap;font-family:KaTeX_Size4;font-style:normal;font-weight:400;src:url(fonts/KaTeX_Size4-Regular.woff2) format("woff2")}';
    const out = await subsetKatexCss(css, { cssFile, points: points('ab'), outDir: scratch });
    const faces = [...out.matchAll(/@font-face\{([^}]*)\}/g)].map((m) => m[1]);
    expect(out.startsWith('.a{color:red}')).toBe(true);
    expect(faces).toHaveLength(3);
    const subsetUrl = /src:url\(([^)]+)\)/.exec(faces[1])[1];
    expect(faces[1]).toContain('font-family:KaTeX_Main;font-style:normal;font-weight:400');
    expect(faces[1]).toContain('font-display:swap');
    expect(faces[1].endsWith('unicode-range:U+61-62')).toBe(true);
    expect([...(await cmap(readFileSync(join(fonts, '..', subsetUrl))))].sort()).toEqual([0x61, 0x62]);
    expect(faces[0]).toContain('src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2");unicode-range:U+20-5F,U+');
    expect(faces[0]).toContain(',U+63-');
    // Size4 (large delimiters) has neither: it stays as it was.
    expect(faces[2]).toBe(/@font-face\{([^}]*KaTeX_Size4[^}]*)\}/.exec(css)[1]);
    const none = await subsetKatexCss(css, { cssFile, points: points('中'), outDir: scratch });
    expect(none).toBe(css);
  });
});
