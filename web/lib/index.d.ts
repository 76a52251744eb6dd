/** Where the two members of a (sin, cos) pair go in a row. */
export type Layout = 'interleaved' | 'concat';
/** What the exponent e of w = base^(-e) is computed from: pair i (2i/d), pair i over d/2 - 1, or column j (2j/d). */
export type Exponent = 'pair' | 'half-minus-one' | 'column';
/** Which function comes first in a pair. */
export type Order = 'sin-cos' | 'cos-sin';
/** 'divide': pos / base^e (correct). 'ratio-power': (pos / base)^e (the Q&A attempt's mistake). */
export type Angle = 'divide' | 'ratio-power';
/**
 * The last column of an odd dModel, which has no partner: 'formula' continues
 * PE(pos, 2i) to 2i = d - 1 (the first function of pair (d-1)/2: sin, or cos
 * with order 'cos-sin'); 'zero' leaves it zero, as tensor2tensor and fairseq pad.
 */
export type OddColumn = 'formula' | 'zero';
export type Dtype = 'float32' | 'float64';
/** A format a value is rounded to between steps (docs/precision.md). */
export type PrecisionDtype = 'float64' | 'float32' | 'float16' | 'bfloat16';

/**
 * How a framework's dtypes round the angles: each step's result rounded to
 * nearest, ties to even, before the next step. All 'float64' (the default):
 * the exact table. sin and cos of the rounded angle are exact; the output is
 * rounded to `dtype`.
 */
export interface PrecisionOptions {
  /** The exponent e of w = base^(-e) (e.g. 2i/d computed in float32). Default 'float64'. */
  exponentDtype?: PrecisionDtype;
  /** The frequency w (e.g. an inv_freq buffer cast to float16). Default 'float64'. */
  frequencyDtype?: PrecisionDtype;
  /** The position (float16: above 2048 spacing 2, from 65520 +Infinity; bfloat16: 256 and 257 are one). Default 'float64'. */
  positionDtype?: PrecisionDtype;
  /** The product position · w. Default 'float64'. */
  angleDtype?: PrecisionDtype;
}

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
  /** The last column of an odd dModel (ignored when dModel is even). */
  oddColumn: OddColumn;
}

export interface EncodingOptions extends Partial<Convention>, PrecisionOptions {
  /** Width of a row: an integer in [1, 1048576]. For an odd width, see `oddColumn`. */
  dModel: number;
  /**
   * Rows of a table (table, similarity). The other functions ignore it, so
   * that one options object serves them all (a dtype must still suit each);
   * any other option of another function (e.g. `from` on table) throws a TypeError.
   */
  length?: number;
  /** Named convention; explicit knobs override it. Default 'vaswani'. */
  preset?: PresetName;
  /** tensor2tensor's timescales instead of base: base = max / min, frequencies scaled by min. */
  minTimescale?: number;
  maxTimescale?: number;
}

/**
 * out: a buffer to fill instead of allocating one (exact length, of the
 * dtype's type). A WasmArray (pe.allocate) is written in place, without the
 * copy out of wasm memory; the call then returns its `.array`.
 */
export type TableOutput =
  | { dtype?: 'float32'; out?: Float32Array | WasmArray<Float32Array> }
  | { dtype: 'float64'; out?: Float64Array | WasmArray<Float64Array> };

export type TableOptions = EncodingOptions & {
  /** Number of rows: an integer >= 1. */
  length: number;
} & TableOutput;

/**
 * table({ ..., positions }): one row per position (any finite reals, |p| <= 2^53, descending and
 * negative ones too, e.g. ESPnet's relative L-1 … -(L-1)); rows at the padding row's position are
 * zeros. Neither start nor out; length, if given, must equal positions.length.
 */
export type TableAtPositionsOptions = EncodingOptions & {
  positions: ArrayLike<number>;
  length?: number;
  dtype?: Dtype;
};

export type TimestepPresetName = 'diffusers' | 'guided-diffusion' | 'improved-diffusion' | 'dit' | 'latent-diffusion';

/** Diffusion timestep embeddings, with the knobs of diffusers' get_timestep_embedding. */
export interface TimestepOptions {
  /** The timesteps, integers or not (|t| <= 2^53): one row each. */
  timesteps: ArrayLike<number>;
  /** Width of a row: an integer in [1, 1048576]; an odd dim ends in a zero column. */
  dim: number;
  /** 'diffusers' (default: sin first, shift 1) or one of the [cos | sin], shift 0 implementations. */
  preset?: TimestepPresetName;
  /** Frequencies maxPeriod^(-i / (floor(dim/2) - downscaleFreqShift)); finite > 0. Default 10000. */
  maxPeriod?: number;
  /** [cos | sin] instead of [sin | cos]. */
  flipSinToCos?: boolean;
  /** Default 1 (diffusers); 0 in the other presets. Must differ from floor(dim / 2). */
  downscaleFreqShift?: number;
  /** Multiplies every angle (not the values), e.g. 1000 for timesteps in [0, 1]. Default 1. */
  scale?: number;
  dtype?: Dtype;
}

export type AxisOrder = 'w-h' | 'h-w';
export type GridPresetName = 'mae' | 'dit' | 'diffusers';

