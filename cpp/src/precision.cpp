#include "precision.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <new>

#include "posenc/posenc.h"
#include "simd.h"

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

namespace detail {

namespace {

// roundToFormat's arithmetic on the bits, with no library call: the spacing
// 2^(leading - significandBits + 1) and its inverse are built in the exponent
// field, so x * inverse is x / spacing exactly; +-0 stays +-0; inf and NaN
// keep their value (inf * inverse is inf; NaN stays NaN).
struct Format {
  int significandBits, minExponent;
  double largest;
};

Format formatOf(Dtype format) {
  switch (format) {
    case Dtype::kFloat16:
      return {11, -14, 65504.0};
    case Dtype::kBfloat16:
      return {8, -126, 0x1.fep127};
    default:
      return {24, -126, FLT_MAX};
  }
}

constexpr uint64_t kExponentBits = 0x7ff0000000000000u;

uint64_t bitsOf(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

double fromBits(uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// The spacing of `format` at x's binade, as bits: its exponent field is
// max(x's, 2^minExponent's) less significandBits - 1.
uint64_t spacingBits(const Format& f, uint64_t xBits) {
  const uint64_t leading = std::max(xBits & kExponentBits, static_cast<uint64_t>(f.minExponent + 1023) << 52);
  return leading - (static_cast<uint64_t>(f.significandBits - 1) << 52);
}

double roundBits(const Format& f, double x) {
  const uint64_t spacing = spacingBits(f, bitsOf(x));
  const uint64_t inverse = (uint64_t{2046} << 52) - spacing;  // 2^-k for spacing 2^k
  const double rounded = std::nearbyint(x * fromBits(inverse)) * fromBits(spacing);
  return std::fabs(rounded) > f.largest ? std::copysign(HUGE_VAL, x) : rounded;
}

}  // namespace

void sinCos(double angle, double* sn, double* cs) {
#if defined(__GLIBC__) || defined(__EMSCRIPTEN__)
  ::sincos(angle, sn, cs);
#else
  *sn = std::sin(angle);
  *cs = std::cos(angle);
#endif
}

namespace scalar {

void roundedAngles(Dtype format, double position, const double* frequencies, size_t count, double* angles) {
  if (format == Dtype::kFloat64) {
    for (size_t i = 0; i < count; ++i) angles[i] = position * frequencies[i];
  } else if (format == Dtype::kFloat32) {
    for (size_t i = 0; i < count; ++i) angles[i] = roundTo(Dtype::kFloat32, position * frequencies[i]);
  } else {
    const Format f = formatOf(format);
    for (size_t i = 0; i < count; ++i) angles[i] = roundBits(f, position * frequencies[i]);
  }
}

}  // namespace scalar

void roundedAngles(Dtype format, double position, const double* frequencies, size_t count, double* angles) {
#if POSENC_SIMD
  if (format != Dtype::kFloat64) {
    const Format f = formatOf(format);
    const v128_t p = wasm_f64x2_splat(position);
    const v128_t exponentBits = wasm_i64x2_splat(static_cast<int64_t>(kExponentBits));
    const v128_t smallest = wasm_f64x2_splat(std::ldexp(1.0, f.minExponent));
    const v128_t belowLeading = wasm_i64x2_splat(static_cast<int64_t>(f.significandBits - 1) << 52);
    const v128_t inverseOfSpacing = wasm_i64x2_splat(static_cast<int64_t>(2046) << 52);
    const v128_t largest = wasm_f64x2_splat(f.largest);
    const v128_t infinity = wasm_f64x2_splat(HUGE_VAL);
    const v128_t sign = wasm_i64x2_splat(INT64_MIN);
    size_t i = 0;
    for (; i + 2 <= count; i += 2) {
      const v128_t x = wasm_f64x2_mul(p, wasm_v128_load(frequencies + i));
      v128_t rounded;
      if (format == Dtype::kFloat32) {
        // The hardware conversion, as roundTo does (it gives +-inf beyond FLT_MAX, as IEEE rounding does).
        rounded = wasm_f64x2_promote_low_f32x4(wasm_f32x4_demote_f64x2_zero(x));
      } else {
        // As roundBits: the leading power of two of x (0 below double's
        // normals, inf for inf and NaN) raised to 2^minExponent, then
        // significandBits - 1 binades down: the spacing.
        const v128_t leading = wasm_f64x2_pmax(wasm_v128_and(x, exponentBits), smallest);
        const v128_t spacing = wasm_i64x2_sub(leading, belowLeading);
        const v128_t inverse = wasm_i64x2_sub(inverseOfSpacing, spacing);
        rounded = wasm_f64x2_mul(wasm_f64x2_nearest(wasm_f64x2_mul(x, inverse)), spacing);
        const v128_t overflow = wasm_f64x2_gt(wasm_f64x2_abs(rounded), largest);
        rounded = wasm_v128_bitselect(wasm_v128_or(infinity, wasm_v128_and(x, sign)), rounded, overflow);
      }
      wasm_v128_store(angles + i, rounded);
    }
    scalar::roundedAngles(format, position, frequencies + i, count - i, angles + i);
    return;
  }
#endif
  scalar::roundedAngles(format, position, frequencies, count, angles);
}

bool AngleSinCos::keeps() {
  if (!triedKeeping_ && (format_ == Dtype::kFloat16 || format_ == Dtype::kBfloat16)) {
    triedKeeping_ = true;
    kept_.reset(new (std::nothrow) double[2 * 65536]);
    if (kept_) std::fill(kept_.get(), kept_.get() + 2 * 65536, std::nan(""));
  }
  return kept_ != nullptr;
}

void AngleSinCos::evaluate(const double* angles, size_t count, double* sines, double* cosines) {
  if (!keeps()) {
    for (size_t i = 0; i < count; ++i) sinCos(angles[i], &sines[i], &cosines[i]);
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    const double angle = angles[i];
    if (angle != angle) {  // NaN: not kept, so that sincos keeps its payload
      sinCos(angle, &sines[i], &cosines[i]);
      continue;
    }
    double* values = kept_.get() + 2 * bits16(format_, angle);
    if (values[0] != values[0]) sinCos(angle, &values[0], &values[1]);  // not yet known (or sin(inf))
    sines[i] = values[0];
    cosines[i] = values[1];
  }
}

}  // namespace detail

}  // namespace posenc
