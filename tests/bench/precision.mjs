// node tests/bench/precision.mjs [baseline web/lib folder]: what the precision
// knobs cost. Every path (exact, and with positions, frequencies or angles
// rounded) of table, row, offsetDots and ropeCache, against a baseline build
// of the library if given (e.g. main's web/lib with its wasm built), run
// alternately in one process so that both see the same load. Medians of 15
// runs (RUNS=n for more), in ms of CPU time of this process (wall time
// counts the other processes of a shared machine), with the load average.
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
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

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Medians of `runs` alternating timings of each function (after one warm-up each). */
function timeSide(fns, runs = Number(process.env.RUNS ?? 15)) {
  const times = fns.map(() => []);
  fns.forEach((fn) => fn());
  // Each run starts with another function, so that none is always timed first (or right after another).
  for (let r = 0; r < runs; r++)
    for (let step = 0; step < fns.length; step++) {
      const k = (r + step) % fns.length;
      const t0 = cpuMs();
      fns[k]();
      times[k].push(cpuMs() - t0);
    }
  return times.map(median);
}

const f32 = new Float32Array(8192 * 1024);
const f64 = new Float64Array(512 * 768);
const cache = { cos: new Float32Array(8192 * 128), sin: new Float32Array(8192 * 128) };
const dots = new Float64Array(4096);
const cases = [
  ['table 8192×1024 float32', (pe, extra) => pe.table({ length: 8192, dModel: 1024, out: f32, ...extra })],
  [
    'table 512×768 float64',
    (pe, extra) => pe.table({ length: 512, dModel: 768, dtype: 'float64', out: f64, ...extra }),
  ],
  [
    'row ×1024 (positions 0…1023), dModel 1024',
    (pe, extra) => {
      for (let p = 0; p < 1024; p++) pe.row(p, { dModel: 1024, ...extra });
    },
  ],
  [
    'offsetDots 4096 offsets, dModel 512',
    (pe, extra) => pe.offsetDots({ dModel: 512, maxOffset: 4095, out: dots, ...extra }),
  ],
  ['ropeCache 8192×128 float32', (pe, extra) => pe.ropeCache({ headDim: 128, length: 8192, out: cache, ...extra })],
];
const paths = [
  ['exact', {}],
  ['float16 steps', { positionDtype: 'float16', frequencyDtype: 'float16', angleDtype: 'float16' }],
  ['float16 angles', { angleDtype: 'float16' }],
  ['bfloat16 angles', { angleDtype: 'bfloat16' }],
  ['bfloat16 positions', { positionDtype: 'bfloat16' }],
  ['float32 steps', { positionDtype: 'float32', frequencyDtype: 'float32', angleDtype: 'float32' }],
];
const load3 = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`Node ${process.version}, SIMD ${current.simd}, load average ${load3()}`);
for (const [what, run] of cases) {
  if (baseline) {
    for (const [path, extra] of paths) {
      const [base, now] = timeSide([() => run(baseline, extra), () => run(current, extra)]);
      console.log(
        `${what}, ${path}: baseline ${base.toFixed(2)} ms, this build ${now.toFixed(2)} ms (baseline / this ${(base / now).toFixed(2)}×)`,
      );
    }
  } else {
    const times = timeSide(
      paths.map(
        ([, extra]) =>
          () =>
            run(current, extra),
      ),
    );
    console.log(`${what}: ${paths.map(([path], k) => `${path} ${times[k].toFixed(2)} ms`).join(', ')}`);
  }
}
console.log(`load average after: ${load3()}`);