/** A 2-D sin-cos grid as MAE, DiT and diffusers' get_2d_sincos_pos_embed make it. */
export interface Grid2dOptions {
  /** Width of a row: a multiple of 4 (each axis gets dim/2 columns, [sin | cos]). */
  dim: number;
  /** Patches down and across: integers in [1, 16384]. Row extraTokens + y * width + x is patch (y, x). */
  height: number;
  width: number;
  /** 'mae' and 'dit' (integer coordinates) or 'diffusers' (base size 16, float32 coordinates). */
  preset?: GridPresetName;
  /** Which coordinate the first dim/2 columns hold: 'w-h' (the column index, as MAE, DiT and diffusers do) or 'h-w'. */
  axisOrder?: AxisOrder;
  /** Zero rows before the patches (class or register tokens). Default 0. */
  extraTokens?: number;
  /** Coordinates index / (size / baseSize) / interpolationScale (diffusers, PixArt); null: index / interpolationScale. */
  baseSize?: number | null;
  interpolationScale?: number;
  /** Default 10000. */
  base?: number;
  /** The coordinates in float64, or in float32 steps as diffusers' NumPy code forms them. */
  coordinateDtype?: 'float64' | 'float32';
  /**
   * The grid size a checkpoint was made at: the grid is made at that size, then resized to
   * height x width as MAE's interpolate_pos_embed does (pe.resizeGrid). Default: none.
   */
  resizedFrom?: { height: number; width: number };
  dtype?: Dtype;
}

export type Grid3dPresetName = 'diffusers' | 'cogvideox';

/** A 3-D sin-cos grid as diffusers' get_3d_sincos_pos_embed (CogVideoX) makes it. */
export interface Grid3dOptions {
  /** Width of a row: a multiple of 16 ([temporal dim/4 | spatial 3*dim/4], each [sin | cos] pairs). */
  dim: number;
  /** Frames, patches down and across: integers in [1, 16384]. Row extraTokens + (t * height + y) * width + x. */
  frames: number;
  height: number;
  width: number;
  /** 'diffusers' (both scales 1) or 'cogvideox' (spatial scale 1.875); both float32 coordinates. */
  preset?: Grid3dPresetName;
  /** Which coordinate the first half of the spatial columns holds: 'w-h' (diffusers) or 'h-w'. */
  axisOrder?: AxisOrder;
  /** Zero rows before the patches (CogVideoX's text tokens). Default 0. */
  extraTokens?: number;
  /** x and y are index / spatialInterpolationScale, t is index / temporalInterpolationScale. */
  spatialInterpolationScale?: number;
  temporalInterpolationScale?: number;
  /** Default 10000. */
  base?: number;
  /** The coordinates in float64, or rounded to float32 as torch.arange(float32) / scale rounds them. */
  coordinateDtype?: 'float64' | 'float32';
  dtype?: Dtype;
}

/** pe.resizeGrid: a grid's table of (extraTokens + height * width) rows of dim values, resized. */
export interface ResizeGridOptions {
  dim: number;
  /** The table's grid. */
  height: number;
  width: number;
  /** The grid to resize it to (bicubic, PyTorch's align_corners=False, A = -0.75). */
  toHeight: number;
  toWidth: number;
  /** Leading rows kept as they are (class tokens). Default 0. */
  extraTokens?: number;
  dtype?: Dtype;
}

export type RowOptions = EncodingOptions &
  ({ dtype?: 'float32'; out?: Float32Array } | { dtype: 'float64'; out?: Float64Array });

export interface FrequencyOptions extends EncodingOptions {
  /** Frequencies are float64; dtype, if given, must say so. */
  dtype?: 'float64';
  out?: Float64Array;
}

export interface OffsetDotsOptions extends EncodingOptions {
  /** Largest offset k: an integer >= minOffset. */
  maxOffset: number;
  /** Smallest offset k (may be negative). Default 0. */
  minOffset?: number;
  /** Starting position p of s(k) = PE(p) . PE(p + k). Default 0. */
  from?: number;
  /** s(k) is float64; dtype, if given, must say so. */
  dtype?: 'float64';
  out?: Float64Array;
}

export interface SimilarityOptions extends EncodingOptions {
  length: number;
  dtype?: 'float32';
  /** As for TableOptions.out: a Float32Array, or a float32 WasmArray written in place. */
  out?: Float32Array | WasmArray<Float32Array>;
}

/**
 * An array in the module's own memory (pe.allocate). Read `.array` each time
 * you use it: a view of wasm memory is detached (length 0) when the memory
 * grows, which any posenc call that allocates may do.
 */
export interface WasmArray<T extends Float32Array | Float64Array = Float32Array | Float64Array> {
  /** The values: a view of wasm memory, valid until the memory next grows. Throws after free(). */
  readonly array: T;
  readonly length: number;
  readonly dtype: T extends Float64Array ? 'float64' : 'float32';
  readonly freed: boolean;
  /**
   * Gives the memory back; later calls do nothing. Call it: a dropped array's
   * memory comes back only after a garbage collection, between tasks (never
   * within a synchronous loop), and wasm memory does not prompt collections;
   * when the memory is full, allocate() throws a RangeError saying so.
   */
  free(): void;
}

