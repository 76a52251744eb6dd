// A plot of the page as a file: one standalone SVG (each canvas layer
// embedded as a PNG data URL under its svg overlay, theme colours resolved to
// plain values, panel titles, keys and notes written as svg text where the
// page shows them) and a PNG rasterised from that SVG. The plots stay as
// they are; everything is read from the DOM they drew.

const SVG_NS = 'http://www.w3.org/2000/svg';
const PAD = 8;
// The HTML parts of a plot worth keeping in its picture (readouts only echo the pointer).
const TEXT_PARTS = '.posenc-panel-title, .posenc-key li, .posenc-caption, .posenc-notes p';

function node(name, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (parent) parent.append(element);
  return element;
}

const transparent = (colour) => colour === 'transparent' || /rgba\(.*,\s*0\)$/.test(colour);

/**
 * A copy of an overlay svg whose var(--posenc-*) styles are replaced by the
 * computed colours, so the file looks the same outside the page (and in
 * editors that know no CSS variables). currentColor follows the root's colour.
 */
function resolvedCopy(svg, inline) {
  const copy = svg.cloneNode(true);
  const originals = [svg, ...svg.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  originals.forEach((original, k) => {
    if (inline) {
      inlineStyle(original, copies[k]);
      return;
    }
    if (!(original.getAttribute('style') ?? '').includes('var(')) return;
    const computed = getComputedStyle(original);
    for (const property of [...original.style])
      copies[k].style.setProperty(property, computed.getPropertyValue(property));
  });
  if (!inline) copy.removeAttribute('style');
  copy.setAttribute('overflow', 'visible');
  copy.style.color = getComputedStyle(svg).color;
  return copy;
}

// What an overlay's stylesheet rules decide, written onto each element of an
// inline copy: editors that strip <style> and classes (WeChat's) keep these.
const PRESENTATION = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
];

/** Gives `copy` the computed presentation of `original` as its style attribute, without classes. */
function inlineStyle(original, copy) {
  const computed = getComputedStyle(original);
  if (computed.display === 'none' || computed.visibility === 'hidden') {
    copy.setAttribute('display', 'none');
  }
  copy.setAttribute('style', PRESENTATION.map((name) => `${name}:${computed.getPropertyValue(name)}`).join(';'));
  copy.removeAttribute('class');
}

/** The text of an element line by line, as laid out: [{ text, left, top, bottom }] in client coordinates. */
function textLines(element) {
  const lines = [];
  const range = document.createRange();
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    for (let i = 0; i < text.data.length; i++) {
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const box = range.getClientRects()[0];
      if (!box) continue;
      let line = lines.at(-1);
      if (!line || Math.abs(box.top - line.top) > box.height / 2) {
        line = { text: '', left: null, top: box.top, bottom: box.bottom };
        lines.push(line);
      }
      if (line.left === null && text.data[i].trim() !== '') line.left = box.left;
      line.text += text.data[i];
    }
  }
  return lines
    .map((line) => ({ ...line, text: line.text.replace(/\s+/g, ' ').trim() }))
    .filter((line) => line.text !== '' && line.left !== null);
}

/** A key swatch (a span with a coloured top border or background) as an svg line or rectangle. */
function drawSwatch(parent, swatch, place) {
  const box = swatch.getBoundingClientRect();
  const style = getComputedStyle(swatch);
  const [x, y] = place(box.left, box.top);
  const border = parseFloat(style.borderTopWidth) || 0;
  if (border > 0) {
    const dash = { dashed: '6 3', dotted: '2 2' }[style.borderTopStyle];
    node(
      'line',
      {
        x1: x,
        x2: x + box.width,
        y1: y + border / 2,
        y2: y + border / 2,
        stroke: style.borderTopColor,
        'stroke-width': border,
        ...(dash ? { 'stroke-dasharray': dash } : {}),
      },
      parent,
    );
  }
  if (!transparent(style.backgroundColor))
    node(
      'rect',
      { x, y: y + border, width: box.width, height: box.height - border, fill: style.backgroundColor },
      parent,
    );
}

/**
 * The plot inside `element` as SVG text, or null when it has not been drawn.
 * inline: every overlay element carries its computed style and no class.
 * @returns {{ svg: string, width: number, height: number } | null}
 */
