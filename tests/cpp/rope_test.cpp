// RoPE against float64 references written here from the formulas of
// transformers' modeling_rope_utils.py and of the RoFormer paper.
#include "posenc/rope.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "posenc/limits.h"

namespace {

using posenc::rope::Layout;
using posenc::rope::Params;
using posenc::rope::Scaling;

const double kPi = std::acos(-1.0);

// 1 / base^(2i/d), the unscaled ladder.
std::vector<double> ladder(int d, double base) {
  std::vector<double> w(d / 2);
  for (int i = 0; i < d / 2; ++i) w[i] = std::pow(base, -2.0 * i / d);
  return w;
}

std::vector<double> invFreq(const Params& p, double* attentionFactor = nullptr) {
  std::vector<double> w(p.rotaryDim / 2);
  const double af = posenc::rope::frequencies(p, w.data());
  if (attentionFactor) *attentionFactor = af;
  return w;
}

void expectRelativelyNear(const std::vector<double>& got, const std::vector<double>& want,
                          double tolerance = 1e-14) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tolerance * std::fabs(want[i])) << "pair " << i;
}

TEST(RopeFrequencies, DefaultIsTheInverseLadder) {
  Params p;
  p.rotaryDim = 96;
  p.base = 500000;
  double af = 0;
  expectRelativelyNear(invFreq(p, &af), ladder(96, 500000));
  EXPECT_EQ(af, 1.0);
}

TEST(RopeFrequencies, LinearDividesEveryFrequency) {
  Params p;
  p.rotaryDim = 64;
  p.scaling = Scaling::kLinear;
  p.factor = 4;
  std::vector<double> want = ladder(64, 10000);
  for (double& w : want) w = w / 4;
  expectRelativelyNear(invFreq(p), want);
}

TEST(RopeFrequencies, DynamicKeepsTheBaseUpToMaxPositionsThenGrowsIt) {
  Params p;
  p.rotaryDim = 128;
  p.scaling = Scaling::kDynamic;
  p.factor = 2;
  p.maxPositionEmbeddings = 4096;
  for (double seqLen : {0.0, 100.0, 4096.0}) {
    p.seqLen = seqLen;
    expectRelativelyNear(invFreq(p), ladder(128, 10000));
  }
  // NTK-aware: base' = base (factor L / L0 - (factor - 1))^(d / (d - 2)).
  p.seqLen = 10000;
  const double grown = 10000 * std::pow(2.0 * 10000 / 4096 - 1, 128.0 / 126);
  expectRelativelyNear(invFreq(p), ladder(128, grown), 1e-13);
}

TEST(RopeFrequencies, DynamicNeedsFourRotaryDims) {
  Params p;
  p.rotaryDim = 2;
  p.scaling = Scaling::kDynamic;
  p.factor = 2;
  p.maxPositionEmbeddings = 4096;
  EXPECT_NE(posenc::rope::validate(p), nullptr);
  std::vector<double> w(1);
  EXPECT_TRUE(std::isnan(posenc::rope::frequencies(p, w.data())));
}

// YaRN, Qwen2.5-like: d 128, base 1e6, original 32768, factor 4.
// find_correction_dim(32) = 128 ln(32768 / 64 pi) / (2 ln 1e6) = 23.59 -> 23,
// find_correction_dim(1)  = 128 ln(32768 / 2 pi) / (2 ln 1e6)  = 39.65 -> 40.
Params qwenYarn() {
  Params p;
  p.rotaryDim = 128;
  p.base = 1e6;
  p.scaling = Scaling::kYarn;
  p.factor = 4;
  p.originalMaxPositionEmbeddings = 32768;
  return p;
}

TEST(RopeFrequencies, YarnKeepsHighFrequenciesInterpolatesLowOnesAndRampsBetween) {
  double af = 0;
  const std::vector<double> got = invFreq(qwenYarn(), &af);
  const std::vector<double> w = ladder(128, 1e6);
  for (int i = 0; i < 64; ++i) {
    const double ramp = std::min(std::max((i - 23.0) / (40.0 - 23.0), 0.0), 1.0);
    const double want = w[i] * (1 - ramp) + w[i] / 4 * ramp;
    EXPECT_NEAR(got[i], want, 1e-14 * want) << i;
  }
  EXPECT_EQ(got[23], w[23]);
  EXPECT_NEAR(got[40], w[40] / 4, 1e-15 * w[40]);
  EXPECT_NEAR(af, 0.1 * std::log(4.0) + 1, 1e-15);
}

