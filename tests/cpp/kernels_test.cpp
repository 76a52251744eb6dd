// The SIMD kernels must compute exactly what the scalar ones do (same float64
// operations in the same order), for lengths that are not lane multiples.
#include "kernels.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

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

TEST(Kernels, InterleavedRowsMatchScalarBitForBit) {
  for (size_t n : {0u, 1u, 2u, 3u, 5u, 8u, 9u, 17u, 64u, 129u}) {
    for (size_t rows : {1u, 3u, 16u}) {
      const size_t stride = 2 * n + 3;  // rows of a wider table: padding must stay untouched
      Bank x(n, 7 + n), y(n, 7 + n);
      std::vector<float> outX(rows * stride, -9.f), outY(rows * stride, -9.f);
      posenc::kernels::writeInterleavedRows(x.a.data(), x.b.data(), x.c.data(), x.s.data(), n, rows,
                                            outX.data(), stride);
      posenc::kernels::scalar::writeInterleavedRows(y.a.data(), y.b.data(), y.c.data(), y.s.data(), n, rows,
                                                    outY.data(), stride);
      ASSERT_EQ(outX, outY) << "n=" << n << " rows=" << rows;
      ASSERT_EQ(x.a, y.a);
      ASSERT_EQ(x.b, y.b);
      for (size_t r = 0; r < rows; ++r)
        for (size_t j = 2 * n; j < stride; ++j) ASSERT_EQ(outX[r * stride + j], -9.f) << "wrote past the row";
    }
  }
}

TEST(Kernels, SplitRowsMatchScalarBitForBit) {
  for (size_t n : {0u, 1u, 3u, 4u, 8u, 31u, 256u}) {
    for (size_t rows : {1u, 5u}) {
      const size_t stride = 2 * n + 1;
      Bank x(n, 11 + n), y(n, 11 + n);
      std::vector<float> outX(rows * stride, -9.f), outY(rows * stride, -9.f);
      posenc::kernels::writeSplitRows(x.a.data(), x.b.data(), x.c.data(), x.s.data(), n, rows, outX.data(),
                                      outX.data() + n, stride);
      posenc::kernels::scalar::writeSplitRows(y.a.data(), y.b.data(), y.c.data(), y.s.data(), n, rows,
                                              outY.data(), outY.data() + n, stride);
      ASSERT_EQ(outX, outY) << "n=" << n;
      ASSERT_EQ(x.b, y.b);
      for (size_t r = 0; r < rows; ++r) ASSERT_EQ(outX[r * stride + 2 * n], -9.f);
    }
  }
}

TEST(Kernels, SumRowsMatchScalarBitForBit) {
  for (size_t n : {0u, 1u, 2u, 7u, 9u, 100u, 513u}) {
    for (size_t rows : {size_t{1}, size_t{3}, posenc::kernels::kMaxSumRows}) {
      Bank x(n, 3 + n), y(n, 3 + n);
      std::vector<double> sx(rows, -1), sy(rows, -1);
      posenc::kernels::sumSecondRows(x.a.data(), x.b.data(), x.c.data(), x.s.data(), n, rows, sx.data());
      posenc::kernels::scalar::sumSecondRows(y.a.data(), y.b.data(), y.c.data(), y.s.data(), n, rows,
                                             sy.data());
      ASSERT_EQ(sx, sy) << "n=" << n << " rows=" << rows;
      ASSERT_EQ(x.b, y.b);
      ASSERT_EQ(x.a, y.a);
    }
  }
}

TEST(Kernels, StepIsARotation) {
  // One step by angle w from (sin x, cos x) lands on (sin(x+w), cos(x+w)).
  const double x = 0.3, w = 0.7;
  double a = std::sin(x), b = std::cos(x);
  const double c = std::cos(w), s = std::sin(w);
  float out[2];
  posenc::kernels::writeInterleavedRows(&a, &b, &c, &s, 1, 1, out, 2);
  EXPECT_NEAR(a, std::sin(x + w), 1e-15);
  EXPECT_NEAR(b, std::cos(x + w), 1e-15);
  EXPECT_EQ(out[0], static_cast<float>(std::sin(x)));
}

}  // namespace