export type RopeScalingType = 'default' | 'linear' | 'dynamic' | 'yarn' | 'longrope' | 'llama3';
/** 'half': HF rotate_half / GPT-NeoX ([c0..c(n-1), c0..c(n-1)]); 'interleaved': GPT-J / RoFormer ([c0, c0, c1, c1, ...]). */
export type RopeLayout = 'half' | 'interleaved';

/** A RoPE frequency scaling, as Hugging Face's rope_scaling / rope_parameters (camelCase). */
export interface RopeScaling {
  type?: RopeScalingType;
  /** linear, dynamic, llama3: required. yarn, longrope: default maxPositionEmbeddings / originalMaxPositionEmbeddings. */
  factor?: number;
  /** yarn, longrope, llama3: the pretraining context; default maxPositionEmbeddings. */
  originalMaxPositionEmbeddings?: number;
  /** dynamic: required. */
  maxPositionEmbeddings?: number;
  /** yarn. Default 32 and 1. */
  betaFast?: number;
  betaSlow?: number;
  /** yarn: the attention factor is get_mscale(factor, mscale) / get_mscale(factor, mscaleAllDim) when both are non-zero. */
  mscale?: number;
  mscaleAllDim?: number;
  /** yarn, longrope: used as is instead of the derived factor. */
  attentionFactor?: number;
  /** yarn: floor/ceil the correction range. Default true. */
  truncate?: boolean;
  /** llama3: required, highFreqFactor > lowFreqFactor. */
  lowFreqFactor?: number;
  highFreqFactor?: number;
  /** longrope: rotaryDim / 2 numbers each; long ones once seqLen > originalMaxPositionEmbeddings. */
  shortFactor?: ArrayLike<number>;
  longFactor?: ArrayLike<number>;
}

export interface RopeOptions extends PrecisionOptions {
  /** Dims per head: an integer in [2, 65536]. Or give hiddenSize and numHeads (headDim = floor(hiddenSize / numHeads)). */
  headDim?: number;
  hiddenSize?: number;
  numHeads?: number;
  /** rope_theta; > 1. Default 10000. */
  base?: number;
  /** In (0, 1]. rotaryDim = floor(headDim * factor) rounded down to even. Default 1. */
  partialRotaryFactor?: number;
  /** Sequence length, for dynamic (base grows above maxPositionEmbeddings) and longrope (long factors above the original length). */
  seqLen?: number;
  scaling?: RopeScaling;
}

export type RopeCacheOptions = RopeOptions & {
  /** Rows: an integer >= 1. */
  length: number;
  /** Position of row 0. Default 0. */
  start?: number;
  layout?: RopeLayout;
} & (
    | { dtype?: 'float32'; out?: { cos: Float32Array; sin: Float32Array } }
    | { dtype: 'float64'; out?: { cos: Float64Array; sin: Float64Array } }
  );

export interface RopeApplyOptions<
  T extends Float32Array | Float64Array = Float32Array | Float64Array,
> extends RopeOptions {
  /** Position of each token; or `start` for start, start + 1, ... (default 0). */
  positions?: ArrayLike<number>;
  start?: number;
  /** Heads per token. Default 1. */
  heads?: number;
  layout?: RopeLayout;
  /** Written instead of a new array (may be x itself). */
  out?: T;
}

export interface RopeScoresOptions extends RopeOptions {
  /** Largest offset k: an integer >= 0. */
  maxOffset: number;
  /** Position of q. Default 0. */
  from?: number;
}

export type RopeWarningCode =
  | 'rope-theta-missing'
  | 'unknown-scaling-type'
  | 'legacy-type'
  | 'yarn-factor-mismatch'
  | 'llama3-fields-missing'
  | 'longrope-factor-length'
  | 'longrope-depends-on-length'
  | 'dynamic-depends-on-length'
  | 'odd-rotary-dim'
  | 'odd-head-dim'
  | 'local-rope-base'
  | 'per-layer-rope'
  | 'text-config'
  | 'interleaved-layout';

export interface LeastSquaresOptions {
  /** Rows of both matrices (positions, say): an integer >= 1. */
  rows: number;
  /** rows x m numbers, row-major: the columns that may be combined. */
  inputs: ArrayLike<number>;
  /** rows x t numbers, row-major: the columns to reach. */
  targets: ArrayLike<number>;
  /** The fit stops once every remaining input column is below this fraction of the largest (the numerical rank). In [0, 1); default 1e-9. */
  rankTolerance?: number;
}

