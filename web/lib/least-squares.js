// pe.leastSquaresResiduals: what the least-squares projection on the columns
// of `inputs` leaves of each column of `targets` (cpp/include/posenc/least_squares.h).
// The page asks it of the encoding's two halves: can the sine columns alone be
// mapped onto the sine columns shifted by k? Validates, places the matrices in
// wasm memory, and copies the residuals out.
import { checkWork, COST } from './cost.js';
import { checkObjectKeys, fail, integer, MAX_BYTES } from './options.js';
import { checkSize, outOfMemory } from './outputs.js';
import { bufferOf, isDetached, lengthOfView, typedArrayKind, writeInto } from './typed-arrays.js';

const WHERE = 'leastSquaresResiduals';
const KEYS = ['inputs', 'targets', 'rows', 'rankTolerance'];
/** Relative size below which what is left of an input column counts as rounding (the numerical rank). */
export const RANK_TOLERANCE = 1e-9;

/**
 * The shape of `name` (inputs or targets): an Array or a typed array (of any
 * realm) of rows × columns numbers, row-major. Checked before anything is
 * copied or computed.
 */
function shapeOf(name, value, rows) {
  const typed = typedArrayKind(value) !== undefined;
  if (!(Array.isArray(value) || typed))
    fail(TypeError, WHERE, `${name} must be an array of rows × columns numbers, row-major`, value);
  if (typed && isDetached(bufferOf(value))) fail(TypeError, WHERE, `${name} is a view of a detached buffer`, value);
  if (typed && typedArrayKind(value).startsWith('Big'))
    fail(TypeError, WHERE, `${name} must hold numbers, not bigints`, value);
  const length = typed ? lengthOfView(value) : value.length;
  if (length % rows !== 0)
    fail(RangeError, WHERE, `${name} must hold rows × columns values, a multiple of rows (${rows})`, length);
  checkSize(WHERE, name, length, Float64Array, 'ask for fewer rows or columns');
  return { name, value, typed, length, columns: length / rows };
}

/**
 * The values of a shape as a Float64Array copy, every one a finite number:
 * copied first, so that a getter or a later growth of wasm memory cannot
 * change what is fitted.
 */
function copyOf({ name, value, typed, length }) {
  const copy = new Float64Array(length);
  if (typed) writeInto(copy, value);
  for (let i = 0; i < length; i++) {
    const number = typed ? copy[i] : value[i];
    if (typeof number !== 'number') fail(TypeError, WHERE, `${name}[${i}] must be a number`, number);
    if (!Number.isFinite(number)) fail(RangeError, WHERE, `${name}[${i}] must be a finite number`, number);
    copy[i] = number;
  }
  return copy;
}

export function leastSquaresApi(module) {
  // A module built without it (load({ rope: false }), the page's first view's): says where to get it.
  if (typeof module.leastSquaresInto !== 'function')
    return {
      leastSquaresResiduals() {
        throw new Error(
          `posenc.${WHERE}: this instance was loaded with load({ rope: false }), which leaves it out with the RoPE functions: use the one of await load()`,
        );
      },
    };
  // Places `values` in wasm memory: its address, or 0 (out of memory).
  function place(values) {
    const address = module.allocateArray(Math.max(1, values.length), 8);
    if (address !== 0) module.view64(address, values.length).set(values);
    return address;
  }
  return {
    /**
     * { residuals, rank }: residuals[t] = |y_t − P y_t| for each column y_t of
     * targets, P the least-squares projection on the span of the columns of
     * inputs (both rows × columns, row-major), by Householder QR with column
     * pivoting stopped at the numerical rank (every remaining input column
     * below rankTolerance × the largest).
     */
    leastSquaresResiduals(opts) {
      checkObjectKeys(WHERE, opts, KEYS);
      if (opts.rows === undefined) fail(TypeError, WHERE, 'rows is required: an integer >= 1', undefined);
      const rows = integer(WHERE, 'rows', opts.rows, 1, MAX_BYTES);
      const rankTolerance = opts.rankTolerance ?? RANK_TOLERANCE;
      if (typeof rankTolerance !== 'number') fail(TypeError, WHERE, 'rankTolerance must be a number', rankTolerance);
      if (!(rankTolerance >= 0 && rankTolerance < 1))
        fail(RangeError, WHERE, 'rankTolerance must be a number in [0, 1)', rankTolerance);
      const inputs = shapeOf('inputs', opts.inputs, rows);
      const targets = shapeOf('targets', opts.targets, rows);
      // Reflections of the inputs among themselves and onto the targets, a multiply-add each.
      const steps = Math.min(rows, inputs.columns);
      const work = rows * steps * (inputs.columns + targets.columns);
      checkWork(
        WHERE,
        () =>
          `rows × min(rows, input columns) × (input + target columns) = ${rows} × ${steps} × ${inputs.columns + targets.columns}`,
        work * COST.step,
        'ask for fewer rows or columns',
      );
      const [inputValues, targetValues] = [copyOf(inputs), copyOf(targets)];
      const addresses = [];
      try {
        for (const values of [inputValues, targetValues, new Float64Array(targets.columns)]) {
          const address = place(values);
          if (address === 0) throw outOfMemory(WHERE);
          addresses.push(address);
        }
        const [inputsAt, targetsAt, residualsAt] = addresses;
        const rank = module.leastSquaresInto(
          inputsAt,
          inputs.columns,
          targetsAt,
          targets.columns,
          rows,
          rankTolerance,
          residualsAt,
        );
        if (rank < 0) throw outOfMemory(WHERE);
        return { residuals: module.view64(residualsAt, targets.columns).slice(), rank };
      } finally {
        for (const address of addresses) module.freeArray(address);
      }
    },
  };
}
