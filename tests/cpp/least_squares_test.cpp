// The least-squares residuals against references computed here in long
// double (normal equations on well-conditioned problems, where they are
// accurate), rank-deficient cases with known answers, and the SIMD
// reflections against the scalar ones (the same bits).
#include "posenc/least_squares.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "reflections.h"

namespace {

using Matrix = std::vector<double>;  // row-major

Matrix randomMatrix(size_t rows, size_t columns, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  Matrix m(rows * columns);
  for (double& value : m) value = normal(rng);
  return m;
}

// |y_t - X b| with b from X^T X b = X^T y_t, in long double (Cholesky).
std::vector<double> normalEquationResiduals(const Matrix& x, size_t m, const Matrix& y, size_t t,
                                            size_t rows) {
  using Real = long double;
  std::vector<Real> gram(m * m), l(m * m);
  for (size_t a = 0; a < m; ++a)
    for (size_t b = 0; b < m; ++b)
      for (size_t r = 0; r < rows; ++r) gram[a * m + b] += Real(x[r * m + a]) * x[r * m + b];
  for (size_t a = 0; a < m; ++a)
    for (size_t b = 0; b <= a; ++b) {
      Real sum = gram[a * m + b];
      for (size_t k = 0; k < b; ++k) sum -= l[a * m + k] * l[b * m + k];
      l[a * m + b] = a == b ? std::sqrt(sum) : sum / l[b * m + b];
    }
  std::vector<double> out(t);
  for (size_t target = 0; target < t; ++target) {
    std::vector<Real> rhs(m), z(m), b(m);
    for (size_t a = 0; a < m; ++a)
      for (size_t r = 0; r < rows; ++r) rhs[a] += Real(x[r * m + a]) * y[r * t + target];
    for (size_t a = 0; a < m; ++a) {
      Real sum = rhs[a];
      for (size_t k = 0; k < a; ++k) sum -= l[a * m + k] * z[k];
      z[a] = sum / l[a * m + a];
    }
    for (size_t a = m; a-- > 0;) {
      Real sum = z[a];
      for (size_t k = a + 1; k < m; ++k) sum -= l[k * m + a] * b[k];
      b[a] = sum / l[a * m + a];
    }
    Real left = 0;
    for (size_t r = 0; r < rows; ++r) {
      Real e = y[r * t + target];
      for (size_t a = 0; a < m; ++a) e -= Real(x[r * m + a]) * b[a];
      left += e * e;
    }
    out[target] = static_cast<double>(std::sqrt(left));
  }
  return out;
}

struct Fit {
  std::vector<double> residuals;
  int32_t rank;
};

Fit fit(const Matrix& x, size_t m, const Matrix& y, size_t t, size_t rows, double tolerance = 1e-9) {
  Fit f{std::vector<double>(t, -1), 0};
  f.rank = posenc::leastSquaresResiduals(x.data(), m, y.data(), t, rows, tolerance, f.residuals.data());
  return f;
}

TEST(LeastSquares, MatchesTheNormalEquationsOnWellConditionedProblems) {
  // Sizes with rank % 4 = 0..3 (the reflections go four at a time), odd rows, one input.
  const size_t shapes[][3] = {{37, 5, 3}, {64, 8, 4}, {129, 7, 9}, {11, 1, 2}, {300, 22, 5}, {1024, 13, 6}};
  unsigned seed = 1;
  for (const auto& [rows, m, t] : shapes) {
    const Matrix x = randomMatrix(rows, m, seed++), y = randomMatrix(rows, t, seed++);
    const Fit f = fit(x, m, y, t, rows);
    const std::vector<double> expected = normalEquationResiduals(x, m, y, t, rows);
    EXPECT_EQ(f.rank, static_cast<int32_t>(m)) << rows << " x " << m;
    for (size_t target = 0; target < t; ++target)
      EXPECT_NEAR(f.residuals[target], expected[target], 1e-11 * expected[target])
          << rows << " x " << m << " target " << target;
  }
}

TEST(LeastSquares, ReachesWhatIsInTheSpanAndCountsARepeatedColumnOnce) {
  const size_t rows = 50, m = 6, t = 3;
  Matrix x = randomMatrix(rows, m, 7);
  for (size_t r = 0; r < rows; ++r) x[r * m + 5] = x[r * m + 1];  // column 5 repeats column 1
  Matrix y = randomMatrix(rows, t, 8);
  for (size_t r = 0; r < rows; ++r) y[r * t + 0] = 2 * x[r * m + 0] - 3 * x[r * m + 4];  // in the span
  const Fit f = fit(x, m, y, t, rows);
  EXPECT_EQ(f.rank, 5);
  double norm = 0;
  for (size_t r = 0; r < rows; ++r) norm += y[r * t] * y[r * t];
  EXPECT_LT(f.residuals[0], 1e-13 * std::sqrt(norm));
  // The others as with the repeated column left out.
  Matrix five(rows * 5);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < 5; ++c) five[r * 5 + c] = x[r * m + c];
  const std::vector<double> expected = normalEquationResiduals(five, 5, y, t, rows);
  for (size_t target = 1; target < t; ++target)
    EXPECT_NEAR(f.residuals[target], expected[target], 1e-11 * expected[target]);
}

