// The precision knobs (positionDtype, frequencyDtype, exponentDtype,
// angleDtype) against references written here: float16 rounding by integer
// arithmetic on the bits of the double, bfloat16 by round-to-nearest-even on
// the top 16 bits of a float32, float32 by the hardware's cast.
#include "precision.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "posenc/posenc.h"
#include "posenc/rope.h"

namespace {

using posenc::Dtype;
using posenc::Encoding;
using posenc::Precision;

uint64_t bitsOf(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// IEEE binary16 bits -> value, by the definition of the format.
double halfValue(uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  double v;
  if (exponent == 0x1f)
    v = fraction ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (exponent == 0)
    v = fraction * std::pow(2.0, -24);
  else
    v = (1024 + fraction) * std::pow(2.0, exponent - 25);
  return sign ? -v : v;
}

// double -> binary16 bits, round to nearest even, on the integer significand.
uint16_t halfBits(double x) {
  const uint64_t b = bitsOf(x);
  const uint16_t sign = static_cast<uint16_t>((b >> 48) & 0x8000);
  const int biased = static_cast<int>((b >> 52) & 0x7ff);
  const uint64_t fraction = b & ((uint64_t{1} << 52) - 1);
  if (biased == 0x7ff) return sign | (fraction ? 0x7e00 : 0x7c00);
  if (biased == 0) return sign;  // double subnormals are far below half's
  int exponent = biased - 1023;
  const uint64_t significand = fraction | (uint64_t{1} << 52);
  // Keep 11 bits for a normal half (exponent >= -14), fewer below.
  const int shift = 42 + (exponent < -14 ? -14 - exponent : 0);
  if (shift > 54) return sign;  // below half the smallest subnormal
  uint64_t q = significand >> shift;
  const uint64_t rest = significand & ((uint64_t{1} << shift) - 1), half = uint64_t{1} << (shift - 1);
  if (rest > half || (rest == half && (q & 1))) ++q;
  if (exponent < -14) return sign | static_cast<uint16_t>(q);  // q = 1024 is the smallest normal
  if (q == 2048) q = 1024, ++exponent;
  if (exponent > 15) return sign | 0x7c00;
  return sign | static_cast<uint16_t>((exponent + 15) << 10 | (q - 1024));
}

double half(double x) { return halfValue(halfBits(x)); }

// float32 -> bfloat16 as frameworks do it: round to nearest even on the top 16 bits.
double bfloat16(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  b = (b + 0x7fff + ((b >> 16) & 1)) & 0xffff0000u;
  float y;
  std::memcpy(&y, &b, sizeof y);
  return y;
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

TEST(RoundTo, Float16IsIeeeBinary16AtEveryValueAndMidpoint) {
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    const double v = halfValue(static_cast<uint16_t>(h)), next = halfValue(static_cast<uint16_t>(h + 1));
    for (const double x : {v, -v, (v + next) / 2, -(v + next) / 2, std::nextafter((v + next) / 2, 0.0),
                           std::nextafter((v + next) / 2, 1e9)}) {
      ASSERT_TRUE(same(posenc::roundTo(Dtype::kFloat16, x), half(x))) << "x = " << x;
    }
  }
  EXPECT_EQ(posenc::roundTo(Dtype::kFloat16, 2049.0), 2048.0);  // tie to even
  EXPECT_EQ(posenc::roundTo(Dtype::kFloat16, 2051.0), 2052.0);
  EXPECT_EQ(posenc::roundTo(Dtype::kFloat16, 65519.99), 65504.0);
  EXPECT_EQ(posenc::roundTo(Dtype::kFloat16, 65520.0), HUGE_VAL);
  EXPECT_EQ(posenc::roundTo(Dtype::kFloat16, -70000.0), -HUGE_VAL);
  EXPECT_EQ(posenc::roundTo(Dtype::kFloat16, std::pow(2.0, -25)), 0.0);  // tie to even: zero
  EXPECT_EQ(posenc::roundTo(Dtype::kFloat16, 1.5 * std::pow(2.0, -25)), std::pow(2.0, -24));
  EXPECT_TRUE(std::isnan(posenc::roundTo(Dtype::kFloat16, std::nan(""))));
}

TEST(RoundTo, Float16OfRandomDoubles) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> exponent(-30, 17), unit(-1, 1);
  for (int k = 0; k < 200000; ++k) {
    const double x = unit(random) * std::pow(2.0, exponent(random));
    ASSERT_TRUE(same(posenc::roundTo(Dtype::kFloat16, x), half(x))) << "x = " << x;
  }
}

TEST(RoundTo, Bfloat16IsRoundingOfTheTop16BitsOfAFloat32) {
  std::mt19937 random(11);
  for (int k = 0; k < 200000; ++k) {
    uint32_t b = static_cast<uint32_t>(random());
    if (((b >> 23) & 0xff) == 0xff) continue;  // inf and NaN
    float x;
    std::memcpy(&x, &b, sizeof x);
    ASSERT_TRUE(same(posenc::roundTo(Dtype::kBfloat16, x), bfloat16(x))) << "x = " << x;
  }
  EXPECT_EQ(posenc::roundTo(Dtype::kBfloat16, 257.0), 256.0);  // tie to even
  EXPECT_EQ(posenc::roundTo(Dtype::kBfloat16, 259.0), 260.0);
  EXPECT_EQ(posenc::roundTo(Dtype::kBfloat16, 65536.0 + 256), 65536.0);
  EXPECT_EQ(posenc::roundTo(Dtype::kBfloat16, 65536.0 + 257), 65536.0 + 512);
  EXPECT_EQ(posenc::roundTo(Dtype::kBfloat16, 3.4e38), HUGE_VAL);
}

TEST(RoundTo, Float32IsTheHardwareCastAndFloat64IsExact) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> exponent(-160, 127), unit(-1, 1);
  for (int k = 0; k < 100000; ++k) {
    const double x = unit(random) * std::pow(2.0, exponent(random));
    ASSERT_EQ(posenc::roundTo(Dtype::kFloat32, x), static_cast<double>(static_cast<float>(x))) << x;
    ASSERT_EQ(posenc::roundTo(Dtype::kFloat64, x), x);
  }
  EXPECT_EQ(posenc::roundTo(Dtype::kFloat32, 16777217.0), 16777216.0);
  EXPECT_EQ(posenc::roundTo(Dtype::kFloat32, 1e39), HUGE_VAL);
  EXPECT_EQ(posenc::roundTo(Dtype::kFloat32, 3.4028235e38), 3.4028234663852886e38);
}

