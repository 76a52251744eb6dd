// Vite plugin: the "Embed" button under every plot of the page that has a
// custom element (web/model/registry.js), put in the HTML at build time. The
// page's first view then lays out its final shape at once, and the code of
// the tools (snippets, images: web/page/embed-snippet.js) loads after the
// first view or at the first click. The button's text is translated like any
// [data-i18n] element (vite-rich-text.js fills it in after this plugin).
import { TAG_OF_PLOT } from '../model/registry.js';

// An empty plot container: <div class="plot" data-plot="name"></div>.
const PLOT = /(<div\b[^>]*\sdata-plot="([\w-]+)"[^>]*>\s*<\/div>)/g;

/** htmlFiles: the pages that get the buttons (the page, not the one-plot embed). */
export function embedToolsPlugin({ htmlFiles }) {
  return {
    name: 'posenc-embed-tools',
    transformIndexHtml: {
      order: 'pre',
      handler(html, { filename }) {
        if (!htmlFiles.includes(filename)) return html;
        return html.replace(PLOT, (plot, _, name) =>
          Object.hasOwn(TAG_OF_PLOT, name)
            ? `<div class="embed-plot-area">${plot}<div class="embed-tools"><button type="button" ` +
              `data-embed="${name}" data-testid="embed-button-${name}" aria-expanded="false" ` +
              `data-i18n="embed.button"></button></div></div>`
            : plot,
        );
      },
    },
  };
}