TEST(RopeFrequencies, YarnWithoutTruncationUsesTheFractionalRange) {
  Params p = qwenYarn();
  p.truncate = false;
  const double low = 128 * std::log(32768 / (32 * 2 * kPi)) / (2 * std::log(1e6));
  const double high = 128 * std::log(32768 / (1 * 2 * kPi)) / (2 * std::log(1e6));
  const std::vector<double> got = invFreq(p);
  const std::vector<double> w = ladder(128, 1e6);
  for (int i = 0; i < 64; ++i) {
    const double ramp = std::min(std::max((i - low) / (high - low), 0.0), 1.0);
    const double want = w[i] * (1 - ramp) + w[i] / 4 * ramp;
    EXPECT_NEAR(got[i], want, 1e-14 * want) << i;
  }
  // Pair 24 is inside both ranges but weighted differently.
  EXPECT_NE(got[24], invFreq(qwenYarn())[24]);
}

TEST(RopeFrequencies, YarnAttentionFactorFromMscaleAndMscaleAllDim) {
  Params p = qwenYarn();
  p.factor = 40;
  p.mscale = 1;
  p.mscaleAllDim = 0.707;
  double af = 0;
  invFreq(p, &af);
  EXPECT_NEAR(af, (0.1 * 1 * std::log(40.0) + 1) / (0.1 * 0.707 * std::log(40.0) + 1), 1e-15);
  p.mscale = p.mscaleAllDim = 1;  // equal: 1 (DeepSeek-V3 folds mscale into the softmax scale instead)
  invFreq(p, &af);
  EXPECT_NEAR(af, 1.0, 1e-15);
  p.mscaleAllDim = 0;  // one of them absent: the paper's 0.1 ln(s) + 1
  invFreq(p, &af);
  EXPECT_NEAR(af, 0.1 * std::log(40.0) + 1, 1e-15);
  p.attentionFactor = 0.5;  // given: used as is
  invFreq(p, &af);
  EXPECT_EQ(af, 0.5);
}

TEST(RopeFrequencies, YarnWithoutFactorTakesMaxOverOriginal) {
  Params p = qwenYarn();
  p.factor = posenc::rope::kAbsent;
  p.maxPositionEmbeddings = 131072;
  Params q = qwenYarn();
  expectRelativelyNear(invFreq(p), invFreq(q), 0);
}

TEST(RopeFrequencies, LongropeSwitchesToLongFactorsAboveTheOriginalLength) {
  Params p;
  p.rotaryDim = 8;
  p.scaling = Scaling::kLongrope;
  p.originalMaxPositionEmbeddings = 4096;
  p.maxPositionEmbeddings = 131072;
  p.factor = posenc::rope::kAbsent;
  const std::vector<double> shortFactor = {1, 1.1, 1.5, 2}, longFactor = {1.2, 3, 9, 30};
  p.shortFactor = shortFactor.data();
  p.longFactor = longFactor.data();
  const std::vector<double> w = ladder(8, 10000);
  for (double seqLen : {0.0, 4096.0, 4097.0}) {
    p.seqLen = seqLen;
    const std::vector<double>& ext = seqLen > 4096 ? longFactor : shortFactor;
    std::vector<double> want(4);
    for (int i = 0; i < 4; ++i) want[i] = w[i] / ext[i];
    double af = 0;
    expectRelativelyNear(invFreq(p, &af), want);
    EXPECT_NEAR(af, std::sqrt(1 + std::log(32.0) / std::log(4096.0)), 1e-15);
  }
}

TEST(RopeFrequencies, Llama3KeepsShortWavelengthsDividesLongOnesAndSmoothsBetween) {
  Params p;
  p.rotaryDim = 128;
  p.base = 500000;
  p.scaling = Scaling::kLlama3;
  p.factor = 8;
  p.lowFreqFactor = 1;
  p.highFreqFactor = 4;
  p.originalMaxPositionEmbeddings = 8192;
  const std::vector<double> got = invFreq(p);
  const std::vector<double> w = ladder(128, 500000);
  int kept = 0, divided = 0, smoothed = 0;
  for (int i = 0; i < 64; ++i) {
    const double wavelength = 2 * kPi / w[i];
    double want;
    if (wavelength < 8192 / 4.0) {
      want = w[i], ++kept;
    } else if (wavelength > 8192 / 1.0) {
      want = w[i] / 8, ++divided;
    } else {
      const double s = (8192 / wavelength - 1) / (4 - 1);
      want = (1 - s) * w[i] / 8 + s * w[i], ++smoothed;
    }
    EXPECT_NEAR(got[i], want, 1e-14 * want) << i;
  }
  EXPECT_GT(kept, 0);
  EXPECT_GT(divided, 0);
  EXPECT_GT(smoothed, 0);
}