// The paper's value at column j with every step rounded by the references above.
double roundedHalfPaper(double pos, int j, int d) {
  const int i = j / 2;
  const double w = half(std::pow(10000.0, -2.0 * i / d));
  const double angle = half(half(pos) * w);
  return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

Encoding halfEverywhere(int d) {
  Encoding e;
  e.dModel = d;
  e.precision.frequency = e.precision.position = e.precision.angle = Dtype::kFloat16;
  return e;
}

TEST(Precision, Float16TableAndRowsMatchTheReference) {
  const int d = 64, length = 2100;
  const Encoding e = halfEverywhere(d);
  std::vector<double> t64(static_cast<size_t>(length) * d), r(d);
  std::vector<float> t32(static_cast<size_t>(length) * d);
  ASSERT_TRUE(posenc::table(e, length, t64.data()));
  ASSERT_TRUE(posenc::table(e, length, t32.data()));
  for (int p = 0; p < length; ++p) {
    posenc::row(e, p, r.data());
    for (int j = 0; j < d; ++j) {
      const double expected = roundedHalfPaper(p, j, d);
      const size_t at = static_cast<size_t>(p) * d + j;
      ASSERT_DOUBLE_EQ(t64[at], expected) << p << ", " << j;
      ASSERT_EQ(r[j], t64[at]);
      ASSERT_EQ(t32[at], static_cast<float>(t64[at]));  // direct path, rounded once
    }
  }
}

TEST(Precision, GptNeoxCaseCosAtPosition1857IsFarOff) {
  // EleutherAI/gpt-neox #1003: inv_freq and positions in float16, their product in float16.
  const int d = 64;
  std::vector<double> exact(d), rounded(d);
  Encoding e;
  e.dModel = d;
  posenc::row(e, 1857, exact.data());
  posenc::row(halfEverywhere(d), 1857, rounded.data());
  double worst = 0;
  int worstColumn = -1;
  for (int j = 1; j < d; j += 2) {
    const double err = std::fabs(rounded[j] - std::cos(1857 * std::pow(10000.0, -2.0 * (j / 2) / d)));
    if (err > worst) worst = err, worstColumn = j;
    EXPECT_DOUBLE_EQ(rounded[j], roundedHalfPaper(1857, j, d));
    EXPECT_NEAR(exact[j], std::cos(1857 * std::pow(10000.0, -2.0 * (j / 2) / d)), 1e-12);
  }
  // Pair 2: w = 10000^(-4/64) = 0.56234 rounds to 0.5625 (spacing 2^-11), and
  // 1857 * 0.5625 = 1044.5625 to 1045 (spacing 1), against 1044.27 exactly.
  EXPECT_EQ(worstColumn, 5);
  EXPECT_NEAR(worst, std::fabs(std::cos(1045.0) - std::cos(1857 * std::pow(10000.0, -4.0 / 64))), 1e-12);
  EXPECT_GT(worst, 0.7);
}

TEST(Precision, PositionsCollideOrOverflow) {
  Encoding e;
  e.dModel = 16;
  std::vector<double> a(16), b(16);
  e.precision.position = Dtype::kBfloat16;
  posenc::row(e, 256, a.data());
  posenc::row(e, 257, b.data());
  EXPECT_EQ(a, b);  // bfloat16: 257 rounds to 256
  posenc::row(e, 258, b.data());
  EXPECT_NE(a, b);
  posenc::row(e, 65536 + 200, a.data());
  posenc::row(e, 65536 + 255, b.data());
  EXPECT_EQ(a, b);  // blocks of 512 above 65536 (diffusers #13922)
  e.precision.position = Dtype::kFloat16;
  posenc::row(e, 65504, a.data());
  for (double v : a) EXPECT_TRUE(std::isfinite(v));
  posenc::row(e, 65520, a.data());
  for (double v : a) EXPECT_TRUE(std::isnan(v));  // +inf: sin(inf) and cos(inf) are NaN
  e.precision.position = Dtype::kFloat32;
  posenc::row(e, 16777216, a.data());
  posenc::row(e, 16777217, b.data());
  EXPECT_EQ(a, b);
}

TEST(Precision, EveryConventionTableAgreesWithItsRows) {
  // Rounded angles leave the recurrence and the closed forms: table (float32
  // and float64), row and offsetDots must still agree with the reference.
  std::mt19937 random(3);
  const Dtype formats[] = {Dtype::kFloat64, Dtype::kFloat32, Dtype::kFloat16, Dtype::kBfloat16};
  for (int trial = 0; trial < 40; ++trial) {
    Encoding e;
    e.dModel = 1 + static_cast<int>(random() % 40);
    e.layout = static_cast<posenc::Layout>(random() % 2);
    e.exponent = static_cast<posenc::Exponent>(random() % 3);
    e.order = static_cast<posenc::Order>(random() % 2);
    e.oddColumn = static_cast<posenc::OddColumn>(random() % 2);
    e.start = static_cast<double>(random() % 3000);
    e.precision = {formats[random() % 4], formats[random() % 4], formats[random() % 4],
                   formats[random() % 4]};
    const int length = 50;
    const size_t d = static_cast<size_t>(e.dModel);
    std::vector<float> t32(length * d);
    std::vector<double> t64(length * d), r(d), frequencies(d);
    ASSERT_TRUE(posenc::table(e, length, t32.data()));
    ASSERT_TRUE(posenc::table(e, length, t64.data()));
    posenc::columnFrequencies(e, frequencies.data());
    for (int p = 0; p < length; ++p) {
      const double pos = e.start + p;
      for (size_t j = 0; j < d; ++j) {
        // Column j: its frequency is the rounded one; the angle rounds twice more.
        const bool zero = e.dModel % 2 == 1 && j == d - 1 && e.oddColumn == posenc::OddColumn::kZero;
        const size_t n = d / 2;
        const bool second = j < 2 * n && (e.layout == posenc::Layout::kInterleaved ? j % 2 == 1 : j >= n);
        const bool usesSin = second == (e.order == posenc::Order::kCosSin);
        const double angle =
            posenc::roundTo(e.precision.angle, posenc::roundTo(e.precision.position, pos) * frequencies[j]);
        const double expected = zero ? 0.0 : usesSin ? std::sin(angle) : std::cos(angle);
        ASSERT_DOUBLE_EQ(t64[p * d + j], expected) << trial << ": " << p << ", " << j;
        ASSERT_EQ(t32[p * d + j], static_cast<float>(t64[p * d + j]));
      }
    }
    // s(k) = PE(from) . PE(from + k), from the table's rows.
    std::vector<double> dots(length);
    ASSERT_TRUE(posenc::offsetDots(e, e.start, 0, length - 1, dots.data()));
    for (int k = 0; k < length; ++k) {
      double s = 0;
      for (size_t j = 0; j < d; ++j) s += t64[j] * t64[k * d + j];
      ASSERT_NEAR(dots[k], s, 1e-9 * d) << trial << ": " << k;
    }
  }
}

TEST(Precision, FrequenciesRoundTheExponentThenTheFrequency) {
  Encoding e;
  e.dModel = 10;
  e.exponent = posenc::Exponent::kHalfMinusOne;
  e.precision.exponent = Dtype::kFloat32;
  e.precision.frequency = Dtype::kBfloat16;
  std::vector<double> w(10);
  posenc::columnFrequencies(e, w.data());
  for (int j = 0; j < 10; ++j) {
    const float exponent = static_cast<float>(j / 2) / 4.0f;  // i / (n - 1) in float32
    EXPECT_EQ(w[j], bfloat16(static_cast<float>(std::pow(10000.0, -static_cast<double>(exponent)))));
  }
}

TEST(Precision, RejectsUnknownFormats) {
  Encoding e;
  e.precision.angle = static_cast<Dtype>(4);
  EXPECT_NE(posenc::validate(e), nullptr);
  posenc::TableWriter writer(e, 0);
  EXPECT_FALSE(writer.ok());
  posenc::rope::Params p;
  p.precision.position = static_cast<Dtype>(-1);
  EXPECT_NE(posenc::rope::validate(p), nullptr);
}

TEST(Precision, RopeCacheApplyAndScoresRoundEveryAngle) {
  posenc::rope::Params p;
  p.rotaryDim = 32;
  p.precision.exponent = Dtype::kFloat32;
  p.precision.frequency = Dtype::kFloat16;
  std::vector<double> w(16);
  ASSERT_EQ(posenc::rope::frequencies(p, w.data()), 1.0);
  for (int i = 0; i < 16; ++i) {
    const float exponent = static_cast<float>(2 * i) / 32.0f;
    EXPECT_EQ(w[i], half(1.0 / std::pow(10000.0, static_cast<double>(exponent))));
  }
  Precision angles;
  angles.position = Dtype::kFloat16;
  angles.angle = Dtype::kFloat16;
  const int length = 40;
  const double start = 1840;
  std::vector<float> cos(length * 32), sin(length * 32);
  posenc::rope::Cache rows;
  rows.invFreq = w.data();
  rows.pairs = 16;
  rows.layout = posenc::rope::Layout::kHalf;
  rows.start = start;
  rows.precision = angles;
  posenc::rope::CacheWriter writer(rows);
  ASSERT_TRUE(writer.ok());
  writer.write(cos.data(), sin.data(), length);
  for (int r = 0; r < length; ++r)
    for (int j = 0; j < 32; ++j) {
      const double angle = half(half(start + r) * w[j % 16]);
      ASSERT_EQ(cos[r * 32 + j], static_cast<float>(std::cos(angle)));
      ASSERT_EQ(sin[r * 32 + j], static_cast<float>(std::sin(angle)));
    }
  // apply: x = (1, 0) in every pair turns to (cos, sin) of the rounded angle.
  std::vector<double> x(32, 0.0), positions = {3000.0};
  for (int i = 0; i < 16; ++i) x[i] = 1.0;
  posenc::rope::Rotation rotation;
  rotation.invFreq = w.data();
  rotation.pairs = 16;
  rotation.layout = posenc::rope::Layout::kHalf;
  rotation.headDim = 32;
  rotation.tokens = 1;
  rotation.positions = positions.data();
  rotation.precision = angles;
  ASSERT_TRUE(posenc::rope::apply(rotation, x.data(), x.data()));
  for (int i = 0; i < 16; ++i) {
    const double angle = half(3000.0 * w[i]);  // 3000 is a float16 value
    EXPECT_NEAR(x[i], std::cos(angle), 1e-15);
    EXPECT_NEAR(x[16 + i], std::sin(angle), 1e-15);
  }
  // scores: sum over pairs of (2 / headDim) cos(angle(from + k) - angle(from)).
  std::vector<double> scores(20), bound(20);
  posenc::rope::Scores offsets;
  offsets.invFreq = w.data();
  offsets.pairs = 16;
  offsets.headDim = 32;
  offsets.from = 2040;
  offsets.maxOffset = 19;
  offsets.precision = angles;
  ASSERT_TRUE(posenc::rope::scores(offsets, scores.data(), bound.data()));
  for (int k = 0; k < 20; ++k) {
    double s = 0;
    for (int i = 0; i < 16; ++i) s += std::cos(half(half(2040.0 + k) * w[i]) - half(half(2040.0) * w[i]));
    EXPECT_NEAR(scores[k], s * 2.0 / 32, 1e-12) << k;
  }
  // Above 2048 float16 positions are even: offsets 0 and 1 from 2048 give one score.
  offsets.from = 2048;
  offsets.maxOffset = 1;
  ASSERT_TRUE(posenc::rope::scores(offsets, scores.data(), bound.data()));
  EXPECT_EQ(scores[0], scores[1]);
}

// ---- batches (precision.h): the same bits as value by value ----

// x rounded to a binary format of `significandBits` bits (the leading one
// included) with normal exponents from minExponent, to nearest with ties to
// even, and +-inf above `largest`: integer arithmetic on the double's
// significand (halfBits above, for any such format). +-0 keeps its sign.
double roundedReference(double x, int significandBits, int minExponent, double largest) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  const uint64_t b = bitsOf(x);
  const bool negative = (b >> 63) != 0;
  const int biased = static_cast<int>((b >> 52) & 0x7ff);
  const uint64_t significand = (b & ((uint64_t{1} << 52) - 1)) | (biased ? uint64_t{1} << 52 : 0);
  const int ulpExponent = biased ? biased - 1075 : -1074;  // |x| = significand * 2^ulpExponent
  const int leading = biased ? biased - 1023 : -1023;      // |x| in [2^leading, 2^(leading+1))
  const int spacingExponent = std::max(leading, minExponent) - significandBits + 1;
  const int shift = spacingExponent - ulpExponent;  // >= 0: the format's spacing is no finer
  uint64_t q = 0;
  if (shift == 0) {
    q = significand;
  } else if (shift <= 54) {
    q = significand >> shift;
    const uint64_t rest = significand & ((uint64_t{1} << shift) - 1), half = uint64_t{1} << (shift - 1);
    if (rest > half || (rest == half && (q & 1))) ++q;
  }
  double r = std::ldexp(static_cast<double>(q), spacingExponent);
  if (r > largest) r = HUGE_VAL;
  return negative ? -r : r;
}

