#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "posenc/posenc.h"
#include "reference.h"

namespace {

using posenc::Encoding;

std::string messageOf(const Encoding& e) {
  const char* m = posenc::validate(e);
  return m ? m : "";
}

TEST(Validate, AcceptsThePaperDefaults) { EXPECT_EQ(messageOf(Encoding{}), ""); }

TEST(Validate, NamesEachBadField) {
  Encoding e;
  e.dModel = 0;
  EXPECT_NE(messageOf(e).find("dModel"), std::string::npos);
  e = Encoding{};
  e.base = 1.0;
  EXPECT_NE(messageOf(e).find("base"), std::string::npos);
  e.base = std::nan("");
  EXPECT_NE(messageOf(e).find("base"), std::string::npos);
  e = Encoding{};
  e.layout = static_cast<posenc::Layout>(7);
  EXPECT_NE(messageOf(e).find("layout"), std::string::npos);
  e = Encoding{};
  e.exponent = static_cast<posenc::Exponent>(-1);
  EXPECT_NE(messageOf(e).find("exponent"), std::string::npos);
  e = Encoding{};
  e.start = INFINITY;
  EXPECT_NE(messageOf(e).find("start"), std::string::npos);
  e = Encoding{};
  e.paddingRow = -2;
  EXPECT_NE(messageOf(e).find("paddingRow"), std::string::npos);
  e = Encoding{};
  e.scale = std::nan("");
  EXPECT_NE(messageOf(e).find("scale"), std::string::npos);
  e = Encoding{};
  e.frequencyScale = 0;
  EXPECT_NE(messageOf(e).find("frequencyScale"), std::string::npos);
  // Finite but absurd: 2 * start, pos * w or scale^2 * dModel would overflow.
  e = Encoding{};
  e.start = 1e308;
  EXPECT_NE(messageOf(e).find("start"), std::string::npos);
  e = Encoding{};
  e.scale = -1e200;
  EXPECT_NE(messageOf(e).find("scale"), std::string::npos);
  e = Encoding{};
  e.frequencyScale = 1e300;
  EXPECT_NE(messageOf(e).find("frequencyScale"), std::string::npos);
  e = Encoding{};
  e.start = -9007199254740992.0;  // 2^53 itself is fine
  e.scale = 9007199254740992.0;
  EXPECT_EQ(messageOf(e), "");
}

TEST(Frequencies, FallGeometricallyFromOneInThePaper) {
  Encoding e;
  e.dModel = 64;
  std::vector<double> w(64);
  posenc::columnFrequencies(e, w.data());
  for (int j = 0; j < 64; ++j) EXPECT_NEAR(w[j], std::pow(10000.0, -2.0 * (j / 2) / 64), 1e-15) << j;
  EXPECT_EQ(w[0], 1.0);
  // Same ratio between consecutive pairs: geometric.
  for (int i = 1; i < 31; ++i) EXPECT_NEAR(w[2 * i + 2] / w[2 * i], w[2] / w[0], 1e-12);
}

TEST(Frequencies, OddLastColumnFollowsTheFormulaOrIsZeroAndRatioPowerHasNone) {
  Encoding e;
  e.dModel = 7;
  std::vector<double> w(7);
  posenc::columnFrequencies(e, w.data());
  EXPECT_NEAR(w[6], std::pow(10000.0, -6.0 / 7), 1e-18);  // PE(pos, 2i) with 2i = 6
  e.oddColumn = posenc::OddColumn::kZero;
  posenc::columnFrequencies(e, w.data());
  EXPECT_EQ(w[6], 0.0);
  EXPECT_GT(w[5], 0.0);
  e.angle = posenc::Angle::kRatioPower;
  posenc::columnFrequencies(e, w.data());
  EXPECT_TRUE(std::isnan(w[0]));
}

TEST(Frequencies, ColumnExponentSplitsPairs) {
  Encoding e;
  e.dModel = 8;
  e.exponent = posenc::Exponent::kColumn;
  std::vector<double> w(8);
  posenc::columnFrequencies(e, w.data());
  EXPECT_NE(w[0], w[1]);
  EXPECT_NEAR(w[1], std::pow(10000.0, -2.0 / 8), 1e-16);
}

TEST(Row, PositionZeroAlternatesZeroOne) {
  Encoding e;
  e.dModel = 16;
  std::vector<double> r(16);
  posenc::row(e, 0.0, r.data());
  for (int j = 0; j < 16; ++j) EXPECT_EQ(r[j], j % 2 == 0 ? 0.0 : 1.0);
}

TEST(Row, MatchesThePaperAtRealPositionsIncludingExtrapolation) {
  for (int d : {2, 7, 64, 513}) {
    Encoding e;
    e.dModel = d;
    std::vector<double> r(d);
    std::vector<float> r32(d);
    for (double pos : {0.5, -3.25, 17.0, 1000.75, 4096.0}) {
      posenc::row(e, pos, r.data());
      posenc::row(e, pos, r32.data());
      for (int j = 0; j < d; ++j) {
        const double want = reference::paper(pos, j, d);
        ASSERT_NEAR(r[j], want, 1e-12) << "d=" << d << " pos=" << pos << " j=" << j;
        ASSERT_NEAR(r32[j], want, 1.2e-7) << "d=" << d << " pos=" << pos << " j=" << j;
      }
    }
  }
}

TEST(Row, Float32IsTheRoundedFloat64AtPosition2To20) {
  Encoding e;
  e.dModel = 4096;
  std::vector<float> r(4096);
  const double pos = 1048576.0;
  posenc::row(e, pos, r.data());
  double worst = 0;
  for (int j = 0; j < 4096; ++j) worst = std::max(worst, std::abs(r[j] - reference::paper(pos, j, 4096)));
  EXPECT_LE(worst, 1.2e-7);
}

TEST(Row, Tensor2tensorConventionMatchesItsLiteralFormula) {
  Encoding e;
  e.dModel = 33;
  e.layout = posenc::Layout::kConcat;
  e.exponent = posenc::Exponent::kHalfMinusOne;
  e.frequencyScale = 2.0;                  // min_timescale
  e.base = 5.0e4 / 2.0;                    // max_timescale / min_timescale
  e.oddColumn = posenc::OddColumn::kZero;  // tf.pad(signal, [[0, 0], [0, channels % 2]])
  std::vector<double> r(33);
  for (double pos : {0.0, 3.0, 250.0}) {
    posenc::row(e, pos, r.data());
    for (int j = 0; j < 33; ++j) EXPECT_NEAR(r[j], reference::tensor2tensor(pos, j, 33, 2.0, 5.0e4), 1e-12);
  }
}

TEST(Row, EveryKnobCombinationMatchesTheReference) {
  for (int d : {1, 2, 3, 10, 31}) {
    for (reference::Knobs k : reference::conventions(d)) {
      for (bool ratio : {false, true}) {
        k.ratioPower = ratio;
        k.scale = 2.5;
        k.base = 500;
        k.start = 3;
        k.paddingRow = 2;
        const Encoding e = reference::encoding(k);
        std::vector<double> r(d);
        for (double pos : {0.0, 1.5, 5.0, 77.0}) {
          posenc::row(e, pos, r.data());
          for (int j = 0; j < d; ++j) {
            const double want = reference::value(k, pos, j);
            ASSERT_NEAR(r[j], want, 1e-12) << "d=" << d << " pos=" << pos << " j=" << j;
          }
        }
      }
    }
  }
}

TEST(Row, PaddingPositionIsZero) {
  Encoding e;
  e.dModel = 6;
  e.start = 10;
  e.paddingRow = 1;
  std::vector<double> r(6, 9.0);
  posenc::row(e, 11.0, r.data());
  for (double v : r) EXPECT_EQ(v, 0.0);
  posenc::row(e, 12.0, r.data());
  EXPECT_NE(r[1], 0.0);
}

TEST(Row, QuestionAttemptIsCosFirstPowerOfRatio) {
  // (pos/10000)^(2j/d), cos on even columns, sin on odd ones.
  Encoding e;
  e.dModel = 8;
  e.exponent = posenc::Exponent::kColumn;
  e.order = posenc::Order::kCosSin;
  e.angle = posenc::Angle::kRatioPower;
  std::vector<double> r(8);
  posenc::row(e, 30.0, r.data());
  for (int j = 0; j < 8; ++j) {
    const double x = std::pow(30.0 / 10000.0, 2.0 * j / 8);
    EXPECT_NEAR(r[j], j % 2 == 0 ? std::cos(x) : std::sin(x), 1e-15) << j;
  }
}

}  // namespace
