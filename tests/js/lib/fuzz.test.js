// Property-based fuzzing of the JS API (fast-check): random options, valid
// and invalid, nested junk included, to every function. Every call either
// returns values that match a float64 reference written here, or throws a
// TypeError/RangeError whose message names posenc.<function> and a
// parameter; afterwards the module still computes correct values.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeSnippet, load, parseTable, toCsv } from '../../../web/lib/index.js';
import { paperValue } from '../reference.js';
import { applyReference, cacheReference, frequenciesReference } from '../rope-reference.js';
import { expectClose, FLOAT64_EPSILON, maxAbsDiff, maxRelDiff } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

// What a parameter name in a message may be (options and positional parameters).
const PARAMETERS =
  /\b(options|dModel|length|preset|layout|exponent|order|angle|base|minTimescale|maxTimescale|start|paddingRow|scale|oddColumn|dtype|out|maxOffset|minOffset|from|position|count|input|language|data|unknown option|give either)\b/;

/** The call threw posenc's own error for `where`, naming a parameter. */
function expectOwnError(error, where) {
  expect([TypeError, RangeError], String(error?.stack ?? error)).toContain(error?.constructor);
  expect(error.message).toMatch(new RegExp(`^posenc\\.${where}: `));
  // (parseTable's RangeErrors are about the content of its one input: "row 3 has …".)
  if (!(where === 'parseTable' && error instanceof RangeError)) expect(error.message).toMatch(PARAMETERS);
}

/** The paper's convention at a real position, with the knobs the fuzzer varies (float64). */
function reference({ dModel, base = 10000, start = 0, scale = 1, order = 'sin-cos' }, position) {
  return Float64Array.from({ length: dModel }, (_, j) => {
    const angle = position / base ** ((2 * Math.floor(j / 2)) / dModel);
    const first = j % 2 === 0;
    const sine = order === 'sin-cos' ? first : !first;
    return scale * (sine ? Math.sin(angle) : Math.cos(angle));
  });
}

// Junk of every kind, nested.
const junk = fc.oneof(
  fc.anything({ maxDepth: 2, withNullPrototype: true, withBigInt: true, withTypedArray: true, withSparseArray: true }),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 2 ** 53 + 2, -1, 1.5, '', '4', [], [4], Symbol('x'), () => 4),
  fc.constant(Object.create(null)),
);
const maybe = (arbitrary) =>
  fc.option(fc.oneof({ weight: 4, arbitrary }, { weight: 1, arbitrary: junk }), { nil: undefined });

// Mostly valid knobs of the paper's structure (so a reference exists), sometimes junk.
const options = fc.record(
  {
    dModel: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 48 }) }, { weight: 1, arbitrary: junk }),
    length: maybe(fc.integer({ min: 1, max: 24 })),
    base: maybe(fc.double({ min: 1.5, max: 1e6, noNaN: true })),
    start: maybe(fc.integer({ min: -50, max: 50 })),
    scale: maybe(fc.double({ min: -8, max: 8, noNaN: true })),
    order: maybe(fc.constantFrom('sin-cos', 'cos-sin')),
    dtype: maybe(fc.constantFrom('float32', 'float64')),
    preset: fc.option(junk, { nil: undefined, freq: 8 }),
    layout: fc.option(junk, { nil: undefined, freq: 8 }),
    maxOffset: maybe(fc.integer({ min: 0, max: 40 })),
    from: maybe(fc.integer({ min: -20, max: 20 })),
    bogus: fc.option(junk, { nil: undefined, freq: 10 }),
  },
  { requiredKeys: [] },
);
const clean = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const isValid = (o) =>
  Number.isInteger(o.dModel) &&
  o.preset === undefined &&
  o.layout === undefined &&
  o.bogus === undefined &&
  ['base', 'start', 'scale', 'order', 'dtype', 'length', 'maxOffset', 'from'].every(
    (k) => o[k] === undefined || typeof o[k] === (k === 'order' || k === 'dtype' ? 'string' : 'number'),
  );

const tolerance = (o) => (o.dtype === 'float64' ? 1e-9 : 4e-6) * Math.max(1, Math.abs(o.scale ?? 1));

function check(where, call, verify) {
  let result;
  try {
    result = call();
  } catch (error) {
    expectOwnError(error, where);
    return;
  }
  verify(result);
}