export interface Posenc {
  /** True when the WebAssembly SIMD build is running. */
  readonly simd: boolean;
  /** The [length x dModel] table, row-major. Float64Array when dtype is 'float64'. */
  table(opts: TableOptions & { dtype: 'float64' }): Float64Array;
  table(opts: TableOptions & { dtype?: 'float32' }): Float32Array;
  table(opts: TableOptions): Float32Array | Float64Array;
  /** Rows at any positions: [positions.length x dModel]. */
  table(opts: TableAtPositionsOptions & { dtype: 'float64' }): Float64Array;
  table(opts: TableAtPositionsOptions & { dtype?: 'float32' }): Float32Array;
  /** Timestep embeddings, [timesteps.length x dim], row-major. */
  timestepEmbedding(opts: TimestepOptions & { dtype: 'float64' }): Float64Array;
  timestepEmbedding(opts: TimestepOptions & { dtype?: 'float32' }): Float32Array;
  /** A 2-D sin-cos grid: [(extraTokens + height * width) x dim], row-major. */
  sincosGrid2d(opts: Grid2dOptions & { dtype: 'float64' }): Float64Array;
  sincosGrid2d(opts: Grid2dOptions & { dtype?: 'float32' }): Float32Array;
  /** A 3-D sin-cos grid: [(extraTokens + frames * height * width) x dim], row-major. */
  sincosGrid3d(opts: Grid3dOptions & { dtype: 'float64' }): Float64Array;
  sincosGrid3d(opts: Grid3dOptions & { dtype?: 'float32' }): Float32Array;
  /**
   * A grid's table resized to toHeight x toWidth as MAE's interpolate_pos_embed does
   * (torch.nn.functional.interpolate, mode 'bicubic', align_corners=False), extra rows kept:
   * [(extraTokens + toHeight * toWidth) x dim], computed in float64.
   */
  resizeGrid(table: ArrayLike<number>, opts: ResizeGridOptions & { dtype: 'float64' }): Float64Array;
  resizeGrid(table: ArrayLike<number>, opts: ResizeGridOptions & { dtype?: 'float32' }): Float32Array;
  /**
   * One row at any real position (fractional, negative, beyond the table; >= 0
   * with angle 'ratio-power'); all zeros at the padding row's position, start + paddingRow.
   */
  row(position: number, opts: RowOptions & { dtype: 'float64' }): Float64Array;
  row(position: number, opts: RowOptions & { dtype?: 'float32' }): Float32Array;
  row(position: number, opts: RowOptions): Float32Array | Float64Array;
  /** Angular frequency of each column (0 for a zero column, NaN where angle is 'ratio-power'). */
  frequencies(opts: FrequencyOptions): Float64Array;
  /** s(k) = PE(from) . PE(from + k) for k = minOffset..maxOffset (index k - minOffset), in float64. */
  offsetDots(opts: OffsetDotsOptions): Float64Array;
  /** The [length x length] matrix of row dot products, row-major. */
  similarity(opts: SimilarityOptions): Float32Array;
  /** `count` values in the module's own memory, for table()/similarity() to write in place (no copy). */
  allocate(count: number, opts: { dtype: 'float64' }): WasmArray<Float64Array>;
  allocate(count: number, opts?: { dtype?: 'float32' }): WasmArray<Float32Array>;
  /** Bytes allocated inside the wasm heap (for leak checks), after dropping the writers kept for repeated options. */
  heapBytes(): number;
  /** Which convention, base, start, padding row and scale explain a row-major [length x dModel] table. */
  identify(data: TableData, length: number, dModel: number): Identification;
  /** Per target column, the norm of what its least-squares projection on the span of the input columns leaves; and that span's numerical rank. */
  leastSquaresResiduals(opts: LeastSquaresOptions): { residuals: Float64Array; rank: number };
  /** Inverse frequencies (rotaryDim / 2, float64) and the attention factor cos and sin are multiplied by, as Hugging Face computes them. */
  ropeFrequencies(opts: RopeOptions): { invFreq: Float64Array; attentionFactor: number; rotaryDim: number };
  /** cos and sin caches, [length x rotaryDim] each, row-major, times the attention factor. */
  ropeCache(opts: RopeCacheOptions & { dtype: 'float64' }): { cos: Float64Array; sin: Float64Array };
  ropeCache(opts: RopeCacheOptions & { dtype?: 'float32' }): { cos: Float32Array; sin: Float32Array };
  ropeCache(opts: RopeCacheOptions): { cos: Float32Array | Float64Array; sin: Float32Array | Float64Array };
  /** x, [tokens x heads x headDim], rotated (dims past rotaryDim passed through): a new array of x's type, or `out`. */
  ropeApply<T extends Float32Array | Float64Array>(x: T, opts: RopeApplyOptions<T>): T;
  /**
   * For q = k = all ones / sqrt(headDim), k = 0..maxOffset: scores[k] = q . R(from)^T R(from + k) k (rotated
   * pairs scaled by attentionFactor^2), and RoFormer's relative upper bound (1 / (rotaryDim / 2)) sum_j |S_j|.
   */
  ropeScores(opts: RopeScoresOptions): { scores: Float64Array; bound: Float64Array };
  /**
   * Su Jianlin's base criterion: the first offset m (at most limit) where sum_i cos(m invFreq_i) turns
   * negative, i.e. the context length these frequencies support.
   */
  ropeSupportedContext(opts: RopeOptions & { limit: number }): number;
  /** The smallest base keeping sum_i cos(m base^(-2i/headDim)) >= 0 for every m < context; null above 1e12. */
  ropeSmallestBase(opts: { headDim: number; context: number }): number | null;
  /** Options for the rope calls from a parsed Hugging Face config.json, and what to watch out for. */
  ropeFromConfig(config: object): { options: RopeOptions; warnings: { code: RopeWarningCode; message: string }[] };
  /** What a row-major [rows x columns] cos or sin cache is (docs/rope-lab.md): layout, rope_theta, scaling, dtype. */
  ropeIdentify(input: {
    values: ArrayLike<number>;
    rows: number;
    columns: number;
    dtype?: 'float16' | 'bfloat16' | 'float32' | 'float64';
  }): RopeIdentification;
}

