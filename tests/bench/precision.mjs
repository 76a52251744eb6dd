// node tests/bench/precision.mjs [baseline web/lib folder]: what the precision
// knobs cost. The default (float64) paths against a baseline build of the
// library, if given (e.g. main's web/lib with its wasm built), run alternately
// in one process so that both see the same load; and the rounded paths against
// the default ones. Medians of 15 runs (RUNS=n for more), in ms.
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { load } from '../../web/lib/index.js';

async function loadFrom(root) {
  const lib = await import(pathToFileURL(`${root}/index.js`).href);
  return lib.load({ wasmBinary: await readFile(`${root}/wasm/posenc-simd.wasm`) });
}

const current = await load();
const baseline = process.argv[2] ? await loadFrom(process.argv[2]) : null;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Medians of `runs` alternating timings of each function (after one warm-up each). */
function timeSide(fns, runs = Number(process.env.RUNS ?? 15)) {
  const times = fns.map(() => []);
  fns.forEach((fn) => fn());
  // Each run starts with another function, so that none is always timed first (or right after another).
  for (let r = 0; r < runs; r++)
    for (let step = 0; step < fns.length; step++) {
      const k = (r + step) % fns.length;
      const t0 = performance.now();
      fns[k]();
      times[k].push(performance.now() - t0);
    }
  return times.map(median);
}

const f32 = new Float32Array(8192 * 1024);
const f64 = new Float64Array(512 * 768);
const cache = { cos: new Float32Array(8192 * 128), sin: new Float32Array(8192 * 128) };
const cases = [
  ['table 8192×1024 float32', (pe, extra = {}) => pe.table({ length: 8192, dModel: 1024, out: f32, ...extra })],
  [
    'table 512×768 float64',
    (pe, extra = {}) => pe.table({ length: 512, dModel: 768, dtype: 'float64', out: f64, ...extra }),
  ],
  [
    'ropeCache 8192×128 float32',
    (pe, extra = {}) => pe.ropeCache({ headDim: 128, length: 8192, out: cache, ...extra }),
  ],
];
const half = { positionDtype: 'float16', frequencyDtype: 'float16', angleDtype: 'float16' };
const float32 = { positionDtype: 'float32', frequencyDtype: 'float32', angleDtype: 'float32' };
console.log(`Node ${process.version}, SIMD ${current.simd}`);
for (const [what, run] of cases) {
  if (baseline) {
    const [base, now] = timeSide([() => run(baseline), () => run(current)]);
    console.log(
      `${what}, default: baseline ${base.toFixed(2)} ms, this build ${now.toFixed(2)} ms (ratio ${(now / base).toFixed(3)})`,
    );
  }
  const [exact, rounded16, rounded32] = timeSide([
    () => run(current),
    () => run(current, half),
    () => run(current, float32),
  ]);
  console.log(
    `${what}: exact ${exact.toFixed(2)} ms, float16 steps ${rounded16.toFixed(2)} ms, float32 steps ${rounded32.toFixed(2)} ms`,
  );
}
