// The RoPE lab's numbers (web/model/rope-lab-data.js) against float64
// references written here from Hugging Face's formulas (rope-reference.js),
// and the page's code for every preset run by Debian's python3 (NumPy and
// PyTorch) against posenc's cache.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSnippet, load } from '../../../web/lib/index.js';
import {
  configFacts,
  labKnobs,
  labNumbers,
  labOptions,
  pairNumbers,
  ROPE_PRESET_NAMES,
  splitFacts,
} from '../../../web/model/rope-lab-data.js';
import { hfAttentionFactor } from '../hf-fixture.js';
import { frequenciesReference, ladder } from '../rope-reference.js';
import { expectClose, FLOAT64_EPSILON, maxAbsDiff } from '../tolerance.js';

// An attention factor (log, sqrt, a division) from the core and from a reference: each operation
// within half an ulp in both, so the two within a few ulps.
const ATTENTION_FACTOR = { relative: 4 * FLOAT64_EPSILON };

const TWO_PI = 2 * Math.PI;

let pe;
beforeAll(async () => {
  pe = await load();
});

// The presets' values, written out from the models' config.json files (not read from rope-lab-data.js).
const REFERENCE_OPTIONS = {
  'llama2-7b': { headDim: 128, base: 10000, seqLen: 8192, original: 4096 },
  'llama3.1-8b': {
    headDim: 128,
    base: 500000,
    seqLen: 131072,
    original: 8192,
    scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 },
  },
  'qwen2.5-7b-yarn': {
    headDim: 128,
    base: 1e6,
    seqLen: 131072,
    original: 32768,
    scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 },
  },
  'deepseek-v3': {
    headDim: 64,
    base: 10000,
    seqLen: 163840,
    original: 4096,
    scaling: {
      type: 'yarn',
      factor: 40,
      mscale: 1,
      mscaleAllDim: 1,
      betaFast: 32,
      betaSlow: 1,
      originalMaxPositionEmbeddings: 4096,
    },
  },
};

/** Kept / interpolated / blended counts, fully turned pairs and the first unseen position, from references. */
function expectations({ headDim, base, seqLen, original, scaling }) {
  const before = ladder(headDim, base);
  const { invFreq: after, attentionFactor } = frequenciesReference({ headDim, base, seqLen, scaling });
  const factor = scaling?.factor ?? 1;
  const counts = { kept: 0, interpolated: 0, blended: 0 };
  let fullTurns = 0;
  let threshold = Infinity;
  let unseenAfter = 0;
  before.forEach((w, i) => {
    const ratio = w / after[i];
    if (Math.abs(ratio - 1) < 1e-9) counts.kept++;
    else if (Math.abs(ratio - factor) < 1e-9 * factor) counts.interpolated++;
    else counts.blended++;
    // The arc of the trained range of positions [0, L0).
    const trained = original * w;
    if (trained >= TWO_PI) fullTurns++;
    else {
      // The first position m with m·w' ≥ trained: trained / w', rounded up (exact arithmetic).
      threshold = Math.min(threshold, trained / after[i]);
      // On the circle: a pair that wrapped back into its arc shows an angle seen in training.
      if (((seqLen - 1) * after[i]) % TWO_PI >= trained * (1 + 1e-12)) unseenAfter++;
    }
  });
  return { counts, attentionFactor, fullTurns, threshold, unseenAfter, before, after };
}

