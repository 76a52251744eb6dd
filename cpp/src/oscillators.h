// A bank of float64 oscillators, one per (sin, cos) pair, stepped by the
// recurrence in kernels.h and reseeded from exact sin/cos every
// kReseedInterval steps so rounding cannot accumulate.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <new>

#include "kernels.h"

namespace posenc::detail {

constexpr int64_t kReseedInterval = 1024;

class Oscillators {
 public:
  // `frequencies` has n entries; `swapped` makes a = cos, b = sin instead of
  // a = sin, b = cos.
  Oscillators(const double* frequencies, int32_t n, bool swapped, double amplitude)
      : n_(n),
        swapped_(swapped),
        amplitude_(amplitude),
        storage_(new (std::nothrow) double[8 * static_cast<size_t>(n > 0 ? n : 1)]) {
    if (!storage_) return;
    w_ = storage_.get();
    a_ = w_ + n;
    b_ = a_ + n;
    previousA_ = b_ + n;
    previousB_ = previousA_ + n;
    twiceCos_ = previousB_ + n;
    cos_ = twiceCos_ + n;
    sin_ = cos_ + n;
    for (int32_t i = 0; i < n; ++i) {
      w_[i] = frequencies[i];
      cos_[i] = std::cos(frequencies[i]);
      sin_[i] = std::sin(frequencies[i]);
      twiceCos_[i] = 2 * cos_[i];
    }
  }

  bool ok() const { return storage_ != nullptr; }

  // Puts every oscillator at angle position * w_i (the product rounded once,
  // as a direct float64 evaluation would) and its previous value one step back.
  void seed(double position) {
    for (int32_t i = 0; i < n_; ++i) {
      const double angle = position * w_[i];
      const double sn = amplitude_ * std::sin(angle), cs = amplitude_ * std::cos(angle);
      // One exact rotation back by w: sin(x - w), cos(x - w).
      const double c = cos_[i], s = sin_[i];
      const double snBack = sn * c - cs * s, csBack = cs * c + sn * s;
      a_[i] = swapped_ ? cs : sn;
      b_[i] = swapped_ ? sn : cs;
      previousA_[i] = swapped_ ? csBack : snBack;
      previousB_[i] = swapped_ ? snBack : csBack;
    }
  }

  kernels::Bank bank() { return {a_, b_, previousA_, previousB_, twiceCos_, static_cast<size_t>(n_)}; }

 private:
  int32_t n_;
  bool swapped_;
  double amplitude_;
  std::unique_ptr<double[]> storage_;
  double *w_ = nullptr, *a_ = nullptr, *b_ = nullptr, *previousA_ = nullptr, *previousB_ = nullptr,
         *twiceCos_ = nullptr, *cos_ = nullptr, *sin_ = nullptr;
};

// Frequencies of the n pairs (both members share it when this is used).
std::unique_ptr<double[]> pairFrequencies(const Encoding& e);

// out[i] = sum over pairs of cos(w (firstOffset + i)) for i in [0, count), in float64.
bool cosineSums(const Encoding& e, int64_t firstOffset, int64_t count, double* out);

}  // namespace posenc::detail
