// The Embed menu's image for platforms that run no script (Zhihu, WeChat,
// CSDN, Medium): under every plot of the built page, "Copy as image" (a PNG
// on the clipboard, downloaded where the clipboard is refused), "Download
// PNG" and "Download SVG". The files must be valid and self-contained: the
// PNG at 2× the picture, the SVG with no script, stylesheet, class, event
// attribute or external reference, and both with the caption (title and
// settings) and the link back to the live view, in English and Chinese.
// Usage: node tests/e2e/embed-image.test.mjs (after vite build of the page)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHAPTERS, PLOTS as REGISTRY_PLOTS } from '../../web/model/registry.js';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const artifacts = `${root}test-results/e2e`;
mkdirSync(artifacts, { recursive: true });
const server = await serveStatic(`${root}dist/site`);
const browser = await launchChromium();
const QUERY = '?dModel=64&length=128&p=12';
// Every plot of the page with a <posenc-*> element, and its heading's id.
const PLOTS = {
  heatmap: 'h-heatmap',
  waves: 'h-waves',
  ladder: 'h-ladder',
  row: 'h-row',
  sensitivity: 'h-sensitivity',
  rotation: 'h-rotation',
  'offset-dots': 'h-offset',
  similarity: 'h-similarity',
  compare: 'h-compare',
  precision: 'h-precision',
  'rope-scaling': 'h-rope-lab',
};

/** The chapter that holds `plot` (registry). */
const fileOf = (plot) => {
  const { chapter } = REGISTRY_PLOTS.find((entry) => entry.name === plot);
  return CHAPTERS.find((entry) => entry.name === chapter).file;
};

async function openPage(context, query, file = 'sinusoidal.html') {
  const page = await watchedPage(context);
  await page.goto(`${server.url}${file}${query}`);
  await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
  return page;
}

/** Scrolls to a plot, waits until drawn, opens its Embed panel. */
async function openPanel(page, plot) {
  await page.locator(`[data-plot="${plot}"]`).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (name) =>
      [...document.querySelectorAll(`[data-plot="${name}"] .posenc-surface`)].some(
        (surface) => surface.getBoundingClientRect().width > 0 && surface.querySelector('canvas, svg path, svg circle'),
      ),
    plot,
    { timeout: 15000 },
  );
  if ((await page.getAttribute(`[data-testid="embed-button-${plot}"]`, 'aria-expanded')) !== 'true')
    await page.click(`[data-testid="embed-button-${plot}"]`);
  // A click before the tools' code has loaded opens the panel once it has.
  await page.waitForSelector(`#embed-${plot} [data-testid="embed-image-svg"]`, { state: 'visible', timeout: 15000 });
}

async function downloadFrom(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }), page.click(selector)]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

