#include <algorithm>
#include <cmath>
#include <memory>
#include <new>

#include "posenc/elsewhere.h"
#include "posenc/limits.h"

namespace posenc {

namespace {

// As grid.cpp: grid sides and extra rows of at most 16384.
constexpr int32_t kMaxSide = 16384;
// PyTorch's bicubic (aten/src/ATen/native/UpSample.h, get_cubic_upsample_coefficients).
constexpr double kA = -0.75;

double nearWeight(double x) { return ((kA + 2) * x - (kA + 3)) * x * x + 1; }         // |x| <= 1
double farWeight(double x) { return ((kA * x - 5 * kA) * x + 8 * kA) * x - 4 * kA; }  // 1 < |x| < 2

// acc[0, n) += w * src[0, n): one loop the compiler vectorizes (f64x2 under -msimd128).
void addScaled(double* acc, const double* src, double w, size_t n) {
  for (size_t j = 0; j < n; ++j) acc[j] += w * src[j];
}

void store(float* to, const double* from, size_t n) {
  for (size_t j = 0; j < n; ++j) to[j] = static_cast<float>(from[j]);
}
void store(double* to, const double* from, size_t n) {
  for (size_t j = 0; j < n; ++j) to[j] = from[j];
}

template <typename T>
bool resize(const GridResize& r, const double* in, T* out) {
  if (validate(r) != nullptr) return false;
  const size_t d = static_cast<size_t>(r.dim);
  const size_t extra = static_cast<size_t>(r.extraTokens) * d;
  store(out, in, extra);
  const double* patches = in + extra;
  // Along the width first (every source row), then along the height: each axis's
  // weights once, and 4 + 4 instead of 16 rows summed per output row.
  std::unique_ptr<double[]> across(
      new (std::nothrow) double[static_cast<size_t>(r.fromHeight) * static_cast<size_t>(r.toWidth) * d]);
  std::unique_ptr<double[]> sum(new (std::nothrow) double[d]);
  if (!across || !sum) return false;
  int32_t index[4];
  double weight[4];
  for (int32_t x = 0; x < r.toWidth; ++x) {
    bicubicTaps(r.fromWidth, r.toWidth, x, index, weight);
    for (int32_t y = 0; y < r.fromHeight; ++y) {
      double* to = across.get() + (static_cast<size_t>(y) * r.toWidth + x) * d;
      std::fill(to, to + d, 0.0);
      for (int k = 0; k < 4; ++k)
        addScaled(to, patches + (static_cast<size_t>(y) * r.fromWidth + index[k]) * d, weight[k], d);
    }
  }
  T* row = out + extra;
  for (int32_t y = 0; y < r.toHeight; ++y) {
    bicubicTaps(r.fromHeight, r.toHeight, y, index, weight);
    for (int32_t x = 0; x < r.toWidth; ++x, row += d) {
      std::fill(sum.get(), sum.get() + d, 0.0);
      for (int k = 0; k < 4; ++k)
        addScaled(sum.get(), across.get() + (static_cast<size_t>(index[k]) * r.toWidth + x) * d, weight[k],
                  d);
      store(row, sum.get(), d);
    }
  }
  return true;
}

}  // namespace

const char* validate(const GridResize& r) {
  if (r.dim < 1 || r.dim > kMaxDModel) return "dim must be an integer in [1, 1048576]";
  if (r.fromHeight < 1 || r.fromHeight > kMaxSide) return "height must be an integer in [1, 16384]";
  if (r.fromWidth < 1 || r.fromWidth > kMaxSide) return "width must be an integer in [1, 16384]";
  if (r.toHeight < 1 || r.toHeight > kMaxSide) return "toHeight must be an integer in [1, 16384]";
  if (r.toWidth < 1 || r.toWidth > kMaxSide) return "toWidth must be an integer in [1, 16384]";
  if (r.extraTokens < 0 || r.extraTokens > kMaxSide) return "extraTokens must be an integer in [0, 16384]";
  return nullptr;
}

void bicubicTaps(int32_t from, int32_t to, int32_t o, int32_t index[4], double weight[4]) {
  // align_corners=False: output cell centres mapped onto the input's, no clamp before the taps.
  const double source = (o + 0.5) * (static_cast<double>(from) / to) - 0.5;
  const double k = std::floor(source), u = source - k;
  weight[0] = farWeight(u + 1);
  weight[1] = nearWeight(u);
  weight[2] = nearWeight(1 - u);
  weight[3] = farWeight(2 - u);
  for (int i = 0; i < 4; ++i) {
    const double at = k - 1 + i;
    index[i] = at < 0 ? 0 : at > from - 1 ? from - 1 : static_cast<int32_t>(at);
  }
}

bool resizeGrid(const GridResize& r, const double* in, float* out) { return resize(r, in, out); }
bool resizeGrid(const GridResize& r, const double* in, double* out) { return resize(r, in, out); }

}  // namespace posenc