/** One layer type as one runtime computes it. */
export interface RuntimeLayer {
  layerType: string;
  layers: number[];
  /** null where the runtime has no class for the model type (supported false). */
  rope: boolean | null;
  /** false: the runtime has no model class for this config (transformers 4.44 and Gemma 3, say); not compared. */
  supported?: boolean;
  codePath: string;
  base?: number;
  type?: string;
  rotaryDim?: number;
  invFreq?: Float64Array;
  /** What cos and sin (or q and k) are multiplied by. */
  attentionFactor?: number;
  attentionFactorAppliedTo?: string;
  /** What the softmax scale 1/sqrt(d) is multiplied by (DeepSeek's mscale^2); null where not read. */
  softmaxFactor?: number | null;
  layout?: 'half' | 'interleaved';
  /** Whether the runtime's q/k rows are permuted from the checkpoint's (llama.cpp's converter). */
  weightsPermuted?: boolean;
  /** The short/long or dynamic rule at this sequence length. */
  rule?: string;
  /** The runtime's float32 angle of pair i at position p. */
  angle?: (p: number, i: number) => number;
  angleError?: { position: number; maxAbs: number };
  /** llama.cpp: the ggml_rope_ext parameters passed for this layer. */
  kernel?: {
    nDims: number;
    nCtxOrig: number;
    freqBase: number;
    freqScale: number;
    extFactor: number;
    attnFactor: number;
    betaFast: number;
    betaSlow: number;
    freqFactors: Float32Array | null;
    thetaScale: number;
  };
}

/** A difference from transformers 5, as a named fact. */
export interface RuntimeDifference {
  runtime: 'transformers4' | 'vllm' | 'llamacpp' | 'mlx';
  quantity: 'rope' | 'rotaryDim' | 'layout' | 'attentionFactor' | 'softmaxFactor' | 'invFreq' | 'cos';
  layerType: string;
  maxAbs: number;
  atPositions: number[];
  codePath: string;
  issue: string | null;
  reference?: unknown;
  value?: unknown;
}

export interface RuntimeComparison {
  seqLen: number;
  positions: number[];
  sources: { id: string; name: string; repo: string; commit: string; paths: string[] }[];
  runtimes: Record<'transformers5' | 'transformers4' | 'vllm' | 'llamacpp' | 'mlx', RuntimeLayer[]>;
  /** The GGUF metadata and RoPE tensors llama.cpp's converter writes for the config. */
  gguf: { arch: string; keys: Record<string, unknown>; tensors: Record<string, Float32Array>; droppedType?: string };
  differences: RuntimeDifference[];
  tolerance: string;
}

/** What ropeIdentify found; `explained` when the options' cache, rebuilt, is the input within `tolerance`. */
export interface RopeIdentification {
  explained: boolean;
  /**
   * Why nothing was found: too few rows or odd columns; no column pairs; row 0 is not position 0; too few
   * rows to tell the scaling (see rowsNeeded); no configuration rebuilds it within tolerance.
   */
  reason?: 'shape' | 'pairs' | 'start' | 'rows' | 'fit';
  /** With reason 'rows': the fewest rows that would tell the scalings that fit apart. */
  rowsNeeded?: number;
  dtype: 'float16' | 'bfloat16' | 'float32' | 'float64';
  kind?: 'cos' | 'sin';
  layout?: 'half' | 'interleaved';
  rotaryDim?: number;
  attentionFactor?: number;
  base?: number;
  type?: 'default' | 'linear' | 'yarn' | 'llama3';
  factor?: number | null;
  /** ropeCache options (with length, layout) that rebuild it. */
  options?: RopeOptions;
  /** Largest |rebuilt - input|, and what the dtype and a float32 angle allow. */
  error?: number;
  tolerance?: number;
}

export interface LoadOptions {
  /**
   * Where the .wasm is; default: beside this module. A relative URL is resolved
   * against the page (browser, as fetch does) or the working directory (Node).
   */
  wasmUrl?: string | URL;
  /** The .wasm bytes, if you already have them (not with wasmUrl). */
  wasmBinary?: ArrayBuffer | ArrayBufferView;
  /** Force the SIMD (true) or scalar (false) build; default: SIMD where supported. */
  simd?: boolean;
  /**
   * false: a smaller module without the RoPE functions (62 instead of 83 KB,
   * 29 instead of 40 KB gzip), for a page that shows RoPE only later; its rope*
   * functions (but ropeFromConfig) throw an Error saying so. A later load()
   * gives the full module, a second instance. wasmUrl / wasmBinary must then
   * be posenc-core-*.wasm. Default true.
   */
  rope?: boolean;
  /**
   * Milliseconds the load may take, in (0, 600000]; default 30000. Past it the
   * promise rejects with an Error whose message starts
   * 'posenc.load: timeout:' (the request itself is not cancelled).
   */
  timeout?: number;
}

