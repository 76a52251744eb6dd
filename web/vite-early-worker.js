// Vite plugin (build only): the page's compute worker is started by a classic
// script at the top of <head>, before the document is parsed. Chromium runs
// an async script (web/boot.js) only after the document's first paint, and
// the first paint of the long, typeset page waits for its first layout: the
// worker, and the .wasm it fetches, started hundreds of milliseconds late. A
// classic script runs as soon as it arrives: the parser waits for these few
// bytes, the browser's preload scanner goes on finding the page's other files.
// The script hands the worker over as self.posencEarlyWorker (worker-start.js
// takes it); where it is missing (the dev server) boot.js starts the worker.
import { createHash } from 'node:crypto';

const WORKER = /(^|\/)compute-worker-[\w-]+\.js$/;

/** The classic script: starts the worker at `workerFile` (relative to the page) and keeps its early errors. */
const starter = (
  workerFile,
) => `// Starts the page's compute worker before the page is parsed (web/vite-early-worker.js).
(function () {
  if (typeof Worker !== 'function') return;
  var errors = [];
  var worker = new Worker(new URL(${JSON.stringify(workerFile)}, document.baseURI), { type: 'module' });
  worker.onerror = function (event) {
    event.preventDefault();
    errors.push({ message: event.message });
  };
  self.posencEarlyWorker = { worker: worker, errors: errors };
})();
`;

/** htmlFile: the built page that gets the script (index.html). */
export function earlyWorkerPlugin({ htmlFile = 'index.html' } = {}) {
  return {
    name: 'posenc-early-worker',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_, bundle) {
        const worker = Object.keys(bundle).find((name) => WORKER.test(name));
        const page = bundle[htmlFile];
        if (!worker || !page)
          this.error(`posenc-early-worker: no ${worker ? htmlFile : 'compute worker'} in the build`);
        const source = starter(`./${worker}`);
        const hash = createHash('sha256').update(source).digest('base64url').slice(0, 8);
        const fileName = `assets/start-worker-${hash}.js`;
        this.emitFile({ type: 'asset', fileName, source });
        const html = String(page.source);
        // First in <head> after the CSP and charset: before any stylesheet, which a classic script would wait for.
        const at = html.search(/<link\b|<script\b/);
        page.source = `${html.slice(0, at)}<script src="./${fileName}"></script>\n    ${html.slice(at)}`;
      },
    },
  };
}
