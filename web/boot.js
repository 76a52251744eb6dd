// The page's first module (async): starts the compute worker where the built
// page's classic script (vite-early-worker.js) has not already, so that its
// script and the .wasm it fetches load while the document is parsed and the
// page's code loads; then loads the page once the document is parsed. The styles are imported here so that they stay in the
// page's <head> (the text and formulas are in the HTML, rendered at build time).
import 'katex/dist/katex.min.css';
import './styles.css';
import { startWorker } from './page/worker-start.js';

startWorker();
const parsed =
  document.readyState === 'loading'
    ? new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }))
    : null;
parsed ? parsed.then(() => import('./main.js')) : import('./main.js');
