// Su Jianlin's base criterion against a float64 reference written here: the
// sum of cos(m * base^(-2i/d)) taken directly for every m.
#include "posenc/rope_base.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "posenc/limits.h"

namespace {

std::vector<double> ladder(int d, double base) {
  std::vector<double> w(d / 2);
  for (int i = 0; i < d / 2; ++i) w[i] = std::pow(base, -2.0 * i / d);
  return w;
}

double sumAt(const std::vector<double>& w, int64_t m) {
  double sum = 0;
  for (double x : w) sum += std::cos(static_cast<double>(m) * x);
  return sum;
}

// The first m with a negative sum, scanning every m directly.
int64_t firstNegative(const std::vector<double>& w, int64_t limit) {
  for (int64_t m = 0; m < limit; ++m)
    if (sumAt(w, m) < 0) return m;
  return limit;
}

TEST(RopeBase, SupportedContextIsTheFirstNegativeSum) {
  for (int d : {2, 8, 64, 128}) {
    for (double base : {10.0, 500.0, 1e4, 5e5}) {
      const auto w = ladder(d, base);
      const int64_t limit = 40000;
      EXPECT_EQ(posenc::rope::supportedContext(w.data(), d / 2, limit), firstNegative(w, limit))
          << "d " << d << " base " << base;
    }
  }
}

TEST(RopeBase, SupportedContextStopsAtTheLimit) {
  const auto w = ladder(128, 1e6);
  EXPECT_EQ(posenc::rope::supportedContext(w.data(), 64, 1000), 1000);
  EXPECT_EQ(posenc::rope::supportedContext(w.data(), 64, 0), 0);
}

// Long scans cross many reseeds of the recurrence: base 1e6 at d 128.
TEST(RopeBase, SupportedContextOfLargeBases) {
  const auto w = ladder(128, 1e6);
  EXPECT_EQ(posenc::rope::supportedContext(w.data(), 64, 1 << 17), firstNegative(w, 1 << 17));
}

// Scans end inside a run of offsets summed together and cross reseeds, with odd pair counts too.
TEST(RopeBase, SupportedContextAtLimitsBetweenRunsAndOddPairCounts) {
  for (int d : {2, 6, 10, 130}) {
    for (double base : {3.0, 1e4}) {
      const auto w = ladder(d, base);
      const int64_t all = firstNegative(w, 5000);
      for (int64_t limit : {1, 3, 7, 9, 1023, 1025, 1031, 2049, 4999})
        EXPECT_EQ(posenc::rope::supportedContext(w.data(), d / 2, limit), std::min(all, limit))
            << "d " << d << " base " << base << " limit " << limit;
    }
  }
}

// What a smallest base must be: the criterion holds at it, fails just below
// it, and fails at every grid point below it (checked directly).
void expectSmallest(int d, int64_t context, int steps) {
  const double base = posenc::rope::smallestBase(d, context, 1e12, steps);
  ASSERT_TRUE(std::isfinite(base) && base >= 1) << base;
  EXPECT_EQ(firstNegative(ladder(d, base), context), context) << "holds at " << base;
  EXPECT_LT(firstNegative(ladder(d, base * (1 - 1e-8)), context), context) << "fails below " << base;
  for (int k = 0; std::pow(2.0, static_cast<double>(k) / steps) < base * (1 - 1e-8); ++k)
    EXPECT_LT(firstNegative(ladder(d, std::pow(2.0, static_cast<double>(k) / steps)), context), context)
        << "grid point " << k << " below " << base;
}

TEST(RopeBase, SmallestBaseMeetsTheCriterionAndNoGridPointBelowDoes) {
  expectSmallest(128, 1024, 256);
  expectSmallest(64, 300, 64);
  expectSmallest(16, 100, 32);
}

// Su Jianlin's example (kexue.fm/archives/10122): d = 128, L = 1k -> about 4.3e3. 2k and 4k: a direct
// float64 scan of the same grid (Node, Math.cos, 256 a doubling, then bisection) gave 1.159e4 and 2.695e4.
TEST(RopeBase, SmallestBaseMatchesSuJianlinAndADirectScan) {
  EXPECT_NEAR(posenc::rope::smallestBase(128, 1024, 1e12, 256), 4.3e3, 0.05e3);
  EXPECT_NEAR(posenc::rope::smallestBase(128, 2048, 1e12, 256), 1.2e4, 0.05e4);
  EXPECT_NEAR(posenc::rope::smallestBase(128, 4096, 1e12, 256), 2.7e4, 0.05e4);
}

TEST(RopeBase, SmallestBaseEdges) {
  // m = 0 and 1 only: cos(1) > 0 for every pair at base 1.
  EXPECT_EQ(posenc::rope::smallestBase(8, 2, 1e12, 16), 1.0);
  // No base up to 10 keeps a context of 4096 at d = 128.
  EXPECT_TRUE(std::isnan(posenc::rope::smallestBase(128, 4096, 10, 16)));
  EXPECT_EQ(posenc::rope::smallestBase(7, 100, 1e12, 16), -1);
  EXPECT_EQ(posenc::rope::smallestBase(8, 0, 1e12, 16), -1);
}

// The limits of posenc/limits.h, which JS validates against before calling:
// at the limit accepted, beyond it refused (-1) without scanning.
TEST(RopeBaseLimits, HeadDimContextAndBaseBeyondTheLimitsAreRefused) {
  using posenc::rope::kMaxBase;
  using posenc::rope::kMaxContext;
  using posenc::rope::kMaxHeadDim;
  const std::vector<double> one = {1.0};
  EXPECT_EQ(posenc::rope::supportedContext(one.data(), 1, kMaxContext), 2);
  EXPECT_EQ(posenc::rope::supportedContext(one.data(), 1, kMaxContext + 1), -1);
  std::vector<double> wide(kMaxHeadDim / 2 + 1, 1e-9);
  EXPECT_EQ(posenc::rope::supportedContext(wide.data(), kMaxHeadDim / 2 + 1, 2), -1);
  EXPECT_EQ(posenc::rope::supportedContext(wide.data(), kMaxHeadDim / 2, 2), 2);
  EXPECT_EQ(posenc::rope::smallestBase(8, 2, kMaxBase, 16), 1.0);
  EXPECT_EQ(posenc::rope::smallestBase(kMaxHeadDim, 2, kMaxBase, 16), 1.0);
  EXPECT_EQ(posenc::rope::smallestBase(kMaxHeadDim + 2, 2, kMaxBase, 16), -1);
  EXPECT_EQ(posenc::rope::smallestBase(8, kMaxContext + 1, kMaxBase, 16), -1);
  EXPECT_EQ(posenc::rope::smallestBase(8, 2, kMaxBase * 2, 16), -1);
}

}  // namespace