double referenceOf(Dtype format, double x) {
  switch (format) {
    case Dtype::kFloat16:
      return roundedReference(x, 11, -14, 65504.0);
    case Dtype::kBfloat16:
      return roundedReference(x, 8, -126, 0x1.fep127);
    case Dtype::kFloat32:
      return roundedReference(x, 24, -126, 3.4028234663852886e38);
    default:
      return x;
  }
}

bool sameBits(double a, double b) { return bitsOf(a) == bitsOf(b); }

// Values where a batch could part from value-by-value rounding: every
// midpoint (a tie) and its neighbours in a few binades from the subnormals
// to the overflow threshold, signed zeros, the largest finite value and the
// tie above it (overflow to inf), infinities, and random doubles.
std::vector<double> hardValues(int significandBits, int minExponent, double largest) {
  std::vector<double> xs = {0.0, -0.0, largest, -largest, HUGE_VAL, -HUGE_VAL};
  const int maxExponent = std::ilogb(largest);
  for (int binade = minExponent - significandBits - 1; binade <= maxExponent + 1; ++binade) {
    if (binade > minExponent + 3 && binade < maxExponent - 3 && binade % 7 != 0) continue;
    const double spacing = std::ldexp(1.0, std::max(binade, minExponent) - significandBits + 1);
    for (const double m : {0.0, 1.0, 2.0, 3.0, std::ldexp(1.0, significandBits - 1) - 1,
                           std::ldexp(1.0, significandBits - 1), std::ldexp(1.0, significandBits) - 1}) {
      const double at = std::ldexp(1.0, binade) + m * spacing;
      for (const double x : {at, at + spacing / 2, std::nextafter(at + spacing / 2, 0.0),
                             std::nextafter(at + spacing / 2, HUGE_VAL), at + spacing / 4})
        xs.insert(xs.end(), {x, -x});
    }
  }
  xs.insert(xs.end(), {largest + std::ldexp(1.0, maxExponent - significandBits) /* tie: to inf */,
                       std::nextafter(largest + std::ldexp(1.0, maxExponent - significandBits), 0.0)});
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> exponent(minExponent - significandBits - 3, maxExponent + 2),
      unit(-1, 1);
  for (int k = 0; k < 20000; ++k) xs.push_back(unit(random) * std::pow(2.0, exponent(random)));
  return xs;
}

