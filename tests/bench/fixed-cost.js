// The per-call fixed cost (what a call costs beyond its values) and what it
// does to the ratio against naive JS at 512 x 128, in Node (node.mjs) and
// headless Chromium (bench-page.js). Repeated calls use the same options
// object, as a caller in a loop does: posenc keeps what depends only on the
// options (docs/performance.md).

const ROUNDS = 15;

// Node: the process's CPU time too (ms), which a busy machine inflates far
// less than the wall-clock time (a process waiting for a core uses none).
const cpuClock =
  typeof process === 'object' && typeof process.cpuUsage === 'function'
    ? () => {
        const { user, system } = process.cpuUsage();
        return (user + system) / 1000;
      }
    : null;

/** µs per call of fn over one sample of `batch` calls: wall-clock, and CPU time (NaN where unknown). */
function sample(fn, batch) {
  const c0 = cpuClock?.();
  const t0 = performance.now();
  for (let i = 0; i < batch; i++) fn();
  const wall = ((performance.now() - t0) / batch) * 1000;
  return { wall, cpu: cpuClock ? ((cpuClock() - c0) / batch) * 1000 : NaN };
}

/** Calls per sample so that one lasts >= 5 ms (Chromium coarsens performance.now() to 0.1 ms). */
function batchFor(fn) {
  for (let i = 0; i < 200; i++) fn(); // warm-up: JIT tiers, the options and writer kept
  // The shorter of two timings decides: a pause of the process (a busy
  // machine) in one would otherwise leave the batch too small to time.
  let batch = 1;
  while (batch < 1 << 20 && Math.min(sample(fn, batch).wall, sample(fn, batch).wall) * batch < 5000) batch *= 2;
  return batch;
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))];
}

/** Median and spread (10th-90th percentile) of numbers. */
function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), low: quantile(sorted, 0.1), high: quantile(sorted, 0.9) };
}

/**
 * fns measured side by side: in each of ROUNDS rounds one sample of each, in
 * turn, so that load on the machine falls on all alike. Returns µs per call
 * of each (wall-clock and CPU time), and each round's ratios of the first's
 * time to each one's.
 */
function sideBySide(fns) {
  const batches = fns.map(batchFor);
  const runs = fns.map(() => ({ wall: [], cpu: [], ratio: [], cpuRatio: [] }));
  for (let round = 0; round < ROUNDS; round++) {
    const now = fns.map((fn, i) => sample(fn, batches[i]));
    now.forEach((t, i) => {
      runs[i].wall.push(t.wall);
      runs[i].cpu.push(t.cpu);
      runs[i].ratio.push(t.wall / now[0].wall);
      runs[i].cpuRatio.push(t.cpu / now[0].cpu);
    });
  }
  return {
    times: runs.map((r) => spread(r.wall)),
    cpu: cpuClock ? runs.map((r) => spread(r.cpu)) : null,
    ratios: runs.map((r) => spread(r.ratio)),
    cpuRatios: cpuClock ? runs.map((r) => spread(r.cpuRatio)) : null,
  };
}

// The formula, element by element: what a JS user writes first (as suite.js).
function naiveTable(out, length, d) {
  for (let pos = 0; pos < length; pos++)
    for (let j = 0; j < d; j++) {
      const angle = pos / Math.pow(10000, (2 * Math.floor(j / 2)) / d);
      out[pos * d + j] = j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }
}

/** Max |table - float64 reference| of a length x d table of the paper's convention. */
function tableError(table, length, d) {
  let worst = 0;
  for (let pos = 0; pos < length; pos++)
    for (let j = 0; j < d; j++) {
      const angle = pos / Math.pow(10000, (2 * Math.floor(j / 2)) / d);
      worst = Math.max(worst, Math.abs(table[pos * d + j] - (j % 2 === 0 ? Math.sin(angle) : Math.cos(angle))));
    }
  return worst;
}

/**
 * The calls measured, by name, for a runner that times them itself
 * (fixed-cost-cpu.mjs: Chromium's thread CPU time): each with the calls per
 * sample. `posenc 512×128` and `naive 512×128` make the ratio.
 */
