// The pixel work of the heatmaps, free of the DOM so that a worker can run it
// too (see page/compute-worker.js): values -> RGBA through a colour table,
// averaged over the cells each device pixel covers, and the value range.

/**
 * Which cells [from[i], to[i]) go into output pixel i along one axis, and the
 * weights of the first and last of them (the share of the cell the pixel
 * covers; the cells between count 1). Exact, with more cells than pixels: the
 * area each pixel covers, fractions included (whole cells only would put 2
 * cells in one pixel and 3 in the next: a 1024-column table in 450 pixels
 * would beat into false stripes). Exact, fewer cells than pixels: the cell
 * under the pixel's left edge. Otherwise the cell at its centre.
 */
function cellRanges(count, size, exact) {
  const from = new Int32Array(size);
  const to = new Int32Array(size);
  const first = new Float64Array(size).fill(1);
  const last = new Float64Array(size).fill(1);
  for (let i = 0; i < size; i++) {
    if (exact && count > size) {
      const start = (i * count) / size;
      const end = ((i + 1) * count) / size;
      from[i] = Math.floor(start);
      to[i] = Math.min(count, Math.ceil(end));
      first[i] = Math.min(end, from[i] + 1) - start;
      last[i] = to[i] - 1 === from[i] ? first[i] : end - (to[i] - 1);
    } else if (exact) {
      from[i] = Math.min(count - 1, Math.floor((i * count) / size));
      to[i] = from[i] + 1;
    } else {
      from[i] = Math.min(count - 1, Math.floor(((i + 0.5) * count) / size));
      to[i] = from[i] + 1;
    }
  }
  return { from, to, first, last };
}

/**
 * Paints a row-major [rows x columns] array into `pixels` (RGBA, width x height,
 * all of it written). Values are coloured by where they fall in [low, high]
 * through `colours` (RGBA entries); NaN cells are transparent. Exact: each
 * pixel takes the mean colour of the cells it covers, weighted by the area it
 * covers of each (a 2048-row table in 400 pixels must not alias into false
 * slow waves); otherwise the colour of the cell at its centre, one lookup per
 * pixel (a preview while a slider moves). Rows are read in order, so the
 * array is streamed through once.
 */
export function paintCells(values, rows, columns, colours, low, high, width, height, exact = true, pixels = null) {
  const out = pixels ?? new Uint8ClampedArray(width * height * 4);
  const last = colours.length / 4 - 1;
  const factor = high > low ? last / (high - low) : 0;
  const across = cellRanges(columns, width, exact);
  const down = cellRanges(rows, height, exact);
  // One cell per pixel on both axes (a preview, or a table with no more cells than pixels, as the
  // page's first table): a lookup per pixel. The first paint of a load runs in code the engine
  // has not optimised yet, where the averaging loop cost 20-50 ms for a 256 x 128 table.
  if (!exact || !averagesCells(rows, columns, width, height))
    return pickCells(values, columns, colours, last, low, factor, across.from, down.from, width, out);
  // Few cells per pixel across (a 512-column table in 380 pixels): down first, so that the pass
  // across, whose count of cells per pixel varies, runs once per pixel row: 2048 × 512 in 380 × 418
  // pixels takes 15 instead of 27–33 ms in Chromium (13.5, 21.6 in Node). With more cells per pixel
  // across (a 2048-column matrix in 420 pixels: 46 against 40 ms in Node) the cells a pixel covers
  // whole are summed as integers across first.
  if (columns < 3 * width)
    return paintDownFirst(values, columns, colours, last, low, factor, across, down, width, height, out);
  // Across first: each table row is summed into its pixel columns, the whole cells as integers, and
  // each pixel row adds up its table rows, weighted by how much of each it covers.
  // Per pixel of the current output row: red, green, blue sums and the weight.
  const sums = new Float64Array(width * 4);
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    const top = down.from[y];
    const bottom = down.to[y] - 1;
    for (let r = top; r <= bottom; r++) {
      const offset = r * columns;
      const rowWeight = r === top ? down.first[y] : r === bottom ? down.last[y] : 1;
      for (let x = 0; x < width; x++) {
        const left = offset + across.from[x];
        const right = offset + across.to[x] - 1;
        // The cells between the first and the last count whole: their colours summed as integers
        // (the table's bytes; the engine keeps such sums in integer registers), then the two
        // partly covered ones, weighted. A 2048-column matrix in 420 pixels: 5 cells a pixel;
        // 2048 x 2048 painted in 26 ms in Node, against 36 with a weight for every cell.
        let wholeRed = 0;
        let wholeGreen = 0;
        let wholeBlue = 0;
        let wholeCount = 0;
        for (let c = left + 1; c < right; c++) {
          const value = values[c];
          if (value !== value) continue;
          const scaled = (value - low) * factor;
          const entry = (scaled <= 0 ? 0 : scaled >= last ? last : (scaled + 0.5) | 0) << 2;
          wholeRed = (wholeRed + colours[entry]) | 0;
          wholeGreen = (wholeGreen + colours[entry + 1]) | 0;
          wholeBlue = (wholeBlue + colours[entry + 2]) | 0;
          wholeCount = (wholeCount + 1) | 0;
        }
        let red = wholeRed;
        let green = wholeGreen;
        let blue = wholeBlue;
        let weight = wholeCount;
        for (let edge = 0; edge < (right > left ? 2 : 1); edge++) {
          const c = edge === 0 ? left : right;
          const value = values[c];
          if (value !== value) continue;
          const share = edge === 0 ? across.first[x] : across.last[x];
          const scaled = (value - low) * factor;
          const entry = (scaled <= 0 ? 0 : scaled >= last ? last : (scaled + 0.5) | 0) * 4;
          red += share * colours[entry];
          green += share * colours[entry + 1];
          blue += share * colours[entry + 2];
          weight += share;
        }
        const at = x * 4;
        sums[at] += rowWeight * red;
        sums[at + 1] += rowWeight * green;
        sums[at + 2] += rowWeight * blue;
        sums[at + 3] += rowWeight * weight;
      }
    }
    const row = y * width * 4;
    for (let at = 0; at < width * 4; at += 4)
      writePixel(out, row + at, sums[at], sums[at + 1], sums[at + 2], sums[at + 3]);
  }
  return out;
}

