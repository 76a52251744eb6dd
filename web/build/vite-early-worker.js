// Vite plugin (build only): the page's compute worker is started by a classic
// script at the top of <head>, before the document is parsed. Chromium runs
// an async script (web/boot.js) only after the document's first paint, and
// the first paint of the long, typeset page waits for its first layout: the
// worker, and the .wasm it fetches, would start late. The script is inline (a
// file of its own would hold the parser for a request), allowed by its hash in the page's Content Security
// Policy; a host whose own CSP header leaves the hash out blocks it, and then
// the compute client starts the worker when the page's code runs.
// The script hands the worker over as self.posencEarlyWorker (the compute
// client takes it); where it is missing (the dev server) the client starts one.
// A chapter that computes RoPE from its first view names it "full": the worker
// then loads the full module alone (web/page/compute-worker.js). A name, not a
// #fragment of its URL: the worker's lazily loaded chunks import it by its plain
// URL, and a module at another URL would be evaluated a second time.
import { createHash } from 'node:crypto';

const WORKER = /(^|\/)compute-worker-[\w-]+\.js$/;

/**
 * The classic script: starts the worker at `workerFile` (relative to the page), named "full" when it
 * is to load the full module alone, and keeps its early errors.
 */
const starter = (
  workerFile,
  fullModule,
) => `// Starts the page's compute worker before the page is parsed (web/build/vite-early-worker.js).
(function () {
  if (typeof Worker !== 'function') return;
  var errors = [];
  var worker = new Worker(new URL(${JSON.stringify(workerFile)}, document.baseURI), { type: 'module'${fullModule ? ", name: 'full'" : ''} });
  worker.onerror = function (event) {
    event.preventDefault();
    errors.push({ message: event.message });
  };
  self.posencEarlyWorker = { worker: worker, errors: errors };
})();
`;

/**
 * documents: [{ file, fullModule }]: the built documents that get the script (the chapters: each
 * runs the compute worker), and whether theirs loads the full module from the start.
 */
export function earlyWorkerPlugin({ documents }) {
  return {
    name: 'posenc-early-worker',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_, bundle) {
        const worker = Object.keys(bundle).find((name) => WORKER.test(name));
        if (!worker) this.error('posenc-early-worker: no compute worker in the build');
        for (const { file: htmlFile, fullModule } of documents) {
          const source = starter(`./${worker}`, fullModule);
          const hash = `'sha256-${createHash('sha256').update(source).digest('base64')}'`;
          const page = bundle[htmlFile];
          if (!page) this.error(`posenc-early-worker: no ${htmlFile} in the build`);
          let html = String(page.source);
          const policy = /(http-equiv="Content-Security-Policy"\s+content="[^"]*?script-src 'self')/;
          if (!policy.test(html)) this.error(`posenc-early-worker: no script-src 'self' in ${htmlFile}'s CSP`);
          html = html.replace(policy, `$1 ${hash}`);
          // First in <head> after the CSP and charset: before any stylesheet, which a classic script would wait for.
          const at = html.search(/<link\b|<script\b/);
          page.source = `${html.slice(0, at)}<script>${source}</script>\n    ${html.slice(at)}`;
        }
      },
    },
  };
}