describe('the lab’s numbers for each preset match float64 references', () => {
  for (const [name, reference] of Object.entries(REFERENCE_OPTIONS))
    it(name, () => {
      const n = labNumbers(pe, { ropePreset: name });
      const want = expectations(reference);
      for (let i = 0; i < want.after.length; i++) {
        expectClose(n.after[i], want.after[i], 1e-12 * want.after[i]);
        expectClose(n.before[i], want.before[i], 1e-12 * want.before[i]);
      }
      const count = (kind) => n.kinds.filter((k) => k === kind).length;
      expect({ kept: count('kept'), interpolated: count('interpolated'), blended: count('blended') }).toEqual(
        want.counts,
      );
      expectClose(n.attentionFactor, want.attentionFactor, ATTENTION_FACTOR);
      expect(n.fullTurns).toBe(want.fullTurns);
      expect(n.firstUnseenBefore).toBe(reference.original);
      // At the threshold rounded up, whichever way the last bit of the threshold rounds.
      expectClose(n.firstUnseenAfter, Math.ceil(want.threshold), 1);
      expect(n.unseenAfter).toBe(want.unseenAfter);
      // The dials: each pair's angle at the last position, mod 2π.
      const last = reference.seqLen - 1;
      for (let i = 0; i < want.after.length; i++) {
        const angle = (last * want.after[i]) % TWO_PI;
        const difference = Math.abs(n.anglesAfter[i] - angle);
        expect(Math.min(difference, TWO_PI - difference)).toBeLessThanOrEqual(1e-9 * Math.max(1, last * want.after[i]));
      }
    });

  it('counts on the circle: a slow pair that wrapped back into its trained arc is not new', () => {
    // Llama 3.1 at 131,072: some slow pairs have turned past 2π and are back inside their arc.
    const reference = REFERENCE_OPTIONS['llama3.1-8b'];
    const n = labNumbers(pe, { ropePreset: 'llama3.1-8b' });
    const unwrapped = expectations(reference).after.filter(
      (w, i) =>
        reference.original * n.before[i] < TWO_PI && (reference.seqLen - 1) * w >= reference.original * n.before[i],
    ).length;
    expect(n.unseenAfter).toBe(expectations(reference).unseenAfter);
    expect(n.unseenAfter).toBeLessThan(unwrapped);
    const plain = expectations({ ...reference, scaling: undefined });
    expect(n.unseenBefore).toBe(plain.unseenAfter);
  });

  it('position interpolation at exactly factor · L0 shows no new angle', () => {
    for (const [preset, ropeType, factor] of [
      ['llama2-7b', 'linear', 2],
      ['llama2-7b', 'linear', 8],
      ['llama3.1-8b', 'llama3', 8],
      ['llama2-7b', 'yarn', 4],
    ]) {
      const original = labNumbers(pe, { ropePreset: preset }).original;
      const n = labNumbers(pe, { ropePreset: preset, ropeType, factor, seqLen: factor * original });
      expect(n.unseenAfter, `${preset} ${ropeType} ×${factor}`).toBe(0);
      // One position further, the slowest pairs (divided by the factor) leave their arc.
      const past = labNumbers(pe, { ropePreset: preset, ropeType, factor, seqLen: factor * original + 1 });
      expect(past.unseenAfter, `${preset} ${ropeType} ×${factor} + 1`).toBeGreaterThan(0);
      expect(n.firstUnseenAfter).toBe(factor * original);
    }
  });

  it('phi3.5-mini: LongRoPE with the long factors past the original context, head_dim 96', () => {
    const n = labNumbers(pe, { ropePreset: 'phi3.5-mini' });
    expect(n.pairs).toBe(48);
    expectClose(n.attentionFactor, Math.sqrt(1 + Math.log(32) / Math.log(4096)), ATTENTION_FACTOR);
    expect(n.kinds.every((k) => k === 'blended')).toBe(true);
    // Phi-3.5-mini's first long factor (config.json).
    // w / (w / factor): two divisions, an ulp each.
    expectClose(n.before[0] / n.after[0], 1.0800000429153442, { relative: 2 * FLOAT64_EPSILON });
    expectClose(
      labNumbers(pe, { ropePreset: 'phi3.5-mini', seqLen: 4096 }).before[1] /
        labNumbers(pe, { ropePreset: 'phi3.5-mini', seqLen: 4096 }).after[1],
      1.0199999809265137,
      { relative: 2 * FLOAT64_EPSILON },
    );
  });

  it('the per-pair readout: wavelengths, their ratio, the kind and the share of the circle seen in training', () => {
    for (const preset of ['llama3.1-8b', 'qwen2.5-7b-yarn']) {
      const reference = REFERENCE_OPTIONS[preset];
      const { after } = expectations(reference);
      const { headDim: d, base, original } = reference;
      const factor = reference.scaling.factor;
      const n = labNumbers(pe, { ropePreset: preset });
      for (let i = 0; i < d / 2; i++) {
        const theta = base ** ((-2 * i) / d);
        const got = pairNumbers(n, i);
        expect(got.pair).toBe(i);
        expectClose(got.wavelengthBefore, TWO_PI / theta, { relative: 1e-12 }, `${preset} pair ${i} before`);
        expectClose(got.wavelengthAfter, TWO_PI / after[i], { relative: 1e-12 }, `${preset} pair ${i} after`);
        expectClose(got.factor, theta / after[i], { relative: 1e-12 }, `${preset} pair ${i} factor`);
        const ratio = theta / after[i];
        const kind =
          Math.abs(ratio - 1) < 1e-9 ? 'kept' : Math.abs(ratio - factor) < 1e-9 * factor ? 'interpolated' : 'blended';
        expect(got.kind, `${preset} pair ${i}`).toBe(kind);
        expectClose(got.seenShare, Math.min(1, (original * theta) / TWO_PI), { relative: 1e-12 }, `${preset} ${i}`);
      }
    }
    // Llama 3.1's slowest pair: wavelength 2π·500000^(63/64), ×8, and 8192 positions sweep 0.26% of its circle.
    const slowest = pairNumbers(labNumbers(pe, { ropePreset: 'llama3.1-8b' }), 63);
    expect(slowest.kind).toBe('interpolated');
    expectClose(slowest.seenShare, 8192 / (TWO_PI * 500000 ** (63 / 64)), { relative: 1e-12 });
  });

  it('dynamic NTK: the base at each length is base · (f·L/L0 − (f − 1))^(d/(d − 2))', () => {
    const n = labNumbers(pe, { ropePreset: 'llama2-7b', ropeType: 'dynamic', factor: 2 });
    expect(n.dynamicBases.map((row) => row.length)).toEqual([4096, 8192, 16384, 32768]);
    for (const { length, base } of n.dynamicBases) {
      const want = 10000 * Math.max(1, (2 * length) / 4096 - 1) ** (128 / 126);
      expectClose(base, want, 1e-9 * want);
    }
  });
});