TEST(RoundedAngles, BatchesEqualTheReferenceAndRoundToBitForBit) {
  struct Case {
    Dtype format;
    int significandBits, minExponent;
    double largest;
  };
  for (const Case c : {Case{Dtype::kFloat16, 11, -14, 65504.0}, Case{Dtype::kBfloat16, 8, -126, 0x1.fep127},
                       Case{Dtype::kFloat32, 24, -126, 3.4028234663852886e38}}) {
    const std::vector<double> xs = hardValues(c.significandBits, c.minExponent, c.largest);
    // Position 1: each product is the value itself. An odd count leaves a scalar tail after the SIMD pairs.
    const size_t count = xs.size() | 1;
    std::vector<double> frequencies(xs), simd(count), scalar(count);
    frequencies.resize(count, 3.0);
    posenc::detail::roundedAngles(c.format, 1.0, frequencies.data(), count, simd.data());
    posenc::detail::scalar::roundedAngles(c.format, 1.0, frequencies.data(), count, scalar.data());
    for (size_t i = 0; i < count; ++i) {
      const double x = frequencies[i], expected = referenceOf(c.format, x);
      ASSERT_TRUE(sameBits(simd[i], expected))
          << static_cast<int>(c.format) << ": x = " << x << " gave " << simd[i] << ", expected " << expected;
      ASSERT_TRUE(sameBits(scalar[i], expected)) << static_cast<int>(c.format) << ": x = " << x;
      ASSERT_TRUE(sameBits(posenc::roundTo(c.format, x), expected))
          << static_cast<int>(c.format) << ": x = " << x;
    }
  }
  // Ties and edges spelled out: to even, the subnormal ties, overflow, -0.
  const double tiny = std::pow(2.0, -24);
  double in[] = {2049.0,  2051.0,  0.5 * tiny, 1.5 * tiny, -0.5 * tiny,
                 65519.0, 65520.0, -65520.0,   257.0,      -0.0},
         out[10];
  posenc::detail::roundedAngles(Dtype::kFloat16, 1.0, in, 8, out);
  posenc::detail::roundedAngles(Dtype::kBfloat16, 1.0, in + 8, 2, out + 8);
  const double expected[] = {2048.0, 2052.0, 0.0, 2 * tiny, -0.0, 65504.0, HUGE_VAL, -HUGE_VAL, 256.0, -0.0};
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(sameBits(out[i], expected[i])) << i << ": " << out[i];
}

