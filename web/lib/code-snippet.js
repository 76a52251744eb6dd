// Python code (numpy, PyTorch, JAX) that rebuilds a table of the library; RoPE
// options get their own snippet (rope-snippet.js).
import { ANGLES, EXPONENTS, LAYOUTS, ODD_COLUMNS, ORDERS } from './conventions.js';
import { describe, dtypeOf, encodingParams, lengthOf } from './options.js';
import { isRopeOptions, ropeSnippet } from './rope-snippet.js';
import { positionsLine } from './elsewhere-snippet.js';
import { rounded, roundedNote, rounds, roundToHelper } from './precision-snippet.js';
import { PRECISION_DTYPES, PRECISION_OPTIONS } from './conventions.js';

// What differs between the three array libraries; the arithmetic is the same text.
const LANGUAGES = Object.freeze({
  numpy: {
    imports: ['import numpy as np'],
    xp: 'np',
    set: (index, value) => `pe[${index}] = ${value}`,
    toFloat32: 'pe = pe.astype(np.float32)',
  },
  pytorch: {
    imports: ['import torch'],
    xp: 'torch',
    set: (index, value) => `pe[${index}] = ${value}`,
    toFloat32: 'pe = pe.to(torch.float32)',
  },
  jax: {
    // JAX computes in float32 unless x64 is enabled before any array exists.
    imports: ['import jax', "jax.config.update('jax_enable_x64', True)", 'import jax.numpy as jnp'],
    xp: 'jnp',
    set: (index, value) => `pe = pe.at[${index}].set(${value})`,
    toFloat32: 'pe = pe.astype(jnp.float32)',
  },
});

