// The page's first module (async). The built page's compute worker is started
// before this by a classic script (vite-early-worker.js; where it is missing,
// the dev server, the compute client starts it). The page's code is a static import so
// that the build preloads it from <head> while the document is parsed (it
// waits for the parsed document before it runs: main.js). The styles are
// imported here so that they stay in the page's <head> (the text and formulas
// are in the HTML, rendered at build time).
import 'katex/dist/katex.min.css';
import './styles.css';
import './main.js';
