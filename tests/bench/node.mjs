// npm run bench, Node part. `--fixed-cost`: only the per-call fixed cost (fixed-cost.js).
import { load } from '../../web/lib/index.js';
import { runFixedCost } from './fixed-cost.js';
import { formatResult, runSuite } from './suite.js';

const pe = await load();
console.log(`Node ${process.version}, posenc SIMD build: ${pe.simd}`);
const results = process.argv.includes('--fixed-cost') ? [] : runSuite(pe, (r) => console.log(formatResult(r)));
results.push(...runFixedCost(pe, (line) => console.log(line)));
if (process.argv.includes('--json')) console.log(JSON.stringify(results));
process.exit(results.every((r) => r.accurate) ? 0 : 1);