export function fixedCostCases(pe) {
  const table1 = (dModel) => {
    const opts = { length: 1, dModel, out: new Float32Array(dModel) };
    return () => pe.table(opts);
  };
  const big = { length: 512, dModel: 128, out: new Float32Array(512 * 128) };
  const naiveOut = new Float32Array(512 * 128);
  const rowOpts = { dModel: 512, out: new Float32Array(512) };
  const ropeOpts = { headDim: 128, base: 500000, length: 1 };
  ropeOpts.out = { cos: new Float32Array(128), sin: new Float32Array(128) };
  return [
    { name: 'table 1×128', fn: table1(128), calls: 20000 },
    { name: 'table 1×512', fn: table1(512), calls: 20000 },
    { name: 'row(7) dModel 512', fn: () => pe.row(7, rowOpts), calls: 5000 },
    { name: 'ropeCache 1×128', fn: () => pe.ropeCache(ropeOpts), calls: 5000 },
    { name: 'posenc 512×128', fn: () => pe.table(big), calls: 200 },
    { name: 'naive 512×128', fn: () => naiveTable(naiveOut, 512, 128), calls: 3 },
  ];
}

const us = (s) => `${s.median.toFixed(2)} µs [${s.low.toFixed(2)}-${s.high.toFixed(2)}]`;
const times = (s) => `${s.median.toFixed(1)}× [${s.low.toFixed(1)}-${s.high.toFixed(1)}]`;

/**
 * Runs the fixed-cost measurements; returns result rows (as runSuite's:
 * `pass`, `accurate`) and logs one line for each.
 * @param {import('../../web/lib/index.js').Posenc} pe
 */
export function runFixedCost(pe, log = () => {}) {
  const results = [];
  const report = (row) => {
    results.push(row);
    log(row.line);
  };

  // A length-1 table: the call's fixed cost plus one row.
  for (const dModel of [128, 512]) {
    const opts = { length: 1, dModel, out: new Float32Array(dModel) };
    const { times: t, cpu } = sideBySide([() => pe.table(opts)]);
    const error = tableError(opts.out, 1, dModel);
    const target = dModel === 512 ? 1.5 : null;
    const pass = target === null || t[0].median <= target;
    report({
      what: `fixed cost: table 1×${dModel} float32 into a caller's array`,
      posencUs: t[0],
      pass,
      accurate: error <= 1.2e-7,
      cpuUs: cpu?.[0],
      line: `${target === null ? 'INFO' : pass ? 'MET ' : 'MISS'} fixed cost: table 1×${dModel} into a caller's array, same options: ${us(t[0])} per call${cpu ? ` (CPU time ${us(cpu[0])})` : ''} (median [p10-p90] of ${ROUNDS} samples${target === null ? '' : `; target ≤ ${target} µs`})`,
    });
  }

  // Other calls with the same options each time (no targets: reported).
  {
    const d = 512;
    const rowOut = new Float32Array(d);
    const rowOpts = { dModel: d, out: rowOut };
    const dotsOpts = { dModel: d, maxOffset: 0, out: new Float64Array(1) };
    const ropeOpts = { headDim: 128, base: 500000, length: 1 };
    ropeOpts.out = { cos: new Float32Array(128), sin: new Float32Array(128) };
    const { times: t, cpu } = sideBySide([
      () => pe.row(7, rowOpts),
      () => pe.offsetDots(dotsOpts),
      () => pe.ropeCache(ropeOpts),
    ]);
    report({
      what: 'fixed cost: row, offsetDots, ropeCache',
      pass: true,
      accurate: true,
      line: `INFO same options each call: row(7) dModel ${d} ${us(t[0])}; offsetDots dModel ${d}, one offset ${us(t[1])}; ropeCache 1×128 ${us(t[2])}${cpu ? ` (CPU time ${cpu.map(us).join('; ')})` : ''}`,
    });
  }

  // naive JS / posenc at 512 x 128 into the caller's array, round by round.
  {
    const [length, d] = [512, 128];
    const out = new Float32Array(length * d);
    const naiveOut = new Float32Array(length * d);
    const opts = { length, dModel: d, out };
    const { times: t, ratios, cpuRatios } = sideBySide([() => pe.table(opts), () => naiveTable(naiveOut, length, d)]);
    const error = tableError(out, length, d);
    const pass = ratios[1].median >= 100;
    report({
      what: `naive/posenc table ${length}×${d} into a caller's array`,
      posencUs: t[0],
      naiveUs: t[1],
      ratio: ratios[1],
      pass,
      accurate: error <= 1.2e-7,
      cpuRatio: cpuRatios?.[1],
      line: `${pass ? 'MET ' : 'MISS'} naive JS/posenc, table ${length}×${d} float32 into a caller's array: ${times(ratios[1])}${cpuRatios ? ` (CPU time ${times(cpuRatios[1])})` : ''} (posenc ${us(t[0])}, naive ${us(t[1])}; ratio per round, median [p10-p90] of ${ROUNDS}; target ≥ 100×)`,
    });
  }
  return results;
}
