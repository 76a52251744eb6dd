// libFuzzer target over the whole parameter space of the C++ core. It checks
// invariants that hold for every convention rather than exact values (those
// are the unit tests' job): finite output, |value| <= |scale|, sin^2 + cos^2 =
// scale^2 per pair where pairs share a frequency, s(0) = ||PE(from)||^2, the
// float32 table is the float64 one rounded, similarity is symmetric.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "posenc/posenc.h"

namespace {

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint32_t u32() {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v = (v << 8) | byte();
    return v;
  }
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  double unit() { return u32() / 4294967296.0; }  // [0, 1)

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

void check(bool ok, const char* what) {
  if (!ok) {
    __builtin_printf("invariant failed: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  posenc::Encoding e;
  e.dModel = 1 + static_cast<int32_t>(in.u32() % 300);
  e.layout = static_cast<posenc::Layout>(in.byte() % 3);  // 2 is invalid on purpose
  e.exponent = static_cast<posenc::Exponent>(in.byte() % 4);
  e.order = static_cast<posenc::Order>(in.byte() % 2);
  e.angle = static_cast<posenc::Angle>(in.byte() % 2);
  e.base = std::pow(10.0, 7.0 * in.unit()) + (in.byte() % 8 == 0 ? -1.0 : 0.0);  // sometimes <= 1
  e.frequencyScale = in.byte() % 4 == 0 ? 0.25 + 4 * in.unit() : 1.0;
  const bool ratioPower = e.angle == posenc::Angle::kRatioPower;
  // (pos / base)^e of a negative position is NaN by definition: keep those positive.
  e.start = (ratioPower ? 0.0 : -1.0e6) + 2.0e6 * in.unit();
  e.start = in.byte() % 2 ? std::floor(e.start) : e.start;
  e.paddingRow = static_cast<int64_t>(in.byte() % 40) - 1;
  e.scale = in.byte() % 3 == 0 ? 1.0 : 8 * (in.unit() - 0.5);
  e.oddColumn = static_cast<posenc::OddColumn>(in.byte() % 3);  // 2 is invalid on purpose
  // Now and then a table past the recurrence's first reseed (1024 rows), narrow to stay quick.
  const bool pastReseed = in.byte() % 8 == 0;
  const int64_t length = pastReseed ? 1000 + in.u32() % 100 : 1 + in.u32() % 70;
  if (pastReseed) e.dModel = 1 + e.dModel % 16;
  const double from = e.start + std::floor(in.unit() * 50);

  if (posenc::validate(e) != nullptr) {
    posenc::TableWriter writer(e, 0);
    check(!writer.ok(), "invalid encoding accepted by TableWriter");
    return 0;
  }

  const size_t d = static_cast<size_t>(e.dModel);
  const double scale = std::abs(e.scale);
  std::vector<double> t64(static_cast<size_t>(length) * d);
  std::vector<float> t32(t64.size());
  check(posenc::table(e, length, t64.data()), "float64 table failed");
  check(posenc::table(e, length, t32.data()), "float32 table failed");
  for (size_t k = 0; k < t64.size(); ++k) {
    check(std::isfinite(t64[k]), "non-finite value");
    check(std::abs(t64[k]) <= scale * (1 + 1e-15), "|value| > |scale|");
    check(std::abs(t32[k] - t64[k]) <= 1.2e-7 * std::max(1.0, scale), "float32 is not the rounded float64");
  }

  if (posenc::pairsShareFrequency(e)) {
    const size_t n = static_cast<size_t>(posenc::pairCount(e));
    for (int64_t r = 0; r < length; ++r) {
      if (r == e.paddingRow) continue;
      const double* row = t64.data() + static_cast<size_t>(r) * d;
      for (size_t i = 0; i < n; ++i) {
        const double first = e.layout == posenc::Layout::kInterleaved ? row[2 * i] : row[i];
        const double second = e.layout == posenc::Layout::kInterleaved ? row[2 * i + 1] : row[n + i];
        check(std::abs(first * first + second * second - e.scale * e.scale) <=
                  1e-12 * std::max(1.0, scale * scale),
              "sin^2 + cos^2 != scale^2");
      }
    }
  }

  std::vector<double> dots(8), base(d);
  check(posenc::offsetDots(e, from, 0, 7, dots.data()), "offsetDots failed");
  posenc::row(e, from, base.data());
  double norm = 0;
  for (double v : base) norm += v * v;
  check(std::abs(dots[0] - norm) <= 1e-9 * std::max(1.0, norm), "s(0) != ||PE(from)||^2");

  const int64_t simLength = std::min<int64_t>(length, 40);
  std::vector<float> sim(static_cast<size_t>(simLength * simLength));
  check(posenc::similarity(e, simLength, sim.data()), "similarity failed");
  for (int64_t p = 0; p < simLength; ++p)
    for (int64_t q = 0; q < simLength; ++q)
      check(sim[p * simLength + q] == sim[q * simLength + p], "similarity not symmetric");
  return 0;
}