/** Width and height from a PNG's IHDR, after checking its signature. */
function pngSize(bytes) {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  assert(signature.every((byte, k) => bytes[k] === byte) && bytes.toString('latin1', 12, 16) === 'IHDR', 'not a PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * What an SVG file holds, parsed in a blank page with no stylesheet: whether
 * it parses, its size, what would make it not self-contained, its text, and
 * how many pixels differ from its background once drawn as an image.
 */
async function readSvg(page, text) {
  return page.evaluate(async (text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const svg = doc.documentElement;
    const all = [...doc.querySelectorAll('*')];
    const problems = [];
    if (doc.querySelector('parsererror') || svg.localName !== 'svg') problems.push('does not parse as SVG');
    for (const element of all) {
      if (['script', 'style', 'foreignObject', 'iframe', 'a'].includes(element.localName))
        problems.push(`<${element.localName}>`);
      for (const attribute of element.attributes) {
        if (/^on/i.test(attribute.localName)) problems.push(`${attribute.name} on <${element.localName}>`);
        if (attribute.localName === 'class') problems.push(`class on <${element.localName}>`);
        if (['href', 'src'].includes(attribute.localName) && !/^(data:|#)/.test(attribute.value))
          problems.push(`${attribute.name}="${attribute.value.slice(0, 60)}"`);
        if (/url\((?!#|["']?data:)/.test(attribute.value)) problems.push(`external url() in ${attribute.name}`);
      }
    }
    const texts = [...doc.querySelectorAll('text')].map((node) => node.textContent);
    const width = Number(svg.getAttribute('width'));
    const height = Number(svg.getAttribute('height'));
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, width, height);
    let drawn = 0;
    for (let i = 0; i < data.length; i += 4)
      if (Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]) > 30) drawn++;
    return { problems, texts, width, height, drawn };
  }, text);
}

/** The caption's lines: title, settings, the live label, then the link (wrapped, monospace) joined back. */
function caption(texts, liveLabel) {
  const at = texts.lastIndexOf(liveLabel);
  assert(at >= 2, `no "${liveLabel}" line in ${JSON.stringify(texts.slice(-6))}`);
  return { title: texts[at - 2], settings: texts[at - 1], link: texts.slice(at + 1).join('') };
}

const blank = await browser.newPage();
await blank.goto(`${server.url}embed.html?plot=none`).catch(() => {});

try {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
  const page = await openPage(context, QUERY);
  // Each chapter's document, opened once, for the plots it holds.
  const chapterPages = { 'sinusoidal.html': page };
  const pageOf = async (plot) => (chapterPages[fileOf(plot)] ??= await openPage(context, QUERY, fileOf(plot)));

  await check('every plot with an element offers Copy as image, PNG and SVG', async () => {
    for (const plot of Object.keys(PLOTS)) {
      const page = await pageOf(plot);
      await openPanel(page, plot);
      const labels = await page.$$eval(`#embed-${plot} [data-testid^="embed-image-"]`, (buttons) =>
        buttons.map((button) => button.textContent),
      );
      assert(labels.join('|') === 'Copy as image|Download PNG|Download SVG', `${plot}: ${labels.join('|')}`);
    }
  });

  await check('the heatmap as SVG: self-contained, no script, styles inline, caption and link', async () => {
    await openPanel(page, 'heatmap');
    const { name, bytes } = await downloadFrom(page, '#embed-heatmap [data-testid="embed-image-svg"]');
    assert(name === 'posenc-heatmap.svg', name);
    const text = bytes.toString('utf8');
    writeFileSync(`${artifacts}/embed-image-heatmap.svg`, text);
    const svg = await readSvg(blank, text);
    assert(svg.problems.length === 0, svg.problems.join(', '));
    const { title, settings, link } = caption(svg.texts, 'Live and interactive:');
    const heading = await page.textContent('#h-heatmap [data-i18n]');
    assert(title === heading.trim(), `title "${title}", heading "${heading}"`);
    assert(
      settings === 'posenc · d-model 64 · length 128 · base 10000 · preset vaswani · position 12 · dimension 6',
      settings,
    );
    const url = new URL(link);
    assert(url.origin + url.pathname === `${server.url}sinusoidal.html` && url.hash === '#h-heatmap', link);
    for (const [key, value] of [
      ['dModel', '64'],
      ['length', '128'],
      ['p', '12'],
    ])
      assert(url.searchParams.get(key) === value, `${key} in ${link}`);
    // The table's pixels (a data: PNG) and the axes survive outside the page.
    assert(svg.drawn > 0.3 * svg.width * svg.height, `${svg.drawn} of ${svg.width}×${svg.height} pixels drawn`);
    return `${svg.width}×${svg.height}, ${(bytes.length / 1024).toFixed(0)} KB, ${svg.drawn} pixels drawn`;
  });

  await check('the heatmap as PNG: valid, at 2× the SVG', async () => {
    const svg = await readSvg(
      blank,
      (await downloadFrom(page, '#embed-heatmap [data-testid="embed-image-svg"]')).bytes.toString('utf8'),
    );
    const { name, bytes } = await downloadFrom(page, '#embed-heatmap [data-testid="embed-image-png"]');
    writeFileSync(`${artifacts}/embed-image-heatmap.png`, bytes);
    assert(name === 'posenc-heatmap.png', name);
    const size = pngSize(bytes);
    assert(
      size.width === 2 * svg.width && size.height === 2 * svg.height,
      `${JSON.stringify(size)} vs ${svg.width}×${svg.height}`,
    );
    const decoded = await blank.evaluate(async (base64) => {
      const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))]));
      return [bitmap.width, bitmap.height];
    }, bytes.toString('base64'));
    assert(decoded[0] === size.width && decoded[1] === size.height, `decoded ${decoded}`);
    return `${size.width}×${size.height}, ${(bytes.length / 1024).toFixed(0)} KB`;
  });

  await check('Copy as image: a PNG on the clipboard where allowed, else a download', async () => {
    const allowed = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await allowed.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.slice(0, -1) });
    const withClipboard = await openPage(allowed, QUERY);
    await openPanel(withClipboard, 'heatmap');
    await withClipboard.click('#embed-heatmap [data-testid="embed-image-copy"]');
    await withClipboard.waitForSelector('#embed-heatmap [data-testid="embed-status"][data-result]');
    const result = await withClipboard.getAttribute('#embed-heatmap [data-testid="embed-status"]', 'data-result');
    assert(result === 'copied', `status ${result}`);
    const pasted = await withClipboard.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const blob = await item.getType('image/png');
      const bitmap = await createImageBitmap(blob);
      return { types: item.types, width: bitmap.width, height: bitmap.height };
    });
    assert(pasted.types.includes('image/png') && pasted.width > 600, JSON.stringify(pasted));
    assert(withClipboard.problems.length === 0, withClipboard.problems.join('\n'));
    await allowed.close();

    // A browser that refuses (a denied permission): the PNG is saved instead, and the status says so.
    const refusing = await browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
    await refusing.addInitScript(() => {
      navigator.clipboard.write = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    const withoutClipboard = await openPage(refusing, QUERY);
    await openPanel(withoutClipboard, 'heatmap');
    const { name, bytes } = await downloadFrom(withoutClipboard, '#embed-heatmap [data-testid="embed-image-copy"]');
    const status = await withoutClipboard.textContent('#embed-heatmap [data-testid="embed-status"]');
    assert(name === 'posenc-heatmap.png' && status.includes(name), `${name}: ${status}`);
    assert(pngSize(bytes).width === pasted.width, `saved ${pngSize(bytes).width} px wide, pasted ${pasted.width}`);
    await refusing.close();
    return `pasted ${pasted.width}×${pasted.height}`;
  });

  await check('every plot as SVG: self-contained, drawn, with caption and link', async () => {
    const sizes = [];
    for (const [plot, heading] of Object.entries(PLOTS)) {
      const page = await pageOf(plot);
      await openPanel(page, plot);
      const { bytes } = await downloadFrom(page, `#embed-${plot} [data-testid="embed-image-svg"]`);
      const svg = await readSvg(blank, bytes.toString('utf8'));
      assert(svg.problems.length === 0, `${plot}: ${svg.problems.join(', ')}`);
      const { settings, link } = caption(svg.texts, 'Live and interactive:');
      // The RoPE plots name the RoPE settings they read.
      const expected = plot.startsWith('rope-') ? 'posenc · rope-preset llama3.1-8b' : 'posenc · d-model 64';
      assert(settings.startsWith(expected), `${plot}: ${settings}`);
      assert(new URL(link).hash === `#${heading}`, `${plot}: ${link}`);
      assert(new URL(link).pathname.endsWith(`/${fileOf(plot)}`), `${plot}: ${link} is not its chapter`);
      assert(svg.drawn > 0.02 * svg.width * svg.height, `${plot}: ${svg.drawn} pixels drawn`);
      sizes.push(`${plot} ${(bytes.length / 1024).toFixed(0)} KB`);
    }
    for (const chapterPage of Object.values(chapterPages))
      assert(chapterPage.problems.length === 0, chapterPage.problems.join('\n'));
    return sizes.join(', ');
  });

  await check('in Chinese: the menu and the caption', async () => {
    const zh = await browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
    await zh.addInitScript(() => localStorage.setItem('posenc.language', 'zh'));
    const page = await openPage(zh, QUERY);
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await openPanel(page, 'offset-dots');
    const labels = await page.$$eval('#embed-offset-dots [data-testid^="embed-image-"]', (buttons) =>
      buttons.map((button) => button.textContent),
    );
    assert(labels.join('|') === '复制为图片|下载 PNG|下载 SVG', JSON.stringify(labels));
    const { bytes } = await downloadFrom(page, '#embed-offset-dots [data-testid="embed-image-svg"]');
    const svg = await readSvg(blank, bytes.toString('utf8'));
    const { title } = caption(svg.texts, '可交互的在线版本：');
    assert(
      title === (await page.textContent('#h-offset [data-i18n]')).trim() && /[\u4e00-\u9fff]/.test(title),
      JSON.stringify(title),
    );
    assert(page.problems.length === 0, page.problems.join('\n'));
    await zh.close();
  });
} finally {
  await browser.close();
  await server.close();
}
finish('embed-image');
