// The precision section (spread into sections.js): the error map of the state's
// table through the chosen dtype path, the facts of each format and the
// replays of the reported cases, from precision-data.js.
import { draw as drawPrecision } from '../plots/precision.js';
import { ENCODING_KEYS } from '../model/convention.js';
import { PRECISION_COMPUTE } from '../model/precision-data.js';

const startOf = (conv) => conv.start ?? 0;
const positionOf = (conv, row) => Number((startOf(conv) + row).toPrecision(12));

function present({ format, map, bound, formats, replays }, { state, t, conv }) {
  const { largest } = formats.find((facts) => facts.format === format);
  // The map comes in units of the largest error (bound): the legend's ticks stay short (−1 … 1)
  // for float32's errors of 1e-5 as for bfloat16's of 1; readouts give the errors themselves.
  const at = (facts) => ({ ...facts.largest, position: positionOf(conv, facts.largest.row) });
  return {
    data: {
      map: {
        values: map.values,
        painter: map.painter,
        rows: map.rows,
        columns: map.columns,
        marks: { row: largest.row, column: largest.column },
      },
      facts: {
        caption: t('precision.factsCaption', state.length),
        head: ['format', 'collision', 'overflow', 'largest'].map((column) => t(`precision.col.${column}`)),
        rows: formats.map((facts) => [
          facts.format,
          t('precision.collision', facts.collision),
          facts.overflow === null ? t('precision.noOverflow') : t('precision.overflow', facts.overflow),
          t('precision.largest', { ...at(facts), column: facts.largest.column }),
        ]),
      },
      notes: [
        {
          text: t('precision.mapLargest', { format, ...at({ largest }), length: state.length }),
          testId: 'precision-largest',
        },
        { text: t('precision.neox', replays.neox), testId: 'precision-neox' },
        { text: t('precision.bfloat16', replays.bfloat16), testId: 'precision-bfloat16' },
        { text: t('precision.diffusers', replays.diffusers), testId: 'precision-diffusers' },
      ],
    },
    options: {
      xTitle: t('axis.dimension'),
      yTitle: t('axis.position'),
      rowOrigin: startOf(conv),
      legendTitle: t('precision.legend', bound),
      domain: [-1, 1],
      readout: (row, column, value) => t('precision.readout', positionOf(conv, row), column, value * bound),
      readoutHint: t('heatmap.hint'),
      describe: (summary) =>
        t('precision.describe', { ...summary, min: summary.min * bound, max: summary.max * bound, format }),
      testId: 'precision-map',
    },
  };
}

export const PRECISION_SECTIONS = [
  {
    name: 'precision',
    draw: drawPrecision,
    deps: [...ENCODING_KEYS, 'length', 'precision'],
    compute: PRECISION_COMPUTE.precision,
    present,
    build: (context) => present(PRECISION_COMPUTE.precision(context), context),
  },
];
