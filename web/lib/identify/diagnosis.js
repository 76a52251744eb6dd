// What identify() reports: how far found knobs are from each preset, and one
// diagnosis per knob where they depart from one. A diagnosis holds facts
// (code, knob, preset, found, expected, where); its English `message` is
// worded from them by messages.js, for API users who print it.
import { PRESETS, paddingIn } from '../conventions.js';
import { diagnosisMessage } from './messages.js';

export const STRUCTURAL_KNOBS = Object.freeze(['layout', 'exponent', 'order', 'angle']);
const KNOB_WEIGHTS = { structure: 2, value: 1, paddingIndex: 0.5 };

/**
 * How far found knobs are from a preset: structural knobs count double; an
 * undefined oddColumn (even width, or a last column both explain) counts nothing.
 */
export function presetDistance(found, preset, length) {
  let distance = 0;
  for (const knob of STRUCTURAL_KNOBS) if (found[knob] !== preset[knob]) distance += KNOB_WEIGHTS.structure;
  for (const knob of ['base', 'start', 'scale']) if (found[knob] !== preset[knob]) distance += KNOB_WEIGHTS.value;
  if (found.oddColumn !== undefined && found.oddColumn !== preset.oddColumn) distance += KNOB_WEIGHTS.value;
  const [a, b] = [paddingIn(found.paddingRow, length), paddingIn(preset.paddingRow, length)];
  if (a !== b) distance += a === null || b === null ? KNOB_WEIGHTS.value : KNOB_WEIGHTS.paddingIndex;
  return distance;
}

/**
 * A diagnosis with its English message. `fields`: code, knob (null when no
 * single knob), preset (the one compared with), found, expected, where (a
 * cell { row?, column? } or null), and any facts its code adds.
 * @param {import('../index.js').Convention} options the knobs diagnosed
 * @param {number} dModel the width they were found at
 */
export function diagnosisOf(fields, options, dModel) {
  const entry = { knob: null, found: null, expected: null, where: null, ...fields };
  return { ...entry, message: diagnosisMessage(entry, options, dModel) };
}

/** One diagnosis per knob where `found` departs from preset `name`. */
export function differences(found, name, length, dModel) {
  const ref = PRESETS[name];
  const out = [];
  const add = (code, knob, where = null) =>
    out.push(diagnosisOf({ code, knob, preset: name, found: found[knob], expected: ref[knob], where }, found, dModel));
  if (found.layout !== ref.layout) add('concat-vs-interleaved', 'layout');
  if (found.exponent !== ref.exponent) add(`exponent-uses-${found.exponent}`, 'exponent');
  if (found.order !== ref.order) add('sin-cos-swapped', 'order');
  if (found.angle !== ref.angle) add(found.angle === 'ratio-power' ? 'ratio-power' : 'angle-divide', 'angle');
  if (found.base !== ref.base) add('base', 'base');
  // Row 0 holds the position that differs.
  if (found.start !== ref.start)
    add(Math.abs(found.start - ref.start) === 1 ? 'start-off-by-one' : 'start-offset', 'start', { row: 0 });
  const [padding, refPadding] = [paddingIn(found.paddingRow, length), paddingIn(ref.paddingRow, length)];
  if (padding !== refPadding) {
    const code =
      padding === null ? 'missing-padding-row' : refPadding === null ? 'unexpected-padding-row' : 'padding-row-moved';
    out.push(
      diagnosisOf(
        {
          code,
          knob: 'paddingRow',
          preset: name,
          found: padding,
          expected: refPadding,
          // The row that is zero here (or should be).
          where: { row: padding ?? refPadding },
        },
        found,
        dModel,
      ),
    );
  }
  if (found.scale !== ref.scale) add('scaled', 'scale');
  if (found.oddColumn !== undefined && found.oddColumn !== ref.oddColumn)
    add(`odd-column-${found.oddColumn}`, 'oddColumn', { column: dModel - 1 });
  return out;
}
