/** Where the two members of a (sin, cos) pair go in a row. */
export type Layout = 'interleaved' | 'concat';
/** What the exponent e of w = base^(-e) is computed from: pair i (2i/d), pair i over d/2 - 1, or column j (2j/d). */
export type Exponent = 'pair' | 'half-minus-one' | 'column';
/** Which function comes first in a pair. */
export type Order = 'sin-cos' | 'cos-sin';
/** 'divide': pos / base^e (correct). 'ratio-power': (pos / base)^e (the Q&A attempt's mistake). */
export type Angle = 'divide' | 'ratio-power';
export type Dtype = 'float32' | 'float64';
export type PresetName = 'vaswani' | 'tensor2tensor' | 'tf-tutorial' | 'fairseq' | 'legacy-column' | 'question';

/** Every knob of a convention, as a preset fixes them. */
export interface Convention {
  layout: Layout;
  exponent: Exponent;
  order: Order;
  angle: Angle;
  /** Ratio of the longest to the shortest timescale; > 1. Default 10000. */
  base: number;
  /** Position of table row 0. Default 0. */
  start: number;
  /** Table row set to zeros, or null for none. */
  paddingRow: number | null;
  /** Every value is multiplied by this (e.g. Math.sqrt(dModel)). Default 1. */
  scale: number;
}

export interface EncodingOptions extends Partial<Convention> {
  /** Width of a row: an integer in [1, 1048576]. Odd widths leave the last column zero. */
  dModel: number;
  /** Named convention; explicit knobs override it. Default 'vaswani'. */
  preset?: PresetName;
  /** tensor2tensor's timescales instead of base: base = max / min, frequencies scaled by min. */
  minTimescale?: number;
  maxTimescale?: number;
}

export interface TableOptions extends EncodingOptions {
  /** Number of rows: an integer >= 1. */
  length: number;
  dtype?: Dtype;
  /** A buffer to fill instead of allocating one (exact length, type matching dtype). */
  out?: Float32Array | Float64Array;
}

export interface RowOptions extends EncodingOptions {
  dtype?: Dtype;
  out?: Float32Array | Float64Array;
}

export interface FrequencyOptions extends EncodingOptions {
  out?: Float64Array;
}

export interface OffsetDotsOptions extends EncodingOptions {
  /** Largest offset k: an integer >= 0. */
  maxOffset: number;
  /** Starting position p of s(k) = PE(p) . PE(p + k). Default 0. */
  from?: number;
  out?: Float64Array;
}

export interface SimilarityOptions extends EncodingOptions {
  length: number;
  dtype?: 'float32';
  out?: Float32Array;
}

export interface Posenc {
  /** True when the WebAssembly SIMD build is running. */
  readonly simd: boolean;
  /** The [length x dModel] table, row-major. Float64Array when dtype is 'float64'. */
  table(opts: TableOptions & { dtype: 'float64' }): Float64Array;
  table(opts: TableOptions): Float32Array;
  /** One row at any real position (fractional, negative, beyond the table). */
  row(position: number, opts: RowOptions & { dtype: 'float64' }): Float64Array;
  row(position: number, opts: RowOptions): Float32Array;
  /** Angular frequency of each column (0 for a zero column, NaN where angle is 'ratio-power'). */
  frequencies(opts: FrequencyOptions): Float64Array;
  /** s(k) = PE(from) . PE(from + k) for k = 0..maxOffset, in float64. */
  offsetDots(opts: OffsetDotsOptions): Float64Array;
  /** The [length x length] matrix of row dot products, row-major. */
  similarity(opts: SimilarityOptions): Float32Array;
  /** Bytes allocated inside the wasm heap (for leak checks). */
  heapBytes(): number;
}

export interface LoadOptions {
  /** Where to fetch the .wasm from (browser); default: beside this module. */
  wasmUrl?: string | URL;
  /** The .wasm bytes, if you already have them. */
  wasmBinary?: ArrayBuffer | ArrayBufferView;
  /** Force the SIMD (true) or scalar (false) build; default: SIMD where supported. */
  simd?: boolean;
}

/** Loads and instantiates the module once; later calls return the same promise. */
export function load(options?: LoadOptions): Promise<Posenc>;
/** Whether this engine validates WebAssembly SIMD. */
export function simdSupported(): boolean;

export const PRESETS: Readonly<Record<PresetName, Readonly<Convention>>>;
export const PRESET_NAMES: readonly PresetName[];
export const LAYOUTS: readonly Layout[];
export const EXPONENTS: readonly Exponent[];
export const ORDERS: readonly Order[];
export const ANGLES: readonly Angle[];
export const DTYPES: readonly Dtype[];
