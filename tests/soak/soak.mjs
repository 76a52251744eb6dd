// Soak: 100,000 mixed calls of every function (valid, invalid, WasmArrays
// allocated and freed), then the wasm heap must be where it was after the
// warm-up. Run once by hand (about a minute here): node tests/soak/soak.mjs
// Figures go to docs/reliability.md.
import { codeSnippet, load, parseTable, toCsv } from '../../web/lib/index.js';

const CALLS = Number(process.argv[2] ?? 100000);
const pe = await load();
const presets = ['vaswani', 'tensor2tensor', 'fairseq', 'legacy-column', 'question', 'tf-tutorial'];
let errors = 0;

function call(i) {
  const preset = presets[i % presets.length];
  const dModel = 1 + ((i * 7) % 129);
  const length = 1 + ((i * 13) % 97);
  try {
    switch (i % 10) {
      case 0:
        return pe.table({ length, dModel, preset, dtype: i % 20 ? 'float32' : 'float64' });
      case 1:
        return pe.row(i * 0.37, { dModel, preset });
      case 2:
        return pe.frequencies({ dModel, preset });
      case 3:
        return pe.offsetDots({ dModel, preset, maxOffset: length, from: i % 5 });
      case 4:
        return pe.similarity({ length, dModel, preset });
      case 5: {
        const a = pe.allocate(length * dModel, { dtype: i % 3 ? 'float32' : 'float64' });
        pe.table({ length, dModel, preset, dtype: a.dtype, out: a });
        return a.free();
      }
      case 6:
        return parseTable(toCsv(pe.table({ length: 3, dModel: 4 }), 3, 4));
      case 7:
        return codeSnippet('numpy', { length, dModel, preset });
      case 8:
        // Bad input: every kind of refusal must leave nothing behind.
        return pe.table({ length: -i, dModel, preset });
      default:
        return i % 1000 === 9
          ? pe.identify(pe.table({ length: 8, dModel: 4 }), 8, 4)
          : pe.row(1, { dModel: Object.create(null) });
    }
  } catch (error) {
    if (!(error instanceof TypeError || error instanceof RangeError) || !/^posenc\.\w+: /.test(error.message))
      throw error;
    errors++;
  }
}

for (let i = 0; i < 2000; i++) call(i); // warm-up: the allocator settles
const before = pe.heapBytes();
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const samples = [];
for (let i = 0; i < CALLS; i++) {
  call(i);
  if (i % (CALLS / 10) === 0) samples.push(pe.heapBytes());
}
const seconds = (performance.now() - started) / 1000;
const after = pe.heapBytes();
console.log(
  JSON.stringify({
    calls: CALLS,
    seconds: Number(seconds.toFixed(1)),
    refusals: errors,
    heapBytesBefore: before,
    heapBytesAfter: after,
    heapBytesSamples: samples,
    rssMiBBefore: Math.round(rssBefore / 2 ** 20),
    rssMiBAfter: Math.round(process.memoryUsage().rss / 2 ** 20),
  }),
);
if (after !== before) {
  console.error(`soak: the wasm heap grew from ${before} to ${after} bytes`);
  process.exit(1);
}
