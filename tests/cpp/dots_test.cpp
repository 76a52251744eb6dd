#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "posenc/posenc.h"
#include "reference.h"

namespace {

using posenc::Encoding;

TEST(OffsetDots, EqualBruteForceProductsForEveryConvention) {
  for (int d : {2, 9, 64}) {
    for (reference::Knobs k : reference::conventions(d)) {
      for (double from : {0.0, 13.0, 1000.5}) {
        const long maxOffset = 600;
        std::vector<double> got(maxOffset + 1);
        ASSERT_TRUE(posenc::offsetDots(reference::encoding(k), from, 0, maxOffset, got.data()));
        const std::vector<double> base = reference::row(k, from);
        for (long m = 0; m <= maxOffset; ++m)
          ASSERT_NEAR(got[m], reference::dot(base, reference::row(k, from + m)), 1e-10 * d)
              << "d=" << d << " from=" << from << " k=" << m;
      }
    }
  }
}

TEST(OffsetDots, DependOnlyOnTheOffsetWhenPairsShareAFrequency) {
  reference::Knobs k;
  k.d = 128;
  std::vector<double> a(400), b(400);
  posenc::offsetDots(reference::encoding(k), 0, 0, 399, a.data());
  posenc::offsetDots(reference::encoding(k), 777, 0, 399, b.data());
  for (int m = 0; m < 400; ++m) ASSERT_NEAR(a[m], b[m], 1e-12);
  EXPECT_NEAR(a[0], 64.0, 1e-12);  // ||PE(p)||^2 = d/2
  // Symmetric in +-k: PE(p) . PE(p - k) = s(k).
  for (int m : {1, 5, 50})
    EXPECT_NEAR(a[m], reference::dot(reference::row(k, 300), reference::row(k, 300 - m)), 1e-10);
}

TEST(OffsetDots, ALoneOddColumnMakesThemDependOnTheStart) {
  // The paper at d = 7: three pairs and sin(w p) sin(w (p + k)) of the last
  // column, w = 10000^(-6/7), whose partner is missing.
  reference::Knobs k;
  k.d = 7;
  const double w = std::pow(10000.0, -6.0 / 7);
  for (double from : {0.0, 20.0, 5000.0}) {
    std::vector<double> got(50);
    posenc::offsetDots(reference::encoding(k), from, 0, 49, got.data());
    for (int m = 0; m < 50; ++m) {
      double pairs = 0;
      for (int i = 0; i < 3; ++i) pairs += std::cos(m * std::pow(10000.0, -2.0 * i / 7));
      ASSERT_NEAR(got[m], pairs + std::sin(w * from) * std::sin(w * (from + m)), 1e-12) << from << " " << m;
    }
  }
  // At a width where the pairs' terms are many, still to float64 rounding: the
  // pairs' sum is offset-only, and the lone column adds its one product.
  k.d = 65537;
  const int pairs = 32768;
  const double wLast = std::pow(10000.0, -65536.0 / 65537);
  std::vector<double> wide(8);
  posenc::offsetDots(reference::encoding(k), 3000, 0, 7, wide.data());
  for (int m = 0; m < 8; ++m) {
    long double sum = 0;
    for (int i = 0; i < pairs; ++i) sum += std::cos(m * std::pow(10000.0L, -2.0L * i / 65537));
    const double want = static_cast<double>(sum) + std::sin(wLast * 3000) * std::sin(wLast * (3000 + m));
    ASSERT_NEAR(wide[m], want, 1e-14 * pairs) << m;  // float64 rounding of the sum
  }
  k.d = 7;
  // Zeroed, the column adds nothing: offset only again.
  k.zeroOddColumn = true;
  std::vector<double> a(50), b(50);
  posenc::offsetDots(reference::encoding(k), 0, 0, 49, a.data());
  posenc::offsetDots(reference::encoding(k), 5000, 0, 49, b.data());
  for (int m = 0; m < 50; ++m) ASSERT_NEAR(a[m], b[m], 1e-12);
}

TEST(OffsetDots, RefusesRangesAndStartsItCannotCount) {
  std::vector<double> out(4);
  EXPECT_FALSE(posenc::offsetDots(Encoding{}, 0, 3, 2, out.data()));  // empty
  EXPECT_FALSE(posenc::offsetDots(Encoding{}, 0, INT64_MIN, INT64_MAX, out.data()));
  EXPECT_FALSE(posenc::offsetDots(Encoding{}, 0, 0, INT64_MAX, out.data()));
  EXPECT_FALSE(posenc::offsetDots(Encoding{}, 1e300, 0, 3, out.data()));
  EXPECT_TRUE(posenc::offsetDots(Encoding{}, -9007199254740992.0, 0, 3, out.data()));
}

TEST(OffsetDots, ColumnExponentDependsOnTheStart) {
  reference::Knobs k;
  k.d = 16;
  k.exponent = posenc::Exponent::kColumn;
  std::vector<double> a(50), b(50);
  posenc::offsetDots(reference::encoding(k), 0, 0, 49, a.data());
  posenc::offsetDots(reference::encoding(k), 20, 0, 49, b.data());
  double differ = 0;
  for (int m = 0; m < 50; ++m) differ = std::max(differ, std::abs(a[m] - b[m]));
  EXPECT_GT(differ, 1e-3);
}

TEST(OffsetDots, ScaleAndPaddingRow) {
  reference::Knobs k;
  k.d = 10;
  k.scale = 2;
  k.paddingRow = 4;
  std::vector<double> got(10);
  posenc::offsetDots(reference::encoding(k), 1, 0, 9, got.data());
  EXPECT_NEAR(got[0], 4 * 5, 1e-12);
  EXPECT_EQ(got[3], 0.0);  // row 1 + 3 is the padding row
  posenc::offsetDots(reference::encoding(k), 4, 0, 9, got.data());
  for (double v : got) EXPECT_EQ(v, 0.0);
}

TEST(OffsetDots, PaddingRowByIndexFromAFractionalStart) {
  // from = start + n, a table row's position: PE(from + k) is the padding row
  // exactly when n + k == paddingRow, whatever from + k rounds to.
  for (double start : {0.1, 0.3, 0.7, 1.1, -2.9}) {
    for (long padding = 0; padding < 5; ++padding) {
      for (int shift = 0; shift < 6; ++shift) {
        reference::Knobs k;
        k.d = 8;
        k.start = start;
        k.paddingRow = padding;
        const double from = start + shift;
        std::vector<double> got(13);
        ASSERT_TRUE(posenc::offsetDots(reference::encoding(k), from, -6, 6, got.data()));
        for (int i = 0; i < 13; ++i) {
          const long offset = i - 6;
          if (shift == padding || shift + offset == padding) {
            EXPECT_EQ(got[i], 0.0) << "start " << start << " row " << shift << " k " << offset;
            continue;
          }
          // Away from the padding row: the paper's s(k) = sum_i cos(w_i k).
          double want = 0;
          for (int pair = 0; pair < 4; ++pair) want += std::cos(std::pow(10000.0, -2.0 * pair / 8) * offset);
          EXPECT_NEAR(got[i], want, 1e-12) << "start " << start << " row " << shift << " k " << offset;
        }
      }
    }
  }
}

std::vector<float> similarityOf(const reference::Knobs& k, long length) {
  std::vector<float> out(length * length, -1.0f);
  EXPECT_TRUE(posenc::similarity(reference::encoding(k), length, out.data()));
  return out;
}

TEST(Similarity, EqualsRowProductsAndIsSymmetric) {
  for (int d : {12, 13})
    for (reference::Knobs k : reference::conventions(d)) {
      k.paddingRow = 3;
      k.start = 2;
      k.ratioPower = k.exponent == posenc::Exponent::kColumn && k.cosFirst;  // (the question's)
      k.frequencyScale = k.concat && !k.ratioPower ? 2.5 : 1.0;              // tensor2tensor's min_timescale
      const long length = 40;
      const std::vector<float> s = similarityOf(k, length);
      for (long p = 0; p < length; ++p) {
        const std::vector<double> x = reference::row(k, k.start + p);
        for (long q = 0; q < length; ++q) {
          const double want = reference::dot(x, reference::row(k, k.start + q));
          ASSERT_NEAR(s[p * length + q], want, 1e-6 * k.d) << "d=" << d << " " << p << "," << q;
          ASSERT_EQ(s[p * length + q], s[q * length + p]);
        }
      }
    }
}

TEST(Similarity, ToeplitzBandsForThePaper) {
  reference::Knobs k;
  k.d = 32;
  const long length = 300;
  const std::vector<float> s = similarityOf(k, length);
  for (long p = 1; p < length; ++p)
    for (long q = 1; q < length; ++q) ASSERT_EQ(s[p * length + q], s[(p - 1) * length + q - 1]);
  EXPECT_NEAR(s[0], 16.0f, 1e-6);
}

TEST(Similarity, ChunkedWritesEqualOneWriteAndStopAtTheLength) {
  for (reference::Knobs k : reference::conventions(9)) {
    k.paddingRow = 2;
    const long length = 30;
    const std::vector<float> whole = similarityOf(k, length);
    // Chunks of 7 rows, the last one asking for more rows than are left.
    std::vector<float> chunked((length + 5) * length, -7.0f);
    posenc::SimilarityWriter writer(reference::encoding(k), length);
    ASSERT_TRUE(writer.ok());
    for (long done = 0; done < length; done += 7) writer.write(chunked.data() + done * length, 7);
    ASSERT_EQ(0, std::memcmp(chunked.data(), whole.data(), whole.size() * sizeof(float)));
    for (size_t i = whole.size(); i < chunked.size(); ++i)
      ASSERT_EQ(chunked[i], -7.0f) << "wrote past the matrix";
  }
}

TEST(Similarity, RejectsAnEmptyMatrix) {
  posenc::SimilarityWriter writer(Encoding{}, 0);
  EXPECT_FALSE(writer.ok());
}

}  // namespace

namespace {

TEST(OffsetDots, NegativeOffsetsEqualBruteForceForEveryConvention) {
  for (reference::Knobs k : reference::conventions(14)) {
    for (bool ratio : {false, true}) {
      k.ratioPower = ratio;
      const double from = 300;
      std::vector<double> got(121);
      ASSERT_TRUE(posenc::offsetDots(reference::encoding(k), from, -60, 60, got.data()));
      const std::vector<double> base = reference::row(k, from);
      for (int i = 0; i <= 120; ++i)
        ASSERT_NEAR(got[i], reference::dot(base, reference::row(k, from - 60 + i)), 1e-9) << i;
    }
  }
}

}  // namespace