TEST(LeastSquares, EdgeCases) {
  const size_t rows = 9, t = 2;
  const Matrix y = randomMatrix(rows, t, 3);
  std::vector<double> norms(t);
  for (size_t target = 0; target < t; ++target)
    for (size_t r = 0; r < rows; ++r) norms[target] += y[r * t + target] * y[r * t + target];
  // No inputs, or all zero: nothing is reached.
  for (const Fit& f : {fit({}, 0, y, t, rows), fit(Matrix(rows * 3, 0.0), 3, y, t, rows)}) {
    EXPECT_EQ(f.rank, 0);
    for (size_t target = 0; target < t; ++target)
      EXPECT_DOUBLE_EQ(f.residuals[target], std::sqrt(norms[target]));
  }
  // More inputs than rows: they span everything.
  const Fit wide = fit(randomMatrix(rows, 12, 4), 12, y, t, rows);
  EXPECT_EQ(wide.rank, static_cast<int32_t>(rows));
  for (double residual : wide.residuals) EXPECT_EQ(residual, 0.0);
  // No rows.
  const Fit none = fit({}, 3, {}, t, 0);
  EXPECT_EQ(none.rank, 0);
  for (double residual : none.residuals) EXPECT_EQ(residual, 0.0);
  // Scratch beyond the address range: -1, nothing written.
  double residual = -1;
  const double one = 1;
  EXPECT_EQ(posenc::leastSquaresResiduals(&one, 1, &one, 1, SIZE_MAX / 4, 1e-9, &residual), -1);
  EXPECT_EQ(residual, -1);
}

TEST(LeastSquares, TheRankStopsAtTheTolerance) {
  // Column 1 = column 0 + 1e-7 of another direction: rank 2 at tolerance 1e-9, 1 at 1e-6.
  const size_t rows = 40;
  Matrix x = randomMatrix(rows, 2, 5);
  const Matrix noise = randomMatrix(rows, 1, 6);
  for (size_t r = 0; r < rows; ++r) x[r * 2 + 1] = x[r * 2] + 1e-7 * noise[r];
  const Matrix y = randomMatrix(rows, 1, 9);
  EXPECT_EQ(fit(x, 2, y, 1, rows, 1e-9).rank, 2);
  EXPECT_EQ(fit(x, 2, y, 1, rows, 1e-6).rank, 1);
}

TEST(Reflections, SimdAndScalarGiveTheSameBits) {
  namespace rf = posenc::reflections;
  for (size_t count : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 1023}) {
    const Matrix a = randomMatrix(count + 1, 1, 11), b = randomMatrix(count + 1, 1, 12);
    EXPECT_EQ(rf::dot(a.data(), b.data(), count), rf::scalar::dot(a.data(), b.data(), count)) << count;
    Matrix c1 = b, c2 = b;
    rf::reflect(a.data(), c1.data(), count, 0.37);
    rf::scalar::reflect(a.data(), c2.data(), count, 0.37);
    EXPECT_EQ(c1, c2) << count;
    const Matrix v = randomMatrix(4, count + 1, 13);
    rf::Four four{{v.data(), v.data() + count + 1, v.data() + 2 * (count + 1), v.data() + 3 * (count + 1)},
                  {0.1, 0.2, 0.3, 0.4},
                  {0.5, -0.25, 0.125, 1.5, -2, 0.75}};
    Matrix d1 = b, d2 = b;
    rf::reflectFour(four, d1.data(), count);
    rf::scalar::reflectFour(four, d2.data(), count);
    EXPECT_EQ(d1, d2) << count;
  }
}

TEST(Reflections, FourInARowEqualOneAtATime) {
  namespace rf = posenc::reflections;
  const size_t count = 33;
  const Matrix v = randomMatrix(4, count, 21), c = randomMatrix(count, 1, 22);
  rf::Four four{};
  for (size_t n = 0; n < 4; ++n) {
    four.v[n] = v.data() + n * count;
    four.scale[n] = 2 / rf::scalar::dot(four.v[n], four.v[n], count);
  }
  const size_t pairs[6][2] = {{1, 0}, {2, 0}, {2, 1}, {3, 0}, {3, 1}, {3, 2}};
  for (size_t k = 0; k < 6; ++k)
    four.gram[k] = rf::scalar::dot(four.v[pairs[k][0]], four.v[pairs[k][1]], count);
  Matrix together = c, apart = c;
  rf::reflectFour(four, together.data(), count);
  for (size_t n = 0; n < 4; ++n) rf::reflect(four.v[n], apart.data(), count, four.scale[n]);
  for (size_t r = 0; r < count; ++r) EXPECT_NEAR(together[r], apart[r], 1e-13) << r;
}

}  // namespace