describe('fuzz: random options to every function', () => {
  it('correct values or posenc.<function> errors naming a parameter', () => {
    fc.assert(
      fc.property(
        options,
        fc.integer({ min: 0, max: 6 }),
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        (raw, fn, position) => {
          const o = clean(raw);
          const valid = isValid(o);
          const picks = ['table', 'row', 'frequencies', 'offsetDots', 'similarity', 'codeSnippet', 'parseTable'];
          const where = picks[fn];
          // Options of another function are refused (a valid outcome: checked as an error).
          const { length, maxOffset, from, ...knobs } = o;
          if (where === 'table')
            check(
              where,
              () => pe.table(o),
              (t) => {
                expect(valid && Number.isInteger(length)).toBe(true);
                for (const r of [0, length - 1]) {
                  const want = reference(o, (o.start ?? 0) + r);
                  for (let j = 0; j < o.dModel; j++)
                    expectClose(t[r * o.dModel + j], want[j], tolerance(o) * (1 + Math.abs(r + (o.start ?? 0)) / 1e3));
                }
              },
            );
          else if (where === 'row')
            check(
              where,
              () => pe.row(position, { ...knobs, length }),
              (r) => {
                expect(valid).toBe(true);
                const want = reference(o, position);
                for (let j = 0; j < o.dModel; j++)
                  expectClose(r[j], want[j], tolerance(o) * (1 + Math.abs(position) / 100));
              },
            );
          else if (where === 'frequencies')
            check(
              where,
              () => pe.frequencies({ ...knobs, length }),
              (w) => {
                expect(valid).toBe(true);
                for (let j = 0; j < o.dModel; j++)
                  // One pow on each side, within an ulp each.
                  expectClose(w[j], (o.base ?? 10000) ** (-(2 * Math.floor(j / 2)) / o.dModel), {
                    relative: 2 * FLOAT64_EPSILON,
                  });
              },
            );
          else if (where === 'offsetDots')
            check(
              where,
              () => pe.offsetDots({ ...knobs, maxOffset, from }),
              (s) => {
                expect(valid && Number.isInteger(maxOffset)).toBe(true);
                const p = from ?? 0;
                const x = reference(o, p);
                for (const k of [0, maxOffset]) {
                  const y = reference(o, p + k);
                  let dot = 0;
                  for (let j = 0; j < o.dModel; j++) dot += x[j] * y[j];
                  expectClose(s[k], dot, 1e-9 * o.dModel * (o.scale ?? 1) ** 2 + 1e-12);
                }
              },
            );
          else if (where === 'similarity')
            check(
              where,
              () => pe.similarity({ ...knobs, length }),
              (m) => {
                expect(valid && Number.isInteger(length)).toBe(true);
                const [p, q] = [0, length - 1];
                const x = reference(o, (o.start ?? 0) + p);
                const y = reference(o, (o.start ?? 0) + q);
                let dot = 0;
                for (let j = 0; j < o.dModel; j++) dot += x[j] * y[j];
                expectClose(m[p * length + q], dot, 1e-5 * o.dModel * Math.max(1, (o.scale ?? 1) ** 2));
              },
            );
          else if (where === 'codeSnippet')
            check(
              where,
              () => codeSnippet('numpy', { ...knobs, length }),
              (text) => {
                expect(valid && Number.isInteger(length)).toBe(true);
                expect(text).toContain(`length, d_model = ${length}, ${o.dModel}`);
              },
            );
          else {
            // parseTable of the table's CSV, or of junk.
            const input =
              valid && Number.isInteger(length)
                ? toCsv(
                    reference(o, 1.5).map((v) => v + 0.5),
                    1,
                    o.dModel,
                  )
                : raw.preset;
            check(
              where,
              () => parseTable(input, o.bogus === undefined ? {} : { dModel: o.bogus }),
              (t) => {
                expect(t.data.length).toBe(t.length * t.dModel);
              },
            );
          }
        },
      ),
      { numRuns: 1500, seed: 20261203 },
    );
  });

  it('the module works after the fuzzing', () => {
    const t = pe.table({ length: 5, dModel: 8, dtype: 'float64' });
    for (let k = 0; k < 40; k++) expectClose(t[k], paperValue(Math.floor(k / 8), k % 8, 8), 1e-12);
  });
});

