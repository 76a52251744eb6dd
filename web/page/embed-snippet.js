// "Embed" under each plot of the page that has a <posenc-*> element: a panel
// with two snippets for the current settings, a script tag + element (no
// build step) and an iframe of embed.html, each with a Copy button
// (navigator.clipboard; where that is refused, the text is selected in its
// read-only field for a manual copy, and the status line says so), and the
// plot as an image for platforms that run no script: a PNG at 2× copied to
// the clipboard (or downloaded where that is refused) and PNG / SVG files,
// each with a caption (the settings) and the link back to this view.
// Snippets are built from the page state only (validated numbers and enum
// names), and attribute values are escaped all the same.
import { version } from '../../package.json';
import { ATTRIBUTE_OF } from '../elements/attributes.js';
import { TAG_OF_PLOT } from '../elements/tags.js';
import { PARAM_OF } from '../embed/params.js';
import { download } from './exports.js';
import { translator } from './i18n.js';
import { captionedSvg, svgToPng } from './plot-image.js';
import { toQuery } from './state.js';

/**
 * Where the script snippet loads the elements from: the published package on
 * a CDN unless the site was built with VITE_POSENC_ELEMENTS_URL.
 */
export const ELEMENTS_URL =
  import.meta.env?.VITE_POSENC_ELEMENTS_URL ||
  `https://cdn.jsdelivr.net/npm/posenc@${version}/dist/elements/posenc-elements.js`;

// Page state keys in the order the snippets list them.
const ORDER = ['dModel', 'length', 'preset', 'layout', 'exponent', 'base', 'position', 'offset', 'dimension', 'versus'];
const ENCODING = ['dModel', 'length', 'preset', 'layout', 'exponent', 'base'];
// A section's dependencies on computed arrays stand for the state they are computed from.
const EXPANDS = { table: ENCODING, similarity: ENCODING, versus: ['dModel', 'length', 'base', 'versus'] };

const STRINGS = {
  en: {
    button: 'Embed',
    buttonLabel: (title) => `Embed this plot (${title}) in another page`,
    script: 'Script tag + element (any page that allows scripts; no build step)',
    iframe: 'iframe (for sites that only allow iframes)',
    copy: 'Copy',
    copyLabel: (what) => `Copy the ${what} snippet`,
    copied: 'Copied to the clipboard.',
    manual: 'Could not copy automatically: the snippet is selected, press Ctrl+C (⌘C on a Mac).',
  },
  zh: {
    button: '嵌入',
    buttonLabel: (title) => `把此图（${title}）嵌入其他网页`,
    script: '脚本标签与元素（任何允许脚本的网页；无需构建）',
    iframe: 'iframe（只允许 iframe 的网站）',
    copy: '复制',
    copyLabel: (what) => `复制 ${what} 代码`,
    copied: '已复制到剪贴板。',
    manual: '无法自动复制：代码已选中，请按 Ctrl+C（Mac 上按 ⌘C）。',
  },
};

const escapeAttribute = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The state keys a plot shows, in snippet order, without the ones left to the preset (null). */
export function relevantKeys(section, state) {
  const keys = new Set(section.deps.flatMap((dep) => EXPANDS[dep] ?? [dep]));
  // The ranges of the selections depend on the table's size.
  if (keys.has('position') || keys.has('offset')) keys.add('length');
  if (keys.has('dimension')) keys.add('dModel');
  return ORDER.filter((key) => keys.has(key) && state[key] !== null && state[key] !== undefined);
}

/**
 * The two snippets for a section of the page at `state`.
 * options: { elementsUrl, embedUrl (of embed.html), height (of the iframe, px) }
 */
export function embedSnippets(section, state, { elementsUrl = ELEMENTS_URL, embedUrl, height = 480 }) {
  const tag = TAG_OF_PLOT[section.name];
  const keys = relevantKeys(section, state);
  const attributes = keys.map((key) => ` ${ATTRIBUTE_OF[key]}="${escapeAttribute(state[key])}"`).join('');
  const script =
    `<script type="module" src="${escapeAttribute(elementsUrl)}"></script>\n` + `<${tag}${attributes}></${tag}>`;
  const url = new URL(embedUrl);
  url.search = '';
  url.hash = '';
  url.searchParams.set('plot', section.name);
  for (const key of keys) url.searchParams.set(PARAM_OF[ATTRIBUTE_OF[key]], String(state[key]));
  const iframe =
    `<iframe src="${escapeAttribute(url.href)}" title="posenc: ${escapeAttribute(section.name)}"` +
    ` width="100%" height="${Math.round(height)}" loading="lazy"></iframe>`;
  return { script, iframe };
}

