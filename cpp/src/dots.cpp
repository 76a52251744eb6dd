#include <algorithm>
#include <cmath>
#include <cstring>

#include "columns.h"
#include "kernels.h"
#include "oscillators.h"
#include "posenc/posenc.h"

namespace posenc {

namespace detail {

namespace {

// out[t] = sum_i cos((x0 + t) w_i) for t in [0, count), in float64.
bool sumCosines(const double* w, int32_t n, double x0, int64_t count, double* out) {
  Oscillators bank(w, n, /*swapped=*/false, 1.0);
  if (!bank.ok()) return false;
  for (int64_t t = 0; t < count;) {
    if (t % kReseedInterval == 0) bank.seed(x0 + static_cast<double>(t));
    // b holds the cosines; a few steps per call keep the oscillators in registers.
    const int64_t run = std::min(
        {count - t, kReseedInterval - t % kReseedInterval, static_cast<int64_t>(kernels::kMaxSumRows)});
    kernels::sumSecondRows(bank.bank(), run, out + t);
    t += run;
  }
  return true;
}

// Every column of an angle-'divide' convention is scale * f_j(P w_j), f_j = sin or
// cos. Since sin a sin b = [cos(a-b) - cos(a+b)]/2 and cos a cos b = [cos(a-b) + cos(a+b)]/2,
//   PE(P) . PE(Q) = scale^2/2 [ sum_j cos((P-Q) w_j) + sum_j sigma_j cos((P+Q) w_j) ],
// sigma_j = +1 for cos and -1 for sin columns: a Toeplitz part (offset only) and a
// Hankel part in P+Q, which cancels exactly when sin and cos of a pair share w.
// The frequencies of every column, of the cos columns and of the sin columns.
// Arrays, not vectors: wasm builds have no exceptions, so a failed vector
// allocation would abort the module where this returns false.
struct ColumnSinusoids {
  std::unique_ptr<double[]> all, cosines, sines;
  int32_t allCount = 0, cosineCount = 0, sineCount = 0;
  bool ok() const { return all && cosines && sines; }
};

ColumnSinusoids columnSinusoids(const Encoding& e) {
  ColumnSinusoids c;
  const size_t d = static_cast<size_t>(e.dModel);
  c.all.reset(new (std::nothrow) double[d]);
  c.cosines.reset(new (std::nothrow) double[d]);
  c.sines.reset(new (std::nothrow) double[d]);
  if (!c.ok()) return c;
  for (int32_t j = 0; j < e.dModel; ++j) {
    const Column col = column(e, j);
    if (col.zero) continue;
    const double w = frequency(e, col.exponent);
    c.all[c.allCount++] = w;
    if (col.usesSin)
      c.sines[c.sineCount++] = w;
    else
      c.cosines[c.cosineCount++] = w;
  }
  return c;
}

// out[t] = sum_j sigma_j cos((x0 + t) w_j).
bool sumHankel(const ColumnSinusoids& c, double x0, int64_t n, double* out) {
  std::unique_ptr<double[]> sines(new (std::nothrow) double[n]);
  if (!sines || !sumCosines(c.cosines.get(), c.cosineCount, x0, n, out) ||
      !sumCosines(c.sines.get(), c.sineCount, x0, n, sines.get()))
    return false;
  for (int64_t t = 0; t < n; ++t) out[t] -= sines[t];
  return true;
}

// out[i] = sum over pairs of cos(w (firstOffset + i)) for i in [0, count), in float64.
bool cosineSums(const Encoding& e, int64_t firstOffset, int64_t count, double* out) {
  const std::unique_ptr<double[]> w = pairFrequencies(e);
  return w && sumCosines(w.get(), pairCount(e), static_cast<double>(firstOffset), count, out);
}

}  // namespace

}  // namespace detail

namespace {

double dot(const double* x, const double* y, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += x[i] * y[i];
  return sum;
}

}  // namespace

bool offsetDots(const Encoding& e, double from, int64_t minOffset, int64_t maxOffset, double* out) {
  // A range of offsets that int64 can count (the span in unsigned arithmetic,
  // which cannot overflow), and a `from` where 2 * from + k stays finite.
  if (validate(e) != nullptr || maxOffset < minOffset || !(std::abs(from) <= detail::kMaxMagnitude))
    return false;
  const uint64_t span = static_cast<uint64_t>(maxOffset) - static_cast<uint64_t>(minOffset);
  if (span >= static_cast<uint64_t>(INT64_MAX)) return false;
  const int64_t n = static_cast<int64_t>(span) + 1;
  const double first = static_cast<double>(minOffset);
  // Where `from` is a table row's position (start + row), PE(from + k) is the
  // padding row when row + k is paddingRow: decided by index, as tables do,
  // since from + k and start + paddingRow may round differently (4.1 - 3 is
  // not 0.1 + 1). Otherwise by position.
  const double fromRow = std::round(from - e.start);
  const bool fromIsRow = e.paddingRow >= 0 && e.start + fromRow == from;
  const auto isPadding = [&](double k) {
    return fromIsRow ? fromRow + k == static_cast<double>(e.paddingRow)
                     : detail::isPaddingPosition(e, from + k);
  };
  if (isPadding(0.0)) {
    std::fill(out, out + n, 0.0);
    return true;
  }
  const double scale2 = e.scale * e.scale;
  if (pairsShareFrequency(e)) {
    // PE(p) . PE(p+k) = scale^2 sum_i [sin x sin(x + w k) + cos x cos(x + w k)]
    //                 = scale^2 sum_i cos(w_i k), whatever p is,
    if (!detail::cosineSums(e, minOffset, n, out)) return false;
    for (int64_t i = 0; i < n; ++i) out[i] *= scale2;
    // plus, for a lone odd column, its own product, which depends on p.
    if (hasLoneColumn(e)) {
      const detail::LoneColumn lone(e);
      const double atFrom = lone.at(from);
      for (int64_t i = 0; i < n; ++i) out[i] += atFrom * lone.at(from + first + static_cast<double>(i));
    }
  } else if (e.angle == Angle::kDivide && linearAngles(e.precision)) {
    // Offset part plus a part in P + Q = 2 from + k: s(k) depends on `from`.
    const detail::ColumnSinusoids c = detail::columnSinusoids(e);
    std::unique_ptr<double[]> hankel(new (std::nothrow) double[n]);
    if (!hankel || !c.ok() || !detail::sumCosines(c.all.get(), c.allCount, first, n, out) ||
        !detail::sumHankel(c, 2 * from + first, n, hankel.get()))
      return false;
    for (int64_t i = 0; i < n; ++i) out[i] = 0.5 * scale2 * (out[i] + hankel[i]);
  } else {
    // (pos / base)^e, or a rounded angle, is no sinusoid of position: multiply
    // the rows out, from a writer's row(): row()'s values, with the
    // frequencies taken once and rounded angles a row at a time.
    const size_t d = static_cast<size_t>(e.dModel);
    std::unique_ptr<double[]> rows(new (std::nothrow) double[2 * d]);
    TableWriter writer(e, 0);
    if (!rows || !writer.ok()) return false;
    writer.row(from, rows.get());
    for (int64_t i = 0; i < n; ++i) {
      writer.row(from + first + static_cast<double>(i), rows.get() + d);
      out[i] = dot(rows.get(), rows.get() + d, d);
    }
  }
  // The padding row is zero wherever it falls in the range.
  for (int64_t i = 0; i < n; ++i)
    if (isPadding(first + static_cast<double>(i))) out[i] = 0.0;
  return true;
}

struct SimilarityWriter::State {
  Encoding e;
  int64_t length;
  int64_t nextRow = 0;
  // Dots depend on the offset only: entry (p, q) = s(|p - q|), and with
  // band[m] = s(|m - (length - 1)|) row p is band[length-1-p, 2 length-1-p).
  std::unique_ptr<float[]> band;
  // Column sinusoids: entry (p, q) = offsetPart[length-1-p+q] + sumPart[p+q];
  // pairs sharing a frequency and a lone odd column: offsetPart[...] + lone[p] lone[q].
  std::unique_ptr<double[]> offsetPart, sumPart, lone;
  // Otherwise: the float64 table, multiplied out row by row.
  std::unique_ptr<double[]> table;
};

SimilarityWriter::SimilarityWriter(const Encoding& e, int64_t length)
    : state_(new (std::nothrow) State{e, length, 0, nullptr, nullptr, nullptr, nullptr, nullptr}) {
  if (!state_) return;
  if (validate(e) != nullptr || length < 1) {
    state_.reset();
    return;
  }
  State& st = *state_;
  const size_t len = static_cast<size_t>(length);
  const size_t bandLength = 2 * len - 1;
  // Symmetric band from offsets 0..len-1.
  auto mirror = [len](size_t m) { return m >= len - 1 ? m - (len - 1) : (len - 1) - m; };
  const double scale2 = e.scale * e.scale;
  if (offsetOnlyDots(e)) {
    std::unique_ptr<double[]> s(new (std::nothrow) double[len]);
    st.band.reset(new (std::nothrow) float[bandLength]);
    if (!s || !st.band || !detail::cosineSums(e, 0, length, s.get())) {
      state_.reset();
      return;
    }
    for (size_t m = 0; m < bandLength; ++m) st.band[m] = static_cast<float>(scale2 * s[mirror(m)]);
  } else if (pairsShareFrequency(e)) {
    // The pairs' band in float64, plus the lone column's rank-one part.
    std::unique_ptr<double[]> s(new (std::nothrow) double[len]);
    st.offsetPart.reset(new (std::nothrow) double[bandLength]);
    st.lone.reset(new (std::nothrow) double[len]);
    if (!s || !st.offsetPart || !st.lone || !detail::cosineSums(e, 0, length, s.get())) {
      state_.reset();
      return;
    }
    for (size_t m = 0; m < bandLength; ++m) st.offsetPart[m] = scale2 * s[mirror(m)];
    const detail::LoneColumn lone(e);
    for (size_t p = 0; p < len; ++p) st.lone[p] = lone.at(e.start + static_cast<double>(p));
  } else if (e.angle == Angle::kDivide && linearAngles(e.precision)) {
    const detail::ColumnSinusoids c = detail::columnSinusoids(e);
    std::unique_ptr<double[]> t(new (std::nothrow) double[len]);
    st.offsetPart.reset(new (std::nothrow) double[bandLength]);
    st.sumPart.reset(new (std::nothrow) double[bandLength]);
    if (!t || !st.offsetPart || !st.sumPart || !c.ok() ||
        !detail::sumCosines(c.all.get(), c.allCount, 0.0, length, t.get()) ||
        !detail::sumHankel(c, 2 * e.start, static_cast<int64_t>(bandLength), st.sumPart.get())) {
      state_.reset();
      return;
    }
    for (size_t m = 0; m < bandLength; ++m) {
      st.offsetPart[m] = 0.5 * scale2 * t[mirror(m)];
      st.sumPart[m] *= 0.5 * scale2;
    }
  } else {
    const size_t d = static_cast<size_t>(e.dModel);
    st.table.reset(new (std::nothrow) double[len * d]);
    if (!st.table) {
      state_.reset();
      return;
    }
    // The writer's float64 rows are tableRow()'s (rounded angles a row at a time).
    TableWriter writer(e, 0);
    if (writer.ok())
      writer.write(st.table.get(), length);
    else
      for (size_t p = 0; p < len; ++p) detail::tableRow(e, static_cast<int64_t>(p), st.table.get() + p * d);
  }
}

SimilarityWriter::~SimilarityWriter() = default;

bool SimilarityWriter::ok() const { return state_ != nullptr; }

void SimilarityWriter::write(float* out, int64_t rows) {
  if (!state_) return;
  State& st = *state_;
  const Encoding& e = st.e;
  const size_t len = static_cast<size_t>(st.length);
  const size_t d = static_cast<size_t>(e.dModel);
  const bool hasPadding = e.paddingRow >= 0 && e.paddingRow < st.length;
  rows = std::min(rows, st.length - st.nextRow);  // the matrix has no rows beyond its length
  for (int64_t r = 0; r < rows; ++r, ++st.nextRow) {
    float* dst = out + static_cast<size_t>(r) * len;
    const size_t p = static_cast<size_t>(st.nextRow);
    if (st.band) {
      std::memcpy(dst, st.band.get() + (len - 1 - p), len * sizeof(float));
    } else if (st.lone) {
      const double* offset = st.offsetPart.get() + (len - 1 - p);
      const double* lone = st.lone.get();
      for (size_t q = 0; q < len; ++q) dst[q] = static_cast<float>(offset[q] + lone[p] * lone[q]);
    } else if (st.offsetPart) {
      const double* offset = st.offsetPart.get() + (len - 1 - p);
      const double* sum = st.sumPart.get() + p;
      for (size_t q = 0; q < len; ++q) dst[q] = static_cast<float>(offset[q] + sum[q]);
    } else {
      const double* x = st.table.get() + p * d;
      for (size_t q = 0; q < len; ++q) dst[q] = static_cast<float>(dot(x, st.table.get() + q * d, d));
    }
    // The closed forms know nothing of the padding row: zero its row and column.
    if (hasPadding) {
      if (st.nextRow == e.paddingRow)
        std::memset(dst, 0, len * sizeof(float));
      else
        dst[e.paddingRow] = 0.0f;
    }
  }
}

bool similarity(const Encoding& e, int64_t length, float* out) {
  SimilarityWriter writer(e, length);
  if (!writer.ok()) return false;
  writer.write(out, length);
  return true;
}

}  // namespace posenc
