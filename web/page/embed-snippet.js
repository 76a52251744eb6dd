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
import { knobsOf } from '../model/arrays.js';
import { CONTROLS, format } from '../model/params.js';
import { toQuery } from '../model/state.js';
import { TAG_OF_PLOT } from '../model/registry.js';
import { languageOfLang } from '../i18n/translate.js';
import { download } from './dom.js';
import { translator } from './i18n.js';
import { captionedSvg, svgToPng } from './plot-image.js';

/**
 * Where the script snippet loads the elements from: the published package on
 * a CDN unless the site was built with VITE_POSENC_ELEMENTS_URL.
 */
export const ELEMENTS_URL =
  import.meta.env?.VITE_POSENC_ELEMENTS_URL ||
  `https://cdn.jsdelivr.net/npm/posenc@${version}/dist/elements/posenc-elements.js`;

const escapeAttribute = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page controls a plot shows, in table order, without the ones left to the preset (null). */
export function relevantRows(section, state) {
  const keys = knobsOf(section.deps);
  // The ranges of the selections depend on the table's size.
  if (keys.has('position') || keys.has('offset')) keys.add('length');
  if (keys.has('dimension')) keys.add('dModel');
  return CONTROLS.filter(({ key }) => keys.has(key) && state[key] !== null && state[key] !== undefined);
}

/**
 * The two snippets for a section of the page at `state`.
 * options: { elementsUrl, embedUrl (of embed.html), height (of the iframe, px) }
 */
export function embedSnippets(section, state, { elementsUrl = ELEMENTS_URL, embedUrl, height = 480 }) {
  const tag = TAG_OF_PLOT[section.name];
  const rows = relevantRows(section, state);
  const attributes = rows.map((row) => ` ${row.attribute}="${escapeAttribute(format(row, state[row.key]))}"`).join('');
  const script =
    `<script type="module" src="${escapeAttribute(elementsUrl)}"></script>\n` + `<${tag}${attributes}></${tag}>`;
  const url = new URL(embedUrl);
  url.search = '';
  url.hash = '';
  url.searchParams.set('plot', section.name);
  for (const row of rows) url.searchParams.set(row.param, format(row, state[row.key]));
  const iframe =
    `<iframe src="${escapeAttribute(url.href)}" title="posenc: ${escapeAttribute(section.name)}"` +
    ` width="100%" height="${Math.round(height)}" loading="lazy"></iframe>`;
  return { script, iframe };
}

// The plot's area and its button are in the page's HTML and styles (vite-embed-tools.js); the panel comes with this code.
const CSS = `
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

// The page's translator of its language (it switches by setting <html lang> once the strings are loaded).
const currentTranslator = () => translator(languageOfLang(document.documentElement.lang));

/** The live view of a section at `state`: this page with the state's query, at the section's heading. */
export function liveUrl(section, state, heading) {
  const url = new URL(location.href);
  url.search = toQuery(state);
  url.hash = heading ? `#${heading}` : '';
  return url.href;
}

/** The settings a plot shows, as its element's attributes: "d-model 128 · length 256 · …". */
export function settingsText(section, state) {
  return relevantRows(section, state)
    .map((row) => `${row.attribute} ${format(row, state[row.key])}`)
    .join(' · ');
}

/** A heading's title: its translated text, without the section number the chapters put before it. */
const headingTitle = (heading) => (heading?.querySelector('[data-i18n]') ?? heading)?.textContent?.trim() ?? '';

/** The plot of `section` with its caption (title, settings, link), or null when not drawn. */
function captioned(section, state, plot, t) {
  const heading = plot.closest('section')?.querySelector('h2');
  return captionedSvg(plot, {
    caption: [
      // The heading's title without the site's section number (the image is shown elsewhere).
      headingTitle(heading) || section.name,
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
async function copy(field, status, t) {
  const text = field.value;
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
    await Promise.race([
      navigator.clipboard.writeText(text),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), 2000)),
    ]);
    status.textContent = t('embed.copied');
    status.dataset.result = 'copied';
  } catch {
    field.focus();
    field.select();
    status.textContent = t('embed.manual');
    status.dataset.result = 'manual';
  }
}

/**
 * Adds the embed tools under each plot of `sections` (the page's, with their
 * element) that has an element. getState() -> the page state. Returns
 * { add(sections), open(name), refresh() }: add puts tools under the plots
 * of sections loaded later; refresh rebuilds the snippets of the open panels
 * (call on redraw).
 */
export function addEmbedTools(sections, getState) {
  adoptPageStyles();
  const embedUrl = new URL('embed.html', location.href).href;
  const tools = [];
  // The page switches language by setting <html lang>.
  new MutationObserver(() => tools.forEach((tool) => tool.label())).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['lang'],
  });
  add(sections);
  return {
    /** Tools under the plots of sections added later (a chapter loaded when it neared the screen). */
    add,
    /** Opens the panel of plot `name` (a click on its button before this code had loaded). */
    open(name) {
      tools.find((tool) => tool.name === name)?.open();
    },
    refresh() {
      for (const tool of tools) if (!tool.panel.hidden) tool.update();
    },
  };

  function add(sections) {
    for (const section of sections) {
      if (!Object.hasOwn(TAG_OF_PLOT, section.name)) continue;
      const plot = section.element;
      // The build put the plot in an area with a bar of tools holding the button (vite-embed-tools.js).
      const toggle = document.querySelector(`[data-embed="${section.name}"]`);
      if (!toggle) throw new Error(`the page has no Embed button for ${section.name}`);
      const bar = toggle.parentElement;
      const id = `embed-${section.name}`;
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
          copy(field, status, currentTranslator());
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
        const t = currentTranslator();
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
        const t = currentTranslator();
        toggle.textContent = t('embed.button');
        // The plot's own heading where a section holds several (an h3 before it), else the section's title
        // (translated), not the plot's internal name.
        const heading = plot.previousElementSibling?.tagName === 'H3' ? plot.previousElementSibling : null;
        const title = headingTitle(heading ?? plot.closest('section')?.querySelector('h2')) || section.name;
        toggle.setAttribute('aria-label', t('embed.buttonLabel', title));
        parts.script.label.textContent = t('embed.script');
        parts.iframe.label.textContent = t('embed.iframe');
        for (const kind of ['script', 'iframe']) {
          parts[kind].button.textContent = t('embed.copy');
          parts[kind].button.setAttribute('aria-label', t('embed.copyLabel', kind));
        }
        imageLabel.textContent = t('export.imageLabel');
        imageActions.copy.textContent = t('export.imageCopy');
        imageActions.png.textContent = t('export.png');
        imageActions.svg.textContent = t('export.svg');
      }
      function setOpen(open) {
        panel.hidden = !open;
        toggle.setAttribute('aria-expanded', String(open));
        status.textContent = '';
        if (open) update();
      }
      toggle.addEventListener('click', () => setOpen(panel.hidden));
      label();
      tools.push({ name: section.name, panel, update, label, open: () => setOpen(true) });
    }
  }
}
