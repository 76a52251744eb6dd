// The sections on how attention uses the encoding, why sine and cosine, the
// training length and the FAQ (issue #20): what each plot shows, built from
// the numbers of attention-data.js (computed in the page's worker) and the strings
// of i18n/attention-plots.*.js. sections.js spreads them into SECTIONS.
import { draw as drawPanels } from '../plots/panels.js';
import { draw as drawHeatmap } from '../plots/heatmap.js';
import { draw as drawOffsetDots } from '../plots/offset-dots.js';
import { ATTENTION_COMPUTE } from '../model/attention-data.js';
import { maxPosition } from '../model/params.js';

const WIDTH = ['dModel', 'base'];

/** A section whose numbers come from attention-data.js: compute, present(numbers, context), build doing both. */
const fromModel = (name, present) => ({
  compute: ATTENTION_COMPUTE[name],
  present,
  build: (context) => present(ATTENTION_COMPUTE[name](context), context),
});

const series = (label, x, y, extra = {}) => ({ label, x, y, ...extra });
const percent = (fraction) => 100 * fraction;

export const ATTENTION_SECTIONS = [
  {
    name: 'attention',
    draw: drawHeatmap,
    deps: [...WIDTH, 'length', 'position', 'offset'],
    ...fromModel('attention', ({ size, offset, map, min, max }, { state, t, pick }) => ({
      data: {
        values: map.values,
        painter: map.painter,
        rows: size,
        columns: size,
        marks: {
          row: state.position < size ? state.position : null,
          column: state.position < size && state.position >= offset ? state.position - offset : null,
        },
      },
      options: {
        xTitle: t('attention.keyAxis'),
        yTitle: t('attention.queryAxis'),
        legendTitle: t('attention.legend'),
        // The window's own range: the peak line q = p − k stands out against the broad band of the slow pairs.
        // (The worker paints the next map of a drag in it: ranged.)
        domain: [min, max],
        ranged: true,
        readout: (p, q, value) => t('attention.readout', p, q, offset, value),
        readoutHint: t('attention.hint'),
        testId: 'attention-readout',
        describe: (summary) => t('attention.describe', { ...summary, offset }),
        onPick: ({ row }) => row <= maxPosition(state) && pick({ position: row }),
      },
    })),
  },
  {
    name: 'attention-rows',
    draw: drawPanels,
    deps: [...WIDTH, 'length', 'position', 'offset'],
    ...fromModel('attention-rows', (numbers, { t }) => {
      const { position: p, offset: k, offsets, symmetry, fractions, window } = numbers;
      const keys = Float64Array.from(offsets, (m) => p + m);
      const markers = [
        { x: p - k, label: t('attention.before') },
        ...(k > 0 ? [{ x: p + k, label: t('attention.after') }] : []),
      ];
      const plainLabel = t('attention.plain');
      const rotatedLabel = t('attention.rotated', k);
      return {
        data: {
          panels: [
            {
              label: t('attention.scores', p),
              markers,
              series: [series(plainLabel, keys, numbers.plain), series(rotatedLabel, keys, numbers.rotated)],
            },
            {
              label: t('attention.weights'),
              markers,
              series: [
                series(plainLabel, keys, numbers.plainWeights),
                series(rotatedLabel, keys, numbers.rotatedWeights),
              ],
            },
            {
              label: t('attention.tokens'),
              markers,
              series: [
                series(rotatedLabel, keys, numbers.rotated, { colour: 1 }),
                series(t('attention.unscaled'), keys, numbers.unscaled, { colour: 2, dashed: true }),
                series(t('attention.scaled'), keys, numbers.scaled, { colour: 3, dots: true }),
              ],
            },
          ],
          notes: [
            { text: t('attention.symmetry', { ...symmetry, offset: k }), testId: 'attention-symmetry' },
            {
              text: t('attention.weightBack', {
                plain: numbers.plainWeights[offsets.indexOf(-k)] ?? NaN,
                rotated: numbers.rotatedWeights[offsets.indexOf(-k)] ?? NaN,
                offset: k,
              }),
              testId: 'attention-weight',
            },
            {
              text: t('attention.fractions', {
                window,
                offset: k,
                rows: fractions.rotated.rows,
                plain: fractions.plain.hits,
                rotated: fractions.rotated.hits,
                unscaled: fractions.unscaled.hits,
                scaled: fractions.scaled.hits,
                unscaledPercent: percent(fractions.unscaled.fraction),
                scaledPercent: percent(fractions.scaled.fraction),
                scaledItself: fractions.scaled.itself,
                scaledItself: fractions.scaled.itself,
              }),
              testId: 'attention-fractions',
            },
          ],
        },
        options: {
          xTitle: t('attention.keyAxis'),
          describe: () => t('attention.describeRows', { position: p, offset: k }),
        },
      };
    }),
  },
  {
    name: 'sine-only',
    draw: drawOffsetDots,
    deps: [...WIDTH, 'length', 'position', 'offset'],
    ...fromModel('sine-only', ({ offset, curves }, { t }) => ({
      data: {
        offset,
        curves: curves.map(({ start, first, values }) => ({ label: t('sineOnly.from', start), first, values })),
        contributions: null,
      },
      options: {
        xTitle: t('axis.offset'),
        yTitle: t('sineOnly.axis'),
        describe: (summary) => t('sineOnly.describe', summary),
      },
    })),
  },
  {
    name: 'sine-fit',
    draw: drawPanels,
    deps: [...WIDTH, 'length', 'position', 'offset', 'dimension'],
    ...fromModel('sine-fit', (numbers, { t }) => {
      const { pairs, allPairs, positions, offset, both, sine, cosine, spread, mirror, zeroTarget } = numbers;
      const index = Float64Array.from({ length: pairs }, (_, i) => i);
      const fitted = numbers.underdetermined
        ? []
        : [
            series(t('sineFit.sine'), index, sine.relative, { dots: true }),
            series(t('sineFit.cosine'), index, cosine.relative, { colour: 1, dashed: true }),
          ];
      return {
        data: {
          xDomain: [0, Math.max(1, pairs - 1)],
          panels: [
            {
              label: t('sineFit.panel', { pairs, allPairs }),
              yDomain: [-0.05, 1.05],
              series: [...fitted, series(t('sineFit.both'), index, both.relative.subarray(0, pairs), { colour: 2 })],
            },
          ],
          notes: [
            {
              text: numbers.underdetermined
                ? t('sineFit.underdetermined', { positions, pairs })
                : t('sineFit.residual', {
                    positions,
                    offset,
                    pairs,
                    allPairs,
                    sine: percent(sine.overall),
                    cosine: percent(cosine.overall),
                    both: both.overall,
                  }),
              testId: 'fit-residual',
            },
            { text: t('sineFit.zero', { offset, norm: zeroTarget }), testId: 'fit-zero' },
            { text: t('sineFit.spread', spread), testId: 'fit-spread' },
            { text: t('sineFit.mirror', mirror), testId: 'fit-mirror' },
          ],
        },
        options: { xTitle: t('sineFit.axis'), describe: () => t('sineFit.describe', { pairs }) },
      };
    }),
  },
  {
    name: 'extrapolation',
    draw: drawPanels,
    deps: [...WIDTH, 'length', 'position'],
    ...fromModel('extrapolation', (numbers, { t }) => {
      const { seen, reached, length, position, firstIncomplete } = numbers;
      const index = Float64Array.from(seen, (_, i) => i);
      return {
        data: {
          xDomain: [0, Math.max(1, seen.length - 1)],
          panels: [
            {
              label: t('extrapolation.panel'),
              yDomain: [0, 1.08],
              markers: firstIncomplete >= 0 ? [{ x: firstIncomplete, label: t('extrapolation.marker') }] : [],
              series: [
                series(t('extrapolation.seen', length), index, seen),
                series(t('extrapolation.reached', position), index, reached, { dashed: true }),
              ],
            },
          ],
          notes: [
            { text: t('extrapolation.count', numbers), testId: 'extrapolation-count' },
            { text: t('extrapolation.atP', numbers), testId: 'extrapolation-p' },
          ],
        },
        options: { xTitle: t('sineFit.axis'), describe: () => t('extrapolation.describe', numbers) },
      };
    }),
  },
  {
    name: 'token-scale',
    draw: drawPanels,
    deps: [...WIDTH, 'position'],
    ...fromModel('token-scale', (numbers, { state, t }) => {
      const columns = Float64Array.from(numbers.row, (_, j) => j);
      return {
        data: {
          xDomain: [0, Math.max(1, columns.length - 1)],
          panels: [
            {
              label: t('tokenScale.panel', numbers.position),
              series: [
                series(t('tokenScale.pe', numbers.position), columns, numbers.row, { dots: true }),
                // A hairline, not dashed: a token embedding is noise from one dimension to the next,
                // and dashing its hundreds of jagged points overloads the rasterizer in a drag; the
                // encoding's series has dots, so the two differ by more than colour.
                series(t('tokenScale.token'), columns, numbers.token, { colour: 1, thin: true }),
              ],
            },
          ],
          notes: [
            { text: t('tokenScale.norms', { ...numbers, dModel: state.dModel }), testId: 'faq-norms' },
            { text: t('tokenScale.cosine', { ...numbers, dModel: state.dModel }), testId: 'faq-cosine' },
            { text: t('tokenScale.nope', numbers), testId: 'faq-nope' },
          ],
        },
        options: { xTitle: t('axis.dimension'), describe: () => t('tokenScale.describe', numbers) },
      };
    }),
  },
];