TEST(RoundedAngles, ProductsRoundOnceToFloat64ThenToTheFormat) {
  // position * w rounded to a double first (as roundedAngle() and the frameworks' float64 products do).
  std::mt19937_64 random(23);
  std::uniform_real_distribution<double> w(1e-9, 3.0);
  for (const Dtype format : {Dtype::kFloat64, Dtype::kFloat32, Dtype::kFloat16, Dtype::kBfloat16}) {
    std::vector<double> frequencies(257), angles(257), scalar(257);
    for (double& f : frequencies) f = w(random);
    for (const double position : {0.0, 1.0, 1857.0, 65519.0, -3.5, 1e7}) {
      posenc::detail::roundedAngles(format, position, frequencies.data(), 257, angles.data());
      posenc::detail::scalar::roundedAngles(format, position, frequencies.data(), 257, scalar.data());
      for (size_t i = 0; i < 257; ++i) {
        const double expected = referenceOf(format, position * frequencies[i]);
        ASSERT_TRUE(sameBits(angles[i], expected)) << position << " * " << frequencies[i];
        ASSERT_TRUE(sameBits(scalar[i], expected)) << position << " * " << frequencies[i];
      }
    }
  }
}

TEST(RoundedAngles, Bits16NamesEveryFloat16AndBfloat16Value) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) continue;  // NaN
    ASSERT_EQ(posenc::detail::bits16(Dtype::kFloat16, halfValue(static_cast<uint16_t>(h))), h);
  }
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7f80) == 0x7f80 && (h & 0x7f)) continue;  // NaN
    const uint32_t b = h << 16;
    float x;
    std::memcpy(&x, &b, sizeof x);
    ASSERT_EQ(posenc::detail::bits16(Dtype::kBfloat16, x), h) << x;
  }
}

