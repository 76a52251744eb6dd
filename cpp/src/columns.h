// Per-column facts of a convention, shared by every computation (columns.cpp).
#pragma once

#include <cmath>
#include <memory>

#include "posenc/limits.h"
#include "posenc/posenc.h"

namespace posenc::detail {

using posenc::kMaxMagnitude;

struct Column {
  int32_t pair;     // which (first, second) pair the column belongs to
  bool second;      // second member of its pair
  bool usesSin;     // sin or cos of the angle
  double exponent;  // e in w = base^(-e)
  bool zero;        // the odd last column, when it is zeros
};

// Column j's facts. Out of line: inlined into its seven callers it cost 1.3 KB
// of wasm, and none is hot (the kernels take their frequencies once).
Column column(const Encoding& e, int32_t j);

// w = frequencyScale * base^(-e), the exponent and then w rounded per e.precision.
inline double frequency(const Encoding& e, double exponent) {
  const Precision& p = e.precision;
  return roundTo(p.frequency, e.frequencyScale * std::pow(e.base, -roundTo(p.exponent, exponent)));
}

// The angle of a column of frequency w (from frequency()) or exponent e at
// `position`: position * w, or (position / base)^e for angle 'ratio-power',
// with the position and the angle rounded per e.precision.
inline double angleAt(const Encoding& e, double position, double w, double exponent) {
  const Precision& p = e.precision;
  if (e.angle == Angle::kRatioPower)
    return roundTo(p.angle, std::pow(roundTo(p.position, position) / e.base, roundTo(p.exponent, exponent)));
  return roundedAngle(p, position, w);
}

// Frequencies of the pairCount(e) pairs (both members share it where this is
// used); null when out of memory.
std::unique_ptr<double[]> pairFrequencies(const Encoding& e);

// The odd last column where it stands alone (hasLoneColumn(e), angle
// 'divide', angles not rounded): its value scale * f(position * w), as row() evaluates it.
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

// The dModel values of the row at `position` (all zeros when `padding`),
// each rounded once from its float64 value; row() and tableRow() evaluate
// value by value through this.
void evaluateRow(const Encoding& e, double position, bool padding, double* out);
void evaluateRow(const Encoding& e, double position, bool padding, float* out);

// Table row `index` (position start + index), the padding row decided by its
// index: tables never compare positions.
template <typename T>
void tableRow(const Encoding& e, int64_t index, T* out) {
  evaluateRow(e, e.start + static_cast<double>(index), index == e.paddingRow, out);
}

}  // namespace posenc::detail
