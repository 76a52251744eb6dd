// The SIMD kernels must compute exactly what the scalar ones do (same float64
// operations in the same order), for lengths that are not lane multiples.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "kernels.h"

namespace {

struct Bank {
  std::vector<double> a, b, c, s;
  explicit Bank(size_t n, unsigned seed) : a(n), b(n), c(n), s(n) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-3.0, 3.0);
    for (size_t i = 0; i < n; ++i) {
      a[i] = u(rng);
      b[i] = u(rng);
      c[i] = std::cos(u(rng));
      s[i] = std::sin(u(rng));
    }
  }
};

TEST(Kernels, ReportsWhichPathIsBuilt) {
#ifdef __wasm_simd128__
  EXPECT_TRUE(posenc::kernels::simd());
#else
  EXPECT_FALSE(posenc::kernels::simd());
#endif
}

TEST(Kernels, InterleavedMatchesScalarBitForBit) {
  for (size_t n : {0u, 1u, 2u, 3u, 5u, 8u, 17u, 64u, 129u}) {
    Bank x(n, 7 + n), y(n, 7 + n);
    std::vector<float> outX(2 * n + 1, -9.f), outY(2 * n + 1, -9.f);
    for (int step = 0; step < 5; ++step) {
      posenc::kernels::storeInterleavedAndStep(x.a.data(), x.b.data(), x.c.data(), x.s.data(), n, outX.data());
      posenc::kernels::scalar::storeInterleavedAndStep(y.a.data(), y.b.data(), y.c.data(), y.s.data(), n, outY.data());
      ASSERT_EQ(outX, outY) << "n=" << n;
      ASSERT_EQ(x.a, y.a);
      ASSERT_EQ(x.b, y.b);
    }
    EXPECT_EQ(outX[2 * n], -9.f) << "wrote past the row";
  }
}

TEST(Kernels, SplitMatchesScalarBitForBit) {
  for (size_t n : {0u, 1u, 3u, 4u, 31u, 256u}) {
    Bank x(n, 11 + n), y(n, 11 + n);
    std::vector<float> outX(2 * n + 1, -9.f), outY(2 * n + 1, -9.f);
    for (int step = 0; step < 5; ++step) {
      posenc::kernels::storeSplitAndStep(x.a.data(), x.b.data(), x.c.data(), x.s.data(), n, outX.data(), outX.data() + n);
      posenc::kernels::scalar::storeSplitAndStep(y.a.data(), y.b.data(), y.c.data(), y.s.data(), n, outY.data(), outY.data() + n);
      ASSERT_EQ(outX, outY) << "n=" << n;
    }
    EXPECT_EQ(outX[2 * n], -9.f);
  }
}

TEST(Kernels, SumMatchesScalarBitForBit) {
  for (size_t n : {0u, 1u, 2u, 7u, 100u, 513u}) {
    Bank x(n, 3 + n), y(n, 3 + n);
    for (int step = 0; step < 5; ++step) {
      const double sx = posenc::kernels::sumSecondAndStep(x.a.data(), x.b.data(), x.c.data(), x.s.data(), n);
      const double sy = posenc::kernels::scalar::sumSecondAndStep(y.a.data(), y.b.data(), y.c.data(), y.s.data(), n);
      ASSERT_EQ(sx, sy) << "n=" << n;
      ASSERT_EQ(x.b, y.b);
    }
  }
}

TEST(Kernels, StepIsARotation) {
  // One step by angle w from (sin x, cos x) lands on (sin(x+w), cos(x+w)).
  const double x = 0.3, w = 0.7;
  double a = std::sin(x), b = std::cos(x);
  const double c = std::cos(w), s = std::sin(w);
  float out[2];
  posenc::kernels::storeInterleavedAndStep(&a, &b, &c, &s, 1, out);
  EXPECT_NEAR(a, std::sin(x + w), 1e-15);
  EXPECT_NEAR(b, std::cos(x + w), 1e-15);
  EXPECT_EQ(out[0], static_cast<float>(std::sin(x)));
}

}  // namespace