TEST(RopeFrequencies, ValidationNamesTheField) {
  Params p = qwenYarn();
  p.betaFast = 0;
  ASSERT_NE(posenc::rope::validate(p), nullptr);
  EXPECT_NE(std::string(posenc::rope::validate(p)).find("betaFast"), std::string::npos);
  p = Params();
  p.rotaryDim = 7;
  EXPECT_NE(posenc::rope::validate(p), nullptr);
}

// The cache rows for positions start..start+rows-1 in float32 and float64.
struct Cache {
  std::vector<float> cos, sin;
  std::vector<double> cos64, sin64;
};

Cache cache(const std::vector<double>& w, double af, Layout layout, double start, int64_t rows,
            std::vector<int64_t> chunks = {}) {
  const size_t d = 2 * w.size();
  Cache c{std::vector<float>(rows * d), std::vector<float>(rows * d), std::vector<double>(rows * d),
          std::vector<double>(rows * d)};
  posenc::rope::Cache config;
  config.invFreq = w.data();
  config.pairs = static_cast<int32_t>(w.size());
  config.attentionFactor = af;
  config.layout = layout;
  config.start = start;
  posenc::rope::CacheWriter f32(config), f64(config);
  EXPECT_TRUE(f32.ok() && f64.ok());
  if (chunks.empty()) chunks = {rows};
  int64_t done = 0;
  for (int64_t n : chunks) {
    f32.write(c.cos.data() + done * d, c.sin.data() + done * d, n);
    f64.write(c.cos64.data() + done * d, c.sin64.data() + done * d, n);
    done += n;
  }
  EXPECT_EQ(done, rows);
  return c;
}

// Column j of pair i in a cache row.
int pairOf(Layout layout, int d, int j) { return layout == Layout::kHalf ? j % (d / 2) : j / 2; }

TEST(RopeCache, Float32IsTheFloat64ValueRoundedUpToPosition2To20) {
  std::mt19937 rng(3);
  for (Layout layout : {Layout::kHalf, Layout::kInterleaved}) {
    for (int d : {2, 10, 128, 512}) {
      // Llama 3 frequencies scaled, and an attention factor above 1.
      std::vector<double> w = ladder(d, 500000);
      for (double& x : w) x /= 3;
      const double af = 1.1386;
      const double start = (1 << 20) - 1500;  // crosses reseeds up to 2^20
      const int64_t rows = 1501;
      const Cache c = cache(w, af, layout, start, rows, {3, 1030, 468});
      double worst = 0;
      for (int64_t r = 0; r < rows; ++r)
        for (int j = 0; j < d; ++j) {
          const double angle = (start + r) * w[pairOf(layout, d, j)];
          const size_t k = r * d + j;
          worst = std::max(worst, std::fabs(c.cos[k] - af * std::cos(angle)));
          worst = std::max(worst, std::fabs(c.sin[k] - af * std::sin(angle)));
          ASSERT_NEAR(c.cos64[k], af * std::cos(angle), 1e-15) << r << "," << j;
          ASSERT_NEAR(c.sin64[k], af * std::sin(angle), 1e-15) << r << "," << j;
        }
      EXPECT_LE(worst, 1.2e-7 * af) << "d=" << d;
    }
  }
}

TEST(RopeCache, LayoutsRepeatEachPairWhereTheyPutIt) {
  const std::vector<double> w = ladder(16, 10000);
  const Cache half = cache(w, 1, Layout::kHalf, 5, 20);
  const Cache inter = cache(w, 1, Layout::kInterleaved, 5, 20);
  for (int r = 0; r < 20; ++r)
    for (int i = 0; i < 8; ++i) {
      // [c0..c7, c0..c7] and [c0, c0, c1, c1, ...], bit for bit.
      EXPECT_EQ(half.cos[r * 16 + i], half.cos[r * 16 + i + 8]);
      EXPECT_EQ(half.sin[r * 16 + i], half.sin[r * 16 + i + 8]);
      EXPECT_EQ(inter.cos[r * 16 + 2 * i], inter.cos[r * 16 + 2 * i + 1]);
      EXPECT_EQ(inter.sin[r * 16 + 2 * i], inter.sin[r * 16 + 2 * i + 1]);
      EXPECT_EQ(half.cos[r * 16 + i], inter.cos[r * 16 + 2 * i]);
      EXPECT_NEAR(half.sin[r * 16 + i], std::sin((5 + r) * w[i]), 6e-8);
    }
}

