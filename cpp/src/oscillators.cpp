#include "oscillators.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <utility>

namespace posenc::detail {

Oscillators::Oscillators(const double* frequencies, int32_t n, bool swapped, double amplitude)
    : n_(n > 0 ? static_cast<size_t>(n) : 0),
      swapped_(swapped),
      amplitude_(amplitude),
      constants_(new (std::nothrow) double[3 * (n_ > 0 ? n_ : 1)]),
      arrayStride_((n_ * sizeof(double) + kPage - 1) / kPage * kPage / sizeof(double)),
      state_(new (std::nothrow) double[kStateArrays * arrayStride_ + 2 * kPage / sizeof(double)]) {
  if (!ok()) return;
  w_ = constants_.get();
  cos_ = w_ + n_;
  sin_ = cos_ + n_;
  const uintptr_t address = reinterpret_cast<uintptr_t>(state_.get());
  pageStart_ = state_.get() + (kPage - address % kPage) % kPage / sizeof(double);
  for (size_t i = 0; i < n_; ++i) {
    w_[i] = frequencies[i];
    cos_[i] = std::cos(frequencies[i]);
    sin_[i] = std::sin(frequencies[i]);
    array(kTwiceCos)[i] = 2 * cos_[i];
  }
}

void Oscillators::rememberNextSeed() {
  if (!remembered_) remembered_.reset(new (std::nothrow) double[4 * (n_ > 0 ? n_ : 1)]);
  remembering_ = remembered_ != nullptr;
}

namespace {
// Positions compared bit for bit: a seed at -0 is no seed at +0.
bool samePosition(double x, double y) { return std::memcmp(&x, &y, sizeof(double)) == 0; }
}  // namespace

void Oscillators::seed(double position) {
  double *a = array(kA), *b = array(kB), *previousA = array(kPreviousA), *previousB = array(kPreviousB);
  // Oscillator by oscillator, not four memcpy: the module's memcpy of more
  // than 512 bytes is a call out to JavaScript (about 0.1 us each).
  double* remembered = remembered_.get();
  if (hasRemembered_ && samePosition(position, rememberedPosition_)) {
    for (size_t i = 0; i < n_; ++i, remembered += 4) {
      a[i] = remembered[0];
      b[i] = remembered[1];
      previousA[i] = remembered[2];
      previousB[i] = remembered[3];
    }
    remembering_ = false;
    return;
  }
  for (size_t i = 0; i < n_; ++i) {
    const double angle = position * w_[i];
    const double sn = amplitude_ * std::sin(angle), cs = amplitude_ * std::cos(angle);
    // One exact rotation back by w: sin(x - w), cos(x - w).
    const double c = cos_[i], s = sin_[i];
    const double snBack = sn * c - cs * s, csBack = cs * c + sn * s;
    a[i] = swapped_ ? cs : sn;
    b[i] = swapped_ ? sn : cs;
    previousA[i] = swapped_ ? csBack : snBack;
    previousB[i] = swapped_ ? snBack : csBack;
  }
  if (remembering_) {
    for (size_t i = 0; i < n_; ++i, remembered += 4) {
      remembered[0] = a[i];
      remembered[1] = b[i];
      remembered[2] = previousA[i];
      remembered[3] = previousB[i];
    }
    rememberedPosition_ = position;
    hasRemembered_ = true;
    remembering_ = false;
  }
}

void Oscillators::placeAwayFrom(const float* out, size_t rowBytes, size_t rows) {
  size_t columns[kMaxPlacedRows];
  const size_t count = std::min(rows, kMaxPlacedRows);
  if (count == 0) return;
  const uintptr_t start = reinterpret_cast<uintptr_t>(out) % kPage;
  for (size_t r = 0; r < count; ++r) columns[r] = (start + r * rowBytes) % kPage;
  for (size_t r = 1; r < count; ++r)  // insertion sort: std::sort would add 4 KB of wasm
    for (size_t q = r; q > 0 && columns[q - 1] > columns[q]; --q) std::swap(columns[q - 1], columns[q]);
  size_t gapStart = columns[count - 1], gap = columns[0] + kPage - columns[count - 1];
  for (size_t r = 1; r < count; ++r)
    if (columns[r] - columns[r - 1] > gap) gapStart = columns[r - 1], gap = columns[r] - columns[r - 1];
  const auto nearest = [&](size_t shift) {
    size_t distance = kPage;
    for (size_t r = 0; r < count; ++r) {
      const size_t apart = (shift + kPage - columns[r]) % kPage;
      distance = std::min(distance, std::min(apart, kPage - apart));
    }
    return distance;
  };
  // Far enough already, or within a cache line of as far as it can be.
  if (nearest(shift_) >= std::min(kFarEnough, gap / 2 - std::min(gap / 2, kCacheLine))) return;
  const size_t best = (gapStart + gap / 2) % kPage / 16 * 16;  // v128 loads stay aligned
  if (best == shift_) return;
  // Array by array, in the order that never overwrites one not yet moved.
  for (size_t k = 0; k < kStateArrays; ++k) {
    const size_t j = best > shift_ ? kStateArrays - 1 - k : k;
    std::memmove(pageStart_ + j * arrayStride_ + best / sizeof(double), array(j), n_ * sizeof(double));
  }
  shift_ = best;
}

}  // namespace posenc::detail
