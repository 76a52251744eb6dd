// Float64 references written from the papers' and frameworks' formulas,
// independently of the library's code paths.
#pragma once

#include <cmath>
#include <vector>

#include "posenc/posenc.h"

namespace reference {

// The paper: PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(...),
// for every column j < d (an odd d's last column, 2i = d - 1, is a sine).
inline double paper(double pos, int j, int d, double base = 10000.0) {
  const int i = j / 2;
  const double angle = pos / std::pow(base, 2.0 * i / d);
  return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

// tensor2tensor's get_timing_signal_1d, literally: concat [sin | cos], then pad.
inline double tensor2tensor(double pos, int j, int d, double minTimescale = 1.0,
                            double maxTimescale = 1.0e4) {
  const int numTimescales = d / 2;
  if (j >= 2 * numTimescales) return 0.0;
  const double logIncrement =
      std::log(maxTimescale / minTimescale) / std::max(static_cast<double>(numTimescales) - 1, 1.0);
  const int i = j % numTimescales;
  const double invTimescale = minTimescale * std::exp(i * -logIncrement);
  const double scaled = pos * invTimescale;
  return j < numTimescales ? std::sin(scaled) : std::cos(scaled);
}

// Any combination of knobs, spelled out column by column.
struct Knobs {
  int d = 8;
  bool concat = false;
  posenc::Exponent exponent = posenc::Exponent::kPair;
  bool cosFirst = false;
  bool ratioPower = false;
  double base = 10000.0;
  double start = 0.0;
  long paddingRow = -1;
  double scale = 1.0;
  bool zeroOddColumn = false;   // else an odd d's last column is pair n's first member
  double frequencyScale = 1.0;  // tensor2tensor's min_timescale (angle 'divide' only)
};

inline double value(const Knobs& k, double pos, int j) {
  const int n = k.d / 2;
  const bool oddColumn = j == 2 * n;  // the last column of an odd d
  if (oddColumn && k.zeroOddColumn) return 0.0;
  // The padding row is at position start + paddingRow.
  if (k.paddingRow >= 0 && pos == k.start + static_cast<double>(k.paddingRow)) return 0.0;
  const int pair = oddColumn ? n : k.concat ? j % n : j / 2;
  const bool second = oddColumn ? false : k.concat ? j >= n : j % 2 == 1;
  double e = 0;
  if (k.exponent == posenc::Exponent::kPair) e = 2.0 * pair / k.d;
  if (k.exponent == posenc::Exponent::kHalfMinusOne) e = pair / std::max(n - 1.0, 1.0);
  if (k.exponent == posenc::Exponent::kColumn) e = 2.0 * j / k.d;
  const double angle =
      k.ratioPower ? std::pow(pos / k.base, e) : pos * k.frequencyScale / std::pow(k.base, e);
  const bool useSin = second == k.cosFirst;
  return k.scale * (useSin ? std::sin(angle) : std::cos(angle));
}

inline posenc::Encoding encoding(const Knobs& k) {
  posenc::Encoding e;
  e.dModel = k.d;
  e.layout = k.concat ? posenc::Layout::kConcat : posenc::Layout::kInterleaved;
  e.exponent = k.exponent;
  e.order = k.cosFirst ? posenc::Order::kCosSin : posenc::Order::kSinCos;
  e.angle = k.ratioPower ? posenc::Angle::kRatioPower : posenc::Angle::kDivide;
  e.base = k.base;
  e.start = k.start;
  e.paddingRow = k.paddingRow;
  e.scale = k.scale;
  e.oddColumn = k.zeroOddColumn ? posenc::OddColumn::kZero : posenc::OddColumn::kFormula;
  e.frequencyScale = k.frequencyScale;
  return e;
}

inline std::vector<double> row(const Knobs& k, double pos) {
  std::vector<double> out(k.d);
  for (int j = 0; j < k.d; ++j) out[j] = value(k, pos, j);
  return out;
}

inline double dot(const std::vector<double>& x, const std::vector<double>& y) {
  double s = 0;
  for (size_t i = 0; i < x.size(); ++i) s += x[i] * y[i];
  return s;
}

// Every combination the library claims to support, for sweeping tests.
inline std::vector<Knobs> conventions(int d) {
  std::vector<Knobs> all;
  for (bool concat : {false, true})
    for (auto ex : {posenc::Exponent::kPair, posenc::Exponent::kHalfMinusOne, posenc::Exponent::kColumn})
      for (bool cosFirst : {false, true})
        for (bool zeroOddColumn : {false, true}) {
          // The odd column's content matters only where d is odd.
          if (zeroOddColumn && d % 2 == 0) continue;
          Knobs k;
          k.d = d;
          k.concat = concat;
          k.exponent = ex;
          k.cosFirst = cosFirst;
          k.zeroOddColumn = zeroOddColumn;
          all.push_back(k);
        }
  return all;
}

}  // namespace reference
