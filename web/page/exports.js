// "Export": the table of the current settings (the page's controls) as .npy,
// CSV or JSON, any plot of the page as PNG or SVG, and Python (numpy, PyTorch,
// JAX) that rebuilds exactly this table, with a copy button. Files are
// downloaded from a Blob through an object URL and <a download>; every text
// reaches the DOM through textContent.
import { codeSnippet, toCsv, toJson, toNpy } from '../lib/index.js';
import { encoding } from '../model/convention.js';
import { download, element } from './dom.js';
import { plotSvg, svgToPng } from './plot-image.js';

const DTYPES = ['float32', 'float64'];
const LANGUAGES = [
  { value: 'numpy', label: 'numpy' },
  { value: 'pytorch', label: 'PyTorch' },
  { value: 'jax', label: 'JAX' },
];
const TABLE_FORMATS = {
  npy: { type: 'application/octet-stream', write: toNpy },
  csv: { type: 'text/csv', write: toCsv },
  json: { type: 'application/json', write: toJson },
};

// Saving a Blob lives in dom.js (the embed tools use it without the rest of this module).
export { download };

/** The options of the current table: the page's encoding at its length. */
const tableOptions = (state, dtype) => ({ ...encoding(state), length: state.length, dtype });

/** posenc-vaswani-concat-base3160-256x128: what the file holds, readable in a file list. */
function fileStem(state) {
  const parts = ['posenc', state.preset];
  if (state.layout) parts.push(state.layout);
  if (state.exponent) parts.push(`exponent-${state.exponent}`);
  if (state.base !== 10000) parts.push(`base${state.base}`);
  parts.push(`${state.length}x${state.dModel}`);
  return parts.join('-');
}

/**
 * A heading's text as read: typeset math once, as its MathML reads (KaTeX
 * also holds the drawn glyphs and the TeX source, which textContent would
 * run together as "jjj").
 */
function plainText(node) {
  if (!node) return '';
  const copy = node.cloneNode(true);
  for (const drawn of copy.querySelectorAll('.katex-html, annotation')) drawn.remove();
  return copy.textContent.replace(/\s+/g, ' ').trim();
}

/** Every plot of the page, in page order: [{ element, name, label }]. */
function pagePlots() {
  const plots = [...document.querySelectorAll('[data-plot], [data-check-plot]')];
  return plots.map((plot) => {
    const section = plot.closest('section');
    // The section's title, without the number the chapters put before it.
    const h2 = section?.querySelector('h2');
    const title = (h2?.querySelector('[data-i18n]') ?? h2)?.textContent ?? '';
    // The Q&A section holds three plots, each named by its own heading; so does the check's, and a
    // section with several plots names each by the h3 before it.
    const heading = plot.previousElementSibling?.tagName === 'H3' ? plot.previousElementSibling : null;
    const part = plainText(
      plot.closest('.mistake')?.querySelector('strong') ??
        plot.closest('.check-difference')?.querySelector('h4') ??
        heading,
    );
    const name = plot.dataset.plot ?? `check-${plot.dataset.checkPlot}`;
    return { element: plot, name, label: part ? `${title} — ${part}` : title };
  });
}

/**
 * Builds the export panel in `container`. getState() -> the page state;
 * posenc() -> the promise of the loaded library (called at the first export).
 * Returns { refresh(), setLanguage(t), listPlots() (again when a plot was added) }.
 */
