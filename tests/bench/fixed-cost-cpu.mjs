// npm run bench, the per-call fixed cost in headless Chromium by the main
// thread's CPU time (CDP Performance metrics in thread ticks): on a shared
// machine the wall-clock figures of fixed-cost.js move with the load, the CPU
// time a call takes much less. Rounds alternate the calls (fixed-cost.js's
// fixedCostCases), so ratios are side by side.
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../e2e/chromium.mjs';
import { serveStatic } from '../e2e/server.mjs';

const ROUNDS = 15;
const repo = fileURLToPath(new URL('../..', import.meta.url));

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))];
function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), low: quantile(sorted, 0.1), high: quantile(sorted, 0.9) };
}
const show = (s, digits, unit) =>
  `${s.median.toFixed(digits)}${unit} [${s.low.toFixed(digits)}-${s.high.toFixed(digits)}]`;

const browser = await launchChromium();
let ok = true;
try {
  const root = await serveStatic(repo);
  try {
    const page = await browser.newPage();
    await page.goto(`${root.url}tests/bench/fixed-cost.html`);
    const cases = await page.evaluate(async () => {
      const { load } = await import('/web/lib/index.js');
      const { fixedCostCases } = await import('/tests/bench/fixed-cost.js');
      const pe = await load();
      window.cases = fixedCostCases(pe);
      // Warm-up: JIT tiers, the options and writers kept.
      for (const { fn, calls } of window.cases) for (let i = 0; i < Math.min(calls, 300); i++) fn();
      return window.cases.map(({ name, calls }) => ({ name, calls }));
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const cpuSeconds = async () =>
      (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
    const times = cases.map(() => []);
    const ratios = [];
    for (let round = 0; round < ROUNDS; round++) {
      const now = [];
      for (const [i, { calls }] of cases.entries()) {
        const before = await cpuSeconds();
        await page.evaluate(
          ([i, calls]) => {
            const { fn } = window.cases[i];
            for (let k = 0; k < calls; k++) fn();
          },
          [i, calls],
        );
        now.push((((await cpuSeconds()) - before) / calls) * 1e6);
        times[i].push(now[i]);
      }
      ratios.push(
        now[cases.findIndex((c) => c.name === 'naive 512×128')] /
          now[cases.findIndex((c) => c.name === 'posenc 512×128')],
      );
    }
    const at = (name) => spread(times[cases.findIndex((c) => c.name === name)]);
    const version = browser.version();
    console.log(`Chromium ${version}, main-thread CPU time per call (median [p10-p90] of ${ROUNDS} rounds):`);
    const fixed = at('table 1×512');
    console.log(
      `${fixed.median <= 1.5 ? 'MET ' : 'MISS'} fixed cost: table 1×512 into a caller's array, same options: ${show(fixed, 2, ' µs')} (target ≤ 1.5 µs); 1×128 ${show(at('table 1×128'), 2, ' µs')}`,
    );
    console.log(
      `INFO same options each call: row(7) dModel 512 ${show(at('row(7) dModel 512'), 2, ' µs')}; ropeCache 1×128 ${show(at('ropeCache 1×128'), 2, ' µs')}`,
    );
    const ratio = spread(ratios);
    console.log(
      `${ratio.median >= 100 ? 'MET ' : 'MISS'} naive JS/posenc, table 512×128 float32 into a caller's array: ${show(ratio, 1, '×')} per round (posenc ${show(at('posenc 512×128'), 1, ' µs')}, naive ${show(at('naive 512×128'), 0, ' µs')}; target ≥ 100×)`,
    );
  } finally {
    await root.close();
  }
} catch (error) {
  ok = false;
  console.error(error);
} finally {
  await browser.close();
}
process.exit(ok ? 0 : 1);
