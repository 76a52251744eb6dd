// KaTeX's fonts cut down, at build time, to the characters of the formulas the
// build typeset (every language): a KaTeX font of ~5–26 KB becomes a subset of
// ~1–8 KB. Each font used by those formulas is declared twice, as one family:
// the subset with a unicode-range of exactly the code points it contains, and
// the full file with a range of every other code point the font has. A browser
// downloads a face only for characters in its range (a character neither has,
// say Chinese in \text{}, goes to the fallback font as before without loading
// either), so the page's formulas load the subsets alone,
// and a formula typeset later at run time (a character the build never saw)
// still gets the full font, loaded then. Used by katexFontsPlugin
// (web/vite-rich-text.js) on KaTeX's CSS in a build; the dev server keeps the
// full fonts.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import fontverter from 'fontverter';
import * as harfbuzz from 'harfbuzzjs';
import subsetFont from 'subset-font';

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const decodeEntity = (whole, name) =>
  name[0] === '#'
    ? String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)))
    : (ENTITIES[name] ?? whole);

/**
 * The code points of the text in KaTeX's HTML output (`formulas`: strings, one
 * formula each): what it draws and its MathML (which the browser lays out
 * too, clipped), so that no character of the page falls outside the subsets.
 */
export function codePointsOf(formulas) {
  const points = new Set();
  for (const html of formulas) {
    const text = html.replace(/<[^>]*>/g, '').replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, decodeEntity);
    for (const character of text) points.add(character.codePointAt(0));
  }
  return points;
}

const hex = (point) => point.toString(16).toUpperCase();

/** A CSS unicode-range of the sorted code points `points`, runs as ranges. */
export function unicodeRange(points) {
  const parts = [];
  for (let i = 0; i < points.length;) {
    let j = i;
    while (j + 1 < points.length && points[j + 1] === points[j] + 1) j++;
    parts.push(j === i ? `U+${hex(points[i])}` : `U+${hex(points[i])}-${hex(points[j])}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The code points a font file (woff2, woff or sfnt) maps to glyphs, sorted. */
export async function fontCodePoints(bytes) {
  const sfnt = await fontverter.convert(bytes, 'sfnt');
  const face = new harfbuzz.Face(new harfbuzz.Blob(sfnt));
  return [...face.collectUnicodes()].sort((a, b) => a - b);
}

/**
 * The subset of one font for `points`: its woff2 bytes, the code points it
 * holds (those of `points` the font has) and the font's other code points
 * (`rest`), or null when it has none of `points`.
 * Hinting instructions are left out (1.8 KB of each file; they change how
 * glyphs are rasterised at small sizes on Windows, not their metrics).
 */
export async function subsetOf(bytes, points) {
  const all = await fontCodePoints(bytes);
  const kept = all.filter((point) => points.has(point));
  if (kept.length === 0) return null;
  const woff2 = await subsetFont(Buffer.from(bytes), String.fromCodePoint(...kept), {
    targetFormat: 'woff2',
    noHinting: true,
  });
  return { woff2, points: kept, rest: all.filter((point) => !points.has(point)) };
}

const FONT_FACE = /@font-face\s*\{([^}]*)\}/g;
const WOFF2_SOURCE = /src:\s*url\(\s*["']?([^"')]+\.woff2)["']?\s*\)\s*format\(\s*["']woff2["']\s*\)/;
/** The file name of a font's subset: the preload in the HTML is found by it. */
export const subsetFileName = (fontFile) => fontFile.replace(/\.woff2$/, '.subset.woff2');

/**
 * KaTeX's CSS (`css`, the file `cssFile`, woff2 sources only) with each
 * @font-face whose font has some of `points` split in two: the full file for
 * the font's code points outside its subset, and the subset (written to
 * `outDir`) for those inside. Faces with none of `points` stay as they are.
 */
export async function subsetKatexCss(css, { cssFile, points, outDir }) {
  await mkdir(outDir, { recursive: true });
  const faces = [...css.matchAll(FONT_FACE)];
  const rewritten = await Promise.all(
    faces.map(async ([whole, body]) => {
      const source = WOFF2_SOURCE.exec(body);
      if (!source) return whole;
      const fontFile = resolve(dirname(cssFile), source[1]);
      const subset = await subsetOf(await readFile(fontFile), points);
      if (!subset) return whole;
      const subsetFile = join(outDir, subsetFileName(fontFile.split(/[\\/]/).pop()));
      // Written whole, then renamed: a build reading it meanwhile never sees half a file.
      await writeFile(`${subsetFile}.${process.pid}`, subset.woff2);
      await rename(`${subsetFile}.${process.pid}`, subsetFile);
      const subsetUrl = relative(dirname(cssFile), subsetFile).split(/[\\/]/).join('/');
      const descriptors = body
        .replace(WOFF2_SOURCE, '')
        .replace(/;\s*;/g, ';')
        .replace(/^\s*;|;\s*$/g, '');
      const face = (url, range) => `@font-face{${descriptors};src:url(${url}) format("woff2");unicode-range:${range}}`;
      // A font wholly inside the subset needs no full face.
      return (
        (subset.rest.length > 0 ? face(source[1], unicodeRange(subset.rest)) : '') +
        face(subsetUrl, unicodeRange(subset.points))
      );
    }),
  );
  let index = 0;
  return css.replace(FONT_FACE, () => rewritten[index++]);
}