export function createExports(container, { getState, posenc }) {
  let t = null;
  let shownKey = null;
  let plots = [];

  const heading = element('h3', { id: 'export-heading' }, container);
  const settings = element(
    'p',
    { className: 'export-settings', id: 'export-settings', 'data-testid': 'export-settings' },
    container,
  );

  // The table.
  const tableRow = element('div', { className: 'export-row' }, container);
  const tableLabel = element('span', { className: 'export-label', id: 'export-table-label' }, tableRow);
  const dtypeLabel = element('label', { for: 'export-dtype' }, tableRow);
  const dtypeSelect = element('select', { id: 'export-dtype' }, tableRow);
  for (const dtype of DTYPES) element('option', { value: dtype, text: dtype }, dtypeSelect);
  const formatButtons = Object.keys(TABLE_FORMATS).map((format) =>
    element(
      'button',
      { type: 'button', id: `export-${format}`, 'aria-describedby': 'export-table-label export-settings' },
      tableRow,
    ),
  );

  // The plots.
  const plotRow = element('div', { className: 'export-row' }, container);
  const plotLabel = element('label', { for: 'export-plot', className: 'export-label' }, plotRow);
  const plotSelect = element('select', { id: 'export-plot' }, plotRow);
  const pngButton = element('button', { type: 'button', id: 'export-png' }, plotRow);
  const svgButton = element('button', { type: 'button', id: 'export-svg' }, plotRow);

  // The code.
  const code = element('fieldset', { className: 'export-code' }, container);
  const legend = element('legend', {}, code);
  const choices = element('div', { className: 'export-languages' }, code);
  const radios = LANGUAGES.map(({ value, label }, index) => {
    const wrapper = element('label', { className: 'export-language' }, choices);
    const radio = element(
      'input',
      { type: 'radio', name: 'export-language', value, id: `export-lang-${value}` },
      wrapper,
    );
    radio.checked = index === 0;
    wrapper.append(label);
    return radio;
  });
  const pre = element(
    'pre',
    { className: 'export-snippet', tabindex: '0', role: 'region', 'aria-labelledby': 'export-code-label' },
    code,
  );
  const codeText = element('code', { id: 'export-code' }, pre);
  const codeLabel = element('span', { id: 'export-code-label', className: 'visually-hidden' }, code);
  const copyButton = element('button', { type: 'button', id: 'export-copy' }, code);

  const status = element('p', { className: 'export-status', id: 'export-status', 'aria-live': 'polite' }, container);

  const language = () => radios.find((radio) => radio.checked).value;
  const say = (text, state = 'done') => {
    status.textContent = text;
    status.dataset.state = state;
  };

  function showCode() {
    const state = getState();
    const options = tableOptions(state, dtypeSelect.value);
    const key = JSON.stringify([options, language()]);
    if (key === shownKey) return;
    shownKey = key;
    settings.textContent = t('export.settings', {
      ...options,
      dModel: state.dModel,
      overrides: ['layout', 'exponent'].filter((name) => state[name]).map((name) => `${name} ${state[name]}`),
    });
    codeText.textContent = codeSnippet(language(), options);
    codeLabel.textContent = t('export.codeLabel', LANGUAGES.find((l) => l.value === language()).label);
  }

  async function exportTable(format) {
    const state = getState();
    const options = tableOptions(state, dtypeSelect.value);
    say(t('export.preparing'), 'busy');
    try {
      const pe = await posenc();
      // Let the status show first: a 2048 x 1024 CSV takes about a second to write.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      const values = pe.table(options);
      const bytes = TABLE_FORMATS[format].write(values, options.length, options.dModel);
      download(new Blob([bytes], { type: TABLE_FORMATS[format].type }), `${fileStem(state)}.${format}`);
      say(t('export.saved', `${fileStem(state)}.${format}`));
    } catch (error) {
      // The library names what is wrong; anything else (offline: the core's first
      // fetch failed) is said as a sentence, its engine message to the console only.
      const message = String(error?.message ?? error);
      if (/^posenc\.\w+: /.test(message)) say(t('export.failed', message.replace(/^posenc\.\w+: /, '')), 'error');
      else {
        console.warn(error);
        say(t('export.unreachable'), 'error');
      }
    }
  }

  async function exportPlot(kind) {
    const plot = plots.find((p) => p.name === plotSelect.value);
    const picture = plot && plotSvg(plot.element);
    if (!picture) {
      // The check's plot exists only once a table was checked: scrolling would not draw it.
      say(t(plot?.name.startsWith('check-') ? 'export.notChecked' : 'export.notDrawn'), 'error');
      return;
    }
    const name = `posenc-${plot.name}.${kind}`;
    try {
      const blob =
        kind === 'svg'
          ? new Blob([picture.svg], { type: 'image/svg+xml' })
          : await svgToPng(picture, Math.max(2, window.devicePixelRatio || 1));
      download(blob, name);
      say(t('export.saved', name));
    } catch (error) {
      say(t('export.failed', String(error?.message ?? error)), 'error');
    }
  }

  function listPlots() {
    const chosen = plotSelect.value;
    plots = pagePlots();
    plotSelect.replaceChildren(...plots.map(({ name, label }) => element('option', { value: name, text: label })));
    if (plots.some((plot) => plot.name === chosen)) plotSelect.value = chosen;
  }

  async function copy() {
    showCode();
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await Promise.race([
        navigator.clipboard.writeText(codeText.textContent),
        new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), 2000)),
      ]);
      say(t('export.copied'));
    } catch {
      // Refused (permissions, no secure context): select the code for Ctrl+C.
      const selection = getSelection();
      selection.removeAllRanges();
      const range = document.createRange();
      range.selectNodeContents(codeText);
      selection.addRange(range);
      pre.focus();
      say(t('export.manual'), 'manual');
    }
  }

  formatButtons.forEach((button, index) =>
    button.addEventListener('click', () => exportTable(Object.keys(TABLE_FORMATS)[index])),
  );
  pngButton.addEventListener('click', () => exportPlot('png'));
  svgButton.addEventListener('click', () => exportPlot('svg'));
  copyButton.addEventListener('click', copy);
  dtypeSelect.addEventListener('change', showCode);
  for (const radio of radios) radio.addEventListener('change', showCode);

  return {
    /** Follows the page state (cheap when nothing the code depends on changed). */
    refresh() {
      if (t) showCode();
    },
    setLanguage(translate) {
      t = translate;
      heading.textContent = t('export.title');
      tableLabel.textContent = t('export.table');
      dtypeLabel.textContent = t('export.dtype');
      formatButtons.forEach((button, index) => {
        const format = Object.keys(TABLE_FORMATS)[index];
        button.textContent = t(`export.${format}`);
      });
      plotLabel.textContent = t('export.plot');
      pngButton.textContent = t('export.png');
      svgButton.textContent = t('export.svg');
      legend.textContent = t('export.code');
      copyButton.textContent = t('export.copy');
      status.textContent = '';
      listPlots();
      shownKey = null;
      showCode();
    },
    listPlots,
  };
}