describe('attention_factor, when given, is used by yarn and longrope only (as Hugging Face reads it)', () => {
  // Hugging Face's own yarn (tests/fixtures/hf_rope.py) with and without attention_factor.
  const qwen = { head_dim: 128, max_position_embeddings: 131072 };
  const yarn = { rope_type: 'yarn', rope_theta: 1e6, factor: 4, original_max_position_embeddings: 32768 };
  it('yarn: HF returns the given 1.25, else 0.1·ln 4 + 1; the lab and Check my RoPE say which', () => {
    const given = hfAttentionFactor({ ...qwen, rope_parameters: { ...yarn, attention_factor: 1.25 } });
    const computed = hfAttentionFactor({ ...qwen, rope_parameters: yarn });
    expect(given).toBe(1.25);
    // Python's log against V8's: a few ulps.
    expectClose(computed, 0.1 * Math.log(4) + 1, ATTENTION_FACTOR);
    const lab = splitFacts(labNumbers(pe, { ropePreset: 'qwen2.5-7b-yarn', attentionFactor: 1.25 }));
    expect(lab.attention).toMatchObject({ type: 'yarn', value: given, given: true });
    const auto = splitFacts(labNumbers(pe, { ropePreset: 'qwen2.5-7b-yarn' }));
    expect(auto.attention.given).toBe(false);
    expectClose(auto.attention.value, computed, ATTENTION_FACTOR);
    // The same config read by Check my RoPE.
    const config = {
      hidden_size: 3584,
      num_attention_heads: 28,
      max_position_embeddings: 131072,
      rope_theta: 1e6,
      rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768, attention_factor: 1.25 },
    };
    expect(configFacts(pe, config).split.attention).toEqual(lab.attention);
  }, 60_000);

  it('longrope: _compute_longrope_parameters keeps a given attention_factor, else √(1 + ln f / ln L0)', () => {
    // HF: attention_factor = rope_parameters.get("attention_factor"), computed only when None.
    const given = splitFacts(labNumbers(pe, { ropePreset: 'phi3.5-mini', attentionFactor: 1.25 }));
    expect(given.attention).toMatchObject({ type: 'longrope', value: 1.25, given: true });
    const auto = splitFacts(labNumbers(pe, { ropePreset: 'phi3.5-mini' }));
    expect(auto.attention.given).toBe(false);
    expectClose(auto.attention.value, Math.sqrt(1 + Math.log(32) / Math.log(4096)), ATTENTION_FACTOR);
  });

  it('llama3, linear, dynamic and default ignore it: factor 1, not "as given"', () => {
    for (const ropeType of ['llama3', 'linear', 'dynamic', 'default']) {
      const { attention } = splitFacts(labNumbers(pe, { ropePreset: 'llama3.1-8b', ropeType, attentionFactor: 1.25 }));
      expect(attention, ropeType).toMatchObject({ value: 1, given: false });
    }
  });
});