/**
 * paintCells averaging, down first: for each pixel row its table rows are summed cell by cell (red,
 * green, blue and weight, each row weighted by how much of it the pixel row covers), then each pixel
 * takes the cells it covers of that summed row.
 */
function paintDownFirst(values, columns, colours, last, low, factor, across, down, width, height, out) {
  // A cell's offset in the colour table, or -1 for NaN; the row at a border serves two pixel rows.
  const entries = new Int32Array(columns);
  let entriesRow = -1;
  const cellSums = new Float64Array(columns * 4);
  for (let y = 0; y < height; y++) {
    cellSums.fill(0);
    const top = down.from[y];
    const bottom = down.to[y] - 1;
    for (let r = top; r <= bottom; r++) {
      if (r !== entriesRow) {
        const offset = r * columns;
        for (let c = 0; c < columns; c++) {
          const value = values[offset + c];
          const scaled = (value - low) * factor;
          entries[c] = value !== value ? -1 : (scaled <= 0 ? 0 : scaled >= last ? last : (scaled + 0.5) | 0) << 2;
        }
        entriesRow = r;
      }
      const rowWeight = r === top ? down.first[y] : r === bottom ? down.last[y] : 1;
      for (let c = 0, at = 0; c < columns; c++, at += 4) {
        const entry = entries[c];
        if (entry < 0) continue;
        cellSums[at] += rowWeight * colours[entry];
        cellSums[at + 1] += rowWeight * colours[entry + 1];
        cellSums[at + 2] += rowWeight * colours[entry + 2];
        cellSums[at + 3] += rowWeight;
      }
    }
    const row = y * width * 4;
    for (let x = 0; x < width; x++) {
      const left = across.from[x];
      const right = across.to[x] - 1;
      const firstShare = across.first[x];
      let at = left * 4;
      let red = firstShare * cellSums[at];
      let green = firstShare * cellSums[at + 1];
      let blue = firstShare * cellSums[at + 2];
      let weight = firstShare * cellSums[at + 3];
      for (let c = left + 1; c < right; c++) {
        at = c * 4;
        red += cellSums[at];
        green += cellSums[at + 1];
        blue += cellSums[at + 2];
        weight += cellSums[at + 3];
      }
      if (right > left) {
        const lastShare = across.last[x];
        at = right * 4;
        red += lastShare * cellSums[at];
        green += lastShare * cellSums[at + 1];
        blue += lastShare * cellSums[at + 2];
        weight += lastShare * cellSums[at + 3];
      }
      writePixel(out, row + x * 4, red, green, blue, weight);
    }
  }
  return out;
}

