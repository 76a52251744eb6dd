// Rounded angles in batches (precision.cpp): what table rows, RoPE caches and
// offsetDots need when positionDtype or angleDtype is not float64. Each batch
// gives the same bits as roundTo() and sin/cos value by value (tested).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "posenc/posenc.h"

namespace posenc::detail {

// sin and cos of one angle, in one call where the C library has sincos
// (glibc; musl, which Emscripten uses): the same doubles as std::sin and std::cos.
void sinCos(double angle, double* sn, double* cs);

// angles[i] = roundTo(format, position * frequencies[i]) for i < count: the
// product rounded to float64, then to `format`. Two at a time with WASM SIMD.
void roundedAngles(Dtype format, double position, const double* frequencies, size_t count, double* angles);

namespace scalar {
// The same without SIMD, always compiled, so tests compare the two in one binary.
void roundedAngles(Dtype format, double position, const double* frequencies, size_t count, double* angles);
}  // namespace scalar

// The bits of a float16 or bfloat16 value (a double that format holds
// exactly, not NaN), from the double's exponent and leading fraction bits,
// or as a multiple of the smallest subnormal below the smallest normal.
inline uint32_t bits16(Dtype format, double value) {
  uint64_t b;
  std::memcpy(&b, &value, sizeof b);
  const uint32_t sign = static_cast<uint32_t>(b >> 48) & 0x8000u;
  const uint64_t magnitude = b & 0x7fffffffffffffffu;
  if (format == Dtype::kBfloat16) {
    // float32's exponent (bias 127) and 7 fraction bits; 0x7f80 is inf.
    if (magnitude >= 0x47f0000000000000u) return sign | 0x7f80u;  // 2^128 and up: inf
    if (magnitude >= 0x3810000000000000u)                         // 2^-126 and up: normal
      return sign | static_cast<uint32_t>((magnitude - (uint64_t{1023 - 127} << 52)) >> 45);
    return sign | static_cast<uint32_t>(std::fabs(value) * 0x1p133);  // subnormal: multiples of 2^-133
  }
  if (magnitude >= 0x40f0000000000000u) return sign | 0x7c00u;  // 2^16 and up: inf
  if (magnitude >= 0x3f10000000000000u)                         // 2^-14 and up: normal
    return sign | static_cast<uint32_t>((magnitude - (uint64_t{1023 - 15} << 52)) >> 42);
  return sign | static_cast<uint32_t>(std::fabs(value) * 0x1p24);  // subnormal: multiples of 2^-24
}

// sin and cos of angles that are values of `format` (as roundedAngles gives
// them). float16 and bfloat16 hold at most 65536 values, so their sin and
// cos are kept by bit pattern once computed: a float16-angle table of 8192
// rows has at most ~30,000 distinct angles, not a sincos per value. Other
// formats (and NaN angles) call sincos per angle.
class AngleSinCos {
 public:
  explicit AngleSinCos(Dtype format) : format_(format) {}
  // sines[i], cosines[i] = sin, cos of angles[i].
  void evaluate(const double* angles, size_t count, double* sines, double* cosines);

 private:
  bool keeps();  // float16 or bfloat16, with memory for the kept values (1 MB, taken at the first call)
  Dtype format_;
  bool triedKeeping_ = false;
  std::unique_ptr<double[]> kept_;  // sin, cos of each bit pattern; NaN until known
};

}  // namespace posenc::detail
