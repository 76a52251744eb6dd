// npm run bench, Node part.
import { load } from '../../web/lib/index.js';
import { formatResult, runSuite } from './suite.js';

const pe = await load();
console.log(`Node ${process.version}, posenc SIMD build: ${pe.simd}`);
const results = runSuite(pe, (r) => console.log(formatResult(r)));
if (process.argv.includes('--json')) console.log(JSON.stringify(results));
process.exit(results.every((r) => r.accurate) ? 0 : 1);
