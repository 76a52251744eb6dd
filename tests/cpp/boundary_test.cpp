// The staged blocks of cpp/bindings/boundary.h: each field, written at its
// place in the list, lands in the member the list names.
#include "boundary.h"

#include <gtest/gtest.h>

#include <vector>

using namespace posenc;
using namespace posenc::bindings;

TEST(Boundary, EachEncodingFieldReadsIntoItsMember) {
  std::vector<double> staged(encoding_field::kCount, 0.0);
  staged[encoding_field::dModel] = 6;
  staged[encoding_field::layout] = 1;
  staged[encoding_field::exponent] = 2;
  staged[encoding_field::order] = 1;
  staged[encoding_field::angle] = 1;
  staged[encoding_field::base] = 500.5;
  staged[encoding_field::frequencyScale] = 0.25;
  staged[encoding_field::start] = -3.5;
  staged[encoding_field::paddingRow] = 9007199254740991.0;
  staged[encoding_field::scale] = 2;
  staged[encoding_field::oddColumn] = 1;
  staged[encoding_field::exponentDtype] = 1;
  staged[encoding_field::frequencyDtype] = 2;
  staged[encoding_field::positionDtype] = 3;
  staged[encoding_field::angleDtype] = 1;
  const Encoding e = encodingFrom(staged.data());
  EXPECT_EQ(e.dModel, 6);
  EXPECT_EQ(e.layout, Layout::kConcat);
  EXPECT_EQ(e.exponent, Exponent::kColumn);
  EXPECT_EQ(e.order, Order::kCosSin);
  EXPECT_EQ(e.angle, Angle::kRatioPower);
  EXPECT_EQ(e.base, 500.5);
  EXPECT_EQ(e.frequencyScale, 0.25);
  EXPECT_EQ(e.start, -3.5);
  EXPECT_EQ(e.paddingRow, int64_t{9007199254740991});
  EXPECT_EQ(e.scale, 2.0);
  EXPECT_EQ(e.oddColumn, OddColumn::kZero);
  EXPECT_EQ(e.precision.exponent, Dtype::kFloat32);
  EXPECT_EQ(e.precision.frequency, Dtype::kFloat16);
  EXPECT_EQ(e.precision.position, Dtype::kBfloat16);
  EXPECT_EQ(e.precision.angle, Dtype::kFloat32);
}

TEST(Boundary, EachRopeFieldReadsIntoItsMember) {
  std::vector<double> staged(rope_field::kCount, 0.0);
  for (size_t i = 0; i < staged.size(); ++i) staged[i] = 100.0 + static_cast<double>(i);
  staged[rope_field::scaling] = 3;
  staged[rope_field::truncate] = 0;
  staged[rope_field::exponentDtype] = 1;
  staged[rope_field::frequencyDtype] = 3;
  const rope::Params p = ropeParamsFrom(staged.data());
  EXPECT_EQ(p.rotaryDim, 100);
  EXPECT_EQ(p.scaling, rope::Scaling::kYarn);
  EXPECT_EQ(p.base, 102.0);
  EXPECT_EQ(p.factor, 103.0);
  EXPECT_EQ(p.originalMaxPositionEmbeddings, 104.0);
  EXPECT_EQ(p.maxPositionEmbeddings, 105.0);
  EXPECT_EQ(p.seqLen, 106.0);
  EXPECT_EQ(p.betaFast, 107.0);
  EXPECT_EQ(p.betaSlow, 108.0);
  EXPECT_EQ(p.mscale, 109.0);
  EXPECT_EQ(p.mscaleAllDim, 110.0);
  EXPECT_EQ(p.attentionFactor, 111.0);
  EXPECT_FALSE(p.truncate);
  EXPECT_EQ(p.lowFreqFactor, 113.0);
  EXPECT_EQ(p.highFreqFactor, 114.0);
  EXPECT_EQ(p.precision.exponent, Dtype::kFloat32);
  EXPECT_EQ(p.precision.frequency, Dtype::kBfloat16);
  EXPECT_EQ(p.shortFactor, nullptr);
}

TEST(Boundary, RopesHalfIsTheSinusoidsConcat) {
  EXPECT_EQ(rope::Layout::kHalf, Layout::kConcat);
  EXPECT_EQ(static_cast<int32_t>(Layout::kInterleaved), 0);
}
