#include "columns.h"

#include <new>

namespace posenc::detail {

Column column(const Encoding& e, int32_t j) {
  const int32_t n = pairCount(e);
  Column col{};
  if (j >= 2 * n) {
    // The odd last column: zeros, or the first member of a pair n of its own.
    if (e.oddColumn == OddColumn::kZero) {
      col.zero = true;
      return col;
    }
    col.pair = n;
  } else if (e.layout == Layout::kInterleaved) {
    col.pair = j / 2;
    col.second = (j % 2) == 1;
  } else {
    col.second = j >= n;
    col.pair = col.second ? j - n : j;
  }
  switch (e.exponent) {
    case Exponent::kPair:
      col.exponent = 2.0 * col.pair / e.dModel;
      break;
    case Exponent::kHalfMinusOne:
      // tensor2tensor divides by max(n - 1, 1); fairseq's n - 1 = 0 would give NaN.
      // (A 'formula' odd column is pair n: e = n / max(n - 1, 1); neither has one.)
      col.exponent = static_cast<double>(col.pair) / (n > 1 ? n - 1 : 1);
      break;
    case Exponent::kColumn:
      col.exponent = 2.0 * j / e.dModel;
      break;
  }
  col.usesSin = col.second == (e.order == Order::kCosSin);
  return col;
}

std::unique_ptr<double[]> pairFrequencies(const Encoding& e) {
  const int32_t n = pairCount(e);
  std::unique_ptr<double[]> w(new (std::nothrow) double[n > 0 ? n : 1]);
  if (!w) return w;
  for (int32_t i = 0; i < n; ++i) {
    // Column 2i (interleaved) or i (concat) is the first member of pair i.
    const int32_t j = e.layout == Layout::kInterleaved ? 2 * i : i;
    w[i] = frequency(e, column(e, j).exponent);
  }
  return w;
}

double LoneColumn::at(double position) const {
  const double angle = position * w;
  return scale * (usesSin ? std::sin(angle) : std::cos(angle));
}

namespace {

// Rounds once from the float64 value when T is float: computing the angle in
// float32, as most frameworks do, errs by ~5e-4 at position 8192.
template <typename T>
void evaluate(const Encoding& e, double position, bool padding, T* out) {
  for (int32_t j = 0; j < e.dModel; ++j) {
    const Column col = column(e, j);
    if (col.zero || padding) {
      out[j] = T(0);
      continue;
    }
    const double w = e.angle == Angle::kRatioPower ? 0.0 : frequency(e, col.exponent);
    const double angle = angleAt(e, position, w, col.exponent);
    out[j] = static_cast<T>(e.scale * (col.usesSin ? std::sin(angle) : std::cos(angle)));
  }
}

}  // namespace

void evaluateRow(const Encoding& e, double position, bool padding, double* out) {
  evaluate(e, position, padding, out);
}
void evaluateRow(const Encoding& e, double position, bool padding, float* out) {
  evaluate(e, position, padding, out);
}

}  // namespace posenc::detail
