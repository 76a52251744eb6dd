// The sinusoidal table's sections (§1-§10, loaded with the page): what each plot shows,
// which state it depends on, and how its data (from the model, or the arrays
// of arrays.js) and its translated options are built. For the plots that read
// the model the numbers come from sinusoidal-data.js (compute, which the page runs
// in its worker) and are turned into data and options here (present); build
// does both at once. sections.js adds the later chapters.
import { draw as drawCompare } from '../plots/compare.js';
import { draw as drawHeatmap } from '../plots/heatmap.js';
import { draw as drawLadder } from '../plots/ladder.js';
import { draw as drawOffsetDots } from '../plots/offset-dots.js';
import { draw as drawRotation } from '../plots/rotation.js';
import { draw as drawRow } from '../plots/row.js';
import { draw as drawSensitivity } from '../plots/sensitivity.js';
import { draw as drawSimilarity } from '../plots/similarity.js';
import { draw as drawWaves } from '../plots/waves.js';
import { amplitude, ENCODING_KEYS as ENCODING, firstFunction, hasLoneColumn } from '../model/convention.js';
import { maxPosition } from '../model/params.js';
import { SINUSOIDAL_COMPUTE as COMPUTE } from '../model/sinusoidal-data.js';
import { heatmapFacts, ladderFacts, offsetFacts, rowFacts, sensitivityFacts, wavesFacts } from '../model/text-facts.js';
const TWO_PI = 2 * Math.PI;
/** Dimensions the cos/sin-swap chart shows (§10.3). */
export const ORDER_ZOOM = 16;

// The plots' value ranges follow |scale|.
const valueDomain = (conv) => [-1.1 * amplitude(conv), 1.1 * amplitude(conv)];
/** The position of a table's row 0: its rows are positions start, start + 1, … */
const startOf = (conv) => conv.start ?? 0;
/** The position of a table row (rounded: a fractional start must not print as 2.1000000000000001). */
const positionOf = (conv, row) => Number((startOf(conv) + row).toPrecision(12));
/** The table row of a position, or null where no row is at a whole position (fractional start). */
const rowOf = (conv, position) => (Number.isInteger(position - startOf(conv)) ? position - startOf(conv) : null);
/** The selection of position start + row, if that is one the state can hold. */
const positionPick = (conv, state, row) => {
  const position = positionOf(conv, row);
  return Number.isInteger(position) && position >= 0 && position <= maxPosition(state) ? { position } : {};
};

/** "preset (layout concat)" for the options of an API call. */
function conventionLabel(options) {
  const overrides = ['layout', 'exponent'].filter((key) => options[key]).map((key) => `${key} ${options[key]}`);
  return overrides.length ? `${options.preset} (${overrides.join(', ')})` : options.preset;
}

/**
 * A section whose numbers come from the model: compute (section-data.js),
 * present(numbers, context) -> { data, options }, and build doing both.
 */
const fromModel = (name, present) => ({
  compute: COMPUTE[name],
  present,
  build: (context) => present(COMPUTE[name](context), context),
});

function offsetData({ offset, curves, contributions }, t, labelKey) {
  return {
    offset,
    curves: curves.map(({ start, first, values }) => ({ label: t(labelKey, start), first, values })),
    contributions: contributions && {
      first: contributions.first,
      bands: contributions.bands.map((band) => ({ label: t('offset.band', band), values: band.values })),
    },
  };
}

const offsetOptions = (t) => ({
  xTitle: t('axis.offset'),
  offsetLabel: (k) => t('offset.mark', k),
  yTitle: t('axis.dot'),
  contributionsTitle: t('offset.contributions'),
  describe: (summary) => t('offset.describe', summary),
});

/**
 * Each section: the plot module, the state keys it depends on, and
 * build(context) -> { data, options } (null while its data is not ready);
 * for those that read the model also compute and present (see fromModel).
 * context: { model, state, t, conv, computed: { table, versus, similarity }, pick }
 */
