// What each plot of the page shows: which state it depends on, and how its
// data (from the model, or the arrays the worker computed) and its translated
// options are built.
import { PRESETS } from '../lib/index.js';
import { draw as drawCompare } from '../plots/compare.js';
import { draw as drawHeatmap } from '../plots/heatmap.js';
import { draw as drawLadder } from '../plots/ladder.js';
import { draw as drawOffsetDots } from '../plots/offset-dots.js';
import { draw as drawRotation } from '../plots/rotation.js';
import { draw as drawRow } from '../plots/row.js';
import { draw as drawSensitivity } from '../plots/sensitivity.js';
import { draw as drawSimilarity } from '../plots/similarity.js';
import { draw as drawWaves } from '../plots/waves.js';
import { pairColumns, pairCount, pairOfColumn } from './convention.js';
import { offsetWindow, waveWindow } from './data.js';

const ENCODING = ['dModel', 'base', 'preset', 'layout', 'exponent'];
const TWO_PI = 2 * Math.PI;

function columnKind(conv, column) {
  const pair = pairOfColumn(conv, column);
  if (pair < 0) return 'zero';
  return pairColumns(conv, pair).sin === column ? 'sin' : 'cos';
}

/** Columns worth watching: the fastest, a middle and the slowest pair's sin, and the selected one. */
function watchedColumns(conv, dimension) {
  const pairs = pairCount(conv.dModel);
  const reference = [0, Math.floor(pairs / 4), pairs - 1].map((pair) => pairColumns(conv, pair).sin);
  return [...new Set([...reference, dimension])].sort((a, b) => a - b);
}

/** The paper's convention at the state's width and base. */
const paper = (state) => ({ ...PRESETS.vaswani, preset: 'vaswani', dModel: state.dModel, base: state.base });

/** "preset (layout concat)" for the options of an API call. */
function conventionLabel(options) {
  const overrides = ['layout', 'exponent'].filter((key) => options[key]).map((key) => `${key} ${options[key]}`);
  return overrides.length ? `${options.preset} (${overrides.join(', ')})` : options.preset;
}

function waveData(model, conv, columns, selected, from, to, t) {
  const frequency = model.frequencies(conv);
  return model.waves(conv, columns, from, to).map(({ column, curve, samples }) => ({
    label: t('waves.panel', { column, kind: columnKind(conv, column), wavelength: TWO_PI / frequency[column] }),
    emphasis: column === selected,
    series: [{ curve, samples }],
  }));
}

function offsetData(model, conv, state, t, labelKey, withContributions) {
  const window = offsetWindow(state);
  const contributions = withContributions ? model.contributions(conv, window) : null;
  return {
    offset: state.offset,
    curves: model.offsetCurves(conv, state.position, window).map(({ start, first, values }) => ({
      label: t(labelKey, start),
      first,
      values,
    })),
    contributions: contributions && {
      first: -window,
      bands: contributions.map((band) => ({ label: t('offset.band', band), values: band.values })),
    },
  };
}

const offsetOptions = (t) => ({
  xTitle: t('axis.offset'),
  yTitle: t('axis.dot'),
  contributionsTitle: t('offset.contributions'),
  describe: (summary) => t('offset.describe', summary),
});

/**
 * Each section: the plot module, the state keys it depends on, and
 * build(context) -> { data, options } (null while its data is not ready).
 * context: { model, state, t, conv, computed: { table, versus, similarity }, pick }
 */
