// Float64 references written from each framework's own formula, independent
// of the library. `pos` is the table row's position; each returns a
// Float64Array of length rows * d (row-major) or one value.

export const PAPER_BASE = 10000;

/** PyTorch "Language modeling" tutorial: div_term = exp(arange(0, d, 2) * -ln(10000)/d). */
export function pytorchTutorial(length, d, start = 0) {
  const out = new Float64Array(length * d);
  for (let r = 0; r < length; r++) {
    const pos = start + r;
    for (let i = 0; 2 * i < d - (d % 2); i++) {
      const divTerm = Math.exp(2 * i * -(Math.log(PAPER_BASE) / d));
      out[r * d + 2 * i] = Math.sin(pos * divTerm);
      out[r * d + 2 * i + 1] = Math.cos(pos * divTerm);
    }
  }
  return out;
}

/** The paper: pos / 10000^(2 (j // 2) / d), sin on even, cos on odd columns, every column j < d. */
export function paperValue(pos, j, d, base = PAPER_BASE) {
  const angle = pos / Math.pow(base, (2 * Math.floor(j / 2)) / d);
  return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
}

/**
 * Hugging Face transformers create_sinusoidal_embeddings(n_pos, dim, out):
 *   position_enc = np.array([[pos / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] for pos in range(n_pos)])
 *   out[:, 0::2] = sin(position_enc[:, 0::2]); out[:, 1::2] = cos(position_enc[:, 1::2])
 */
export function huggingFace(nPos, dim) {
  const out = new Float64Array(nPos * dim);
  for (let pos = 0; pos < nPos; pos++)
    for (let j = 0; j < dim; j++) {
      const angle = pos / Math.pow(10000, (2 * Math.floor(j / 2)) / dim);
      out[pos * dim + j] = j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }
  return out;
}

/**
 * Keras-NLP SinePositionEncoding(max_wavelength=10000), in float64:
 *   timescales = power(1 / max_wavelength, 2 * (arange(hidden) // 2) / hidden)
 *   angles = position * timescales; cos_mask = arange(hidden) % 2; sin_mask = 1 - cos_mask
 *   sin(angles) * sin_mask + cos(angles) * cos_mask
 */
export function kerasSinePositionEncoding(length, hidden, maxWavelength = 10000) {
  const out = new Float64Array(length * hidden);
  for (let pos = 0; pos < length; pos++)
    for (let j = 0; j < hidden; j++) {
      const angle = pos * Math.pow(1 / maxWavelength, (2 * Math.floor(j / 2)) / hidden);
      const cosMask = j % 2;
      out[pos * hidden + j] = Math.sin(angle) * (1 - cosMask) + Math.cos(angle) * cosMask;
    }
  return out;
}

/** tensor2tensor get_timing_signal_1d, literally. */
export function tensor2tensor(length, channels, { minTimescale = 1, maxTimescale = 1e4, startIndex = 0 } = {}) {
  const numTimescales = Math.floor(channels / 2);
  const logTimescaleIncrement = Math.log(maxTimescale / minTimescale) / Math.max(numTimescales - 1, 1);
  const out = new Float64Array(length * channels);
  for (let r = 0; r < length; r++) {
    const position = r + startIndex;
    for (let i = 0; i < numTimescales; i++) {
      const invTimescale = minTimescale * Math.exp(i * -logTimescaleIncrement);
      out[r * channels + i] = Math.sin(position * invTimescale);
      out[r * channels + numTimescales + i] = Math.cos(position * invTimescale);
    }
  }
  return out;
}

/** TensorFlow tutorial positional_encoding(length, depth), even depth. */
export function tfTutorial(length, depth) {
  const half = depth / 2;
  const out = new Float64Array(length * depth);
  for (let pos = 0; pos < length; pos++)
    for (let i = 0; i < half; i++) {
      const angleRate = 1 / Math.pow(10000, i / half);
      out[pos * depth + i] = Math.sin(pos * angleRate);
      out[pos * depth + half + i] = Math.cos(pos * angleRate);
    }
  return out;
}

/** fairseq SinusoidalPositionalEmbedding.get_embedding(num_embeddings, embedding_dim, padding_idx). */
export function fairseq(numEmbeddings, embeddingDim, paddingIdx = 1) {
  const halfDim = Math.floor(embeddingDim / 2);
  const emb = Math.log(10000) / (halfDim - 1);
  const out = new Float64Array(numEmbeddings * embeddingDim);
  for (let pos = 0; pos < numEmbeddings; pos++) {
    if (pos === paddingIdx) continue;
    for (let i = 0; i < halfDim; i++) {
      const angle = pos * Math.exp(i * -emb);
      out[pos * embeddingDim + i] = Math.sin(angle);
      out[pos * embeddingDim + halfDim + i] = Math.cos(angle);
    }
  }
  return out;
}

/**
 * The early PyTorch port: pos / 10000^(2 j / d) on the column index, row 0 zero:
 *   position_enc = [[pos / np.power(10000, 2 * j / d) for j in range(d)] if pos != 0 else np.zeros(d) ...]
 *   position_enc[1:, 0::2] = sin(position_enc[1:, 0::2]); position_enc[1:, 1::2] = cos(...)
 */
export function legacyColumn(nPosition, embDim) {
  const out = new Float64Array(nPosition * embDim);
  for (let pos = 1; pos < nPosition; pos++)
    for (let j = 0; j < embDim; j++) {
      const angle = pos / Math.pow(10000, (2 * j) / embDim);
      out[pos * embDim + j] = j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }
  return out;
}

/** The Q&A attempt: (pos / 10000)^(2 j / d), cos on even and sin on odd columns, every column j < d. */
export function question(length, d) {
  const out = new Float64Array(length * d);
  for (let pos = 0; pos < length; pos++)
    for (let j = 0; j < d; j++) {
      const x = Math.pow(pos / 10000, (2 * j) / d);
      out[pos * d + j] = j % 2 === 0 ? Math.cos(x) : Math.sin(x);
    }
  return out;
}

export function rowOf(table, d, r) {
  return table.subarray(r * d, (r + 1) * d);
}

export function dot(x, y) {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i] * y[i];
  return s;
}

/** |y − X a|, X given as its columns, for the a that solves (XᵀX) a = Xᵀy (Gaussian elimination with partial pivoting). */
export function normalEquationsResidual(columns, y) {
  const n = columns.length;
  const dotOf = (a, b) => a.reduce((sum, value, r) => sum + value * b[r], 0);
  const system = columns.map((ci) => [...columns.map((cj) => dotOf(ci, cj)), dotOf(ci, y)]);
  for (let i = 0; i < n; i++) {
    const pivot = system
      .slice(i)
      .reduce((best, row, j) => (Math.abs(row[i]) > Math.abs(system[best][i]) ? i + j : best), i);
    [system[i], system[pivot]] = [system[pivot], system[i]];
    for (let j = i + 1; j < n; j++) {
      const factor = system[j][i] / system[i][i];
      for (let c = i; c <= n; c++) system[j][c] -= factor * system[i][c];
    }
  }
  const a = new Array(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let sum = system[i][n];
    for (let j = i + 1; j < n; j++) sum -= system[i][j] * a[j];
    a[i] = sum / system[i][i];
  }
  return Math.sqrt(
    y.reduce((sum, value, r) => sum + (value - columns.reduce((fit, c, i) => fit + c[r] * a[i], 0)) ** 2, 0),
  );
}
