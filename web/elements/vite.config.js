// The pre-bundled ESM file for a <script type="module"> with no build step:
// d3, the plots, the page's data code and the elements in one file,
// dist/elements/posenc-elements.js (plus a lazily loaded chunk of Chinese
// strings). The core, web/lib/, stays outside it: its imports are kept as
// relative paths (../../web/lib/index.js), which resolve to the package's own
// copy in a browser, on a CDN and in a bundler alike, so that `posenc` and
// `posenc/elements` share one module and one wasm instance.
// Build: npx vite build --config web/elements/vite.config.js
import { defineConfig } from 'vite';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const lib = fileURLToPath(new URL('../lib/', import.meta.url));
const i18n = fileURLToPath(new URL('../i18n/', import.meta.url));

// The string tables also hold the page's prose (section texts, controls,
// checker messages), which no plot shows: this build leaves those entries out.
// The plots' labels and descriptions (axis.*, readout.*, <plot>.describe, …) stay.
const PAGE_ONLY = /^(intro|page|controls|language|check|export|preset)(\.|$)|\.(text|title|one|two|three)$/;

function dropPageStrings() {
  return {
    name: 'posenc-drop-page-strings',
    transform(code, id) {
      if (!id.startsWith(i18n)) return null;
      const program = this.parse(code);
      const table = program.body.find((node) => node.type === 'ExportDefaultDeclaration')?.declaration;
      if (table?.type !== 'ObjectExpression') return null;
      let out = '';
      let at = 0;
      table.properties.forEach((property, index) => {
        const key = property.key?.type === 'Literal' ? property.key.value : property.key?.name;
        if (typeof key !== 'string' || !PAGE_ONLY.test(key)) return;
        // Cut the property and its comma (before the next property or the closing brace).
        const next = table.properties[index + 1]?.start ?? table.end;
        const comma = code.slice(property.end, next).indexOf(',');
        out += code.slice(at, property.start);
        at = comma < 0 ? property.end : property.end + comma + 1;
      });
      return { code: out + code.slice(at), map: null };
    },
  };
}
const outDir = fileURLToPath(new URL('../../dist/elements', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  logLevel: 'warn',
  plugins: [dropPageStrings()],
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