export function plotSvg(element, { inline = false } = {}) {
  const surfaces = [...element.querySelectorAll('.posenc-surface')].filter(
    (surface) => surface.getBoundingClientRect().width > 0,
  );
  if (surfaces.length === 0) return null;
  const parts = [...element.querySelectorAll(TEXT_PARTS)].filter(
    (part) => !part.closest('.posenc-surface') && part.getClientRects().length > 0 && part.textContent.trim() !== '',
  );
  // The picture spans what is drawn: the surfaces and the text kept (not the readout below).
  const boxes = [...surfaces, ...parts].map((node) => node.getBoundingClientRect());
  const left = Math.min(...boxes.map((box) => box.left));
  const top = Math.min(...boxes.map((box) => box.top));
  const width = Math.ceil(Math.max(...boxes.map((box) => box.right)) - left) + 2 * PAD;
  const height = Math.ceil(Math.max(...boxes.map((box) => box.bottom)) - top) + 2 * PAD;
  const place = (x, y) => [x - left + PAD, y - top + PAD];
  const page = getComputedStyle(document.body);

  // XMLSerializer writes the svg namespace declaration itself.
  const root = node('svg', { width, height, viewBox: `0 0 ${width} ${height}` });
  root.setAttribute('font-family', page.fontFamily);
  root.style.color = page.color;
  node('rect', { width, height, fill: transparent(page.backgroundColor) ? '#ffffff' : page.backgroundColor }, root);

  for (const surface of surfaces) {
    const box = surface.getBoundingClientRect();
    const [x, y] = place(box.left, box.top);
    const group = node('g', { transform: `translate(${x},${y})` }, root);
    for (const canvas of surface.querySelectorAll('canvas')) {
      if (canvas.width === 0 || canvas.height === 0) continue;
      const area = canvas.getBoundingClientRect();
      node(
        'image',
        {
          href: canvas.toDataURL('image/png'),
          x: area.left - box.left,
          y: area.top - box.top,
          width: area.width,
          height: area.height,
          preserveAspectRatio: 'none',
          style: 'image-rendering: pixelated',
        },
        group,
      );
    }
    for (const overlay of surface.querySelectorAll(':scope > svg')) group.append(resolvedCopy(overlay, inline));
  }

  for (const part of parts) {
    const style = getComputedStyle(part);
    for (const swatch of part.querySelectorAll('.posenc-swatch')) drawSwatch(root, swatch, place);
    for (const line of textLines(part)) {
      const [x, y] = place(line.left, line.top);
      // The baseline sits about a fifth of the line box above its bottom.
      const text = node(
        'text',
        {
          x,
          y: y + (line.bottom - line.top) * 0.78,
          fill: style.color,
          'font-size': style.fontSize,
          'font-weight': style.fontWeight,
        },
        root,
      );
      text.textContent = line.text;
    }
  }
  return { svg: new XMLSerializer().serializeToString(root), width, height };
}

/**
 * A PNG of SVG text, `scale` pixels per CSS pixel. The SVG is loaded from a
 * data: URL (the page's CSP allows data: images, not blob: ones).
 * @returns {Promise<Blob>}
 */
export async function svgToPng({ svg, width, height }, scale = 2) {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the PNG could not be encoded'))), 'image/png'),
  );
}

// Caption lines under a captioned picture (CSS pixels).
const CAPTION_SIZE = 13;
const CAPTION_LINE = 18;

/** Splits text into lines of at most `width` px at `size` px (CJK characters count 1 em, others about 0.56). */
function wrap(text, width, size, breakAnywhere = false) {
  const lines = [];
  let line = '';
  let lineWidth = 0;
  const advance = (char) => size * (/[\u2e80-\uffff]/.test(char) ? 1 : 0.56);
  // Words (with their trailing space) stay whole unless one alone is too wide (a URL).
  const pieces = breakAnywhere ? [...text] : (text.match(/\S+\s*/g) ?? []);
  for (const piece of pieces) {
    const pieceWidth = [...piece].reduce((sum, char) => sum + advance(char), 0);
    if (line && lineWidth + pieceWidth > width) {
      lines.push(line.trimEnd());
      line = '';
      lineWidth = 0;
    }
    if (pieceWidth > width) {
      for (const part of wrap(piece, width, size, true)) lines.push(part);
      continue;
    }
    line += piece;
    lineWidth += pieceWidth;
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

/**
 * The plot inside `element` with a caption under it, as one self-contained
 * SVG for platforms that take images only: no script, no class or stylesheet
 * (styles inline), no external reference (the canvas layers are data: URLs),
 * and the link back to the live view written out as text (such platforms drop
 * links). caption: lines of text; link: a URL. Null when not drawn.
 * @returns {{ svg: string, width: number, height: number } | null}
 */
export function captionedSvg(element, { caption, link }) {
  const picture = plotSvg(element, { inline: true });
  if (!picture) return null;
  const plot = new DOMParser().parseFromString(picture.svg, 'image/svg+xml').documentElement;
  const page = getComputedStyle(document.body);
  const width = Math.max(picture.width, 360);
  const textWidth = width - 2 * PAD;
  const lines = [
    ...caption.flatMap((text) => wrap(text, textWidth, CAPTION_SIZE).map((line) => ({ line, mono: false }))),
    ...wrap(link, textWidth, CAPTION_SIZE, true).map((line) => ({ line, mono: true })),
  ];
  const height = picture.height + lines.length * CAPTION_LINE + PAD;
  const root = node('svg', { width, height, viewBox: `0 0 ${width} ${height}` });
  const background = plot.querySelector('rect')?.getAttribute('fill') ?? '#ffffff';
  node('rect', { width, height, fill: background }, root);
  plot.setAttribute('x', 0);
  plot.setAttribute('y', 0);
  root.append(document.importNode(plot, true));
  lines.forEach(({ line, mono }, k) => {
    const text = node(
      'text',
      {
        x: PAD,
        y: picture.height + (k + 0.75) * CAPTION_LINE,
        fill: page.color,
        'font-size': CAPTION_SIZE,
        'font-family': mono ? 'ui-monospace, Menlo, Consolas, monospace' : page.fontFamily,
      },
      root,
    );
    text.textContent = line;
  });
  return { svg: new XMLSerializer().serializeToString(root), width, height };
}
