// Path data for curves, bands and dots, and the maps from values to pixels they are drawn with.

/**
 * Path coordinates in tenths of a pixel, as integers: they print much
 * faster than toFixed(1) decimals, which matters for paths of thousands
 * of points redrawn while a slider moves. Such paths are drawn under the
 * transform TENTHS, with their stroke sizes times ten (strokeTenths).
 */
export const TENTHS = 'scale(0.1)';
export const tenths = (value) => Math.round(value * 10);
/** A stroke width or dash array ('7 5') for a path drawn under TENTHS. */
export const strokeTenths = (value) =>
  typeof value === 'number'
    ? value * 10
    : value
        .split(' ')
        .filter(Boolean)
        .map((part) => Number(part) * 10)
        .join(' ');

// Path data is written as ASCII bytes into a buffer and read out once, as one string: joined from a
// few short strings a point, the curves and bands of a drag's every step would be garbage, and the
// young generation's collections would fall into the heaviest frames.
// Finished paths leave their buffers to the next ones; a few, as a plot may write several paths at
// once (the row plot's stems and dots).
const spareBytes = [];
const SPARE_BUFFERS = 4;
const ascii = new TextDecoder();

/**
 * Path data in tenths of a pixel (see TENTHS): absolute moves, then relative lines whose steps are
 * a few characters each ('l6-31 6 8': one command letter, no separator before a minus sign) instead
 * of an absolute pair's ten or so. Curves of ~1000 points are made again at every step of a drag;
 * shorter data is quicker to make and for the browser to parse. The steps are differences of the
 * rounded points, so the points drawn are exactly those of absolute data. finish() gives the data.
 */
export class TenthsPath {
  #bytes = spareBytes.pop() ?? new Uint8Array(1 << 14);
  #length = 0;
  #x = 0;
  #y = 0;
  #joined = false;

  moveTo(x, y) {
    this.moveToTenths(tenths(x), tenths(y));
  }

  lineTo(x, y) {
    this.lineToTenths(tenths(x), tenths(y));
  }

  /** moveTo with the point already in tenths (integers). */
  moveToTenths(x, y) {
    this.#room();
    this.#bytes[this.#length++] = 77; // M
    this.#number(x);
    this.#bytes[this.#length++] = 44; // ,
    this.#number(y);
    this.#x = x;
    this.#y = y;
    this.#joined = false;
  }

