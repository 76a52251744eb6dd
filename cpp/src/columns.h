// Per-column facts of a convention, shared by every computation.
#pragma once

#include <cmath>

#include "posenc/posenc.h"

namespace posenc::detail {

struct Column {
  int32_t pair;     // which (first, second) pair the column belongs to
  bool second;      // second member of its pair
  bool usesSin;     // sin or cos of the angle
  double exponent;  // e in w = base^(-e)
  bool zero;        // the odd last column, when it is zeros
};

inline Column column(const Encoding& e, int32_t j) {
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

inline double frequency(const Encoding& e, double exponent) {
  return e.frequencyScale * std::pow(e.base, -exponent);
}

// The odd last column where it stands alone (hasLoneColumn(e), angle
// 'divide'): its value scale * f(position * w), as row() evaluates it.
struct LoneColumn {
  double w = 0, scale = 0;
  bool usesSin = false;
  LoneColumn() = default;
  explicit LoneColumn(const Encoding& e) : scale(e.scale) {
    const Column col = column(e, e.dModel - 1);
    w = frequency(e, col.exponent);
    usesSin = col.usesSin;
  }
  // Out of line: inlined, every caller got its own copy of sin and cos (2 KB of wasm).
  double at(double position) const;
};

// The padding row is table row paddingRow, at position start + paddingRow as
// the table forms it. (Not position - start == paddingRow: for a fractional
// start that rounds differently, and 4.1 - 0.1 is not 4.)
inline bool isPaddingPosition(const Encoding& e, double position) {
  return e.paddingRow >= 0 && position == e.start + static_cast<double>(e.paddingRow);
}

// Table row `index` (position start + index), the padding row decided by its
// index: tables never compare positions.
void tableRow(const Encoding& e, int64_t index, double* out);
void tableRow(const Encoding& e, int64_t index, float* out);

}  // namespace posenc::detail
