// What the checker's diagnosis sentences (web/i18n, check.dx.*) are worded
// from: identify()'s facts, and what follows from them.
import { PRESETS, structuredLikeHuggingFace } from '../lib/conventions.js';
import { firstFunction } from '../model/convention.js';

// The formula behind each enum value: language-neutral, shown beside the name.
export const FORMULA = {
  pair: '2i/d',
  'half-minus-one': 'i/(d/2 − 1)',
  column: '2j/d',
  divide: 'pos / base^e',
  'ratio-power': '(pos / base)^e',
};

// Significant bits of each format a step may be rounded to (the leading one included).
export const SIGNIFICANT_BITS = { float32: 24, float16: 11, bfloat16: 8, float64: 53 };
// The steps identify() may find rounded (its options' dtype knobs), in the order they happen.
export const ROUNDED_STEPS = ['exponentDtype', 'frequencyDtype', 'positionDtype', 'angleDtype'];

/** The steps of the found options that were rounded: [{ knob, format }], in the order they happen. */
export function roundedSteps(options) {
  return ROUNDED_STEPS.filter((knob) => (options[knob] ?? 'float64') !== 'float64').map((knob) => ({
    knob,
    format: options[knob],
  }));
}

/** The shape the found options describe: the table's, or its transpose's when identify() turned it back. */
export function explainedShape({ identification: id, length, dModel }) {
  return id.transposed ? { length: dModel, dModel: length } : { length, dModel };
}

/**
 * What a diagnosis sentence needs: the facts identify() gives (code, knob,
 * preset, found, expected, where, ...), and what follows from them and the
 * found options (language-neutral formulas and function names).
 */
export function diagnosisWords(entry, result) {
  const found = result.identification.options;
  // An odd width's last column, PE(pos, 2i) at 2i = d - 1.
  const column = entry.where?.column ?? 0;
  return {
    ...entry,
    expectedFormula: FORMULA[entry.expected],
    sqrtD: entry.knob === 'scale' && entry.found === Math.sqrt(explainedShape(result).dModel),
    width: column + 1,
    lonePair: column / 2,
    fn: firstFunction(found),
    refFn: firstFunction(PRESETS[entry.preset]),
    likeHuggingFace: structuredLikeHuggingFace(found),
    // A '<step>-dtype' diagnosis: the format's significant bits, and the largest integer below which it holds every one.
    bits: SIGNIFICANT_BITS[entry.found],
    exactUpTo: 2 ** SIGNIFICANT_BITS[entry.found],
  };
}