const CSS = `
.embed-plot-area { grid-area: plot; min-width: 0; }
.embed-tools { margin-top: 0.4rem; font-size: 0.88rem; }
.embed-tools > button { font-size: 0.85rem; }
.embed-panel { margin-top: 0.5rem; padding: 0.6rem; border: 1px solid var(--border, #d0d7de); border-radius: 6px; }
.embed-panel[hidden] { display: none; }
.embed-snippet { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.25rem 0.5rem; margin-bottom: 0.6rem; }
.embed-snippet label { grid-column: 1 / -1; color: var(--posenc-fg, inherit); }
.embed-snippet textarea {
  width: 100%;
  min-width: 0;
  resize: vertical;
  field-sizing: content;
  max-height: 14em;
  font: 0.8rem/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  color: inherit;
  background: var(--surface, transparent);
  border: 1px solid var(--border, #d0d7de);
  border-radius: 4px;
  padding: 0.3rem;
}
.embed-snippet button { align-self: start; }
.embed-image p { grid-column: 1 / -1; margin: 0; }
.embed-image [role='group'] { display: flex; flex-wrap: wrap; gap: 0.4rem; }
.embed-status { margin: 0; min-height: 1.3em; }
`;

function adoptPageStyles() {
  if (!('adoptedStyleSheets' in document) || typeof CSSStyleSheet !== 'function') return;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

const language = () => (document.documentElement.lang.toLowerCase().startsWith('zh') ? 'zh' : 'en');

/** The page's strings (web/i18n) in the page's language; English until another is loaded. */
function pageStrings() {
  try {
    return translator(language());
  } catch {
    return translator('en');
  }
}

/** The live view of a section at `state`: this page with the state's query, at the section's heading. */
export function liveUrl(section, state, heading) {
  const url = new URL(location.href);
  url.search = toQuery(state);
  url.hash = heading ? `#${heading}` : '';
  return url.href;
}

/** The settings a plot shows, as its element's attributes: "d-model 128 · length 256 · …". */
export function settingsText(section, state) {
  return relevantKeys(section, state)
    .map((key) => `${ATTRIBUTE_OF[key]} ${state[key]}`)
    .join(' · ');
}

/** The plot of `section` with its caption (title, settings, link), or null when not drawn. */
function captioned(section, state, plot, t) {
  const heading = plot.closest('section')?.querySelector('h2');
  return captionedSvg(plot, {
    caption: [
      heading?.textContent?.trim() || section.name,
      `posenc · ${settingsText(section, state)}`,
      t('export.imageLive'),
    ],
    link: liveUrl(section, state, heading?.id),
  });
}

/** Puts a PNG on the clipboard; where refused (no permission, no API, no answer), downloads it. */
async function copyImage(picture, name, status, t) {
  const png = svgToPng(picture, 2);
  try {
    if (!navigator.clipboard?.write || typeof ClipboardItem !== 'function') throw new Error('no clipboard');
    // The item takes the promise, so that the click's permission holds while the PNG is encoded.
    await Promise.race([
      navigator.clipboard.write([new ClipboardItem({ 'image/png': png })]),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), 4000)),
    ]);
    status.textContent = t('export.imageCopied');
    status.dataset.result = 'copied';
  } catch {
    download(await png, name);
    status.textContent = t('export.imageDownloaded', name);
    status.dataset.result = 'downloaded';
  }
}

/** Copies text; on refusal (no permission, no clipboard API, no answer) selects it for a manual copy. */
async function copy(field, status, say) {
  const text = field.value;
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
    await Promise.race([
      navigator.clipboard.writeText(text),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), 2000)),
    ]);
    status.textContent = say.copied;
    status.dataset.result = 'copied';
  } catch {
    field.focus();
    field.select();
    status.textContent = say.manual;
    status.dataset.result = 'manual';
  }
}

/**
 * Adds the embed tools under each plot of `sections` (the page's, with their
 * element) that has an element. getState() -> the page state. Returns
 * { refresh() }: rebuilds the snippets of the open panels (call on redraw).
 */
