// The pre-bundled ESM file for a <script type="module"> with no build step:
// d3, the plots, the shared model (web/model) and the elements in one file,
// dist/elements/posenc-elements.js (plus a lazily loaded chunk of Chinese
// strings). The elements import only the plots' string tables
// (i18n/plots.*.js), never the page's prose. The core, web/lib/, stays
// outside it: its imports are kept as relative paths (../../web/lib/index.js),
// which resolve to the package's own copy in a browser, on a CDN and in a
// bundler alike, so that `posenc` and `posenc/elements` share one module and
// one wasm instance.
// Build: npx vite build --config web/elements/vite.config.js
import { defineConfig } from 'vite';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const lib = fileURLToPath(new URL('../lib/', import.meta.url));
const outDir = fileURLToPath(new URL('../../dist/elements', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    copyPublicDir: false,
    reportCompressedSize: false,
    lib: {
      entry: fileURLToPath(new URL('./index.js', import.meta.url)),
      formats: ['es'],
      fileName: () => 'posenc-elements.js',
    },
    rolldownOptions: {
      // Resolved ids of web/lib/ are external and written relative to the output file.
      external: (id, importer, isResolved) => isResolved && id.startsWith(lib),
      output: {
        paths: (id) => (id.startsWith(lib) ? `./${relative(outDir, id).split('\\').join('/')}` : id),
        chunkFileNames: 'posenc-elements-[name]-[hash].js',
        // Vite leaves whitespace in ES library builds; this file is served as is.
        minify: true,
      },
    },
  },
});
