// The precision section (spread into sections.js): the error map of the state's
// table through the chosen dtype path, the facts of each format and the
// replays of the reported cases, from precision-data.js.
import { draw as drawPrecision } from '../plots/precision.js';
import { ENCODING_KEYS } from './convention.js';
import { PRECISION_COMPUTE } from './precision-data.js';

const startOf = (conv) => conv.start ?? 0;
const positionOf = (conv, row) => Number((startOf(conv) + row).toPrecision(12));
// A map of all zeros (no error at all) still needs a colour scale.
const SMALLEST_DOMAIN = 1e-12;

// One scaled copy per map (the worker's arrays come back as the same objects while memoised).
const scaledMaps = new WeakMap();
function scaledBy(map, bound) {
  if (!scaledMaps.has(map)) {
    // A plain loop: a typed array's map() with a callback took ~100 ms for the 1M values of
    // 2048 x 512 on the main thread (a loop, 1-2 ms), at every step of a drag.
    const scaled = new map.constructor(map.length);
    for (let i = 0; i < map.length; i++) scaled[i] = map[i] / bound;
    scaledMaps.set(map, scaled);
  }
  return scaledMaps.get(map);
}

function present({ format, map, formats, replays }, { state, t, conv }) {
  const { largest } = formats.find((facts) => facts.format === format);
  const bound = Math.max(SMALLEST_DOMAIN, Number.isFinite(largest.value) ? largest.value : 2);
  // The map in units of the largest error: the legend's ticks stay short (−1 … 1)
  // for float32's errors of 1e-5 as for bfloat16's of 1; readouts give the errors themselves.
  const scaled = scaledBy(map, bound);
  const at = (facts) => ({ ...facts.largest, position: positionOf(conv, facts.largest.row) });
  return {
    data: {
      map: {
        values: scaled,
        rows: state.length,
        columns: state.dModel,
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