// ---- RoPE ----

const ROPE_PARAMETERS =
  /\b(options|headDim|hiddenSize|numHeads|base|partialRotaryFactor|rotaryDim|seqLen|scaling(\.\w+(\[\d+\])?)?|length|start|layout|dtype|out(\.cos|\.sin)?|x|heads|positions(\[\d+\])?|maxOffset|from|config(\.\w+)*|unknown option|give either)\b/;

/** posenc's own error for `where`, naming a RoPE parameter. */
function expectOwnRopeError(error, where) {
  expect([TypeError, RangeError], String(error?.stack ?? error)).toContain(error?.constructor);
  expect(error.message).toMatch(new RegExp(`^posenc\\.${where}: `));
  expect(error.message).toMatch(ROPE_PARAMETERS);
}

const positiveDouble = (min, max) => fc.double({ min, max, noNaN: true });
const pairsOf = (o) => (Math.floor(o.headDim * (o.partialRotaryFactor ?? 1)) & ~1) / 2;
// Every scaling type with its fields (optional ones sometimes left out); longrope's factor lists sliced to the pairs later.
const scalings = fc.oneof(
  fc.constant(undefined),
  fc.record({ type: fc.constant('linear'), factor: positiveDouble(0.25, 16) }),
  fc.record({
    type: fc.constant('dynamic'),
    factor: positiveDouble(1, 16),
    maxPositionEmbeddings: fc.integer({ min: 16, max: 8192 }),
  }),
  fc.record(
    {
      type: fc.constant('yarn'),
      factor: positiveDouble(0.5, 64),
      originalMaxPositionEmbeddings: fc.integer({ min: 64, max: 32768 }),
      betaFast: positiveDouble(8, 64),
      betaSlow: positiveDouble(0.5, 4),
      mscale: positiveDouble(0, 2),
      mscaleAllDim: positiveDouble(0, 2),
      attentionFactor: positiveDouble(0.5, 2),
      truncate: fc.boolean(),
    },
    { requiredKeys: ['type', 'factor', 'originalMaxPositionEmbeddings'] },
  ),
  fc.record(
    {
      type: fc.constant('longrope'),
      factor: positiveDouble(0.5, 64),
      originalMaxPositionEmbeddings: fc.integer({ min: 64, max: 8192 }),
      maxPositionEmbeddings: fc.integer({ min: 8192, max: 131072 }),
      shortFactor: fc.array(positiveDouble(0.5, 4), { minLength: 24, maxLength: 24 }),
      longFactor: fc.array(positiveDouble(1, 64), { minLength: 24, maxLength: 24 }),
      attentionFactor: positiveDouble(0.5, 2),
    },
    {
      requiredKeys: ['type', 'originalMaxPositionEmbeddings', 'maxPositionEmbeddings', 'shortFactor', 'longFactor'],
    },
  ),
  fc.record({
    type: fc.constant('llama3'),
    factor: positiveDouble(1, 32),
    lowFreqFactor: positiveDouble(0.5, 2),
    highFreqFactor: positiveDouble(2.5, 8),
    originalMaxPositionEmbeddings: fc.integer({ min: 64, max: 8192 }),
  }),
);
const ropeOptions = fc.record(
  {
    headDim: fc.integer({ min: 2, max: 48 }),
    base: fc.option(positiveDouble(2, 1e6), { nil: undefined }),
    partialRotaryFactor: fc.option(positiveDouble(0.25, 1), { nil: undefined, freq: 3 }),
    seqLen: fc.option(fc.integer({ min: 1, max: 200000 }), { nil: undefined, freq: 3 }),
    scaling: scalings,
  },
  { requiredKeys: ['headDim'] },
);
// Junk at a random place: a top-level option, a scaling field (known or not), or a whole value.
const mutation = fc.option(
  fc.record({
    nested: fc.boolean(),
    key: fc.constantFrom(
      'headDim',
      'base',
      'partialRotaryFactor',
      'seqLen',
      'scaling',
      'type',
      'factor',
      'originalMaxPositionEmbeddings',
      'betaFast',
      'truncate',
      'shortFactor',
      'bogus',
      'length',
      'start',
      'layout',
      'dtype',
      'out',
      'heads',
      'positions',
      'maxOffset',
      'from',
    ),
    value: junk,
  }),
  { nil: undefined, freq: 3 },
);