/**
 * Loads and instantiates the module once per source (the default .wasm, a
 * wasmUrl, or wasmBinary bytes: equal bytes, even in fresh copies, count as
 * one); later calls return the same promise. Bad options, a .wasm that cannot
 * be read or compiled, or one that does not arrive within `timeout` reject it
 * with an Error whose message starts 'posenc.load:'; a rejected load is not
 * kept, so the next call tries again.
 */
export function load(options?: LoadOptions): Promise<Posenc>;
/** Whether this engine validates WebAssembly SIMD. */
export function simdSupported(): boolean;

export const PRESETS: Readonly<Record<PresetName, Readonly<Convention>>>;
export const PRESET_NAMES: readonly PresetName[];
export const LAYOUTS: readonly Layout[];
export const EXPONENTS: readonly Exponent[];
export const ORDERS: readonly Order[];
export const ANGLES: readonly Angle[];
export const ODD_COLUMNS: readonly OddColumn[];
export const DTYPES: readonly Dtype[];
export const PRECISION_DTYPES: readonly PrecisionDtype[];
export const AXIS_ORDERS: readonly AxisOrder[];
export const TIMESTEP_PRESET_NAMES: readonly TimestepPresetName[];
export const GRID_PRESET_NAMES: readonly GridPresetName[];
export const GRID3D_PRESET_NAMES: readonly Grid3dPresetName[];

export type DiagnosisCode =
  | 'unexplained'
  | 'unexplained-far'
  | 'sin-cos-swapped'
  | 'concat-vs-interleaved'
  | 'exponent-uses-column'
  | 'exponent-uses-pair'
  | 'exponent-uses-half-minus-one'
  | 'ratio-power'
  | 'angle-divide'
  | 'base'
  | 'start-off-by-one'
  | 'start-offset'
  | 'missing-padding-row'
  | 'unexpected-padding-row'
  | 'padding-row-moved'
  | 'scaled'
  | 'odd-column-zero'
  | 'odd-column-formula'
  | 'float32-angle'
  /** A step rounded to a smaller format (the knob exponentDtype, frequencyDtype, positionDtype or angleDtype). */
  | 'exponent-dtype'
  | 'frequency-dtype'
  | 'position-dtype'
  | 'angle-dtype'
  | 'transposed'
  | 'all-zero'
  /** Values beyond 2^53 (|value| <= scale <= 2^53 in every table posenc computes). */
  | 'too-large'
  /** A 2-D grid whose first half encodes the row (h) coordinate, against MAE's column (w) first (facebookresearch/mae#18). */
  | 'grid-axes-swapped'
  /** Note: a non-square grid in MAE's order, whose code names its first half emb_h. */
  | 'grid-naming'
  /** Note: several grid shapes fit the row count (`found`: them all). */
  | 'grid-several-fit'
  /** Rows at descending positions (`found`: { first, last }). */
  | 'relative-positions'
  /** A timestep embedding [sin | cos] with shift 0, where the presets with that exponent put cos first. */
  | 'timestep-order'
  /** A timestep embedding with cos first and downscale_freq_shift 1, where guided-diffusion and SDXL use 0. */
  | 'timestep-shift'
  /** Timesteps within [−1, 1] at max_period ≥ 100: nearly constant rows (`ends`, `neighbours`: cosine similarities). */
  | 'timesteps-unit-interval'
  /** Note: [sin | cos] with exponent i/(d/2 − 1) is Whisper's sinusoids too. */
  | 'whisper-sinusoids';

/** identify()'s reading of a table as a diffusion timestep embedding (pe.timestepEmbedding reproduces it). */
export interface TimestepIdentification {
  dim: number;
  maxPeriod: number;
  flipSinToCos: boolean;
  downscaleFreqShift: number;
  /** Always 1: diffusers' scale multiplies the timesteps, so a table at timesteps t with scale s is read at s·t. */
  scale: number;
  /** The first preset with these knobs, else null; `presets`: all of them. */
  preset: TimestepPresetName | null;
  presets: TimestepPresetName[];
  /** Row r is at timestep first + step · r. */
  timesteps: { first: number; step: number; last: number };
}

/** identify()'s reading of a table as a 3-D sin-cos grid: pe.sincosGrid3d({ ...grid3d }) minus `preset` and `shapes`. */
export interface Grid3dIdentification {
  dim: number;
  frames: number;
  height: number;
  width: number;
  axisOrder: AxisOrder;
  /** Leading all-zero rows (text tokens of a joint sequence). */
  extraTokens: number;
  spatialInterpolationScale: number;
  temporalInterpolationScale: number;
  base: number;
  coordinateDtype: 'float64' | 'float32';
  /** The preset with exactly these knobs, else null. */
  preset: Grid3dPresetName | null;
  /** Every (frames, height, width, axis order) whose structure the data has; the first is reported. */
  shapes: { frames: number; height: number; width: number; axisOrder: AxisOrder }[];
}

