// The iframe embed: reads the page's URL parameters and shows one plot as its
// <posenc-*> element. Parameter values only ever become attribute values
// (setAttribute); the element checks them and shows what is wrong inline,
// under the parameter's name. An empty parameter counts as absent (its
// default), as does a lang other than zh*; the first of a repeated one is
// read. The plot name is looked up in the list of elements, never used to
// build a tag name.
import { defineElements, TAG_OF_PLOT } from '../elements/index.js';
import { plotStrings } from '../i18n/plot-strings.js';
import { languageOfLang } from '../i18n/translate.js';
import { THEMES } from '../model/params.js';
import { PAGE_PARAMS, PARAMS, PARAM_OF } from './params.js';

// Explicit: a bare import of a module is dropped where the package declares no side effects.
defineElements();

const query = new URLSearchParams(location.search);
const main = document.getElementById('embed');
// embed-<plot>.html (written by web/scripts/link-previews.mjs, for its link preview) names its plot on <html>.
const plot = query.get('plot') || document.documentElement.dataset.plot || 'heatmap';

// As the elements read lang.
const language = languageOfLang(query.get('lang'));
if (language !== 'en') {
  document.documentElement.lang = 'zh-CN';
  // The element loads the same strings: one request for both.
  plotStrings.load(language).then(
    () => (document.getElementById('explainer').textContent = plotStrings.translator(language)('embed.explainer')),
    // Not loaded (offline): the link keeps its English text, as the plot does.
    () => {},
  );
}
// The page around the plot follows the plot's theme (an invalid one is reported by the element).
if (THEMES.includes(query.get('theme'))) document.documentElement.dataset.theme = query.get('theme');

if (Object.hasOwn(TAG_OF_PLOT, plot)) {
  const element = document.createElement(TAG_OF_PLOT[plot]);
  // Messages name what the URL says: p, not position.
  element.attributeLabels = PARAM_OF;
  for (const [param, attribute] of Object.entries(PARAMS)) {
    const value = query.get(param);
    if (value !== null && value !== '') element.setAttribute(attribute, value);
  }
  main.append(element);
  document.title = `posenc: ${plot}`;
  // Without a height parameter the plot fills the frame's height.
  if (!query.get('height')) fitToViewport(element);
} else {
  const message = document.createElement('p');
  message.className = 'embed-error';
  message.setAttribute('role', 'alert');
  const shown = plot.length > 40 ? `${plot.slice(0, 40)}…` : plot;
  message.textContent = plotStrings.translator('en')('embed.unknownPlot', shown, Object.keys(TAG_OF_PLOT));
  main.append(message);
}

/**
 * Sets the element's height attribute so that the page is as tall as the
 * viewport: the drawing takes the room left by the text around it (split
 * between the rows of panels, for compare). Rechecked after each redraw and
 * resize; a few steps at most, since the text's height does not depend on it.
 */
function fitToViewport(element) {
  let steps = 0;
  const fit = () => {
    const surfaces = [...(element.shadowRoot?.querySelectorAll('.posenc-surface') ?? [])];
    if (element.dataset.state !== 'ready' || surfaces.length === 0 || steps >= 4) return;
    const rows = new Set(surfaces.map((surface) => Math.round(surface.getBoundingClientRect().top))).size;
    const current = surfaces[0].getBoundingClientRect().height;
    const spare = window.innerHeight - document.body.getBoundingClientRect().height;
    const next = Math.round(Math.min(4000, Math.max(160, current + spare / rows)));
    if (Math.abs(next - current) < 2) return;
    steps++;
    element.setAttribute('height', String(next));
  };
  element.addEventListener('posenc-render', fit);
  window.addEventListener('resize', () => {
    steps = 0;
    fit();
  });
}

const back = new URLSearchParams();
for (const param of PAGE_PARAMS) if (query.get(param)) back.set(param, query.get(param));
const backQuery = back.toString();
document.getElementById('explainer').href = backQuery ? `./?${backQuery}` : './';