// Every value of a table with rounded angles, bit for bit, against sin and
// cos of the reference's angle, rounded once to the table's type.
template <typename T>
void expectTableBits(const Encoding& e, int length, const std::string& what) {
  const size_t d = static_cast<size_t>(e.dModel);
  std::vector<T> table(static_cast<size_t>(length) * d);
  std::vector<double> frequencies(d);
  ASSERT_TRUE(posenc::table(e, length, table.data()));
  posenc::columnFrequencies(e, frequencies.data());
  for (int p = 0; p < length; ++p) {
    const double position = referenceOf(e.precision.position, e.start + p);
    for (size_t j = 0; j < d; ++j) {
      const size_t n = d / 2;
      const bool second = e.layout == posenc::Layout::kInterleaved ? j % 2 == 1 : j >= n;
      const bool usesSin = second == (e.order == posenc::Order::kCosSin);
      const double angle = referenceOf(e.precision.angle, position * frequencies[j]);
      const T expected = static_cast<T>(e.scale * (usesSin ? std::sin(angle) : std::cos(angle)));
      const T got = table[static_cast<size_t>(p) * d + j];
      if (std::isnan(expected)) {
        ASSERT_TRUE(std::isnan(got)) << what << ": row " << p << ", column " << j;
      } else {
        ASSERT_EQ(std::memcmp(&got, &expected, sizeof got), 0)
            << what << ": row " << p << ", column " << j << ": " << got << " vs " << expected << " (angle "
            << angle << ")";
      }
    }
  }
}

