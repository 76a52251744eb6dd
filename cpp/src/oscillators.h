// A bank of float64 oscillators, one per (sin, cos) pair, stepped by the
// recurrence in kernels.h and reseeded from exact sin/cos every
// kReseedInterval steps so rounding cannot accumulate.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

#include "kernels.h"
#include "posenc/posenc.h"

namespace posenc::detail {

constexpr int64_t kReseedInterval = 1024;

class Oscillators {
 public:
  // `frequencies` has n entries; `swapped` makes a = cos, b = sin instead of
  // a = sin, b = cos.
  Oscillators(const double* frequencies, int32_t n, bool swapped, double amplitude)
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

  bool ok() const { return constants_ != nullptr && state_ != nullptr; }

  // Puts every oscillator at angle position * w_i (the product rounded once,
  // as a direct float64 evaluation would) and its previous value one step back.
  void seed(double position) {
    double *a = array(kA), *b = array(kB), *previousA = array(kPreviousA), *previousB = array(kPreviousB);
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
  }

  // Moves the state, if need be, into the middle of the widest gap (modulo
  // 4 KB) between the columns of oscillator 0 in `rows` rows from `out`.
  // Why: the kernel loads a block's state while its stores to those rows are
  // still in flight, and a load whose address equals an in-flight store's
  // modulo 4 KB waits for that store (4K aliasing); into a table bigger than
  // the caches that is a wait for memory. In place, 8192 x 1024 took 4.1-5.0
  // ms with the state within ~200 bytes of the rows' columns, 2.6 ms 2 KB away.
  // The state arrays are whole pages apart, so one shift places them all.
  void placeAwayFrom(const float* out, size_t rowBytes, size_t rows) {
    size_t columns[kMaxPlacedRows];
    const size_t count = std::min(rows, kMaxPlacedRows);
    if (count == 0) return;
    const uintptr_t start = reinterpret_cast<uintptr_t>(out) % kPage;
    for (size_t r = 0; r < count; ++r) columns[r] = (start + r * rowBytes) % kPage;
    std::sort(columns, columns + count);
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

  kernels::Bank bank() {
    return {array(kA), array(kB), array(kPreviousA), array(kPreviousB), array(kTwiceCos), n_};
  }

 private:
  static constexpr size_t kPage = 4096, kCacheLine = 64, kFarEnough = 1024, kMaxPlacedRows = 16;
  enum : size_t { kA, kB, kPreviousA, kPreviousB, kTwiceCos, kStateArrays };
  double* array(size_t j) { return pageStart_ + j * arrayStride_ + shift_ / sizeof(double); }

  size_t n_;
  bool swapped_;
  double amplitude_;
  std::unique_ptr<double[]> constants_;  // w, cos w, sin w
  size_t arrayStride_;                   // in doubles: n rounded up to whole pages
  std::unique_ptr<double[]> state_;      // the kernel's arrays; a page to align, one to shift
  double* pageStart_ = nullptr;
  size_t shift_ = 0;  // bytes from pageStart_ (and each later page) to the arrays
  double *w_ = nullptr, *cos_ = nullptr, *sin_ = nullptr;
};

// Frequencies of the n pairs (both members share it when this is used).
std::unique_ptr<double[]> pairFrequencies(const Encoding& e);

// out[i] = sum over pairs of cos(w (firstOffset + i)) for i in [0, count), in float64.
bool cosineSums(const Encoding& e, int64_t firstOffset, int64_t count, double* out);

}  // namespace posenc::detail
