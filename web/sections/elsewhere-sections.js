// The sections of the chapter "the same sinusoids elsewhere": diffusion
// timestep embeddings, a 2-D sin-cos grid, relative tables and streaming
// chunks. Their state keys and how their numbers (elsewhere-data.js) become each
// plot's data and translated options. sections.js spreads ELSEWHERE_SECTIONS
// into SECTIONS.
import { draw as drawCurves } from '../plots/curves.js';
import { draw as drawHeatmap } from '../plots/heatmap.js';
import { ELSEWHERE_COMPUTE } from '../model/elsewhere-data.js';

const withCompute = (name, present) => ({
  compute: ELSEWHERE_COMPUTE[name],
  present,
  build: (context) => present(ELSEWHERE_COMPUTE[name](context), context),
});

const TIMESTEP = ['dModel', 'tsPreset', 'flipSinToCos', 'freqShift', 'maxPeriod'];
const GRID = ['dModel', 'gridHeight', 'gridWidth', 'axisOrder'];

/** A symmetric colour domain around 0 that holds every value. */
function symmetric(values) {
  let extent = 0;
  for (const value of values) extent = Math.max(extent, Math.abs(value));
  return [-(extent || 1), extent || 1];
}

/** The options of an [height × width] image of the grid: rows and columns of patches. */
const gridImage = (t, numbers, extra) => ({
  xTitle: t('grid.xTitle'),
  yTitle: t('grid.yTitle'),
  height: (width) => Math.max(160, Math.min(460, ((width - 90) * numbers.rows) / numbers.columns + 60)),
  ...extra,
});

/** The dot products from the chosen patch, in the grid made right or with height and width swapped. */
const gridDots =
  (swapped) =>
  (numbers, { t, pick }) => {
    const values = swapped ? numbers.swappedValues : numbers.values;
    const row = Math.floor(numbers.patch / numbers.columns);
    const column = numbers.patch % numbers.columns;
    const spread = swapped ? numbers.swappedSpread : numbers.spread;
    return {
      data: {
        values,
        rows: numbers.rows,
        columns: numbers.columns,
        marks: { row, column },
        notes: [
          {
            text: t(swapped ? 'gridSwapped.note' : 'gridDots.note', {
              spread,
              rows: numbers.rows,
              columns: numbers.columns,
            }),
            testId: swapped ? 'grid-swapped-spread' : 'grid-dots-spread',
          },
        ],
      },
      options: gridImage(t, numbers, {
        legendTitle: t('gridDots.legend'),
        domain: symmetric(values),
        readout: (r, c, value) => t('readout.gridDot', { row, column, r, c, value }),
        readoutHint: t('gridDots.hint'),
        describe: (summary) => t('gridDots.describe', { ...summary, row, column, swapped }),
        onPick: ({ row: r, column: c }) => pick({ gridPatch: r * numbers.columns + c }),
        testId: swapped ? 'grid-swapped-readout' : 'grid-dots-readout',
      }),
    };
  };

export const ELSEWHERE_SECTIONS = [
  {
    name: 'timestep-embedding',
    draw: drawHeatmap,
    deps: [...TIMESTEP, 'tsRange'],
    ...withCompute('timestep-embedding', (numbers, { t }) => ({
      data: { values: numbers.values, rows: numbers.rows, columns: numbers.columns },
      options: {
        xTitle: t('axis.dimension'),
        yTitle: t('timestep.yTitle', numbers.last),
        legendTitle: t('timestep.legend'),
        domain: [-1, 1],
        readout: (row, column, value) =>
          t('readout.timestep', { t: numbers.last === 1 ? row / 100 : row * 10, column, value }),
        readoutHint: t('heatmap.hint'),
        describe: (summary) => t('timestep.describe', { ...summary, last: numbers.last }),
        testId: 'timestep-readout',
      },
    })),
  },
  {
    name: 'timestep-similarity',
    draw: drawCurves,
    deps: TIMESTEP,
    ...withCompute('timestep-similarity', (numbers, { t }) => {
      const { fractions, ranges } = numbers;
      return {
        data: {
          series: [
            { label: t('timestepSimilarity.series', 1000), x: fractions, y: ranges['1000'].toFirst },
            { label: t('timestepSimilarity.series', 1), x: fractions, y: ranges['1'].toFirst, dashed: true },
          ],
          guides: [{ y: 0, label: '0' }],
          notes: ['1000', '1'].map((range) => ({
            text: t('timestepSimilarity.note', { last: Number(range), ...ranges[range], maxPeriod: numbers.maxPeriod }),
            testId: `timestep-similarity-${range}`,
          })),
        },
        options: {
          xTitle: t('timestepSimilarity.xTitle'),
          yTitle: t('timestepSimilarity.yTitle'),
          yDomain: [-1.05, 1.05],
          describe: () => t('timestepSimilarity.describe', numbers.dim),
        },
      };
    }),
  },
  {
    name: 'grid-column',
    draw: drawHeatmap,
    deps: [...GRID, 'gridColumn'],
    ...withCompute('grid-column', (numbers, { t }) => ({
      data: {
        values: numbers.values,
        rows: numbers.rows,
        columns: numbers.columns,
        notes: [{ text: t('gridColumn.note', numbers), testId: 'grid-column-axis' }],
      },
      options: gridImage(t, numbers, {
        legendTitle: t('gridColumn.legend', numbers.column),
        domain: [-1, 1],
        readout: (row, column, value) => t('readout.gridValue', { row, column, index: numbers.column, value }),
        readoutHint: t('heatmap.hint'),
        describe: (summary) => t('gridColumn.describe', { ...summary, column: numbers.column }),
        testId: 'grid-column-readout',
      }),
    })),
  },
  {
    name: 'grid-dots',
    draw: drawHeatmap,
    deps: [...GRID, 'gridPatch'],
    ...withCompute('grid-dots', gridDots(false)),
  },
  {
    name: 'grid-swapped',
    draw: drawHeatmap,
    deps: [...GRID, 'gridPatch'],
    ...withCompute('grid-swapped', gridDots(true)),
  },
  {
    name: 'relative-table',
    draw: drawHeatmap,
    deps: ['dModel', 'relLength', 'chunkStart'],
    ...withCompute('relative-table', (numbers, { t }) => ({
      data: {
        values: numbers.values,
        rows: numbers.rows,
        columns: numbers.columns,
        notes: [
          { text: t('relativeTable.noteRelative', numbers), testId: 'relative-difference' },
          { text: t('relativeTable.noteChunk', numbers), testId: 'chunk-difference' },
        ],
      },
      options: {
        xTitle: t('axis.dimension'),
        yTitle: t('relativeTable.yTitle', numbers.first),
        legendTitle: t('heatmap.legend'),
        domain: [-1, 1],
        readout: (row, column, value) => t('readout.table', numbers.first - row, column, value),
        readoutHint: t('heatmap.hint'),
        describe: (summary) => t('relativeTable.describe', { ...summary, first: numbers.first }),
        testId: 'relative-readout',
      },
    })),
  },
];
