#include <cfloat>
#include <cmath>
#include <initializer_list>

#include "posenc/posenc.h"

namespace posenc {

namespace {

// x rounded to `significandBits` significant bits (the leading one included),
// to nearest with ties to even, with no exponent below `minExponent`
// (subnormals: below 2^minExponent the spacing stays 2^(minExponent -
// significandBits + 1)) and +-inf beyond `largest`. Scaling by powers of two is
// exact, and nearbyint rounds ties to even in the default rounding mode (wasm:
// f64.nearest), so the result is the IEEE rounding of x, native and wasm alike.
double roundToFormat(double x, int significandBits, int minExponent, double largest) {
  if (!std::isfinite(x) || x == 0) return x;
  int exponent;
  std::frexp(x, &exponent);  // |x| in [2^(exponent-1), 2^exponent)
  const int leading = exponent - 1 > minExponent ? exponent - 1 : minExponent;
  const double spacing = std::ldexp(1.0, leading - (significandBits - 1));
  const double rounded = std::nearbyint(x / spacing) * spacing;
  // Rounded past the largest finite value: overflow, as IEEE rounding to nearest does.
  if (std::fabs(rounded) > largest) return std::copysign(HUGE_VAL, x);
  return rounded;
}

}  // namespace

double roundTo(Dtype format, double x) {
  switch (format) {
    case Dtype::kFloat64:
      return x;
    case Dtype::kFloat32:
      // The hardware conversion where it is defined (C++ leaves it undefined beyond FLT_MAX).
      if (std::fabs(x) <= FLT_MAX) return static_cast<double>(static_cast<float>(x));
      return roundToFormat(x, 24, -126, FLT_MAX);
    case Dtype::kFloat16:
      return roundToFormat(x, 11, -14, 65504.0);
    case Dtype::kBfloat16:
      return roundToFormat(x, 8, -126, 0x1.fep127);
  }
  return std::nan("");
}

const char* validate(const Precision& p) {
  for (const Dtype format : {p.exponent, p.frequency, p.position, p.angle})
    if (format != Dtype::kFloat64 && format != Dtype::kFloat32 && format != Dtype::kFloat16 &&
        format != Dtype::kBfloat16)
      return "positionDtype, frequencyDtype, angleDtype and exponentDtype must be 'float64', 'float32', "
             "'float16' or 'bfloat16'";
  return nullptr;
}

}  // namespace posenc
