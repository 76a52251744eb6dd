import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { earlyWorkerPlugin } from './build/vite-early-worker.js';
import { embedToolsPlugin } from './build/vite-embed-tools.js';
import { inlineStylesPlugin } from './build/vite-inline-styles.js';
import { katexFontsPlugin, richTextPlugin } from './build/vite-rich-text.js';
import { previewWasmGzipPlugin } from './build/vite-preview-gzip.js';

const page = (path) => fileURLToPath(new URL(path, import.meta.url));

// The page lives in web/; the built site goes to dist/site. embed.html (one
// plot, for iframes) is a second page of the same build.
const richText = richTextPlugin({ i18nDir: page('./i18n'), htmlFiles: [page('./index.html'), page('./embed.html')] });

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  // The page's text and formulas rendered at build time (no typesetting at load).
  plugins: [
    // The "Embed" buttons under the plots (their text then filled in like the rest).
    embedToolsPlugin({ htmlFiles: [page('./index.html')] }),
    richText,
    // KaTeX's fonts, cut down to the characters of those formulas.
    katexFontsPlugin({ formulas: richText.api.formulas }),
    // The compute worker started by a classic script before the page is parsed.
    earlyWorkerPlugin(),
    // The page's stylesheet in its HTML: there at the first layout.
    inlineStylesPlugin(),
    // npm start (vite preview) sends the .wasm compressed too.
    previewWasmGzipPlugin(),
  ],
  build: {
    outDir: fileURLToPath(new URL('../dist/site', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        embed: fileURLToPath(new URL('./embed.html', import.meta.url)),
      },
    },
  },
  // The workers are modules (new Worker(…, { type: 'module' })): their later parts load as chunks of their own.
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
});