/** The options as rope-options.js takes them: undefined keys dropped, longrope's lists one per pair. */
function ropeOf(raw) {
  const o = clean(raw);
  if (o.scaling) {
    o.scaling = clean(o.scaling);
    if (o.scaling.type === 'longrope')
      for (const key of ['shortFactor', 'longFactor']) o.scaling[key] = o.scaling[key].slice(0, pairsOf(o));
  }
  return o;
}
/** Whether HF (and so posenc) takes these options: rotaryDim >= 2, >= 4 for dynamic. */
const ropeValid = (o) => pairsOf(o) >= (o.scaling?.type === 'dynamic' ? 2 : 1);

const snakeCase = (key) =>
  ({ type: 'rope_type', base: 'rope_theta', headDim: 'head_dim' })[key] ??
  key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A config.json (snake case, as Hugging Face writes it) holding the options o. */
function configOf(o) {
  const s = o.scaling ?? {};
  const dict = { rope_type: s.type ?? 'default' };
  for (const [k, v] of Object.entries(s)) if (k !== 'type' && k !== 'maxPositionEmbeddings') dict[snakeCase(k)] = v;
  const config = { head_dim: o.headDim, rope_theta: o.base ?? 10000, rope_scaling: dict };
  if (o.partialRotaryFactor !== undefined) config.partial_rotary_factor = o.partialRotaryFactor;
  if (s.maxPositionEmbeddings !== undefined) config.max_position_embeddings = s.maxPositionEmbeddings;
  return config;
}

function lcg(seed, count, ArrayType) {
  let state = seed;
  return ArrayType.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (state / 2147483648 - 0.5) * 8;
  });
}

