// KaTeX's fonts cut down, at build time, to the characters the formulas the
// build typeset (every language) draw in each, a fraction of the font's size
// (docs/performance.md). Each font those formulas use is declared twice, as one
// family, weight and style: the subset with a unicode-range of exactly the
// code points it holds, and the full file with a range of every other code
// point the font has. A browser fetches a face only for characters in its
// range, so the page's formulas load the subsets alone, and a formula typeset
// later at run time with a character the build never saw still gets the full
// font, fetched then (a character neither holds, say Chinese in \text{}, goes
// to the fallback font as before, fetching neither). Used by katexFontsPlugin
// (web/build/vite-rich-text.js) on KaTeX's CSS in a build; the dev server keeps the
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

const decodeText = (text) => text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, decodeEntity);

/**
 * KaTeX's CSS rules that set a font (family, style or weight), each as
 * { selector, font, order, specificity }: the browser's choice of font for a formula's
 * text, worked out here from the same rules. A selector is a list of compound
 * selectors ({ tag, classes }) joined by ' ' or '>'; selectors with anything
 * else (pseudo-classes, attributes) are left out.
 */
function fontRules(css) {
  const rules = [];
  const withoutFaces = css.replace(/@font-face\s*\{[^}]*\}/g, '');
  for (const [, selectorList, body] of withoutFaces.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const font = fontDeclarations(body);
    if (!font) continue;
    for (const text of selectorList.split(',')) {
      const selector = parseSelector(text.trim());
      if (selector) rules.push({ selector, font, order: rules.length, specificity: specificityOf(selector) });
    }
  }
  return rules;
}

/** A rule's font declarations { families?, style?, weight? }, or null when it sets none. */
function fontDeclarations(body) {
  const font = {};
  for (const declaration of body.split(';')) {
    const colon = declaration.indexOf(':');
    const [name, value] = [declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim()];
    if (name === 'font-family') font.families = value;
    else if (name === 'font-style') font.style = value;
    else if (name === 'font-weight') font.weight = value;
    else if (name === 'font') {
      // [style] [weight] size[/line-height] families: the shorthand resets what it leaves out.
      const match = /^(.*?)\s*[\d.]+(?:em|rem|px|pt|%)(?:\/\S+)?\s+(.+)$/.exec(value);
      if (!match) continue;
      const words = match[1].split(/\s+/);
      font.families = match[2];
      font.style = words.find((word) => word === 'italic' || word === 'oblique') ?? 'normal';
      font.weight = words.find((word) => /^(bold|bolder|lighter|\d+)$/.test(word)) ?? 'normal';
    }
  }
  return Object.keys(font).length > 0 ? font : null;
}

