// KaTeX's fonts as the built page serves them (docs/performance.md, "How the
// formulas' fonts are served"): the page's formulas, in both languages, are
// drawn from subsets of the fonts that really hold their characters (the two
// every formula uses inline in the page's stylesheet, the others fetched), the
// full fonts are never fetched for them, the subsets lay formulas out exactly as
// the full fonts do, a formula typeset later with a character outside the
// subsets still gets the full font, and KaTeX's MathML copy of each formula
// (for screen readers) stays in the accessibility tree with plain letters. Font files are read here with harfbuzzjs
// (their cmap and advances), apart from the build's code.
// Usage: node tests/e2e/katex-fonts.test.mjs (after a build of dist/site).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fontverter from 'fontverter';
import * as harfbuzz from 'harfbuzzjs';
import katex from 'katex';
import { launchChromium, traced } from './chromium.mjs';
import { assert, check, finish, firstPlotShown, inFreshPage, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const site = fileURLToPath(new URL('../../dist/site', import.meta.url));
if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const katexFonts = fileURLToPath(new URL('../../node_modules/katex/dist/fonts/', import.meta.url));

/** A font file's face: its cmap's code points and the advance of each (in font units), with units per em. */
async function readFont(bytes) {
  const face = new harfbuzz.Face(new harfbuzz.Blob(await fontverter.convert(Buffer.from(bytes), 'sfnt')));
  const font = new harfbuzz.Font(face);
  const codePoints = new Set(face.collectUnicodes());
  const advance = (point) => font.glyphHAdvance(font.nominalGlyph(point));
  return { codePoints, advance, unitsPerEm: face.upem };
}
// The font a served file was cut from: KaTeX_Main-Regular(.subset)-<hash>.woff2 -> KaTeX_Main-Regular.
const fontName = (url) => /(KaTeX_\w+?-[A-Za-z]+)[.-][^/]*\.woff2$/.exec(url)?.[1];
const isSubset = (url) => /\.subset-[^/]*\.woff2$/.test(url);
// A face written into the stylesheet (a data: URL): named by its family, weight and style, as KaTeX names its files.
const isInline = (url) => url.startsWith('data:');
const katexName = ({ family, weight, style }) =>
  `${family}-${['bold', '700'].includes(weight) ? 'Bold' : ''}${style === 'italic' ? 'Italic' : ''}`.replace(
    /-$/,
    '-Regular',
  );
const faceName = (face) => (isInline(face.url) ? katexName(face) : fontName(face.url));
/** The @font-face rules of a page's HTML whose font is a data: URL: { name, dataUrl }, read from the rule's text. */
function inlineFaces(html) {
  return [...html.matchAll(/@font-face\s*\{([^}]*)\}/g)].flatMap(([, rule]) => {
    const dataUrl = /url\(["']?(data:[^)"']+)/.exec(rule)?.[1];
    if (!dataUrl) return [];
    const property = (name) => new RegExp(`${name}:\\s*([^;]+)`).exec(rule)?.[1].trim().replace(/["']/g, '');
    const face = { family: property('font-family'), weight: property('font-weight'), style: property('font-style') };
    return [{ name: katexName(face), dataUrl }];
  });
}
const fullFonts = new Map();
const fullFont = async (name) => {
  if (!fullFonts.has(name)) fullFonts.set(name, await readFont(readFileSync(`${katexFonts}${name}.woff2`)));
  return fullFonts.get(name);
};

/** The code points of a CSS unicode-range (all of them when there is none), as a membership test. */
function rangeTest(range) {
  if (!range) return () => true;
  const runs = range.split(',').map((part) => {
    const [first, last = first] = part.trim().replace(/^U\+/i, '').split('-');
    if (first.includes('?')) return [parseInt(first.replace(/\?/g, '0'), 16), parseInt(first.replace(/\?/g, 'F'), 16)];
    return [parseInt(first, 16), parseInt(last, 16)];
  });
  return (point) => runs.some(([first, last]) => point >= first && point <= last);
}

// Every wait ends: a page that never settles fails the run instead of hanging it.
const watchdog = setTimeout(() => {
  console.log('FAIL - the checks did not finish within 8 minutes');
  console.log('KaTeX fonts: 0 passed, 1 failed');
  process.exit(1);
}, 8 * 60_000);
watchdog.unref();

const server = await serveStatic(site);
const browser = await launchChromium();

/** A cold load of the page in `locale`, scrolled to the end and back with every font loaded. */
async function loadedPage(locale, prepare = async () => {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  await prepare(context);
  const page = await watchedPage(context);
  await page.goto(`${server.url}sinusoidal.html`);
  await page.waitForFunction(
    () => ['posenc:first-plot', 'posenc:interactive'].every((name) => performance.getEntriesByName(name).length),
    null,
    { timeout: 60000 },
  );
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
      scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    scrollTo(0, 0);
    await Promise.race([document.fonts.ready, new Promise((resolve) => setTimeout(resolve, 20000))]);
  });
  return { context, page };
}

/** The @font-face rules of the page: family, weight, style, unicode-range, font-display and the file's URL. */
const fontFaces = (page) =>
  page.evaluate(() =>
    [...document.styleSheets].flatMap((sheet) =>
      [...sheet.cssRules]
        .filter((rule) => rule instanceof CSSFontFaceRule)
        .map((rule) => ({
          family: rule.style.getPropertyValue('font-family').replace(/["']/g, ''),
          weight: rule.style.getPropertyValue('font-weight'),
          style: rule.style.getPropertyValue('font-style'),
          range: rule.style.getPropertyValue('unicode-range'),
          display: rule.style.getPropertyValue('font-display'),
          // (A stylesheet inline in the page names its files from the page.)
          url: new URL(
            /url\(["']?([^"')]+)/.exec(rule.style.getPropertyValue('src'))[1],
            sheet.href ?? document.baseURI,
          ).href,
        })),
    ),
  );

/** Per KaTeX family, weight and style the text of the formulas (.katex) asks of it: { family, weight, style, text }. */
const formulaText = (page) =>
  page.evaluate(() => {
    const wanted = new Map();
    for (const root of document.querySelectorAll('.katex')) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const style = getComputedStyle(node.parentElement);
        for (const family of style.fontFamily.split(',').map((name) => name.trim().replace(/["']/g, ''))) {
          if (!family.startsWith('KaTeX_')) continue;
          const key = `${family}|${style.fontWeight}|${style.fontStyle}`;
          wanted.set(key, (wanted.get(key) ?? '') + node.data);
        }
      }
    }
    return [...wanted].map(([key, text]) => {
      const [family, weight, style] = key.split('|');
      return { family, weight, style, text };
    });
  });

const WEIGHTS = { normal: '400', bold: '700' };
const sameWeight = (a, b) => (WEIGHTS[a] ?? a) === (WEIGHTS[b] ?? b);

/**
 * Every character of the formulas that its KaTeX font has is covered only by
 * subset faces whose file holds its glyph; one the font lacks by no face (so
 * nothing is fetched for it). Returns how many characters and faces.
 */
async function checkCoverage(page) {
  const faces = (await fontFaces(page)).filter((face) => face.family.startsWith('KaTeX_'));
  assert(faces.length > 0, 'no KaTeX @font-face');
  for (const face of faces) assert(face.display === 'swap', `${face.url}: font-display ${face.display}`);
  // A family's first available font is its face holding U+0020, which the browser may fetch for the
  // line's metrics alone: a subset's, never a full font's (else that is fetched when a formula is laid
  // out before the inline subset is ready, as under load).
  const subsetOfSame = (full) => (face) =>
    face !== full && face.family === full.family && sameWeight(face.weight, full.weight) && face.style === full.style;
  for (const full of faces.filter((face) => !isInline(face.url) && !isSubset(face.url)))
    if (faces.some(subsetOfSame(full)))
      assert(!rangeTest(full.range)(0x20), `${full.url}: the full font's unicode-range holds the space`);
  const served = new Map();
  const servedFont = async (url) => {
    if (!served.has(url)) served.set(url, await readFont(await (await fetch(url)).arrayBuffer()));
    return served.get(url);
  };
  let characters = 0;
  const wanted = await formulaText(page);
  assert(
    wanted.some(({ family }) => family === 'KaTeX_Main'),
    'no formula text in KaTeX_Main',
  );
  for (const { family, weight, style, text } of wanted) {
    const candidates = faces.filter((face) => face.family === family && sameWeight(face.weight, weight));
    const matching = candidates.filter((face) => face.style === style);
    // (No face of that style: the browser takes the family's other style, as KaTeX_Math's italic for upright.)
    const ofFace = matching.length > 0 ? matching : candidates;
    assert(ofFace.length > 0, `no @font-face for ${family} ${weight} ${style}`);
    const names = new Set(ofFace.map(faceName));
    assert(names.size === 1, `${family} ${weight} ${style} is cut from ${[...names].join(', ')}`);
    const full = await fullFont([...names][0]);
    for (const point of new Set([...text].map((character) => character.codePointAt(0)))) {
      characters++;
      const covering = ofFace.filter((face) => rangeTest(face.range)(point));
      const what = `U+${point.toString(16).toUpperCase()} (${String.fromCodePoint(point)}) in ${family} ${weight} ${style}`;
      if (!full.codePoints.has(point)) {
        assert(
          covering.length === 0,
          `${what}: not in the font, yet ${covering.map((face) => face.url).join(', ')} would be fetched for it`,
        );
        continue;
      }
      assert(covering.length > 0, `${what}: no face covers it`);
      for (const face of covering) {
        const where = isInline(face.url) ? `the inline ${faceName(face)}` : face.url;
        const font = await servedFont(face.url);
        // An inline face is a subset when it lacks some of the full font's characters.
        const subset = isInline(face.url) ? font.codePoints.size < full.codePoints.size : isSubset(face.url);
        assert(subset, `${what}: served from the full font (${where})`);
        assert(font.codePoints.has(point), `${what}: ${where} has no glyph for it`);
      }
    }
  }
  return `${characters} characters in ${wanted.length} faces`;
}

const katexFontRequests = (page) => page.requests.filter((url) => /\/KaTeX_[^/]*\.woff2$/.test(url));

/** The layout box of every formula (.katex) of the page, in order. */
const formulaBoxes = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.katex')].map((node) => {
      const box = node.getBoundingClientRect();
      return [box.width, box.height];
    }),
  );

try {
  for (const locale of ['en-US', 'zh-CN']) {
    await check(
      `${locale}: every formula character is drawn from a subset that holds it; no full font is fetched`,
      async () => {
        const { context, page } = await loadedPage(locale);
        try {
          if (locale === 'zh-CN') await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
          const detail = await checkCoverage(page);
          const requested = katexFontRequests(page);
          const full = requested.filter((url) => !isSubset(url));
          assert(full.length === 0, `full fonts fetched: ${full.join(', ')}`);
          const inline = (await fontFaces(page)).filter((face) => isInline(face.url)).map(faceName);
          assert(
            requested.length + inline.length >= 2,
            `only ${requested.length} KaTeX fonts fetched, ${inline.length} inline`,
          );
          assert(page.problems.length === 0, page.problems.join('\n'));
          return `${detail}; inline ${inline.join(', ')}; fetched ${requested.map(fontName).join(', ')}`;
        } finally {
          await context.close();
        }
      },
    );
  }

  await check(
    'the formulas stay in the accessibility tree as MathML, laid out without a fallback font per letter',
    () =>
      inFreshPage(browser, async (page, context) => {
        const { events } = await traced(page, 'blink,fonts,disabled-by-default-fonts', async () => {
          await page.goto(`${server.url}sinusoidal.html`);
          await firstPlotShown(page, { timeout: 60000 });
        });
        // Each is a synchronous request to the browser for a font holding one character.
        const fallbacks = events.filter((event) => event.name === 'FontCache::FallbackFontForCharacter').length;
        // Once the later chapters' formulas, MathML only in the HTML (the browser's own math letters), are typeset.
        await page.waitForFunction(() => !document.querySelector('[data-i18n-mathml-only]'), null, { timeout: 15000 });
        const cdp = await context.newCDPSession(page);
        const { nodes } = await cdp.send('Accessibility.getFullAXTree');
        await cdp.detach();
        const formulas = nodes.filter((node) => node.role?.value === 'MathMLMath' && !node.ignored);
        const letters = nodes
          .filter((node) => node.role?.value === 'MathMLIdentifier' && !node.ignored)
          .flatMap((node) => (node.childIds ?? []).map((id) => nodes.find((other) => other.nodeId === id)?.name?.value))
          .filter(Boolean);
        const mathItalic = letters.filter((text) =>
          [...text].some((c) => c.codePointAt(0) >= 0x1d400 && c.codePointAt(0) <= 0x1d7ff),
        );
        assert(formulas.length >= 5, `${formulas.length} formulas in the accessibility tree`);
        assert(letters.length >= 10, `${letters.length} identifiers read out`);
        assert(
          mathItalic.length === 0,
          `identifiers read out as math-italic code points: ${mathItalic.slice(0, 5).join(' ')}`,
        );
        // Before plain letters: 115 in the first view (one per math-italic letter and size).
        assert(fallbacks <= 20, `${fallbacks} fallback-font lookups before the first plot`);
        return `${formulas.length} formulas, ${letters.length} identifiers (e.g. ${letters.slice(0, 4).join(' ')}), ${fallbacks} fallback lookups`;
      }),
  );

  await check(
    "the page's stylesheet holds the Main-Regular and Math-Italic subsets inline, and no other font; none is preloaded",
    async () => {
      const html = readFileSync(`${site}/sinusoidal.html`, 'utf8');
      assert(!/<link[^>]*rel="preload"[^>]*as="font"/.test(html), 'a font is preloaded');
      const inline = inlineFaces(html);
      const names = inline.map(({ name }) => name).sort();
      assert(
        JSON.stringify(names) === JSON.stringify(['KaTeX_Main-Regular', 'KaTeX_Math-Italic']),
        `inline faces: ${names.join(', ') || 'none'}`,
      );
      const sizes = [];
      for (const { name, dataUrl } of inline) {
        const font = await readFont(Buffer.from(dataUrl.split(',')[1], 'base64'));
        const full = await fullFont(name);
        const extra = [...font.codePoints].filter((point) => !full.codePoints.has(point));
        assert(extra.length === 0, `${name}: the inline face has characters the full font lacks`);
        assert(
          font.codePoints.size < full.codePoints.size / 2,
          `${name}: ${font.codePoints.size} characters, not a subset`,
        );
        sizes.push(`${name} ${font.codePoints.size} of ${full.codePoints.size} characters`);
      }
      return sizes.join(', ');
    },
  );

  await check('the subsets lay every formula out as the full fonts do (and a missing font would show)', async () => {
    const served = { full: 0, missing: 0 };
    const servedInline = { full: 0, missing: 0 };
    // Each subset, fetched or inline, replaced by its full font or by nothing: an inline one is
    // named by a URL of its own in the page's HTML (the full font's name), fetched as the others are.
    const withFonts = (how) => async (context) => {
      await context.route(/\.subset-[^/]*\.woff2$/, async (route) => {
        served[how]++;
        if (route.request().url().includes('/inline/')) servedInline[how]++;
        if (how === 'missing') return route.abort();
        const body = readFileSync(`${katexFonts}${fontName(route.request().url())}.woff2`);
        return route.fulfill({ body, contentType: 'font/woff2' });
      });
      await context.route(`${server.url}sinusoidal.html`, async (route) => {
        let html = await (await route.fetch()).text();
        for (const { name, dataUrl } of inlineFaces(html))
          html = html.replace(dataUrl, `./inline/${name}.subset-x.woff2`);
        return route.fulfill({ body: html, contentType: 'text/html' });
      });
    };
    const boxes = {};
    for (const [how, prepare] of [
      ['subset', undefined],
      ['full', withFonts('full')],
      ['missing', withFonts('missing')],
    ]) {
      const { context, page } = await loadedPage('en-US', prepare);
      boxes[how] = await formulaBoxes(page);
      await context.close();
    }
    assert(served.full >= 2 && served.missing >= 2, `fonts rerouted: ${JSON.stringify(served)}`);
    // Each inline face once (the page uses every one of them).
    const inline = inlineFaces(readFileSync(`${site}/sinusoidal.html`, 'utf8')).length;
    assert(
      servedInline.full === inline && servedInline.missing === inline,
      `inline faces rerouted: ${JSON.stringify(servedInline)}`,
    );
    assert(boxes.subset.length > 50, `only ${boxes.subset.length} formulas`);
    assert(
      boxes.full.length === boxes.subset.length,
      `${boxes.full.length} formulas with full fonts, ${boxes.subset.length}`,
    );
    const differing = (other) =>
      boxes.subset.filter(
        ([width, height], i) => Math.abs(width - other[i][0]) > 0.01 || Math.abs(height - other[i][1]) > 0.01,
      ).length;
    const changed = differing(boxes.full);
    assert(changed === 0, `${changed} of ${boxes.subset.length} formulas differ in size with the full fonts`);
    // The comparison sees fonts: without them, formulas change size.
    const withoutFonts = differing(boxes.missing);
    assert(withoutFonts > boxes.subset.length / 2, `only ${withoutFonts} formulas change size without the fonts`);
    return `${boxes.subset.length} formulas the same size (${withoutFonts} differ with no KaTeX font)`;
  });

  await check('a formula typeset at run time with a character outside the subset gets the full font', async () => {
    const { context, page } = await loadedPage('en-US');
    try {
      const subsetFace = (await fontFaces(page)).find(
        (face) => faceName(face) === 'KaTeX_Main-Regular' && (isInline(face.url) || isSubset(face.url)),
      );
      assert(subsetFace, 'the page has no Main-Regular subset');
      const subset = await readFont(await (await fetch(subsetFace.url)).arrayBuffer());
      const full = await fullFont('KaTeX_Main-Regular');
      // Letters and digits the full font has and the subset lacks, typeset by KaTeX as text.
      const outside = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@']
        .map((character) => character.codePointAt(0))
        .filter((point) => full.codePoints.has(point) && !subset.codePoints.has(point));
      assert(outside.length > 0, 'the Main-Regular subset holds every letter and digit');
      const candidates = outside.map((point) => ({
        character: String.fromCodePoint(point),
        html: katex.renderToString(`\\text{${String.fromCodePoint(point)}}`),
      }));
      const before = katexFontRequests(page).length;
      // Each candidate in a formula of its own; the fallback font's width beside it, to tell fonts apart.
      const measured = await page.evaluate(async (items) => {
        const box = document.createElement('div');
        box.style.cssText = 'position:fixed;top:0;left:0;font-size:20px;background:white;z-index:9';
        box.innerHTML = items
          .map(
            ({ character, html }) =>
              `<p><span class="math">${html}</span> <span class="fallback" style="font:1.21em 'Times New Roman',serif">${character}</span></p>`,
          )
          .join('');
        document.body.append(box);
        const widthOf = (node) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          return range.getBoundingClientRect().width;
        };
        const glyphs = () =>
          [...box.querySelectorAll('.katex-html .mord.text .mord')].map((node) => ({
            width: widthOf(node),
            fontSize: parseFloat(getComputedStyle(node).fontSize),
            family: getComputedStyle(node).fontFamily,
          }));
        glyphs();
        await Promise.race([document.fonts.ready, new Promise((resolve) => setTimeout(resolve, 20000))]);
        return {
          glyphs: glyphs(),
          fallback: [...box.querySelectorAll('.fallback')].map(widthOf),
          loaded: [...document.fonts].filter(
            (face) => face.family.replace(/["']/g, '') === 'KaTeX_Main' && face.status === 'loaded',
          ).length,
        };
      }, candidates);
      const fetched = katexFontRequests(page).slice(before);
      assert(
        fetched.some((url) => fontName(url) === 'KaTeX_Main-Regular' && !isSubset(url)),
        `the full KaTeX_Main-Regular was not fetched (after: ${fetched.join(', ') || 'nothing'})`,
      );
      assert(measured.glyphs.length === candidates.length, `${measured.glyphs.length} glyphs for ${candidates.length}`);
      let distinct = 0;
      candidates.forEach(({ character }, i) => {
        const { width, fontSize } = measured.glyphs[i];
        const expected = (full.advance(character.codePointAt(0)) / full.unitsPerEm) * fontSize;
        assert(
          Math.abs(width - expected) < 0.02,
          `${character}: ${width} px wide, the full font's advance is ${expected}`,
        );
        if (Math.abs(measured.fallback[i] - expected) > 0.1) distinct++;
      });
      // The widths say which font drew them only where the fallback font's differ.
      assert(distinct > 0, 'the fallback font has the same widths: the check cannot tell the fonts apart');
      return `${candidates.map(({ character }) => character).join('')} at the full font's advances (${distinct} unlike the fallback); ${fetched.map((url) => url.split('/').pop()).join(', ')} fetched`;
    } finally {
      await context.close();
    }
  });
} finally {
  await browser.close();
  await server.close();
}
finish('KaTeX fonts');