describe('the page’s code for each preset, run by Debian’s python3, rebuilds posenc’s cache', () => {
  const states = [
    ...ROPE_PRESET_NAMES.map((ropePreset) => ({ ropePreset })),
    { ropePreset: 'llama2-7b', ropeType: 'dynamic', factor: 2 },
  ];
  let dir;
  let results;
  let setupError;
  const cases = [];
  for (const state of states)
    for (const language of ['numpy', 'pytorch']) {
      const k = labKnobs(state);
      // The last rows of the lab's sequence (its full length would be a 100 MB cache).
      cases.push({
        state,
        language,
        options: { ...labOptions(k), length: 32, start: k.seqLen - 32, layout: k.layout },
      });
    }
  beforeAll(() => {
    try {
      dir = mkdtempSync(join(tmpdir(), 'posenc-rope-lab-'));
      const scripts = cases.map(({ language, options }, index) => {
        const script = join(dir, `lab${index}.py`);
        const save = `import json\njson.dump({'inv_freq': inv_freq.tolist(), 'attention_factor': float(attention_factor), 'cos': cos.ravel().tolist(), 'sin': sin.ravel().tolist()}, open(${JSON.stringify(join(dir, `lab${index}.json`))}, 'w'))`;
        writeFileSync(script, `${codeSnippet(language, options)}${save}\n`);
        return script;
      });
      execFileSync('/usr/bin/python3', [
        '-c',
        'import runpy, sys\nfor path in sys.argv[1:]: runpy.run_path(path)',
        ...scripts,
      ]);
      results = cases.map((_, index) => JSON.parse(readFileSync(join(dir, `lab${index}.json`), 'utf8')));
    } catch (error) {
      setupError = error;
    }
    // Importing PyTorch takes seconds on a loaded machine.
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  cases.forEach(({ state, language, options }, index) =>
    it(`${language}: ${JSON.stringify(state)}`, () => {
      if (setupError) throw setupError;
      const got = results[index];
      const { length, start, layout, ...rope } = options;
      const f = pe.ropeFrequencies(rope);
      expect(maxAbsDiff(got.inv_freq, f.invFreq)).toBeLessThanOrEqual(1e-15);
      expectClose(got.attention_factor, f.attentionFactor, ATTENTION_FACTOR);
      const cache = pe.ropeCache(options);
      // One float32 ulp of a value up to the attention factor.
      expect(maxAbsDiff(got.cos, cache.cos)).toBeLessThanOrEqual(1.2e-7 * f.attentionFactor);
      expect(maxAbsDiff(got.sin, cache.sin)).toBeLessThanOrEqual(1.2e-7 * f.attentionFactor);
    }),
  );
});
