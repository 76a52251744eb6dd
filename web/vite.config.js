import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { earlyWorkerPlugin } from './build/vite-early-worker.js';
import { embedToolsPlugin } from './build/vite-embed-tools.js';
import { inlineStylesPlugin } from './build/vite-inline-styles.js';
import { katexFontsPlugin, richTextPlugin } from './build/vite-rich-text.js';
import { previewWasmGzipPlugin } from './build/vite-preview-gzip.js';
import { CHAPTERS, START_FILE, fullModuleFirst } from './model/registry.js';

const page = (path) => fileURLToPath(new URL(path, import.meta.url));

// The site lives in web/; the built site goes to dist/site. Its documents: the
// start page, one per chapter of the registry (web/build/generate-lists.mjs
// writes them) and embed.html (one plot, for iframes).
const CHAPTER_FILES = CHAPTERS.map((chapter) => chapter.file);
const DOCUMENTS = [START_FILE, ...CHAPTER_FILES, 'embed.html'];
const richText = richTextPlugin({ i18nDir: page('./i18n'), htmlFiles: DOCUMENTS.map((file) => page(`./${file}`)) });

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  // The page's text and formulas rendered at build time (no typesetting at load).
  plugins: [
    // The "Embed" buttons under the plots (their text then filled in like the rest).
    embedToolsPlugin({ htmlFiles: CHAPTER_FILES.map((file) => page(`./${file}`)) }),
    richText,
    // KaTeX's fonts, cut down to the characters of those formulas.
    katexFontsPlugin({ formulas: richText.api.formulas }),
    // The compute worker started by a classic script before the page is parsed.
    earlyWorkerPlugin({
      documents: CHAPTERS.map((chapter) => ({ file: chapter.file, fullModule: fullModuleFirst(chapter.name) })),
    }),
    // The page's stylesheet in its HTML: there at the first layout.
    inlineStylesPlugin({ htmlFiles: [START_FILE, ...CHAPTER_FILES] }),
    // npm start (vite preview) sends the .wasm compressed too.
    previewWasmGzipPlugin(),
  ],
  build: {
    outDir: fileURLToPath(new URL('../dist/site', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      input: Object.fromEntries(DOCUMENTS.map((file) => [file.replace(/\.html$/, ''), page(`./${file}`)])),
    },
  },
  // The workers are modules (new Worker(…, { type: 'module' })): their later parts load as chunks of their own.
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
});
