// The sections of the RoPE chapter's beginning (from adding to rotating,
// long-term decay, choosing the base) and the sinusoidal chapter's "why
// 10000": their state keys and how their numbers (rope-data.js) become each
// plot's data and translated options. sections.js spreads ROPE_SECTIONS into
// SECTIONS.
import { draw as drawCurves } from '../plots/curves.js';
import { draw as drawOffsetDots } from '../plots/offset-dots.js';
import { MARKED_BASES, ROPE_COMPUTE } from '../model/rope-data.js';

const withCompute = (name, present) => ({
  compute: ROPE_COMPUTE[name],
  present,
  build: (context) => present(ROPE_COMPUTE[name](context), context),
});

export const ROPE_SECTIONS = [
  {
    name: 'why-base',
    draw: drawCurves,
    deps: ['dModel', 'length', 'base', 'offset'],
    ...withCompute('why-base', (numbers, { t }) => {
      const { bases, similarity, slowShare, smallest, current, paper, atSmallest } = numbers;
      const marks = [
        { x: current.base, label: t('whyBase.markCurrent', current.base) },
        ...(current.base === 1e4 ? [] : [{ x: 1e4, label: '10000' }]),
        ...(smallest === null ? [] : [{ x: smallest, label: t('whyBase.markSmallest', smallest) }]),
      ];
      return {
        data: {
          series: [
            { label: t('whyBase.similarity', numbers.apart), x: bases, y: similarity },
            { label: t('whyBase.slow', numbers.length), x: bases, y: slowShare, dashed: true },
          ],
          marks,
          notes: [
            {
              text: t('whyBase.noteAt', { ...current, d: numbers.d, apart: numbers.apart }),
              testId: 'why-base-current',
            },
            ...(current.base === 1e4
              ? []
              : [{ text: t('whyBase.noteAt', { ...paper, d: numbers.d, apart: numbers.apart }) }]),
            {
              text: t('whyBase.noteSmallest', { smallest, length: numbers.length, d: numbers.d, atSmallest }),
              testId: 'why-base-smallest',
            },
          ],
        },
        options: {
          xTitle: t('axis.base'),
          yTitle: t('whyBase.yTitle'),
          xLog: true,
          yDomain: [-0.05, 1.05],
          describe: () => t('whyBase.describe', { d: numbers.d, length: numbers.length, apart: numbers.apart }),
        },
      };
    }),
  },
  {
    name: 'rope-relative',
    draw: drawOffsetDots,
    deps: ['ropeDim', 'base', 'ropeLayout', 'position', 'offset'],
    ...withCompute('rope-relative', (numbers, { t }) => ({
      data: {
        offset: numbers.offset,
        curves: numbers.curves.map(({ start, first, values }) => ({
          label: t('ropeRelative.from', start),
          first,
          values,
        })),
      },
      options: {
        xTitle: t('ropeRelative.xTitle'),
        yTitle: t('ropeRelative.yTitle'),
        describe: () => t('ropeRelative.describe', numbers),
      },
    })),
  },
  {
    name: 'rope-decay',
    draw: drawCurves,
    deps: ['ropeDim', 'base', 'context'],
    ...withCompute('rope-decay', (numbers, { t }) => {
      const offsets = Float64Array.from({ length: numbers.window + 1 }, (_, m) => m);
      // The bound as RoFormer's Figure 2 draws it, divided by its value at 0 to share the axis with the score.
      const atZero = numbers.bound[0];
      return {
        data: {
          series: [
            { label: t('ropeDecay.bound'), x: offsets, y: numbers.bound.map((v) => v / atZero) },
            { label: t('ropeDecay.score'), x: offsets, y: numbers.scores },
            { label: t('ropeDecay.sinusoid'), x: offsets, y: numbers.sinusoid, dashed: true },
          ],
          guides: [{ y: 0, label: '0' }],
          notes: [
            {
              text: t('ropeDecay.noteBound', { window: numbers.window, atZero, last: numbers.bound[numbers.window] }),
              testId: 'rope-decay-bound',
            },
            { text: t('ropeDecay.noteAgreement', numbers.agreement), testId: 'rope-decay-agreement' },
          ],
        },
        options: {
          xTitle: t('ropeRelative.xTitle'),
          yTitle: t('ropeDecay.yTitle'),
          describe: () => t('ropeDecay.describe', numbers.window),
        },
      };
    }),
  },
  {
    name: 'rope-base',
    draw: drawCurves,
    deps: ['ropeDim', 'context', 'base'],
    ...withCompute('rope-base', (numbers, { t }) => {
      const { bases, supported, smallest, context, limit, marks } = numbers;
      return {
        data: {
          series: [{ label: t('ropeBase.series', numbers.headDim), x: bases, y: supported }],
          guides: [{ y: context, label: t('ropeBase.guide', context) }],
          marks: marks.map((mark) => ({ x: mark.base, label: t('ropeBase.mark', mark) })),
          notes: [
            {
              text: t('ropeBase.noteSmallest', { smallest, context, headDim: numbers.headDim }),
              testId: 'rope-base-smallest',
            },
            ...marks
              .filter(({ base }) => base !== smallest)
              .map((mark) => ({
                text: t('ropeBase.noteMark', { ...mark, context }),
                testId: `rope-base-${mark.base}`,
              })),
          ],
        },
        options: {
          xTitle: t('axis.base'),
          yTitle: t('ropeBase.yTitle'),
          xLog: true,
          yLog: true,
          yDomain: [1, limit * 1.5],
          describe: () => t('ropeBase.describe', { headDim: numbers.headDim, context, limit, marked: MARKED_BASES }),
        },
      };
    }),
  },
];
