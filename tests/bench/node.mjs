// npm run bench, Node part. `--fixed-cost`: only the per-call fixed cost (fixed-cost.js).
// Then numpy and torch (tests/bench/frameworks.py, where /usr/bin/python3 has them) on the
// same cases, and posenc, the JS loops, numpy and torch side by side.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { load } from '../../web/lib/index.js';
import { runFixedCost } from './fixed-cost.js';
import { formatResult, formatSideBySide, runSuite } from './suite.js';

const PYTHON = '/usr/bin/python3';
// The ropeCache case of suite.js (length, headDim, base) and its table sizes.
const FRAMEWORK_ARGS = ['8192', '128', '500000', '512x128', '2048x512', '8192x1024'];

const load1 = () => loadavg()[0].toFixed(1);
const pe = await load();
console.log(`Node ${process.version}, posenc SIMD build: ${pe.simd}; load average ${load1()}`);
const fixedOnly = process.argv.includes('--fixed-cost');
const results = fixedOnly ? [] : runSuite(pe, (r) => console.log(formatResult(r)));

/** frameworks.py's answer, or null (with the reason said) where Python, numpy or the script fails. */
function runFrameworks() {
  if (!existsSync(PYTHON)) {
    console.log(`numpy and torch: not measured (no ${PYTHON})`);
    return null;
  }
  const script = fileURLToPath(new URL('./frameworks.py', import.meta.url));
  const run = spawnSync(PYTHON, [script, ...FRAMEWORK_ARGS], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) {
    console.log(`numpy and torch: not measured (${run.stderr.trim().split('\n').pop()})`);
    return null;
  }
  return JSON.parse(run.stdout);
}

if (!fixedOnly) {
  const frameworks = runFrameworks();
  if (frameworks) {
    const torch = frameworks.torch ? `torch ${frameworks.torch} on ${frameworks.torchThreads} thread` : 'no torch';
    console.log(`== side by side (Python ${frameworks.python}, numpy ${frameworks.numpy}, ${torch}; float32)`);
  } else console.log('== side by side');
  for (const line of formatSideBySide(results, frameworks)) console.log(line);
  console.log(`load average at the end: ${load1()}`);
}
results.push(...runFixedCost(pe, (line) => console.log(line)));
if (process.argv.includes('--json')) console.log(JSON.stringify(results));
process.exit(results.every((r) => r.accurate) ? 0 : 1);
