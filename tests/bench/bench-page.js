// The browser half of `npm run bench`: the same suite as Node, in Chromium.
import { load } from '../../web/lib/index.js';
import { runFixedCost } from './fixed-cost.js';
import { formatResult, formatSideBySide, runSuite } from './suite.js';

const log = document.getElementById('log');
try {
  const pe = await load();
  const lines = [`Chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]}, posenc SIMD build: ${pe.simd}`];
  const results = runSuite(pe, (r) => lines.push(formatResult(r)));
  // (numpy and torch are timed by node.mjs only.)
  lines.push('== side by side', ...formatSideBySide(results, null));
  results.push(...runFixedCost(pe, (line) => lines.push(line)));
  log.textContent = lines.join('\n');
  window.benchResults = { lines, results };
} catch (error) {
  window.benchResults = { error: String(error?.stack ?? error) };
}