// x rotated in float64 from the definition, for either layout.
std::vector<double> rotated(const std::vector<double>& x, const std::vector<double>& w, double af,
                            Layout layout, int headDim, int heads, const std::vector<double>& positions) {
  std::vector<double> y = x;
  const int n = static_cast<int>(w.size());
  for (size_t t = 0; t < positions.size(); ++t)
    for (int h = 0; h < heads; ++h)
      for (int i = 0; i < n; ++i) {
        const size_t at = (t * heads + h) * headDim;
        const size_t a = at + (layout == Layout::kHalf ? i : 2 * i);
        const size_t b = at + (layout == Layout::kHalf ? i + n : 2 * i + 1);
        const std::complex<double> z(x[a], x[b]), turn = std::polar(af, positions[t] * w[i]);
        y[a] = (z * turn).real();
        y[b] = (z * turn).imag();
      }
  return y;
}

TEST(RopeApply, MatchesTheFloat64RotationWithinTwoFloat32Ulps) {
  std::mt19937 rng(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  const int headDim = 80, heads = 3, tokens = 37;
  const std::vector<double> w = ladder(64, 10000);  // partial: 64 of 80 dims rotate
  for (Layout layout : {Layout::kHalf, Layout::kInterleaved}) {
    for (bool explicitPositions : {false, true}) {
      std::vector<double> positions(tokens);
      for (int t = 0; t < tokens; ++t) positions[t] = explicitPositions ? 3 * t * t + 100000 : 40 + t;
      std::vector<float> x(tokens * heads * headDim), out(x.size());
      std::vector<double> x64(x.size());
      for (size_t k = 0; k < x.size(); ++k) x64[k] = x[k] = static_cast<float>(normal(rng));
      posenc::rope::Rotation r;
      r.invFreq = w.data();
      r.pairs = 32;
      r.attentionFactor = 1.25;
      r.layout = layout;
      r.headDim = headDim;
      r.heads = heads;
      r.tokens = tokens;
      r.positions = explicitPositions ? positions.data() : nullptr;
      r.start = 40;
      ASSERT_TRUE(posenc::rope::apply(r, x.data(), out.data()));
      const std::vector<double> want = rotated(x64, w, 1.25, layout, headDim, heads, positions);
      for (size_t k = 0; k < x.size(); ++k) {
        const size_t head = k / headDim * headDim;
        double norm = 0;
        for (int j = 0; j < headDim; ++j) norm = std::max(norm, std::fabs(x64[head + j]));
        EXPECT_NEAR(out[k], want[k], 2 * 1.25 * norm * std::ldexp(1.0, -23)) << k;
        if (k % headDim >= 64) {
          EXPECT_EQ(out[k], x[k]) << "passed through";
        }
      }
      // In place gives the same values.
      std::vector<float> inPlace = x;
      ASSERT_TRUE(posenc::rope::apply(r, inPlace.data(), inPlace.data()));
      EXPECT_EQ(inPlace, out);
    }
  }
}

TEST(RopeScores, RelativeScoreAndRoformerBound) {
  const int headDim = 160;
  std::vector<double> w = ladder(128, 10000);  // 128 of 160 dims rotate
  const double af = 1.2;
  const int64_t maxOffset = 2100;
  for (double from : {0.0, 12345.0, 1e6}) {
    std::vector<double> s(maxOffset + 1), bound(maxOffset + 1);
    posenc::rope::Scores offsets;
    offsets.invFreq = w.data();
    offsets.pairs = 64;
    offsets.attentionFactor = af;
    offsets.headDim = headDim;
    offsets.from = from;
    offsets.maxOffset = maxOffset;
    ASSERT_TRUE(posenc::rope::scores(offsets, s.data(), bound.data()));
    for (int64_t k = 0; k <= maxOffset; k += 7) {
      double cosines = 0, sum = 0;
      std::complex<double> partial = 0;
      for (int i = 0; i < 64; ++i) {
        cosines += std::cos(k * w[i]);
        partial += std::polar(1.0, k * w[i]);
        sum += std::abs(partial);
      }
      const double want = af * af * 2.0 / headDim * cosines + 32.0 / headDim;
      // The float64 recurrence drifts by up to ~k^2 1e-16 between reseeds (1024 steps).
      EXPECT_NEAR(s[k], want, from < 1e6 ? 1e-10 : 1e-9) << "from " << from << " k " << k;
      // RoFormer §3.4.3 normalises by 1 / (d/2); 1e-10: a recurrence over up to 1024 steps.
      EXPECT_NEAR(bound[k], sum / 64, 1e-10) << k;
    }
    EXPECT_NEAR(s[0], af * af * 128.0 / 160 + 32.0 / 160, 1e-12);
    EXPECT_NEAR(bound[0], (64.0 * 65 / 2) / 64, 1e-12);
  }
}

// A description left at its defaults (no frequencies), or with one field out
// of range, is refused instead of read: the writer is not ok(), scores() and
// apply() return false and leave the outputs alone.
TEST(RopeStructs, UnusableDescriptionsAreRefused) {
  const std::vector<double> w = ladder(8, 10000);
  posenc::rope::Cache usableCache;
  usableCache.invFreq = w.data();
  usableCache.pairs = 4;
  EXPECT_TRUE(posenc::rope::CacheWriter(usableCache).ok());
  std::vector<posenc::rope::Cache> caches(5, usableCache);
  caches[0] = posenc::rope::Cache{};
  caches[1].pairs = 0;
  caches[2].start = std::ldexp(1.0, 53) * 2;
  caches[3].start = std::nan("");
  caches[4].precision.angle = static_cast<posenc::Dtype>(99);
  for (size_t i = 0; i < caches.size(); ++i) EXPECT_FALSE(posenc::rope::CacheWriter(caches[i]).ok()) << i;

  posenc::rope::Scores usableScores;
  usableScores.invFreq = w.data();
  usableScores.pairs = 4;
  usableScores.headDim = 8;
  usableScores.maxOffset = 3;
  std::vector<double> out(4, -1.0), bound(4, -1.0);
  EXPECT_TRUE(posenc::rope::scores(usableScores, out.data(), bound.data()));
  std::vector<posenc::rope::Scores> scores(6, usableScores);
  scores[0] = posenc::rope::Scores{};
  scores[1].headDim = 6;  // fewer columns than 2 * pairs
  scores[2].maxOffset = -1;
  scores[3].from = std::ldexp(1.0, 53) * 2;
  scores[4].pairs = 0;
  scores[5].precision.position = static_cast<posenc::Dtype>(99);
  for (size_t i = 0; i < scores.size(); ++i) {
    std::fill(out.begin(), out.end(), -1.0);
    EXPECT_FALSE(posenc::rope::scores(scores[i], out.data(), bound.data())) << i;
    EXPECT_EQ(out, std::vector<double>(4, -1.0)) << i;
  }

  posenc::rope::Rotation rotation;  // no frequencies
  rotation.pairs = 4;
  rotation.headDim = 8;
  rotation.tokens = 1;
  std::vector<double> x(8, 1.0);
  EXPECT_FALSE(posenc::rope::apply(rotation, x.data(), x.data()));
  EXPECT_EQ(x, std::vector<double>(8, 1.0));
  rotation.invFreq = w.data();
  EXPECT_TRUE(posenc::rope::apply(rotation, x.data(), x.data()));
}

// posenc/limits.h's kMaxHeadDim: a rotary width, a head or a cache row
// beyond it is refused, at it accepted.
TEST(RopeLimits, HeadDimBeyondTheLimitIsRefused) {
  using posenc::rope::kMaxHeadDim;
  Params p;
  p.rotaryDim = kMaxHeadDim;
  EXPECT_EQ(posenc::rope::validate(p), nullptr);
  p.rotaryDim = kMaxHeadDim + 2;
  EXPECT_STREQ(posenc::rope::validate(p), "rotaryDim must be an even integer in [2, 65536]");

  const std::vector<double> w(kMaxHeadDim / 2 + 1, 1e-3);
  posenc::rope::Cache cache;
  cache.invFreq = w.data();
  cache.pairs = kMaxHeadDim / 2;
  EXPECT_TRUE(posenc::rope::CacheWriter(cache).ok());
  cache.pairs = kMaxHeadDim / 2 + 1;
  EXPECT_FALSE(posenc::rope::CacheWriter(cache).ok());

  posenc::rope::Rotation r;
  r.invFreq = w.data();
  r.pairs = 1;
  r.headDim = kMaxHeadDim;
  r.tokens = 1;
  std::vector<double> x(kMaxHeadDim + 2, 1.0);
  EXPECT_TRUE(posenc::rope::apply(r, x.data(), x.data()));
  r.headDim = kMaxHeadDim + 2;
  EXPECT_FALSE(posenc::rope::apply(r, x.data(), x.data()));

  posenc::rope::Scores s;
  s.invFreq = w.data();
  s.pairs = 1;
  s.headDim = kMaxHeadDim;
  std::vector<double> out(1), bound(1);
  EXPECT_TRUE(posenc::rope::scores(s, out.data(), bound.data()));
  s.headDim = kMaxHeadDim + 2;
  EXPECT_FALSE(posenc::rope::scores(s, out.data(), bound.data()));
}

}  // namespace