export const SECTIONS = [
  {
    name: 'heatmap',
    draw: drawHeatmap,
    deps: ['table', 'position', 'dimension'],
    build: ({ state, t, computed: { table }, pick }) =>
      table && {
        data: {
          values: table.values,
          rows: table.options.length,
          columns: table.options.dModel,
          marks: { row: state.position, column: state.dimension },
        },
        options: {
          xTitle: t('axis.dimension'),
          yTitle: t('axis.position'),
          legendTitle: t('heatmap.legend'),
          readout: (...args) => t('readout.table', ...args),
          readoutHint: t('heatmap.hint'),
          describe: (summary) => t('heatmap.describe', summary),
          onPick: ({ row, column }) => pick({ position: row, dimension: column }),
        },
      },
  },
  {
    name: 'waves',
    draw: drawWaves,
    deps: [...ENCODING, 'length', 'position', 'dimension'],
    build: ({ model, state, t, conv }) => {
      const span = waveWindow(state);
      const from = Math.max(0, state.position - Math.floor(span / 2));
      return {
        data: {
          from,
          to: from + span,
          marker: state.position,
          panels: waveData(model, conv, watchedColumns(conv, state.dimension), state.dimension, from, from + span, t),
        },
        options: { xTitle: t('axis.position'), describe: (data) => t('waves.describe', data) },
      };
    },
  },
  {
    name: 'ladder',
    draw: drawLadder,
    deps: [...ENCODING, 'dimension'],
    build: ({ model, state, t, conv }) => ({
      data: {
        wavelengths: model.frequencies(conv).map((w) => TWO_PI / w),
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
        describe: (summary) => t('ladder.describe', summary),
      },
    }),
  },
  {
    name: 'row',
    draw: drawRow,
    deps: [...ENCODING, 'length', 'position', 'dimension'],
    build: ({ model, state, t, conv }) => ({
      data: {
        dimension: state.dimension,
        rows: [
          { label: t('row.zero'), values: model.row(conv, 0) },
          {
            label: t('row.at', state.position, state.position >= state.length),
            values: model.row(conv, state.position),
          },
          {
            label: t('row.beyond', state.position + state.length, state.length),
            values: model.row(conv, state.position + state.length),
          },
        ],
      },
      options: { xTitle: t('axis.dimension'), describe: (data) => t('row.describe', data) },
    }),
  },
  {
    name: 'sensitivity',
    draw: drawSensitivity,
    deps: [...ENCODING, 'position', 'dimension'],
    build: ({ model, state, t, conv }) => {
      const here = model.row(conv, state.position);
      const next = model.row(conv, state.position + 1);
      return {
        data: {
          change: here.map((value, j) => Math.abs(next[j] - value)),
          bound: model.frequencies(conv),
          dimension: state.dimension,
        },
        options: {
          xTitle: t('axis.dimension'),
          yTitle: t('axis.change'),
          changeLabel: t('sensitivity.change', state.position),
          boundLabel: t('sensitivity.bound'),
          describe: (summary) => t('sensitivity.describe', summary),
        },
      };
    },
  },
  {
    name: 'rotation',
    draw: drawRotation,
    deps: [...ENCODING, 'position', 'offset', 'dimension'],
    build: ({ model, state, t, conv }) => {
      const turn = model.rotation(conv, state.position, state.offset, state.dimension);
      const angleNote = Number.isFinite(turn.angle)
        ? t('rotation.angle', { pair: turn.pair, frequency: turn.frequency, offset: state.offset, angle: turn.angle })
        : t('rotation.noAngle', { pair: turn.pair });
      return {
        data: {
          start: turn.start,
          end: turn.end,
          trail: turn.trail,
          angle: turn.angle,
          startLabel: t('rotation.start', state.position),
          endLabel: t('rotation.end', state.position + state.offset),
          notes: [
            { text: angleNote, testId: 'rotation-angle' },
            {
              text: t('rotation.residual', { residual: turn.residual, dModel: state.dModel }),
              testId: 'rotation-residual',
            },
          ],
        },
        options: { describe: (data) => t('rotation.describe', data) },
      };
    },
  },
  {
    name: 'offset-dots',
    draw: drawOffsetDots,
    deps: [...ENCODING, 'length', 'position', 'offset'],
    build: ({ model, state, t, conv }) => ({
      data: offsetData(model, conv, state, t, 'offset.from', true),
      options: offsetOptions(t),
    }),
  },
  {
    name: 'similarity',
    draw: drawSimilarity,
    deps: ['similarity', 'position', 'offset'],
    build: ({ state, t, computed: { similarity }, pick }) =>
      similarity && {
        data: {
          values: similarity.values,
          length: similarity.options.length,
          position: state.position,
          offset: state.offset,
        },
        options: {
          xTitle: t('axis.positionQ'),
          yTitle: t('axis.positionP'),
          legendTitle: t('similarity.legend'),
          readout: (...args) => t('readout.similarity', ...args),
          readoutHint: t('similarity.hint'),
          describe: (summary) => t('similarity.describe', summary),
          onPick: ({ row, column }) => pick({ position: row, offset: Math.abs(column - row) }),
        },
      },
  },
  {
    name: 'compare',
    draw: drawCompare,
    deps: ['table', 'versus'],
    // Both tables must have the same shape to be subtracted: wait for the pair.
    build: ({ t, computed: { table, versus } }) =>
      table &&
      versus &&
      table.values.length === versus.values.length && {
        data: {
          rows: table.options.length,
          columns: table.options.dModel,
          left: { label: conventionLabel(table.options), values: table.values },
          right: { label: versus.options.preset, values: versus.values },
        },
        options: {
          xTitle: t('axis.dimension'),
          yTitle: t('axis.position'),
          differenceLabel: t('compare.difference'),
          readout: (...args) => t('readout.table', ...args),
          readoutHint: t('heatmap.hint'),
          describe: (label, summary) => t('compare.describe', label, summary),
        },
      },
  },
  {
    name: 'mistake-ratio',
    draw: drawWaves,
    deps: ['dModel', 'base', 'length', 'dimension'],
    build: ({ model, state, t }) => {
      const right = paper(state);
      const wrong = { ...right, angle: 'ratio-power' };
      const to = Math.min(state.length - 1, 100);
      const columns = [...new Set([state.dimension, pairColumns(right, Math.floor(pairCount(state.dModel) / 2)).sin])];
      const correct = model.waves(right, columns, 0, to);
      const attempt = model.waves(wrong, columns, 0, to);
      return {
        data: {
          from: 0,
          to,
          panels: columns.map((column, c) => ({
            label: `j = ${column}`,
            series: [
              { label: t('question.paper'), curve: correct[c].curve, samples: correct[c].samples },
              { label: t('question.ratio'), curve: attempt[c].curve, samples: attempt[c].samples },
            ],
          })),
        },
        options: { xTitle: t('axis.position'), describe: (data) => t('waves.describe', data) },
      };
    },
  },
  {
    name: 'mistake-column',
    draw: drawOffsetDots,
    deps: ['dModel', 'base', 'length', 'position', 'offset'],
    build: ({ model, state, t }) => ({
      data: offsetData(model, { ...paper(state), exponent: 'column' }, state, t, 'question.columnCurves', false),
      options: offsetOptions(t),
    }),
  },
  {
    name: 'mistake-order',
    draw: drawRow,
    deps: ['dModel', 'base', 'dimension'],
    build: ({ model, state, t }) => {
      const right = paper(state);
      const question = { ...PRESETS.question, preset: 'question', dModel: state.dModel, base: state.base };
      return {
        data: {
          dimension: state.dimension,
          rows: [
            { label: t('question.paperRow'), values: model.row(right, 0) },
            { label: t('question.swappedRow'), values: model.row({ ...right, order: 'cos-sin' }, 0) },
            { label: t('question.attemptRow'), values: model.row(question, 0) },
          ],
        },
        options: { xTitle: t('axis.dimension'), describe: (data) => t('row.describe', data) },
      };
    },
  },
];
