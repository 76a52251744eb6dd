// The checker's words for tables whose positions, frequencies, exponents or
// angles went through a smaller float format (identify()'s '<step>-dtype'
// diagnoses), spread into en.js.
import { formatNumber as n } from './number.js';

const STEP = {
  exponentDtype: 'exponents',
  frequencyDtype: 'frequencies',
  positionDtype: 'positions',
  angleDtype: 'angles',
};

export default {
  'check.verdict.presetRounded': (preset, steps) =>
    `This is the ${preset} table, with its ${steps.map(({ knob, format }) => `${STEP[knob]} in ${format}`).join(' and ')}.`,
  'check.param.exponentDtype': 'exponents computed in',
  'check.param.frequencyDtype': 'frequencies computed in',
  'check.param.positionDtype': 'positions held in',
  'check.rounded': (format) => `${format} (rounded)`,
  'check.dx.angle-dtype': ({ found: format, bits, error, where: { row } }) =>
    `The angles were rounded to ${format}: position × frequency kept only ${bits} significant bits, so the error grows with position, up to ${n(error)} at row ${row}. This step lost the precision: compute the angles in float32 or float64 and cast the table afterwards.`,
  'check.dx.position-dtype': ({ found: format, exactUpTo, error, where: { row } }) =>
    `The positions were rounded to ${format}, which holds every integer only up to ${exactUpTo}: beyond it neighbouring positions share one value (and one row of angles), up to ${n(error)} off at row ${row}. This step lost the precision: keep the positions in float32 or an integer type.`,
  'check.dx.frequency-dtype': ({ found: format, bits, error, where: { row } }) =>
    `The frequencies were rounded to ${format} (${bits} significant bits): each column turns at a slightly wrong rate, so its angle drifts with position, up to ${n(error)} off at row ${row}. This step lost the precision: compute the frequencies in float32 or float64.`,
  'check.dx.exponent-dtype': ({ found: format, error, where: { row } }) =>
    `The frequency exponents (such as 2i/d) were computed in ${format}: every frequency is slightly off and the error grows with position, up to ${n(error)} at row ${row}. This step lost the precision: compute the exponents in float64.`,
};