/** identify()'s reading of a table as a 2-D sin-cos grid: pe.sincosGrid2d({ ...grid }) minus `preset` and `shapes`. */
export interface GridIdentification {
  dim: number;
  height: number;
  width: number;
  axisOrder: AxisOrder;
  /** Leading all-zero rows (class or register tokens). */
  extraTokens: number;
  base: number;
  baseSize: number | null;
  interpolationScale: number;
  coordinateDtype: 'float32' | 'float64';
  /** 'mae' (also DiT's) or 'diffusers' when the grid is theirs (base 10000), else null. */
  preset: GridPresetName | null;
  /** Every (height, width, axisOrder) whose structure the rows have; the first is the one reported. */
  shapes: { height: number; width: number; axisOrder: AxisOrder }[];
}

export interface Identification {
  /** The data is reproduced within `tolerance` by `options` (with float32 angles when `float32Angle`). */
  match: boolean;
  /**
   * The data is a [dModel x length] table, dimensions in rows: `options` and the
   * other fields describe it turned back ([length x dModel] read as its transpose).
   */
  transposed: boolean;
  /**
   * Knobs that best explain the table: pe.table({ length, dModel, ...options }); with the
   * precision knobs of the steps found rounded (e.g. angleDtype: 'float16'), none when none was.
   */
  options: Convention & PrecisionOptions;
  /** The preset whose knobs equal `options` exactly, when `match`; else null. */
  preset: PresetName | null;
  /**
   * The preset the diagnosis and `firstDifference` refer to: a near miss only when `near` (a far
   * table's 'unexplained-far' diagnosis names no preset).
   */
  nearestPreset: PresetName;
  /** Matched, or the closest candidate is off by at most 10% of the largest |value|. */
  near: boolean;
  /** The closest candidate's largest misfit over the largest |value| (0 when it matches exactly). */
  relativeMisfit: number;
  /** The angles were computed in float32 (pos * w rounded), as PyTorch/tensor2tensor/fairseq do. */
  float32Angle: boolean;
  /** Largest |data - explanation|. */
  maxAbsError: number;
  /** Largest difference that counts as equal, derived from the data's precision (float32, printed digits, float64). */
  tolerance: number;
  /** First value (row-major) where the data departs from `nearestPreset`'s table; null when none. */
  firstDifference: { row: number; column: number; expected: number; actual: number } | null;
  /**
   * One entry per departure from `nearestPreset`; where that preset keeps a
   * mistake (legacy-column, question), also each mistake the table still makes
   * against the paper. Empty for an exact vaswani, tensor2tensor, tf-tutorial or fairseq table.
   */
  diagnosis: Diagnosis[];
  /**
   * What reproduces the data when `match`: 'table' — pe.table({ length, dModel, ...options }) (row r at position
   * options.start + r); 'positions' — pe.table({ dModel, ...options, start: undefined, positions }) with position
   * positions.first + positions.step · r (descending: a relative table); 'timestep' — pe.timestepEmbedding with
   * `timestep`'s knobs and timesteps (`options`: the same frequencies as a 1-D table at step 1); 'grid' —
   * pe.sincosGrid2d({ ...grid }) (`options`: each axis's 1-D convention on dModel / 2 columns); 'grid3d' —
   * pe.sincosGrid3d({ ...grid3d }). null without a match. A grid resized by pe.resizeGrid (bicubic) is no match.
   */
  kind: 'table' | 'positions' | 'timestep' | 'grid' | 'grid3d' | null;
  /** Row r is at position first + step · r (kinds 'table' and 'positions'), else null. */
  positions: { first: number; step: number } | null;
  /** The timestep embedding the table is (kind 'timestep'), or also is (a 'table' of [sin | cos] or [cos | sin] with exponent 2i/d or i/(d/2 − 1)). */
  timestep: TimestepIdentification | null;
  grid: GridIdentification | null;
  grid3d: Grid3dIdentification | null;
  /** The same numbers under other names, and what depends on which it is (no departure from `nearestPreset`). */
  notes: Diagnosis[];
  /** Without a match: the searches run, in order ('table', 'grid', 'timestep', 'any-start', 'descending', 'transposed'). */
  tried?: string[];
}