describe('fuzz: random RoPE options, valid and invalid, to the five RoPE functions', () => {
  it('correct values against float64 references, or posenc.<function> errors naming a parameter', () => {
    fc.assert(
      fc.property(
        ropeOptions,
        mutation,
        fc.record({
          fn: fc.integer({ min: 0, max: 4 }),
          length: fc.integer({ min: 1, max: 12 }),
          start: fc.integer({ min: -60, max: 60 }),
          layout: fc.constantFrom(undefined, 'half', 'interleaved'),
          float64: fc.boolean(),
          heads: fc.integer({ min: 1, max: 3 }),
          usePositions: fc.boolean(),
          seed: fc.integer({ min: 1, max: 2 ** 30 }),
        }),
        (raw, junkAt, call) => {
          const o = ropeOf(raw);
          const where = ['ropeFrequencies', 'ropeCache', 'ropeApply', 'ropeScores', 'ropeFromConfig'][call.fn];
          const extra = {
            ropeCache: { length: call.length, start: call.start, layout: call.layout },
            ropeApply: { heads: call.heads, layout: call.layout },
            ropeScores: { maxOffset: call.length * 3, from: call.start },
          }[where];
          const opts = clean({ ...o, ...extra, dtype: where === 'ropeCache' && call.float64 ? 'float64' : undefined });
          if (junkAt) {
            if (junkAt.nested && o.scaling) opts.scaling = { ...o.scaling, [junkAt.key]: junkAt.value };
            else opts[junkAt.key] = junkAt.value;
          }
          const mutated = junkAt !== undefined;
          const tokens = call.length;
          const headValues = call.heads * o.headDim;
          const x = lcg(call.seed, tokens * headValues, call.float64 ? Float64Array : Float32Array);
          if (where === 'ropeApply' && call.usePositions && !('start' in opts))
            opts.positions = Array.from({ length: tokens }, (_, t) => call.start * 1000 + 7 * t);
          let result;
          try {
            if (where === 'ropeApply') result = pe.ropeApply(x, opts);
            else if (where === 'ropeFromConfig') {
              // Junk under the config's own (snake case) names, in rope_scaling or at the top level.
              const config = configOf(o);
              if (mutated) (junkAt.nested ? config.rope_scaling : config)[snakeCase(junkAt.key)] = junkAt.value;
              result = pe.ropeFromConfig(config);
            } else result = pe[where](opts);
          } catch (error) {
            expectOwnRopeError(error, where);
            // Valid options of each function are never refused.
            expect(mutated || !ropeValid(o), `${where} refused valid options: ${error.message}`).toBe(true);
            return;
          }
          // The call took them: they are options whose reference exists (junk that happens to be valid included).
          const used = where === 'ropeFromConfig' ? result.options : opts;
          if (where === 'ropeFromConfig') {
            for (const w of result.warnings) expect([typeof w.code, typeof w.message]).toEqual(['string', 'string']);
            if (mutated) return;
            expect(result.options.headDim).toBe(o.headDim);
            let f;
            try {
              f = pe.ropeFrequencies(result.options);
            } catch (error) {
              expectOwnRopeError(error, 'ropeFrequencies');
              expect(ropeValid(o)).toBe(false);
              return;
            }
            const want = frequenciesReference({ ...o, seqLen: undefined });
            expect(maxRelDiff(f.invFreq, want.invFreq)).toBeLessThanOrEqual(1e-13);
            // log, sqrt and a division on each side: a few ulps.
            expectClose(f.attentionFactor, want.attentionFactor, { relative: 4 * FLOAT64_EPSILON });
            return;
          }
          const ref = frequenciesReference(used);
          if (where === 'ropeFrequencies') {
            expect(result.rotaryDim).toBe(ref.rotaryDim);
            expect(maxRelDiff(result.invFreq, ref.invFreq)).toBeLessThanOrEqual(1e-13);
            expectClose(result.attentionFactor, ref.attentionFactor, 1e-14);
          } else if (where === 'ropeCache') {
            const layout = used.layout ?? 'half';
            const want = cacheReference(ref.invFreq, ref.attentionFactor, layout, used.start ?? 0, used.length);
            const tolerance = (used.dtype === 'float64' ? 1e-12 : 1.2e-7) * ref.attentionFactor;
            expect(Math.max(maxAbsDiff(result.cos, want.cos), maxAbsDiff(result.sin, want.sin))).toBeLessThanOrEqual(
              tolerance,
            );
          } else if (where === 'ropeApply') {
            const heads = used.heads ?? 1;
            const positions = used.positions ?? Array.from({ length: tokens }, (_, t) => (used.start ?? 0) + t);
            const want = applyReference(
              x,
              ref.invFreq,
              ref.attentionFactor,
              used.layout ?? 'half',
              used.headDim,
              heads,
              positions,
            );
            const largest = x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
            // pow may differ by an ulp between V8 and the module's libm: the angle then moves by position * 2^-52.
            const farthest = positions.reduce((m, p) => Math.max(m, Math.abs(p)), 0);
            const tolerance =
              (call.float64 ? 1e-13 + 2 ** -50 * farthest : 4e-7) * largest * Math.max(1, ref.attentionFactor);
            expect(maxAbsDiff(result, want)).toBeLessThanOrEqual(tolerance);
          } else {
            const d = used.headDim;
            const pairs = ref.invFreq.length;
            for (const k of [0, used.maxOffset]) {
              let cosines = 0;
              let re = 0;
              let im = 0;
              let sum = 0;
              for (const w of ref.invFreq) {
                cosines += Math.cos(k * w);
                re += Math.cos(k * w);
                im += Math.sin(k * w);
                sum += Math.hypot(re, im);
              }
              const score = (ref.attentionFactor ** 2 * 2 * cosines) / d + (d - 2 * pairs) / d;
              expectClose(result.scores[k], score, 1e-9 * Math.max(1, ref.attentionFactor ** 2));
              // RoFormer §3.4.3's normalisation: 1 / (d/2), d the rotated width.
              expectClose(result.bound[k], sum / pairs, 1e-9);
            }
          }
        },
      ),
      { numRuns: 1500, seed: 20261204 },
    );
  });

  it('the RoPE functions work after the fuzzing', () => {
    const f = pe.ropeFrequencies({ headDim: 8 });
    for (let i = 0; i < 4; i++) expectClose(f.invFreq[i], 10000 ** (-i / 4), { relative: 2 * FLOAT64_EPSILON });
    const c = pe.ropeCache({ headDim: 4, length: 2, start: 1, dtype: 'float64' });
    expectClose(c.cos[0], Math.cos(1), { relative: 2 * FLOAT64_EPSILON });
  });
});