export const SINUSOIDAL_SECTIONS = [
  {
    name: 'heatmap',
    draw: drawHeatmap,
    deps: ['table', 'position', 'dimension'],
    build: ({ state, t, conv, computed: { table }, pick }) =>
      table && {
        data: {
          values: table.values,
          painter: table.painter,
          rows: table.options.length,
          columns: table.options.dModel,
          marks: { row: rowOf(conv, state.position), column: state.dimension },
        },
        options: {
          xTitle: t('axis.dimension'),
          yTitle: t('axis.position'),
          rowOrigin: startOf(conv),
          legendTitle: t('heatmap.legend'),
          domain: [-amplitude(conv), amplitude(conv)],
          readout: (row, column, value) => t('readout.table', positionOf(conv, row), column, value),
          readoutHint: t('heatmap.hint'),
          coverNote: (cover) => t('heatmap.cover', cover),
          describe: (summary) =>
            t('heatmap.describe', { ...summary, sinusoidal: conv.angle === 'divide', layout: conv.layout }),
          onPick: ({ row, column }) => pick({ ...positionPick(conv, state, row), dimension: column }),
        },
        text: heatmapFacts(table.values, table.options.length, conv),
      },
  },
  {
    name: 'waves',
    draw: drawWaves,
    deps: [...ENCODING, 'length', 'position', 'dimension'],
    ...fromModel('waves', ({ from, to, marker, panels }, { state, t, conv }) => ({
      data: {
        from,
        to,
        marker,
        sinusoidal: conv.angle === 'divide',
        panels: panels.map(({ column, kind, wavelength, curve, samples }) => ({
          label: t('waves.panel', { column, kind, wavelength }),
          emphasis: column === state.dimension,
          series: [{ curve, samples }],
        })),
      },
      options: {
        xTitle: t('axis.position'),
        yDomain: valueDomain(conv),
        describe: (data) => t('waves.describe', data),
      },
      text: wavesFacts(panels, from, to),
    })),
  },
  {
    name: 'ladder',
    draw: drawLadder,
    deps: [...ENCODING, 'dimension'],
    ...fromModel('ladder', ({ wavelengths }, { state, t, conv }) => ({
      data: {
        wavelengths,
        dimension: state.dimension,
        guides: [
          { value: TWO_PI, label: '2π' },
          { value: TWO_PI * state.base, label: `2π·base = ${Number((TWO_PI * state.base).toPrecision(4))}` },
        ],
      },
      options: {
        xTitle: t('axis.dimension'),
        yTitle: t('axis.wavelength'),
        emptyText: t('ladder.empty'),
        describe: (summary) => t('ladder.describe', { ...summary, layout: conv.layout }),
      },
      text: ladderFacts(wavelengths),
    })),
  },
  {
    name: 'row',
    draw: drawRow,
    deps: [...ENCODING, 'length', 'position', 'dimension'],
    ...fromModel('row', ({ rows: [zero, at, beyond], frequencies }, { state, t, conv }) => ({
      data: {
        dimension: state.dimension,
        rows: [
          { label: t('row.zero'), values: zero },
          { label: t('row.at', state.position, state.position >= state.length), values: at },
          { label: t('row.beyond', state.position + state.length, state.length), values: beyond },
        ],
      },
      options: {
        xTitle: t('axis.dimension'),
        yDomain: valueDomain(conv),
        describe: (data) => t('row.describe', data),
      },
      text: rowFacts(frequencies, conv, state.position),
    })),
  },
  {
    name: 'sensitivity',
    draw: drawSensitivity,
    deps: [...ENCODING, 'position', 'dimension'],
    ...fromModel('sensitivity', ({ change, bound, frequencies }, { state, t, conv }) => ({
      data: { change, bound, dimension: state.dimension },
      options: {
        xTitle: t('axis.dimension'),
        yTitle: t('axis.change'),
        changeLabel: t('sensitivity.change', state.position),
        boundLabel: t('sensitivity.bound', amplitude(conv)),
        describe: (summary) => t('sensitivity.describe', summary),
      },
      text: sensitivityFacts(change, bound, frequencies),
    })),
  },
  {
    name: 'rotation',
    draw: drawRotation,
    deps: [...ENCODING, 'position', 'offset', 'dimension'],
    ...fromModel('rotation', (turn, { state, t, conv }) => {
      const radius = amplitude(conv);
      const angleNote = Number.isFinite(turn.angle)
        ? t('rotation.angle', { pair: turn.pair, frequency: turn.frequency, offset: state.offset, angle: turn.angle })
        : t('rotation.noAngle', { pair: turn.pair });
      // An odd d's last column, zero or a sinusoid alone, belongs to no pair: the
      // plot shows the last pair instead, and a lone one is left out of the check.
      const lone = hasLoneColumn(conv) ? firstFunction(conv) : null;
      const notes = [
        { text: angleNote, testId: 'rotation-angle' },
        {
          text: t('rotation.residual', { residual: turn.residual, dModel: state.dModel, radius, lone }),
          testId: 'rotation-residual',
        },
      ];
      if (turn.column !== state.dimension)
        notes.unshift({
          text: lone
            ? t('rotation.loneColumn', { column: state.dimension, fn: lone, pair: turn.pair })
            : t('rotation.zeroColumn', { column: state.dimension, pair: turn.pair }),
        });
      return {
        data: {
          radius,
          start: turn.start,
          end: turn.end,
          trail: turn.trail,
          angle: turn.angle,
          startLabel: t('rotation.start', state.position),
          endLabel: t('rotation.end', state.position + state.offset),
          notes,
        },
        options: { describe: (data) => t('rotation.describe', data) },
      };
    }),
  },
  {
    name: 'offset-dots',
    draw: drawOffsetDots,
    deps: [...ENCODING, 'length', 'position', 'offset'],
    ...fromModel('offset-dots', (numbers, { t }) => ({
      data: offsetData(numbers, t, 'offset.from'),
      options: offsetOptions(t),
      text: offsetFacts(numbers.curves),
    })),
  },
  {
    name: 'similarity',
    draw: drawSimilarity,
    deps: ['similarity', 'position', 'offset'],
    build: ({ state, t, conv, computed: { similarity }, pick }) =>
      similarity && {
        data: {
          values: similarity.values,
          painter: similarity.painter,
          length: similarity.options.length,
          position: state.position,
          offset: state.offset,
          origin: startOf(conv),
        },
        options: {
          xTitle: t('axis.positionQ'),
          yTitle: t('axis.positionP'),
          legendTitle: t('similarity.legend'),
          readout: (row, column, value) =>
            t('readout.similarity', positionOf(conv, row), positionOf(conv, column), value),
          readoutHint: t('similarity.hint'),
          describe: (summary) => t('similarity.describe', summary),
          // (p, q) and (q, p) hold the same product: the pick is the pair (min, min + |q − p|).
          onPick: ({ row, column }) =>
            pick({ ...positionPick(conv, state, Math.min(row, column)), offset: Math.abs(column - row) }),
        },
      },
  },
  {
    name: 'compare',
    draw: drawCompare,
    deps: ['table', 'versus'],
    // Both tables must have the same shape to be subtracted: wait for the pair.
    build: ({ t, conv, computed: { table, versus } }) =>
      table &&
      versus &&
      table.values.length === versus.values.length && {
        data: {
          rows: table.options.length,
          columns: table.options.dModel,
          left: { label: conventionLabel(table.options), values: table.values, painter: table.painter },
          right: { label: versus.options.preset, values: versus.values, painter: versus.painter },
        },
        options: {
          xTitle: t('axis.dimension'),
          yTitle: t('axis.position'),
          differenceLabel: t('compare.difference'),
          amplitude: amplitude(conv),
          rowOrigin: startOf(conv),
          readout: (row, column, value) => t('readout.table', positionOf(conv, row), column, value),
          differenceReadout: (row, column, value) => t('readout.difference', positionOf(conv, row), column, value),
          readoutHint: t('heatmap.hint'),
          describe: (label, summary) => t('compare.describe', label, summary),
        },
      },
  },
  {
    name: 'mistake-ratio',
    draw: drawWaves,
    deps: ['dModel', 'base', 'length', 'dimension'],
    ...fromModel('mistake-ratio', ({ to, columns, kinds, correct, attempt }, { t }) => ({
      data: {
        from: 0,
        to,
        panels: columns.map((column, c) => ({
          label: `j = ${column}`,
          series: [
            { label: t('question.paper', kinds[c]), curve: correct[c].curve, samples: correct[c].samples },
            { label: t('question.ratio', kinds[c]), curve: attempt[c].curve, samples: attempt[c].samples },
          ],
        })),
      },
      options: { xTitle: t('axis.position'), describe: (data) => t('question.describeRatio', data) },
    })),
  },
  {
    name: 'mistake-column',
    draw: drawOffsetDots,
    deps: ['dModel', 'base', 'length', 'position', 'offset'],
    ...fromModel('mistake-column', (numbers, { t }) => ({
      data: offsetData(numbers, t, 'question.columnCurves'),
      options: offsetOptions(t),
    })),
  },
  {
    name: 'mistake-order',
    draw: drawRow,
    deps: ['dModel', 'base', 'dimension'],
    // Zoomed on the first dimensions: at d = 128 the stems of 0, 1, 0, 1 and 1, 0, 1, 0 look alike.
    ...fromModel('mistake-order', ({ rows: [paperRow, swappedRow, attemptRow] }, { state, t }) => {
      const shown = Math.min(state.dModel, ORDER_ZOOM);
      const head = (values) => values.subarray(0, shown);
      return {
        data: {
          dimension: state.dimension,
          rows: [
            { label: t('question.paperRow'), values: head(paperRow) },
            { label: t('question.swappedRow'), values: head(swappedRow) },
            { label: t('question.attemptRow'), values: head(attemptRow) },
          ],
        },
        options: {
          xTitle: t('question.zoomAxis', shown, state.dModel),
          describe: (data) => t('row.describe', data),
        },
        text: { shown },
      };
    }),
  },
];