/** One finding of identify(), as facts, with an English sentence worded from them. */
export interface Diagnosis {
  code: DiagnosisCode;
  /** The knob that departs (a key of Convention, or of PrecisionOptions for a '…-dtype' code); null for codes about no single knob. */
  knob: keyof Convention | keyof PrecisionOptions | keyof TimestepOptions | keyof Grid2dOptions | null;
  /** The preset the finding is measured against: `nearestPreset`, or 'vaswani' for a mistake a preset keeps. */
  preset: PresetName;
  /**
   * What the table has: the knob's value (paddingRow: null for none); 'unexplained': the largest
   * misfit; 'float32-angle': 'float32'; '…-dtype': the step's format ('float16', 'bfloat16',
   * 'float32'); 'too-large': the largest |value|; 'all-zero': 0; 'transposed': the shape given, { length, dModel }.
   */
  found: unknown;
  /**
   * What `preset` has: the knob's value; 'unexplained': the tolerance; 'float32-angle', '…-dtype': 'float64';
   * 'too-large': 2^53; 'transposed': the shape explained; 'all-zero': null.
   */
  expected: unknown;
  /**
   * The cell it concerns, or null: the worst misfit ('unexplained'), the largest float32-angle or '…-dtype' error,
   * the largest value ('too-large'), row 0 (start), the padding row, the odd last column, the paper's
   * first non-zero value ('all-zero').
   */
  where: { row?: number; column?: number } | null;
  /** 'float32-angle' and '…-dtype': the largest |data − float64 table| (at `where`). */
  error?: number;
  /** 'transposed': the codes of the turned table's own departures from `preset` (empty when it is that preset). */
  changes?: DiagnosisCode[];
  /** Timestep and grid findings: the timestep or grid preset compared with ('guided-diffusion', 'diffusers', 'mae'). */
  against?: TimestepPresetName | GridPresetName;
  /** 'timesteps-unit-interval': cosine similarity of the first and last rows, and the smallest between neighbours. */
  ends?: number;
  neighbours?: number;
  /** 'unexplained-far': the searches tried (Identification.tried). */
  tried?: string[];
  /** The finding in one English sentence. */
  message: string;
}

export type TableData = Float32Array | Float64Array | number[];

/** Finds the convention, base, start, padding row and scale of a row-major [length x dModel] table. */
export function identify(pe: Posenc, data: TableData, length: number, dModel: number): Identification;

/** The RoPE metadata of a GGUF file, read from its header only, as llama.cpp's reader takes it (docs/runtimes.md). */
export interface GgufRopeKeys {
  arch: string;
  /** `<arch>.context_length`, `.embedding_length`, `.attention.head_count`, `.attention.key_length`, `.rope.*` */
  keys: Record<string, number | string | boolean>;
  /** Always empty: tensor data is not read. */
  tensors: Record<string, never>;
  /** Which of rope_freqs / rope_factors_long / rope_factors_short (.weight) the header lists. */
  ropeTensors: string[];
  version: number;
}

/** A .npy 1.0 file: '<f4' for a Float32Array, else '<f8'; C order, shape (length, dModel). */
export function toNpy(array: TableData, length: number, dModel: number): Uint8Array;
/** One line per row, comma-separated, values that read back exactly; no header. */
export function toCsv(array: TableData, length: number, dModel: number): string;
/** Nested arrays, one per row, values that read back exactly. */
export function toJson(array: TableData, length: number, dModel: number): string;
/** A table parseTable read: `length` rows × `dModel` columns, and how it read them. */
export interface ParsedTable {
  data: Float64Array;
  length: number;
  dModel: number;
  read:
    | { format: 'npy'; /** As in the file, size-1 dimensions included. */ shape: number[]; dtype: '<f4' | '<f8' }
    | {
        format: 'brackets';
        /** The nested arrays' shape, size-1 dimensions included (undefined when dModel was given). */
        shape: number[] | undefined;
        encoding?: 'utf-8' | 'utf-16le' | 'utf-16be';
      }
    | {
        format: 'lines';
        /** A first line of column names (or numbers 0, 1, 2, …) was skipped. */
        header: boolean;
        /** A first column counting the rows (pandas' index) was dropped. */
        indexColumn: boolean;
        separator: ',' | ';';
        /** Semicolon-separated: commas in numbers were read as decimal points. */
        decimalComma: boolean;
        /** For bytes: how they were decoded. */
        encoding?: 'utf-8' | 'utf-16le' | 'utf-16be';
      };
}
/**
 * Reads .npy bytes ('<f4'/'<f8', C order; size-1 dimensions dropped; at most
 * 2^28 values) or text of at most 2^25 characters: CSV (LF, CRLF or CR lines;
 * commas, tabs or spaces, or semicolons with decimal commas; quoted fields;
 * a header row and a pandas index column are dropped), JSON, numpy/PyTorch/JAX
 * printouts, pasted numbers (reshaped to dModel when given). Bytes are UTF-8
 * or UTF-16 (byte-order mark, or ASCII with zero bytes).
 */
export function parseTable(input: ArrayBuffer | ArrayBufferView | string, options?: { dModel?: number }): ParsedTable;
/** Python code building exactly pe.table(options) in float64, cast to float32 unless dtype is 'float64'; the result is `pe`. */
export function codeSnippet(language: 'numpy' | 'pytorch' | 'jax', options: TableOptions): string;
/** NumPy or PyTorch code rebuilding inv_freq, attention_factor and the cos/sin cache of pe.ropeCache(options) (see docs/rope.md). */
export function codeSnippet(language: 'numpy' | 'pytorch', options: RopeCacheOptions): string;
/** NumPy or PyTorch code building `emb`, pe.timestepEmbedding(options), in float64 (diffusers' formula), cast to float32 unless dtype is 'float64'. */
export function timestepSnippet(language: 'numpy' | 'pytorch', options: TimestepOptions): string;
/** NumPy or PyTorch code building `pe`, pe.sincosGrid2d(options), in float64 (MAE's formula), cast to float32 unless dtype is 'float64'. */
export function gridSnippet(language: 'numpy' | 'pytorch', options: Grid2dOptions): string;