/** A Python float literal that reads back to exactly x. */
function pyFloat(x) {
  const text = String(x);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/**
 * Python code (numpy, PyTorch or JAX) that builds exactly the table of these
 * options, in float64 arithmetic in the library's order of operations, then
 * casts to float32 (kept float64 for dtype 'float64'). The result is `pe`.
 * @param {'numpy' | 'pytorch' | 'jax'} language
 * @param {import('./index.js').TableOptions} options
 * @returns {string}
 */
export function codeSnippet(language, options) {
  if (typeof language !== 'string')
    throw new TypeError(
      `posenc.codeSnippet: language must be one of 'numpy', 'pytorch', 'jax' (got ${describe(language)})`,
    );
  if (!Object.hasOwn(LANGUAGES, language))
    throw new RangeError(
      `posenc.codeSnippet: language must be one of 'numpy', 'pytorch', 'jax' (got ${describe(language)})`,
    );
  // RoPE options (headDim, scaling, ...): their own snippet (rope-snippet.js).
  if (isRopeOptions(options)) return ropeSnippet(language, options);
  const lang = LANGUAGES[language];
  const p = encodingParams('codeSnippet', options);
  // A table at any positions (pe.table({ positions })): its rows are those positions.
  const at = options.positions === undefined ? null : positionsLine(language, lang.xp, options.positions);
  if (at && options.start !== undefined)
    throw new TypeError('posenc.codeSnippet: give either positions or start: the positions are the rows');
  const length = at ? at.length : lengthOf('codeSnippet', options);
  const float64 = dtypeOf('codeSnippet', options) === Float64Array;
  const knobs = {
    layout: LAYOUTS[p.layout],
    exponent: EXPONENTS[p.exponent],
    order: ORDERS[p.order],
    angle: ANGLES[p.angle],
  };
  const { xp } = lang;
  const base = pyFloat(p.base);
  const concat = knobs.layout === 'concat';
  const [firstFn, secondFn] = knobs.order === 'sin-cos' ? ['sin', 'cos'] : ['cos', 'sin'];
  const paddingRow = p.paddingRow < 0 ? null : p.paddingRow;
  const odd = p.dModel % 2 === 1;
  const oddColumn = ODD_COLUMNS[p.oddColumn];
  const resolved = {
    length,
    dModel: p.dModel,
    ...knobs,
    base: p.base,
    ...(at ? {} : { start: p.start }),
    paddingRow,
    scale: p.scale,
  };
  if (odd) resolved.oddColumn = oddColumn;
  if (p.frequencyScale !== 1) resolved.minTimescale = p.frequencyScale;
  const precision = Object.fromEntries(PRECISION_OPTIONS.map((name) => [name, p[name]]));
  for (const name of PRECISION_OPTIONS) if (p[name] !== 0) resolved[name] = PRECISION_DTYPES[p[name]];

  const lines = [
    `# Positional encodings (posenc): ${JSON.stringify(resolved)}`,
    ...lang.imports,
    ...(rounds(precision) ? ['', ...roundToHelper(xp)] : []),
    '',
    `length, d_model = ${length}, ${p.dModel}`,
    `n = d_model // 2  # pairs${!odd ? '' : oddColumn === 'zero' ? '; the odd last column stays zero' : '; the odd last column is set below'}`,
    at
      ? at.line
      : p.start === 0
        ? `pos = ${xp}.arange(length, dtype=${xp}.float64)[:, None]  # position of each row`
        : `pos = (${pyFloat(p.start)} + ${xp}.arange(length, dtype=${xp}.float64))[:, None]  # position of each row`,
    `i = ${xp}.arange(n, dtype=${xp}.float64)  # pair index`,
  ];
  if (p.positionDtype !== 0)
    lines.push(`pos = ${rounded('pos', p.positionDtype)}${roundedNote(p.positionDtype, 'positions')}`);
  // The angle of one member of each pair, from its exponent e (w = base ** -e).
  // Each step rounded per the precision knobs, in the core's order: exponent,
  // frequency (of the exponent rounded), angle (of the position rounded above).
  const angleOf = (exponent) => {
    const e = rounded(exponent, p.exponentDtype);
    if (knobs.angle === 'ratio-power') return rounded(`(pos / ${base}) ** ${e}`, p.angleDtype);
    const power = `${base} ** -${e}`;
    const w = p.frequencyScale === 1 ? power : `${pyFloat(p.frequencyScale)} * ${power}`;
    if (p.frequencyDtype !== 0) return rounded(`pos * ${rounded(w, p.frequencyDtype)}`, p.angleDtype);
    return rounded(p.frequencyScale === 1 ? `pos * ${w}` : `pos * (${w})`, p.angleDtype);
  };
  let firstAngle = 'angle';
  let secondAngle = 'angle';
  if (knobs.exponent === 'column') {
    // Each column j gets its own exponent 2j/d: the two members of a pair differ.
    const [firstColumn, secondColumn] = concat ? ['i', '(n + i)'] : ['(2 * i)', '(2 * i + 1)'];
    lines.push(
      `e_first = 2 * ${firstColumn} / d_model  # exponent of each pair's first column`,
      `e_second = 2 * ${secondColumn} / d_model  # and of its second column`,
      `angle_first = ${angleOf('e_first')}`,
      `angle_second = ${angleOf('e_second')}`,
    );
    [firstAngle, secondAngle] = ['angle_first', 'angle_second'];
  } else {
    lines.push(
      knobs.exponent === 'pair'
        ? 'e = 2 * i / d_model  # frequency exponent'
        : 'e = i / max(n - 1, 1)  # frequency exponent',
      `angle = ${angleOf('e')}`,
    );
  }
  const [firstColumns, secondColumns] = concat ? [':, :n', ':, n:2 * n'] : [':, 0:2 * n:2', ':, 1:2 * n:2'];
  lines.push(
    `pe = ${xp}.zeros((length, d_model), dtype=${xp}.float64)`,
    lang.set(firstColumns, `${xp}.${firstFn}(${firstAngle})`),
    lang.set(secondColumns, `${xp}.${secondFn}(${secondAngle})`),
  );
  if (odd && oddColumn === 'formula') {
    // PE(pos, 2i) continued to 2i = d - 1: pair n's first function, alone.
    const exponent = {
      pair: '2 * n / d_model',
      'half-minus-one': 'n / max(n - 1, 1)',
      column: '2 * (d_model - 1) / d_model',
    };
    lines.push(
      `e_last = ${exponent[knobs.exponent]}  # the last column's exponent, as if pair n were complete`,
      lang.set(':, 2 * n:', `${xp}.${firstFn}(${angleOf('e_last')})`),
    );
  }
  // At any positions the padding row is the one at position paddingRow (there may be none or several).
  if (p.paddingRow >= 0)
    lines.push(
      at
        ? `pe = pe * (pos != ${p.paddingRow})  # padding row`
        : `${lang.set(`${p.paddingRow}:${p.paddingRow + 1}`, '0.0')}  # padding row`,
    );
  if (p.scale !== 1) {
    const note = p.scale === Math.sqrt(p.dModel) ? '  # sqrt(d_model)' : '';
    lines.push(`pe = ${pyFloat(p.scale)} * pe${note}`);
  }
  if (!float64) lines.push(lang.toFloat32);
  return lines.join('\n') + '\n';
}
