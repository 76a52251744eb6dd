// Property-based fuzzing of the JS API (fast-check): random options, valid
// and invalid, nested junk included, to every function. Every call either
// returns values that match a float64 reference written here, or throws a
// TypeError/RangeError whose message names posenc.<function> and a
// parameter; afterwards the module still computes correct values.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeSnippet, load, parseTable, toCsv } from '../../web/lib/index.js';
import { paperValue } from './reference.js';

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
                    expect(Math.abs(t[r * o.dModel + j] - want[j])).toBeLessThanOrEqual(
                      tolerance(o) * (1 + Math.abs(r + (o.start ?? 0)) / 1e3),
                    );
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
                  expect(Math.abs(r[j] - want[j])).toBeLessThanOrEqual(tolerance(o) * (1 + Math.abs(position) / 100));
              },
            );
          else if (where === 'frequencies')
            check(
              where,
              () => pe.frequencies({ ...knobs, length }),
              (w) => {
                expect(valid).toBe(true);
                for (let j = 0; j < o.dModel; j++)
                  expect(w[j]).toBeCloseTo((o.base ?? 10000) ** (-(2 * Math.floor(j / 2)) / o.dModel), 12);
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
                  expect(Math.abs(s[k] - dot)).toBeLessThanOrEqual(1e-9 * o.dModel * (o.scale ?? 1) ** 2 + 1e-12);
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
                expect(Math.abs(m[p * length + q] - dot)).toBeLessThanOrEqual(
                  1e-5 * o.dModel * Math.max(1, (o.scale ?? 1) ** 2),
                );
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
    for (let k = 0; k < 40; k++)
      expect(Math.abs(t[k] - paperValue(Math.floor(k / 8), k % 8, 8))).toBeLessThanOrEqual(1e-12);
  });
});
