// sum_i cos(x w_i) without a libm call per term, for the base criterion's
// probes (rope_base.cpp): the angle reduced by pi/2 in two parts (Cody and
// Waite, exact for quotients below 2^20), then fdlibm's sine or cosine
// polynomial on [-pi/4, pi/4]. Each cosine is within a few 1e-16 of the
// exact one; the caller decides a sign only when the sum is clear of zero by
// more than the sums can differ, else sums with std::cos.
// The SIMD and scalar versions evaluate the same operations in the same order
// (even terms and odd terms in two sums, the SIMD version's lanes, added at
// the end), so they give the same bits, and the tests compare them.
#pragma once

#include <cstddef>

namespace posenc::cosines {

// |x w_i| below this keeps the reduction's quotient under 2^20.
constexpr double kMaxAngle = 1.5e6;

// sum_i cos(x w[i]) over i in [0, count), for |x w[i]| < kMaxAngle.
double sum(const double* w, size_t count, double x);

// How far sum() may be from the same sum taken with std::cos in order: each
// cosine's error and the two summations' roundings (partial sums below count).
inline double sumTolerance(size_t count) {
  const double n = static_cast<double>(count);
  return 4e-16 * n * (n + 4);
}

namespace scalar {
double sum(const double* w, size_t count, double x);
}  // namespace scalar

}  // namespace posenc::cosines