TEST(RoundedAngles, TablesEqualSinAndCosOfEachRoundedAngleBitForBit) {
  struct Case {
    const char* what;
    double start, base;
    Dtype position, frequency, angle;
  };
  const Case cases[] = {
      // Kept sin/cos of float16 angles: ties in 1857 * 0.5625 and the like, past 2048 (spacing 2).
      {"float16 everywhere from 1800", 1800, 10000, Dtype::kFloat16, Dtype::kFloat16, Dtype::kFloat16},
      {"float16 angles only", 0, 10000, Dtype::kFloat64, Dtype::kFloat64, Dtype::kFloat16},
      // Angles overflow to inf (sin and cos NaN) from 65520 up.
      {"float16 angles past 65504", 65490, 10000, Dtype::kFloat64, Dtype::kFloat64, Dtype::kFloat16},
      // Negative positions: negative angles, and -0 where tiny ones round to zero.
      {"float16 angles of negative positions", -40, 1e12, Dtype::kFloat64, Dtype::kFloat64, Dtype::kFloat16},
      // A huge base: the slow pairs' angles are float16 subnormals.
      {"float16 subnormal angles", 1, 1e12, Dtype::kFloat64, Dtype::kFloat64, Dtype::kFloat16},
      {"bfloat16 angles", 250, 10000, Dtype::kFloat64, Dtype::kFloat64, Dtype::kBfloat16},
      {"bfloat16 positions (repeated rows)", 200, 10000, Dtype::kBfloat16, Dtype::kFloat64, Dtype::kFloat64},
      {"bfloat16 subnormal angles", -3, 1e30, Dtype::kBfloat16, Dtype::kFloat64, Dtype::kBfloat16},
      {"float32 angles", 3000, 10000, Dtype::kFloat32, Dtype::kFloat32, Dtype::kFloat32},
      {"float16 positions past 65504 (inf)", 65500, 10000, Dtype::kFloat16, Dtype::kFloat64, Dtype::kFloat64},
  };
  for (const Case& c : cases) {
    for (const posenc::Layout layout : {posenc::Layout::kInterleaved, posenc::Layout::kConcat}) {
      Encoding e;
      e.dModel = 38;  // 19 pairs: an odd count for the SIMD pairs
      e.layout = layout;
      e.start = c.start;
      e.base = c.base;
      e.scale = layout == posenc::Layout::kConcat ? 0.75 : 1.0;
      e.order = layout == posenc::Layout::kConcat ? posenc::Order::kCosSin : posenc::Order::kSinCos;
      e.precision.position = c.position;
      e.precision.frequency = c.frequency;
      e.precision.angle = c.angle;
      expectTableBits<float>(e, 300, c.what);
      expectTableBits<double>(e, 300, c.what);
    }
  }
  // The -0 case indeed reaches -0: sin(-0) is -0 in row 0 (position -40), pair 18.
  Encoding e;
  e.dModel = 38;
  e.start = -40;
  e.base = 1e12;
  e.precision.angle = Dtype::kFloat16;
  std::vector<double> row(38);
  posenc::row(e, -40, row.data());
  EXPECT_EQ(row[36], 0.0);
  EXPECT_TRUE(std::signbit(row[36]));
}

}  // namespace
