#include <cmath>

#include "columns.h"
#include "kernels.h"
#include "posenc/limits.h"
#include "posenc/posenc.h"

namespace posenc {

const char* validate(const Encoding& e) {
  if (e.dModel < 1 || e.dModel > kMaxDModel) return "dModel must be an integer in [1, 1048576]";
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
  return validate(e.precision);
}

bool pairsShareFrequency(const Encoding& e) {
  return e.angle == Angle::kDivide && e.exponent != Exponent::kColumn && linearAngles(e.precision);
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

void row(const Encoding& e, double position, double* out) {
  detail::evaluateRow(e, position, detail::isPaddingPosition(e, position), out);
}
void row(const Encoding& e, double position, float* out) {
  detail::evaluateRow(e, position, detail::isPaddingPosition(e, position), out);
}

bool simdEnabled() { return kernels::simd(); }

}  // namespace posenc
