// npm run bench, identify part (Node): pe.identify on the sizes issue #22
// sets targets for (512 x 768 <= 0.5 s, 8192 x 512 <= 1 s), on tables as
// frameworks make them. Medians of a few calls after one warm-up call, in
// CPU time of this process (what a shared machine's load changes least; wall
// time is printed next to it) with the load average.
// `node tests/bench/identify.mjs --identify <path to an identify.js>` times
// another version of identify() (e.g. main's) side by side, on the same tables.
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { load } from '../../web/lib/index.js';

const pe = await load();
// Another version to time side by side (alternating calls, same tables): --identify <path>.
const at = process.argv.indexOf('--identify');
const other = at > 0 ? (await import(pathToFileURL(process.argv[at + 1]).href)).identify.bind(null, pe) : null;
const identify = (data, length, dModel) => pe.identify(data, length, dModel);

const f = Math.fround;
// PyTorch's tutorial in its default dtype: every step rounded to float32.
function pytorchFloat32(length, d) {
  const step = f(-Math.log(10000) / d);
  const out = new Float32Array(length * d);
  for (let i = 0; i < d / 2; i++) {
    const w = f(Math.exp(f(2 * i * step)));
    for (let pos = 0; pos < length; pos++) {
      const angle = f(pos * w);
      out[pos * d + 2 * i] = Math.sin(angle);
      out[pos * d + 2 * i + 1] = Math.cos(angle);
    }
  }
  return out;
}
// tensor2tensor's get_timing_signal_1d in float32 (its base fits best as 10000.003 in float64).
function tensor2tensorFloat32(length, channels) {
  const n = channels / 2;
  const increment = f(Math.log(10000) / (n - 1));
  const out = new Float32Array(length * channels);
  for (let i = 0; i < n; i++) {
    const w = f(Math.exp(f(i * -increment)));
    for (let pos = 0; pos < length; pos++) {
      const angle = f(pos * w);
      out[pos * channels + i] = Math.sin(angle);
      out[pos * channels + n + i] = Math.cos(angle);
    }
  }
  return out;
}

const CASES = [
  ['PyTorch tutorial, float32 angles', 512, 768, pytorchFloat32, 500],
  ['paper, float64 angles cast to float32', 512, 768, (L, d) => pe.table({ length: L, dModel: d }), 500],
  ['tensor2tensor, float32 angles', 512, 768, tensor2tensorFloat32, 500],
  ['paper, float16 angles', 512, 768, (L, d) => pe.table({ length: L, dModel: d, angleDtype: 'float16' }), 500],
  ['paper, bfloat16 angles', 512, 768, (L, d) => pe.table({ length: L, dModel: d, angleDtype: 'bfloat16' }), 500],
  ['PyTorch tutorial, float32 angles', 8192, 512, pytorchFloat32, 1000],
  ['paper, float64 angles cast to float32', 8192, 512, (L, d) => pe.table({ length: L, dModel: d }), 1000],
  ['paper, float16 angles', 8192, 512, (L, d) => pe.table({ length: L, dModel: d, angleDtype: 'float16' }), 1000],
  ['paper, bfloat16 angles', 8192, 512, (L, d) => pe.table({ length: L, dModel: d, angleDtype: 'bfloat16' }), 1000],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const precision3 = (x) => Number(x.toPrecision(3));
const load3 = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`identify, load average ${load3()}${other ? `; side by side with ${process.argv[at + 1]}` : ''}`);
let allMet = true;
for (const [what, length, dModel, make, targetMs] of CASES) {
  const data = make(length, dModel);
  const versions = other ? [identify, other] : [identify];
  const answers = versions.map((version) => version(data, length, dModel)); // warm-up
  const times = versions.map(() => []);
  const walls = versions.map(() => []);
  for (let run = 0; run < 3; run++)
    versions.forEach((version, k) => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      version(data, length, dModel);
      walls[k].push(performance.now() - t0);
      const cpu = process.cpuUsage(cpu0);
      times[k].push((cpu.user + cpu.system) / 1000);
    });
  const ms = median(times[0]);
  const met = ms <= targetMs;
  allMet &&= met;
  const found = (answer) =>
    `${answer.preset ?? 'no preset'}, base ${answer.options.base}${answer.diagnosis.length ? `, ${answer.diagnosis.map((d) => d.code).join(' ')}` : ''}`;
  const versus = other
    ? `; other ${precision3(median(times[1]))} ms CPU (${(median(times[1]) / ms).toFixed(1)}× slower) → ${found(answers[1])}`
    : '';
  console.log(
    `${met ? 'MET ' : 'MISS'} identify ${length}×${dModel} ${what}: ${precision3(ms)} ms CPU (min ${precision3(Math.min(...times[0]))}; wall ${precision3(median(walls[0]))}; target ≤ ${targetMs} ms) → ${found(answers[0])}${versus}`,
  );
}
console.log(`load average after: ${load3()}`);
// A missed target under a high load average is reported, not failed: timings here scale with the load.
process.exitCode = allMet || loadavg()[0] > 2 ? 0 : 1;
