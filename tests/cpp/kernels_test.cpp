// The SIMD kernels must compute exactly what the scalar ones do (same float64
// operations in the same order), for lengths that are not lane multiples.
#include "kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

#include "oscillators.h"

namespace {

struct RandomBank {
  std::vector<double> a, b, previousA, previousB, twiceCos;
  RandomBank(size_t n, unsigned seed) : a(n), b(n), previousA(n), previousB(n), twiceCos(n) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (size_t i = 0; i < n; ++i) {
      a[i] = u(rng);
      b[i] = u(rng);
      previousA[i] = u(rng);
      previousB[i] = u(rng);
      twiceCos[i] = 2 * u(rng);
    }
  }
  posenc::kernels::Bank bank() {
    return {a.data(), b.data(), previousA.data(), previousB.data(), twiceCos.data(), a.size()};
  }
  bool operator==(const RandomBank& o) const {
    return a == o.a && b == o.b && previousA == o.previousA && previousB == o.previousB;
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
      const size_t stride = 2 * n + 3;  // rows of a wider table: the rest must stay untouched
      RandomBank x(n, 7 + n), y(n, 7 + n);
      std::vector<float> outX(rows * stride, -9.f), outY(rows * stride, -9.f);
      posenc::kernels::writeInterleavedRows(x.bank(), rows, outX.data(), stride);
      posenc::kernels::scalar::writeInterleavedRows(y.bank(), rows, outY.data(), stride);
      ASSERT_EQ(outX, outY) << "n=" << n << " rows=" << rows;
      ASSERT_TRUE(x == y);
      for (size_t r = 0; r < rows; ++r)
        for (size_t j = 2 * n; j < stride; ++j) ASSERT_EQ(outX[r * stride + j], -9.f) << "wrote past the row";
    }
  }
}

TEST(Kernels, SplitRowsMatchScalarBitForBit) {
  for (size_t n : {0u, 1u, 3u, 4u, 8u, 31u, 256u}) {
    for (size_t rows : {1u, 5u}) {
      const size_t stride = 2 * n + 1;
      RandomBank x(n, 11 + n), y(n, 11 + n);
      std::vector<float> outX(rows * stride, -9.f), outY(rows * stride, -9.f);
      posenc::kernels::writeSplitRows(x.bank(), rows, outX.data(), outX.data() + n, stride);
      posenc::kernels::scalar::writeSplitRows(y.bank(), rows, outY.data(), outY.data() + n, stride);
      ASSERT_EQ(outX, outY) << "n=" << n;
      ASSERT_TRUE(x == y);
      for (size_t r = 0; r < rows; ++r) ASSERT_EQ(outX[r * stride + 2 * n], -9.f);
    }
  }
}

TEST(Kernels, SumRowsMatchScalarBitForBit) {
  for (size_t n : {0u, 1u, 2u, 7u, 9u, 17u, 100u, 513u}) {
    for (size_t rows : {size_t{1}, size_t{3}, posenc::kernels::kMaxSumRows}) {
      RandomBank x(n, 3 + n), y(n, 3 + n);
      std::vector<double> sx(rows, -1), sy(rows, -1);
      posenc::kernels::sumSecondRows(x.bank(), rows, sx.data());
      posenc::kernels::scalar::sumSecondRows(y.bank(), rows, sy.data());
      ASSERT_EQ(sx, sy) << "n=" << n << " rows=" << rows;
      ASSERT_TRUE(x == y);
    }
  }
}

TEST(Kernels, StepsFollowTheSinusoid) {
  // From sin/cos at x - w and x, each step advances the angle by w.
  const double x = 0.3, w = 0.7;
  double a = std::sin(x), b = std::cos(x), previousA = std::sin(x - w), previousB = std::cos(x - w);
  const double k = 2 * std::cos(w);
  posenc::kernels::Bank bank{&a, &b, &previousA, &previousB, &k, 1};
  float out[2 * 3];
  posenc::kernels::writeInterleavedRows(bank, 3, out, 2);
  for (int m = 0; m < 3; ++m) {
    EXPECT_EQ(out[2 * m], static_cast<float>(std::sin(x + m * w))) << m;
    EXPECT_EQ(out[2 * m + 1], static_cast<float>(std::cos(x + m * w))) << m;
  }
  EXPECT_NEAR(a, std::sin(x + 3 * w), 1e-15);
  EXPECT_NEAR(b, std::cos(x + 3 * w), 1e-15);
}

TEST(Kernels, DriftOver1024StepsIsFarBelowFloat32) {
  double worst = 0;
  for (double w : {1.0, 0.7, 0.1, 1e-2, 1e-4}) {
    double a = 0, b = 1, previousA = std::sin(-w), previousB = std::cos(w);
    const double k = 2 * std::cos(w);
    posenc::kernels::Bank bank{&a, &b, &previousA, &previousB, &k, 1};
    float out[2];
    for (int m = 1; m <= 1024; ++m) {
      posenc::kernels::writeInterleavedRows(bank, 1, out, 2);
      worst = std::max({worst, std::abs(a - std::sin(m * w)), std::abs(b - std::cos(m * w))});
    }
  }
  EXPECT_LT(worst, 1e-10);
}

TEST(Oscillators, PlacedAwayFromTheRowsWithTheirStateIntact) {
  // 512 oscillators: each state array is one page, as for d = 1024.
  constexpr size_t kPage = 4096;
  std::vector<double> w(512);
  for (size_t i = 0; i < w.size(); ++i) w[i] = std::pow(10000.0, -2.0 * static_cast<double>(i) / 1024);
  posenc::detail::Oscillators oscillators(w.data(), 512, /*swapped=*/false, 1.0);
  ASSERT_TRUE(oscillators.ok());
  oscillators.seed(12345);
  const auto state = [&] {
    const posenc::kernels::Bank bank = oscillators.bank();
    std::vector<double> all;
    for (const double* array :
         std::initializer_list<const double*>{bank.a, bank.b, bank.previousA, bank.previousB, bank.twiceCos})
      all.insert(all.end(), array, array + bank.size);
    return all;
  };
  const std::vector<double> before = state();
  std::vector<float> memory(3 * kPage);
  const auto address = [](const void* p) { return reinterpret_cast<uintptr_t>(p); };
  // Rows 4 KB apart starting `offset` bytes (mod 4 KB) after the state.
  for (size_t offset : {0, 8, 40, 2048, 4000, 1024, 3072, 16}) {
    const uintptr_t a = address(oscillators.bank().a), base = address(memory.data());
    const float* out = memory.data() + (a + offset - base) % kPage / sizeof(float);
    oscillators.placeAwayFrom(out, kPage, 8);
    const posenc::kernels::Bank bank = oscillators.bank();
    const size_t apart = (address(bank.a) - address(out)) % kPage;
    EXPECT_GE(std::min(apart, kPage - apart), 1024u) << "offset " << offset;
    if (std::min(offset, kPage - offset) < 1024) {
      EXPECT_NE(address(bank.a), a) << "offset " << offset;
    }
    for (const double* array :
         std::initializer_list<const double*>{bank.b, bank.previousA, bank.previousB, bank.twiceCos})
      EXPECT_EQ(address(array) % kPage, address(bank.a) % kPage);
    EXPECT_EQ(state(), before) << "offset " << offset;
  }
}

}  // namespace