  /** lineTo with the point already in tenths (integers). */
  lineToTenths(x, y) {
    this.#room();
    const dx = x - this.#x;
    const dy = y - this.#y;
    if (!this.#joined)
      this.#bytes[this.#length++] = 108; // l
    else if (!(dx < 0)) this.#bytes[this.#length++] = 32;
    this.#number(dx);
    if (!(dy < 0)) this.#bytes[this.#length++] = 32;
    this.#number(dy);
    this.#x = x;
    this.#y = y;
    this.#joined = true;
  }

  close() {
    this.#room();
    this.#bytes[this.#length++] = 90; // Z
  }

  /** Appends `text` (ASCII: commands and numbers written out, such as 'V' or 'h0') as it is. */
  append(text) {
    this.#room(text.length);
    for (let i = 0; i < text.length; i++) this.#bytes[this.#length++] = text.charCodeAt(i);
  }

  /** Appends a number (an integer of tenths) as String() writes it. */
  appendNumber(value) {
    this.#room();
    this.#number(value);
  }

  /** The path data, as a string; the path is done with (its buffer serves the next one). */
  finish() {
    const d = ascii.decode(this.#bytes.subarray(0, this.#length));
    if (spareBytes.length < SPARE_BUFFERS) spareBytes.push(this.#bytes);
    this.#bytes = null;
    return d;
  }

  // Room for a point (two numbers of up to 24 characters and three more), and `more` bytes.
  #room(more = 0) {
    if (this.#length + more + 64 <= this.#bytes.length) return;
    const grown = new Uint8Array(2 * (this.#bytes.length + more));
    grown.set(this.#bytes);
    this.#bytes = grown;
  }

  // As String(value) writes it: the steps of a curve are mostly one to three digits.
  #number(value) {
    const bytes = this.#bytes;
    let at = this.#length;
    // (-0 passes as 0, as String writes it.)
    if (value > -1000 && value < 1000 && Math.floor(value) === value) {
      let v = value;
      if (v < 0) {
        bytes[at++] = 45; // -
        v = -v;
      }
      if (v >= 100) bytes[at++] = 48 + Math.floor(v / 100);
      if (v >= 10) bytes[at++] = 48 + (Math.floor(v / 10) % 10);
      bytes[at++] = 48 + (v % 10);
    } else {
      // Larger (a move), or not a number at all ('NaN' as before: the browser stops the path there).
      const text = String(value);
      for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    }
    this.#length = at;
  }
}

/** linePath in tenths of a pixel (see TENTHS): a gap where y(i) is not finite. */
export function linePathTenths(count, x, y) {
  const path = new TenthsPath();
  let pen = false;
  for (let i = 0; i < count; i++) {
    const py = y(i);
    if (!Number.isFinite(py)) {
      pen = false;
      continue;
    }
    if (pen) path.lineTo(x(i), py);
    else path.moveTo(x(i), py);
    pen = true;
  }
  return path.finish();
}

/**
 * [d0, r0, k] of a d3 linear scale, as affine() maps: scale(v) = r0 + (v − d0)·k, or r0 alone
 * where the domain is one point (k null; as affine, the middle of the range).
 */
function linearParts(scale) {
  const [d0, d1] = scale.domain();
  const [r0, r1] = scale.range();
  return d1 === d0 ? [0, (r0 + r1) / 2, null] : [d0, r0, (r1 - r0) / (d1 - d0)];
}

/**
 * The x of points from, from + 1, … in integer tenths of a pixel: tenths(scale(from + i)), i <
 * count, into `out` (a new array if it is shorter). For valuesPathTenths and areaPathTenths.
 */
export function tenthsAlong(scale, from, count, out = null) {
  const xs = out && out.length >= count ? out : new Float64Array(count);
  const [d0, r0, k] = linearParts(scale);
  for (let i = 0; i < count; i++) xs[i] = Math.round((k === null ? r0 : r0 + (from + i - d0) * k) * 10);
  return xs;
}

/**
 * linePathTenths of the points (xTenths[i] in tenths, scale(values[i])), i < count, without a
 * function call a point: the same data.
 */
export function valuesPathTenths(xTenths, values, count, scale) {
  const [d0, r0, k] = linearParts(scale);
  const path = new TenthsPath();
  let pen = false;
  for (let i = 0; i < count; i++) {
    const y = k === null ? r0 : r0 + (values[i] - d0) * k;
    if (!Number.isFinite(y)) {
      pen = false;
      continue;
    }
    if (pen) path.lineToTenths(xTenths[i], Math.round(y * 10));
    else path.moveToTenths(xTenths[i], Math.round(y * 10));
    pen = true;
  }
  return path.finish();
}

/**
 * The area between the curves (xTenths[i], scale(upper[i])) and (xTenths[i], scale(lower[i])),
 * i < count, in tenths of a pixel (see TENTHS): along the upper, back along the lower, closed.
 */
export function areaPathTenths(xTenths, upper, lower, count, scale) {
  if (count === 0) return '';
  const map = affine(scale);
  const y = (v) => tenths(map(v));
  const path = new TenthsPath();
  path.moveToTenths(xTenths[0], y(upper[0]));
  for (let i = 1; i < count; i++) path.lineToTenths(xTenths[i], y(upper[i]));
  for (let i = count - 1; i >= 0; i--) path.lineToTenths(xTenths[i], y(lower[i]));
  path.close();
  return path.finish();
}

/** Path data of filled circles of radius r at (cx(i), cy(i)), in tenths of a pixel (see TENTHS). */
export function dotsPathTenths(count, cx, cy, r) {
  const radius = tenths(r);
  const arcs = `a${radius},${radius} 0 1,0 ${2 * radius},0a${radius},${radius} 0 1,0 ${-2 * radius},0`;
  const path = new TenthsPath();
  for (let i = 0; i < count; i++) {
    const y = cy(i);
    if (!Number.isFinite(y)) continue;
    path.moveToTenths(tenths(cx(i)) - radius, tenths(y));
    path.append(arcs);
  }
  return path.finish();
}

/**
 * A d3 linear scale as a plain function (the same map, faster to call):
 * for the loops over every point of a curve.
 */
export function affine(scale) {
  const [d0, r0, k] = linearParts(scale);
  return k === null ? () => r0 : (v) => r0 + (v - d0) * k;
}

/** Clamps v into [low, high]. */
export const clamp = (v, low, high) => (v < low ? low : v > high ? high : v);
