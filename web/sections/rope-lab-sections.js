// The RoPE context-extension lab's sections (spread into SECTIONS by
// sections.js): the per-pair wavelength plot (<posenc-rope-scaling>,
// embed.html plot=rope-scaling) and the dials. Numbers from
// rope-lab-data.js (the page's worker), words from the rope-lab-plots string
// tables: every sentence states what the current numbers say.
import { draw as drawDials } from '../plots/rope-dials.js';
import { draw as drawScaling, KIND_COLOURS } from '../plots/rope-scaling.js';
import { LAB_KEYS, pairNumbers, ROPE_LAB_COMPUTE, splitFacts } from '../model/rope-lab-data.js';

const TWO_PI = 2 * Math.PI;

/** The wavelength guides: the original context, the sequence, and the type's own thresholds. */
function guides(n, t) {
  const k = n.knobs;
  const lines = [{ value: n.original, label: t('ropeLab.guideOriginal', n.original), short: `L₀ = ${n.original}` }];
  if (n.seqLen !== n.original)
    lines.push({ value: n.seqLen, label: t('ropeLab.guideSeqLen', n.seqLen), short: `seq_len ${n.seqLen}` });
  const threshold = (name, divisor) => ({
    value: n.original / divisor,
    label: t('ropeLab.guideBand', name, n.original / divisor),
    short: `L₀/${name}`,
  });
  if (k.ropeType === 'yarn') lines.push(threshold('β_fast', k.betaFast), threshold('β_slow', k.betaSlow));
  if (k.ropeType === 'llama3')
    lines.push(threshold('high_freq_factor', k.highFreqFactor), threshold('low_freq_factor', k.lowFreqFactor));
  // Thresholds that coincide (Llama 3's L₀/low_freq_factor = L₀ when low_freq_factor is 1) share one line.
  const merged = [];
  for (const line of lines) {
    const same = merged.find((m) => Math.abs(m.value - line.value) <= 1e-9 * line.value);
    if (same) {
      same.label = `${same.label} = ${line.label}`;
      same.short = `${same.short} = ${line.short}`;
    } else merged.push({ ...line });
  }
  return merged;
}

/** The lab's sentences, each true for these numbers. */
export function labNotes(n, t) {
  const k = n.knobs;
  const notes = [];
  if (k.headDimFixed) notes.push({ text: t('ropeLab.longropeHeadDim', n.pairs, k.headDim), testId: 'rope-head-dim' });
  const split = splitFacts(n);
  notes.push({ text: t('ropeLab.kinds', split.kinds), testId: 'rope-kinds' });
  notes.push({ text: t('ropeLab.attention', split.attention), testId: 'rope-attention' });
  if (k.ropeType === 'yarn' && k.mscaleAllDim && k.factor > 1) {
    const softmax = (0.1 * k.mscaleAllDim * Math.log(k.factor) + 1) ** 2;
    notes.push({ text: t('ropeLab.softmaxScale', k.factor, k.mscaleAllDim, softmax), testId: 'rope-softmax' });
  }
  if (k.ropeType === 'longrope')
    notes.push({ text: t('ropeLab.longropeList', n.seqLen > n.original, n.seqLen, n.original), testId: 'rope-list' });
  notes.push({
    text: t('ropeLab.unseen', {
      original: n.original,
      pairs: n.pairs,
      fullTurns: n.fullTurns,
      firstBefore: n.firstUnseenBefore,
      firstAfter: n.firstUnseenAfter,
      position: n.position,
      unseenBefore: n.unseenBefore,
      unseenAfter: n.unseenAfter,
    }),
    testId: 'rope-unseen',
  });
  if (n.dynamicBases)
    notes.push({ text: t('ropeLab.dynamicBases', k.ropeTheta, n.dynamicBases), testId: 'rope-dynamic' });
  return notes;
}

/** The readout of pair i (both plots read out the same pair numbers). */
function pairReadout(n, t) {
  return {
    readout: (i) => {
      const pair = pairNumbers(n, i);
      return t('ropeLab.readout', { ...pair, kindText: t(`ropeLab.kind.${pair.kind}`), original: n.original });
    },
    readoutHint: t('ropeLab.readoutHint'),
  };
}

export const ROPE_LAB_SECTIONS = [
  {
    name: 'rope-scaling',
    draw: drawScaling,
    deps: LAB_KEYS,
    compute: ROPE_LAB_COMPUTE['rope-scaling'],
    present: (n, { t }) => ({
      data: {
        wavelengthBefore: n.wavelengthBefore,
        wavelengthAfter: n.wavelengthAfter,
        kinds: n.kinds,
        guides: guides(n, t),
        legend: [
          { text: t('ropeLab.legendBefore'), swatch: 'muted' },
          ...Object.entries(KIND_COLOURS).map(([kind, swatch]) => ({ text: t(`ropeLab.kind.${kind}`), swatch })),
        ],
        notes: labNotes(n, t),
      },
      options: {
        ...pairReadout(n, t),
        xTitle: t('ropeLab.axisPair'),
        yTitle: t('ropeLab.axisWavelength'),
        describe: () =>
          t('ropeLab.describe', {
            pairs: n.pairs,
            type: n.knobs.ropeType,
            shortest: Math.min(...n.wavelengthAfter),
            longest: Math.max(...n.wavelengthAfter),
            original: n.original,
          }),
      },
    }),
  },
  {
    name: 'rope-dials',
    draw: drawDials,
    deps: LAB_KEYS,
    compute: ROPE_LAB_COMPUTE['rope-dials'],
    present: (n, { t }) => ({
      data: {
        anglesBefore: n.anglesBefore,
        anglesAfter: n.anglesAfter,
        trained: n.trained.map((angle) => Math.min(angle, TWO_PI)),
        legend: [
          { text: t('ropeLab.dialsLegend', n.position, n.original), testId: 'rope-dials-legend' },
          {
            text: t('ropeLab.odometer', {
              beta: n.before[0] / n.before[1],
              position: n.position,
              fastest: n.anglesAfter[0],
              turnsSlowest: (n.position * n.after[n.pairs - 1]) / TWO_PI,
              pairs: n.pairs,
            }),
            testId: 'rope-odometer',
          },
        ],
      },
      options: { ...pairReadout(n, t), describe: () => t('ropeLab.dialsDescribe', n.pairs, n.position) },
    }),
  },
].map((section) => ({ ...section, build: (context) => section.present(section.compute(context), context) }));
