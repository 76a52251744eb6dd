// The base criterion's polynomial cosine sums (cosine_sum.h) against cosines
// taken here in long double, at the angles where the reduction by pi/2 is
// hardest (near multiples of pi/4, tiny, up to the largest allowed), and the
// SIMD version against the scalar one, bit for bit.
#include "cosine_sum.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {

using posenc::cosines::kMaxAngle;

// Angles that stress the reduction: random up to kMaxAngle, near multiples of
// pi/4 (where the polynomial switches) and of pi/2, and tiny ones.
std::vector<double> hardAngles() {
  std::vector<double> angles;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const long double quarterPi = 0.785398163397448309615660845819875721L;
  for (int k = 0; k < 2000; ++k) {
    angles.push_back(kMaxAngle * unit(rng) * (k % 2 ? 1.0 : 1e-3));
    const int64_t multiple = static_cast<int64_t>(unit(rng) * (kMaxAngle / quarterPi - 1));
    const double near = static_cast<double>(multiple * quarterPi);
    angles.push_back(near);
    angles.push_back(std::nextafter(near, 0.0));
    angles.push_back(std::nextafter(near, kMaxAngle));
    angles.push_back(std::ldexp(unit(rng), -(k % 60)));
  }
  angles.push_back(0.0);
  return angles;
}

TEST(CosineSum, EachCosineWithin3e16OfLongDouble) {
  double worst = 0;
  for (double angle : hardAngles()) {
    const double one = 1.0;
    // x * 1.0 is the angle itself: sum() of one term is its cosine.
    const double got = posenc::cosines::sum(&one, 1, angle);
    const double error = std::fabs(static_cast<double>(static_cast<long double>(got) - cosl(angle)));
    worst = std::max(worst, error);
    ASSERT_LE(error, 3e-16) << "angle " << angle;
  }
  EXPECT_GT(worst, 0.0);  // the comparison is not of a value with itself
}

// What the caller relies on: the sum is within sumTolerance of the same sum
// taken with std::cos term by term, in order.
TEST(CosineSum, SumWithinItsToleranceOfStdCos) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (size_t count : {1u, 2u, 3u, 63u, 64u, 255u, 256u, 2048u}) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> w(count);
      // A frequency ladder like RoPE's: 1 down to about 1e-4, and a random base.
      const double base = std::pow(10.0, 1 + 6 * unit(rng));
      for (size_t i = 0; i < count; ++i) w[i] = std::pow(base, -static_cast<double>(i) / count);
      const double x = std::floor(unit(rng) * 4e5);
      double exact = 0;
      for (double wi : w) exact += std::cos(x * wi);
      const double got = posenc::cosines::sum(w.data(), count, x);
      EXPECT_LE(std::fabs(got - exact), posenc::cosines::sumTolerance(count)) << count << " terms, x " << x;
    }
  }
}

TEST(CosineSum, SimdAndScalarGiveTheSameBits) {
  const std::vector<double> angles = hardAngles();
  for (size_t count : {1u, 2u, 5u, 64u, 257u}) {
    for (size_t start = 0; start + count <= angles.size(); start += 997) {
      const double* w = angles.data() + start;
      // x = 1: the angles are the terms themselves.
      const double simd = posenc::cosines::sum(w, count, 1.0);
      const double scalar = posenc::cosines::scalar::sum(w, count, 1.0);
      EXPECT_EQ(std::memcmp(&simd, &scalar, sizeof simd), 0) << count << " terms from " << start;
    }
  }
}

}  // namespace