function parseSelector(text) {
  if (/[:[#*~+]/.test(text)) return null;
  const parts = text.replace(/\s*>\s*/g, ' > ').split(/\s+/);
  const selector = [];
  let combinator = ' ';
  for (const part of parts) {
    if (part === '>') {
      combinator = '>';
      continue;
    }
    const match = /^([a-z][\w-]*)?((?:\.[\w-]+)*)$/i.exec(part);
    if (!match) return null;
    selector.push({ combinator, tag: match[1]?.toLowerCase(), classes: match[2].split('.').filter(Boolean) });
    combinator = ' ';
  }
  return selector;
}

const specificityOf = (selector) =>
  selector.reduce((sum, { tag, classes }) => sum + classes.length * 1000 + (tag ? 1 : 0), 0);

const matchesCompound = ({ tag, classes }, element) =>
  (!tag || tag === element.tag) && classes.every((name) => element.classes.has(name));

/** Whether `selector` (from its last compound, index `last`) matches `path[at]` (path: root to element). */
function matches(selector, last, path, at) {
  if (!matchesCompound(selector[last], path[at])) return false;
  if (last === 0) return true;
  if (selector[last].combinator === '>') return at > 0 && matches(selector, last - 1, path, at - 1);
  for (let ancestor = at - 1; ancestor >= 0; ancestor--) if (matches(selector, last - 1, path, ancestor)) return true;
  return false;
}

const WEIGHTS = { normal: 400, bold: 700 };
const weightOf = (value) => WEIGHTS[value] ?? Number(value);

/**
 * The characters KaTeX's formulas (`formulas`: the HTML of each) draw in each
 * font face of `css`: Map of the face's woff2 URL (as in its src) to code
 * points. Each text of a formula gets the family, style and weight the CSS
 * gives it; the face is the family's @font-face of that style (else its
 * other style, as a browser falls back) and the nearest weight. The MathML
 * copy is left out: browsers set it in their math font (font-family: math),
 * and a browser that did not would only fetch the full fonts for it.
 */
export function charactersByFont(css, formulas) {
  const rules = fontRules(css);
  const faces = [...css.matchAll(FONT_FACE)].flatMap(([, body]) => {
    const url = WOFF2_SOURCE.exec(body)?.[1];
    const descriptor = (name) => new RegExp(`(?:^|;)\\s*${name}\\s*:\\s*([^;]+)`).exec(body)?.[1].trim();
    if (!url) return [];
    const family = descriptor('font-family')?.replace(/["']/g, '');
    return [
      {
        url,
        family,
        style: descriptor('font-style') ?? 'normal',
        weight: weightOf(descriptor('font-weight') ?? 'normal'),
      },
    ];
  });
  const faceOf = (family, style, weight) => {
    const ofFamily = faces.filter((face) => face.family === family);
    const ofStyle = ofFamily.some((face) => face.style === style)
      ? ofFamily.filter((face) => face.style === style)
      : ofFamily;
    // The nearest weight, lighter first for 400 and below, heavier first above (close enough to CSS's order here).
    const distance = (face) => Math.abs(face.weight - weight) + (face.weight > weight === weight > 400 ? 0 : 0.5);
    return ofStyle.reduce((best, face) => (best === null || distance(face) < distance(best) ? face : best), null);
  };
  const found = new Map();
  const add = (text, font) => {
    for (const family of (font.families ?? '').split(',').map((name) => name.trim().replace(/["']/g, ''))) {
      if (!family.startsWith('KaTeX_')) continue;
      const face = faceOf(family, font.style ?? 'normal', weightOf(font.weight ?? 'normal'));
      if (!face) continue;
      if (!found.has(face.url)) found.set(face.url, new Set());
      for (const character of decodeText(text)) found.get(face.url).add(character.codePointAt(0));
    }
  };
  for (const html of formulas) {
    const path = [];
    let mathDepth = 0;
    for (const [, closing, tag, attributes, selfClosing, text] of html.matchAll(
      /<(\/?)([a-zA-Z][\w-]*)([^>]*?)(\/?)>|([^<]+)/g,
    )) {
      if (text !== undefined) {
        if (mathDepth === 0 && path.length > 0) add(text, path[path.length - 1].font);
        continue;
      }
      const name = tag.toLowerCase();
      if (closing) {
        if (name === 'math') mathDepth--;
        path.pop();
        continue;
      }
      if (selfClosing || name === 'br' || name === 'img') continue;
      if (name === 'math') mathDepth++;
      const classes = new Set((/\bclass="([^"]*)"/.exec(attributes)?.[1] ?? '').split(/\s+/).filter(Boolean));
      const element = { tag: name, classes };
      path.push(element);
      const applied = rules
        .filter((rule) => matches(rule.selector, rule.selector.length - 1, path, path.length - 1))
        .sort((a, b) => a.specificity - b.specificity || a.order - b.order);
      element.font = Object.assign(
        {},
        path.length > 1 ? path[path.length - 2].font : {},
        ...applied.map((rule) => rule.font),
      );
    }
  }
  return found;
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
 * The subset of one font for `points` (a Set): its woff2 bytes, the code
 * points it holds (those of `points` the font has) and the font's other code
 * points (`rest`), or null when it has none of `points`.
 * Hinting instructions are left out (they change how glyphs are rasterised
 * at small sizes on Windows, not their metrics, and weigh on every file).
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
 * @font-face that draws some characters of `formulas` (the HTML of each, see
 * charactersByFont) split in two: the full file for the font's code points
 * outside its subset, and the subset (written to `outDir`) for those inside.
 * `extra`: characters kept besides, by font file name ({ 'KaTeX_Main-Regular.woff2':
 * '0123456789' }: those a formula worded at run time may bring). Faces that
 * draw none stay as they are.
 */
export async function subsetKatexCss(css, { cssFile, formulas, outDir, extra = {} }) {
  await mkdir(outDir, { recursive: true });
  const drawn = charactersByFont(css, formulas);
  const faces = [...css.matchAll(FONT_FACE)];
  const rewritten = await Promise.all(
    faces.map(async ([whole, body]) => {
      const source = WOFF2_SOURCE.exec(body);
      if (!source) return whole;
      const fontFile = resolve(dirname(cssFile), source[1]);
      const fileName = fontFile.split(/[\\/]/).pop();
      if (!drawn.has(source[1])) return whole;
      const kept = [...(extra[fileName] ?? '')].map((character) => character.codePointAt(0));
      const bytes = await readFile(fontFile);
      const wanted = new Set([...drawn.get(source[1]), ...kept]);
      // The space too: a browser takes the face of a family whose unicode-range holds U+0020 as
      // its first available font (CSS Fonts 4) and may fetch it for the line's metrics alone,
      // as Chromium does when it lays a formula out before the subset is ready.
      if ((await fontCodePoints(bytes)).some((point) => wanted.has(point))) wanted.add(0x20);
      const subset = await subsetOf(bytes, wanted);
      if (!subset) return whole;
      const subsetFile = join(outDir, subsetFileName(fileName));
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