/** An averaged pixel from its colour sums and their weight: transparent where no cell counted (all NaN). */
function writePixel(out, pixel, red, green, blue, weight) {
  if (weight === 0) {
    out[pixel] = out[pixel + 1] = out[pixel + 2] = out[pixel + 3] = 0;
    return;
  }
  out[pixel] = red / weight;
  out[pixel + 1] = green / weight;
  out[pixel + 2] = blue / weight;
  out[pixel + 3] = 255;
}

/**
 * Whether an exact image of `rows` × `columns` cells in `width` × `height` pixels averages cells
 * anywhere (a pixel covers more than one along an axis); where it does not, exact and preview both
 * take one cell per pixel.
 */
export const averagesCells = (rows, columns, width, height) => rows > height || columns > width;

/**
 * paintCells with one cell per pixel: pixel (x, y) takes the colour of cell
 * (rowOf[y], columnOf[x]). Each table row is coloured once (a cell's RGBA as
 * one 32-bit word, so a pixel is one load and one store), and pixel rows of
 * the same table row are copies of the first.
 */
function pickCells(values, columns, colours, last, low, factor, columnOf, rowOf, width, out) {
  // Words written through a byte view of their own: the same bytes on either endianness.
  const words = new Uint32Array(last + 2);
  const wordBytes = new Uint8Array(words.buffer);
  wordBytes.set(colours);
  for (let entry = 0; entry <= last; entry++) wordBytes[entry * 4 + 3] = 255;
  // The last word stays 0: a NaN cell, transparent.
  const transparent = last + 1;
  const rowWords = new Uint32Array(columns);
  const aligned = out.byteOffset % 4 === 0;
  const outWords = aligned ? new Uint32Array(out.buffer, out.byteOffset, rowOf.length * width) : null;
  const staging = aligned ? null : new Uint32Array(width);
  for (let y = 0; y < rowOf.length; y++) {
    const row = y * width;
    if (y > 0 && rowOf[y] === rowOf[y - 1]) {
      out.copyWithin(row * 4, (row - width) * 4, row * 4);
      continue;
    }
    const offset = rowOf[y] * columns;
    for (let c = 0; c < columns; c++) {
      const value = values[offset + c];
      const scaled = (value - low) * factor;
      rowWords[c] = words[value !== value ? transparent : scaled <= 0 ? 0 : scaled >= last ? last : (scaled + 0.5) | 0];
    }
    if (aligned) for (let x = 0; x < width; x++) outWords[row + x] = rowWords[columnOf[x]];
    else {
      for (let x = 0; x < width; x++) staging[x] = rowWords[columnOf[x]];
      out.set(new Uint8Array(staging.buffer), row * 4);
    }
  }
  return out;
}

/**
 * The colour domain [-e, e] of values from `min` to `max`, e = the largest |value|, so that zero is
 * the neutral colour; [-1, 1] when there is no finite value or all are zero. The worker paints a
 * request marked symmetric with the domain of the array it paints (a drag's next similarity matrix,
 * before the plot has seen it): the same as the plot then asks for.
 */
export function symmetricDomain({ min, max }) {
  let extent = Math.max(Math.abs(min), Math.abs(max));
  if (!Number.isFinite(extent)) extent = 0;
  return [-(extent || 1), extent || 1];
}

/** Smallest and largest value (NaN ignored; Infinity, -Infinity when there is none). */
export function valueRange(values) {
  // Four independent minima and maxima: a single pair makes every comparison
  // wait on the one before (a 4M-value similarity matrix took ~7 ms, now ~4).
  let min0 = Infinity;
  let min1 = Infinity;
  let min2 = Infinity;
  let min3 = Infinity;
  let max0 = -Infinity;
  let max1 = -Infinity;
  let max2 = -Infinity;
  let max3 = -Infinity;
  const whole = values.length - (values.length % 4);
  let i = 0;
  for (; i < whole; i += 4) {
    const v0 = values[i];
    const v1 = values[i + 1];
    const v2 = values[i + 2];
    const v3 = values[i + 3];
    if (v0 < min0) min0 = v0;
    if (v0 > max0) max0 = v0;
    if (v1 < min1) min1 = v1;
    if (v1 > max1) max1 = v1;
    if (v2 < min2) min2 = v2;
    if (v2 > max2) max2 = v2;
    if (v3 < min3) min3 = v3;
    if (v3 > max3) max3 = v3;
  }
  for (; i < values.length; i++) {
    const value = values[i];
    if (value < min0) min0 = value;
    if (value > max0) max0 = value;
  }
  return { min: Math.min(min0, min1, min2, min3), max: Math.max(max0, max1, max2, max3) };
}
