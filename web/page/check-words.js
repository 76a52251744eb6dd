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
  };
}
