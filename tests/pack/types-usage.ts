// Type-checked (tsc --strict) against the installed package by pack.test.mjs:
// the documented uses compile with the right result types, and the misuses
// marked @ts-expect-error are type errors (tsc fails if one compiles).
import { codeSnippet, identify, load, PRESETS, type Dtype, type Posenc, type WasmArray } from 'posenc';
import type { PosencPlotElement } from 'posenc/elements';

const pe: Posenc = await load({ simd: true });

const f32: Float32Array = pe.table({ length: 4, dModel: 8 });
const f64: Float64Array = pe.table({ length: 4, dModel: 8, dtype: 'float64' });
const row64: Float64Array = pe.row(1.5, { dModel: 8, dtype: 'float64', preset: 'fairseq' });
const chosen: Dtype = Math.random() < 0.5 ? 'float32' : 'float64';
const either: Float32Array | Float64Array = pe.table({ length: 4, dModel: 8, dtype: chosen });
// @ts-expect-error: with a dtype chosen at run time the result may be a Float64Array.
const notKnown: Float32Array = pe.table({ length: 4, dModel: 8, dtype: chosen });

const buffer: WasmArray<Float64Array> = pe.allocate(32, { dtype: 'float64' });
const inPlace: Float64Array = pe.table({ length: 4, dModel: 8, dtype: 'float64', out: buffer });
// @ts-expect-error: a float64 WasmArray needs dtype 'float64' (else a TypeError at run time).
pe.table({ length: 4, dModel: 8, out: buffer });
// @ts-expect-error: a Float32Array cannot take float64 values.
pe.table({ length: 4, dModel: 8, dtype: 'float64', out: new Float32Array(32) });

const dots: Float64Array = pe.offsetDots({ dModel: 8, maxOffset: 10, minOffset: -10, from: 3 });
// One options object for table and the functions of its rows: length is ignored where there is none.
const shared = { dModel: 8, length: 4, preset: 'tensor2tensor' } as const;
pe.offsetDots({ ...shared, maxOffset: 3 });
pe.frequencies(shared);
// @ts-expect-error: frequencies are float64.
pe.frequencies({ dModel: 8, dtype: 'float32' });
// @ts-expect-error: maxOffset is required.
pe.offsetDots({ dModel: 8 });
// @ts-expect-error: unknown option.
pe.table({ length: 4, dModel: 8, lenght: 5 });
const sim: Float32Array = pe.similarity({ length: 4, dModel: 8, out: pe.allocate(16) });
const padded: Float32Array = pe.table({ length: 4, dModel: 7, oddColumn: 'zero' });
// @ts-expect-error: oddColumn is 'formula' or 'zero'.
pe.table({ length: 4, dModel: 7, oddColumn: 'pad' });

const rope = {
  headDim: 128,
  base: 500000,
  scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 },
} as const;
const ropeCos: Float32Array = pe.ropeCache({ ...rope, length: 16 }).cos;
const ropeSin64: Float64Array = pe.ropeCache({ ...rope, length: 16, dtype: 'float64' }).sin;
const rotated: Float64Array = pe.ropeApply(new Float64Array(256), { ...rope, heads: 2, layout: 'interleaved' });
const invFreq: Float64Array = pe.ropeFrequencies(rope).invFreq;
const bound: Float64Array = pe.ropeScores({ ...rope, maxOffset: 10 }).bound;
const fromConfig = pe.ropeFromConfig({ hidden_size: 4096, num_attention_heads: 32 });
pe.ropeCache({ ...fromConfig.options, length: 4 });
const ropeCode: string = codeSnippet('numpy', { ...rope, length: 16, layout: 'interleaved' });
// @ts-expect-error: RoPE snippets are NumPy only.
codeSnippet('jax', { ...rope, length: 16 });
// @ts-expect-error: the layouts are 'half' and 'interleaved'.
pe.ropeCache({ ...rope, length: 16, layout: 'concat' });
// @ts-expect-error: length is required.
pe.ropeCache(rope);

const id = identify(pe, f32, 4, 8);
const code: string = codeSnippet('numpy', { length: 4, dModel: 8, ...PRESETS.fairseq, paddingRow: 1 });
const element: PosencPlotElement | null = document.querySelector('posenc-heatmap');
buffer.free();

export const used = [
  f64,
  row64,
  either,
  notKnown,
  inPlace,
  dots,
  sim,
  padded,
  id.diagnosis[0]?.code,
  code,
  element,
  ropeCos,
  ropeSin64,
  rotated,
  invFreq,
  bound,
  fromConfig.warnings[0]?.code,
  ropeCode,
];
