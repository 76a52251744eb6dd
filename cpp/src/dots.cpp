#include <algorithm>
#include <cstring>
#include <vector>

#include "columns.h"
#include "kernels.h"
#include "oscillators.h"
#include "posenc/posenc.h"

namespace posenc {

namespace detail {

bool cosineSums(const Encoding& e, int64_t maxOffset, double* out) {
  const std::unique_ptr<double[]> w = pairFrequencies(e);
  if (!w) return false;
  Oscillators bank(w.get(), pairCount(e), /*swapped=*/false, 1.0);
  if (!bank.ok()) return false;
  for (int64_t k = 0; k <= maxOffset;) {
    if (k % kReseedInterval == 0) bank.seed(static_cast<double>(k));
    // b holds cos(w_i k); a few offsets per call keep the oscillators in registers.
    const int64_t run = std::min({maxOffset + 1 - k, kReseedInterval - k % kReseedInterval,
                                  static_cast<int64_t>(kernels::kMaxSumRows)});
    kernels::sumSecondRows(bank.a(), bank.b(), bank.c(), bank.s(), bank.size(), run, out + k);
    k += run;
  }
  return true;
}

}  // namespace detail

namespace {

double dot(const double* x, const double* y, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += x[i] * y[i];
  return sum;
}

}  // namespace

bool offsetDots(const Encoding& e, double from, int64_t maxOffset, double* out) {
  if (validate(e) != nullptr || maxOffset < 0) return false;
  if (detail::isPaddingPosition(e, from)) {
    std::fill(out, out + maxOffset + 1, 0.0);
    return true;
  }
  if (pairsShareFrequency(e)) {
    // PE(p) . PE(p+k) = scale^2 sum_i [sin x sin(x + w k) + cos x cos(x + w k)]
    //                 = scale^2 sum_i cos(w_i k), whatever p is.
    if (!detail::cosineSums(e, maxOffset, out)) return false;
    const double scale2 = e.scale * e.scale;
    for (int64_t k = 0; k <= maxOffset; ++k) out[k] *= scale2;
  } else {
    const size_t d = static_cast<size_t>(e.dModel);
    std::unique_ptr<double[]> rows(new (std::nothrow) double[2 * d]);
    if (!rows) return false;
    row(e, from, rows.get());
    for (int64_t k = 0; k <= maxOffset; ++k) {
      row(e, from + static_cast<double>(k), rows.get() + d);
      out[k] = dot(rows.get(), rows.get() + d, d);
    }
  }
  // The padding row is zero wherever it falls in the range.
  for (int64_t k = 0; k <= maxOffset; ++k)
    if (detail::isPaddingPosition(e, from + static_cast<double>(k))) out[k] = 0.0;
  return true;
}

struct SimilarityWriter::State {
  Encoding e;
  int64_t length;
  int64_t nextRow = 0;
  // Toeplitz: band[m] = s(|m - (length - 1)|), so row p is band[length-1-p, 2 length-1-p).
  std::unique_ptr<float[]> band;
  // Otherwise: the float64 table, multiplied out row by row.
  std::unique_ptr<double[]> table;
};

SimilarityWriter::SimilarityWriter(const Encoding& e, int64_t length)
    : state_(new (std::nothrow) State{e, length, 0, nullptr, nullptr}) {
  if (!state_) return;
  if (validate(e) != nullptr || length < 1) {
    state_.reset();
    return;
  }
  State& st = *state_;
  const size_t len = static_cast<size_t>(length);
  if (pairsShareFrequency(e)) {
    std::unique_ptr<double[]> s(new (std::nothrow) double[len]);
    st.band.reset(new (std::nothrow) float[2 * len - 1]);
    if (!s || !st.band || !detail::cosineSums(e, length - 1, s.get())) {
      state_.reset();
      return;
    }
    const double scale2 = e.scale * e.scale;
    for (size_t m = 0; m < 2 * len - 1; ++m) {
      const size_t k = m >= len - 1 ? m - (len - 1) : (len - 1) - m;
      st.band[m] = static_cast<float>(scale2 * s[k]);
    }
  } else {
    const size_t d = static_cast<size_t>(e.dModel);
    st.table.reset(new (std::nothrow) double[len * d]);
    if (!st.table) {
      state_.reset();
      return;
    }
    for (size_t p = 0; p < len; ++p) row(e, e.start + static_cast<double>(p), st.table.get() + p * d);
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
  for (int64_t r = 0; r < rows; ++r, ++st.nextRow) {
    float* dst = out + static_cast<size_t>(r) * len;
    const size_t p = static_cast<size_t>(st.nextRow);
    if (st.band) {
      std::memcpy(dst, st.band.get() + (len - 1 - p), len * sizeof(float));
    } else {
      const double* x = st.table.get() + p * d;
      for (size_t q = 0; q < len; ++q) dst[q] = static_cast<float>(dot(x, st.table.get() + q * d, d));
    }
    // Only the Toeplitz band needs this; the real products are already zero.
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
