#include <cmath>

#include "columns.h"
#include "kernels.h"
#include "posenc/posenc.h"

namespace posenc {

const char* validate(const Encoding& e) {
  if (e.dModel < 1 || e.dModel > (1 << 20)) return "dModel must be an integer in [1, 1048576]";
  if (e.layout != Layout::kInterleaved && e.layout != Layout::kConcat)
    return "layout must be 'interleaved' or 'concat'";
  if (e.exponent != Exponent::kPair && e.exponent != Exponent::kHalfMinusOne &&
      e.exponent != Exponent::kColumn)
    return "exponent must be 'pair', 'half-minus-one' or 'column'";
  if (e.order != Order::kSinCos && e.order != Order::kCosSin) return "order must be 'sin-cos' or 'cos-sin'";
  if (e.angle != Angle::kDivide && e.angle != Angle::kRatioPower)
    return "angle must be 'divide' or 'ratio-power'";
  if (!std::isfinite(e.base) || !(e.base > 1)) return "base must be a finite number > 1";
  using detail::kMaxMagnitude;
  if (!(e.frequencyScale > 0 && e.frequencyScale <= kMaxMagnitude))
    return "frequencyScale must be a number in (0, 2^53]";
  if (!(std::abs(e.start) <= kMaxMagnitude)) return "start must be a finite number of magnitude at most 2^53";
  if (e.paddingRow < -1) return "paddingRow must be a row index >= 0 (or -1 for none)";
  if (!(std::abs(e.scale) <= kMaxMagnitude)) return "scale must be a finite number of magnitude at most 2^53";
  if (e.oddColumn != OddColumn::kFormula && e.oddColumn != OddColumn::kZero)
    return "oddColumn must be 'formula' or 'zero'";
  return nullptr;
}

bool pairsShareFrequency(const Encoding& e) {
  return e.angle == Angle::kDivide && e.exponent != Exponent::kColumn;
}

bool offsetOnlyDots(const Encoding& e) { return pairsShareFrequency(e) && !hasLoneColumn(e); }

void columnFrequencies(const Encoding& e, double* out) {
  for (int32_t j = 0; j < e.dModel; ++j) {
    const detail::Column col = detail::column(e, j);
    if (col.zero)
      out[j] = 0.0;
    else if (e.angle == Angle::kRatioPower)
      out[j] = std::nan("");
    else
      out[j] = detail::frequency(e, col.exponent);
  }
}

namespace {

// Rounds once from the float64 value when T is float: computing the angle in
// float32, as most frameworks do, errs by ~5e-4 at position 8192.
template <typename T>
void evaluateRow(const Encoding& e, double position, bool padding, T* out) {
  for (int32_t j = 0; j < e.dModel; ++j) {
    const detail::Column col = detail::column(e, j);
    if (col.zero || padding) {
      out[j] = T(0);
      continue;
    }
    const double angle = e.angle == Angle::kRatioPower ? std::pow(position / e.base, col.exponent)
                                                       : position * detail::frequency(e, col.exponent);
    out[j] = static_cast<T>(e.scale * (col.usesSin ? std::sin(angle) : std::cos(angle)));
  }
}

}  // namespace

void row(const Encoding& e, double position, double* out) {
  evaluateRow(e, position, detail::isPaddingPosition(e, position), out);
}
void row(const Encoding& e, double position, float* out) {
  evaluateRow(e, position, detail::isPaddingPosition(e, position), out);
}

namespace detail {

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

double LoneColumn::at(double position) const {
  const double angle = position * w;
  return scale * (usesSin ? std::sin(angle) : std::cos(angle));
}

void tableRow(const Encoding& e, int64_t index, double* out) {
  evaluateRow(e, e.start + static_cast<double>(index), index == e.paddingRow, out);
}
void tableRow(const Encoding& e, int64_t index, float* out) {
  evaluateRow(e, e.start + static_cast<double>(index), index == e.paddingRow, out);
}

}  // namespace detail

bool simdEnabled() { return kernels::simd(); }

}  // namespace posenc