export function addEmbedTools(sections, getState) {
  adoptPageStyles();
  const embedUrl = new URL('embed.html', location.href).href;
  const tools = [];
  for (const section of sections) {
    if (!Object.hasOwn(TAG_OF_PLOT, section.name)) continue;
    const plot = section.element;
    // The plot and its tools share the plot's place in the section's grid.
    const area = document.createElement('div');
    area.className = 'embed-plot-area';
    plot.replaceWith(area);
    const bar = document.createElement('div');
    bar.className = 'embed-tools';
    area.append(plot, bar);

    const id = `embed-${section.name}`;
    const toggle = document.createElement('button');
    toggle.type = 'button';
    toggle.dataset.testid = `embed-button-${section.name}`;
    toggle.setAttribute('aria-expanded', 'false');
    toggle.setAttribute('aria-controls', id);
    const panel = document.createElement('div');
    panel.className = 'embed-panel';
    panel.id = id;
    panel.hidden = true;
    const status = document.createElement('p');
    status.className = 'embed-status';
    status.setAttribute('aria-live', 'polite');
    status.dataset.testid = 'embed-status';

    const fields = {};
    const parts = {};
    for (const kind of ['script', 'iframe']) {
      const row = document.createElement('div');
      row.className = 'embed-snippet';
      const label = document.createElement('label');
      label.htmlFor = `${id}-${kind}`;
      const field = document.createElement('textarea');
      field.id = `${id}-${kind}`;
      field.readOnly = true;
      field.rows = kind === 'script' ? 5 : 4;
      field.spellcheck = false;
      field.dataset.testid = `embed-${kind}`;
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.testid = `embed-copy-${kind}`;
      button.addEventListener('click', () => {
        update();
        copy(field, status, STRINGS[language()]);
      });
      row.append(label, field, button);
      panel.append(row);
      fields[kind] = field;
      parts[kind] = { label, button };
    }
    // The plot as an image: copy (PNG) and files (PNG, SVG).
    const imageRow = document.createElement('div');
    imageRow.className = 'embed-snippet embed-image';
    const imageLabel = document.createElement('p');
    imageLabel.id = `${id}-image`;
    const imageButtons = document.createElement('div');
    imageButtons.setAttribute('role', 'group');
    imageButtons.setAttribute('aria-labelledby', imageLabel.id);
    const imageActions = { copy: null, png: null, svg: null };
    for (const kind of Object.keys(imageActions)) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.testid = `embed-image-${kind}`;
      button.addEventListener('click', () => imageAction(kind));
      imageButtons.append(button);
      imageActions[kind] = button;
    }
    imageRow.append(imageLabel, imageButtons);
    panel.append(imageRow, status);
    bar.append(toggle, panel);

    async function imageAction(kind) {
      const t = pageStrings();
      const picture = captioned(section, getState(), plot, t);
      if (!picture) {
        status.textContent = t('export.notDrawn');
        status.dataset.result = 'error';
        return;
      }
      const name = `posenc-${section.name}.${kind === 'svg' ? 'svg' : 'png'}`;
      try {
        if (kind === 'copy') await copyImage(picture, name, status, t);
        else {
          download(
            kind === 'svg' ? new Blob([picture.svg], { type: 'image/svg+xml' }) : await svgToPng(picture, 2),
            name,
          );
          status.textContent = t('export.saved', name);
          status.dataset.result = 'saved';
        }
      } catch (error) {
        status.textContent = t('export.failed', String(error?.message ?? error));
        status.dataset.result = 'error';
      }
    }

    function update() {
      const height = Math.ceil(plot.getBoundingClientRect().height) + 48;
      const snippets = embedSnippets(section, getState(), { embedUrl, height: height > 120 ? height : 480 });
      fields.script.value = snippets.script;
      fields.iframe.value = snippets.iframe;
    }
    function label() {
      const say = STRINGS[language()];
      toggle.textContent = say.button;
      // The section's title (translated), not the plot's internal name.
      const title = plot.closest('section')?.querySelector('h2')?.textContent?.trim() || section.name;
      toggle.setAttribute('aria-label', say.buttonLabel(title));
      parts.script.label.textContent = say.script;
      parts.iframe.label.textContent = say.iframe;
      for (const kind of ['script', 'iframe']) {
        parts[kind].button.textContent = say.copy;
        parts[kind].button.setAttribute('aria-label', say.copyLabel(kind));
      }
      const t = pageStrings();
      imageLabel.textContent = t('export.imageLabel');
      imageActions.copy.textContent = t('export.imageCopy');
      imageActions.png.textContent = t('export.png');
      imageActions.svg.textContent = t('export.svg');
    }
    toggle.addEventListener('click', () => {
      const open = panel.hidden;
      panel.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      status.textContent = '';
      if (open) update();
    });
    label();
    tools.push({ panel, update, label });
  }
  // The page switches language by setting <html lang>.
  new MutationObserver(() => tools.forEach((tool) => tool.label())).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['lang'],
  });
  return {
    refresh() {
      for (const tool of tools) if (!tool.panel.hidden) tool.update();
    },
  };
}
