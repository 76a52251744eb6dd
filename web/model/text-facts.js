// Owns the facts the explanations beside the plots are worded from (web/i18n:
// the rich texts are functions of these), so that every sentence that states
// a value or a shape holds for the current settings. Two kinds: what follows
// from the convention's knobs alone (textFacts, known before the core has
// answered), and what the numbers a section plots show (the *Facts helpers,
// merged in by sections.js when those numbers arrive).
import { amplitude, firstFunction, knobs, pairColumns, pairCount, sharesFrequency } from './convention.js';

/** An angle this small (radians) leaves a pair at about (sin, cos) = (0, 1): sin < 0.1, cos > 0.995. */
export const STILL_ANGLE = 0.1;

/** How the table's row 0 reads: 'padding' (all zero), 'ratio' ((0/base)^e: 0 except where e = 0), or layout-order. */
function rowZeroShape(conv, padding) {
  if (padding === 0) return 'padding';
  if (conv.angle === 'ratio-power') return 'ratio';
  return `${conv.layout}-${conv.order}`;
}

/**
 * Facts that follow from the knobs in force: the convention, the sizes, the
 * selections, the table's all-zero row (padding, or null) and how row 0 reads.
 */
export function textFacts(state) {
  const conv = knobs(state);
  const padding = conv.paddingRow !== null && conv.paddingRow < state.length ? conv.paddingRow : null;
  return {
    preset: state.preset,
    layout: conv.layout,
    exponent: conv.exponent,
    order: conv.order,
    angle: conv.angle,
    first: firstFunction(conv),
    dModel: state.dModel,
    pairs: pairCount(state.dModel),
    base: state.base,
    length: state.length,
    position: state.position,
    offset: state.offset,
    padding,
    rowZero: rowZeroShape(conv, padding),
    sinusoidal: conv.angle === 'divide',
    relative: sharesFrequency(conv),
  };
}

/** The heatmap: how far the slowest pair's sine column moves over the whole table (largest |value|, values read from it). */
export function heatmapFacts(values, rows, conv) {
  const pairs = pairCount(conv.dModel);
  if (pairs === 0 || rows === 0) return {};
  const column = pairColumns(conv, pairs - 1).sin;
  let largest = 0;
  for (let r = 0; r < rows; r++) largest = Math.max(largest, Math.abs(values[r * conv.dModel + column]));
  return { slowColumn: column, slowLargest: largest / amplitude(conv) };
}

/** The waves: pair 0's period, and how far the slowest column shown turns across the window (radians). */
export function wavesFacts(panels, from, to) {
  const periodic = panels.filter((panel) => Number.isFinite(panel.wavelength));
  if (periodic.length === 0) return { periodic: false };
  const slowest = periodic.reduce((a, b) => (b.wavelength > a.wavelength ? b : a));
  const fastest = periodic.reduce((a, b) => (b.wavelength < a.wavelength ? b : a));
  return {
    periodic: true,
    fastColumn: fastest.column,
    fastPeriod: fastest.wavelength,
    slowColumn: slowest.column,
    slowTurn: (2 * Math.PI * (to - from)) / slowest.wavelength,
    span: to - from,
  };
}

/** The ladder: the smallest angular frequency (2π / the longest period) and the longest period. */
export function ladderFacts(wavelengths) {
  const finite = Array.from(wavelengths).filter(Number.isFinite);
  if (finite.length === 0) return { periodic: false };
  const longest = Math.max(...finite);
  return { periodic: true, longest, slowest: (2 * Math.PI) / longest };
}

/**
 * The row at position p: how many pairs have turned by less than STILL_ANGLE
 * (still about (0, 1)), and the slowest pair's angle. frequencies: per column.
 */
export function rowFacts(frequencies, conv, position) {
  const pairs = pairCount(conv.dModel);
  const angles = [];
  for (let i = 0; i < pairs; i++) {
    const { sin, cos } = pairColumns(conv, i);
    // Both members at one frequency, or the pair has no single angle.
    if (frequencies[sin] === frequencies[cos] && Number.isFinite(frequencies[sin]))
      angles.push(position * frequencies[sin]);
  }
  if (angles.length < pairs || pairs === 0) return { paired: false };
  return {
    paired: true,
    stillPairs: angles.filter((angle) => angle < STILL_ANGLE).length,
    slowestAngle: Math.min(...angles),
  };
}

/**
 * The change per step: the largest (the fast columns), the smallest bound (the
 * slowest column), and how many columns change by less than a tenth of their
 * bound (the lower branch: a cosine near angle 0, or a sine near a quarter turn);
 * and the slowest column's period (from the angular frequencies per column).
 */
export function sensitivityFacts(change, bound, frequencies) {
  let lower = 0;
  for (let j = 0; j < change.length; j++) if (Number.isFinite(bound[j]) && change[j] < 0.1 * bound[j]) lower++;
  const finite = Array.from(bound).filter(Number.isFinite);
  const turning = Array.from(frequencies).filter((w) => Number.isFinite(w) && w > 0);
  return {
    largestChange: Math.max(...change),
    smallestBound: finite.length ? Math.min(...finite) : null,
    slowestPeriod: turning.length ? (2 * Math.PI) / Math.min(...turning) : null,
    lowerBranch: lower,
  };
}

/** s(k): its value at k = 0 from the first start, and the largest gap between the starts' curves. */
export function offsetFacts(curves) {
  const [first, ...others] = curves;
  const zero = -first.first;
  let spread = 0;
  for (const curve of others)
    for (let k = 0; k < curve.values.length; k++) {
      const at = k + curve.first - first.first;
      if (at >= 0 && at < first.values.length) spread = Math.max(spread, Math.abs(curve.values[k] - first.values[at]));
    }
  return { peak: first.values[zero], spread };
}
