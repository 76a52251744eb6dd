// A bank of float64 oscillators, one per (sin, cos) pair, stepped by the
// angle-addition recurrence in kernels.h and reseeded from exact sin/cos every
// kReseedInterval steps so rounding cannot accumulate (error stays below ~1e-12).
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <new>

namespace posenc::detail {

constexpr int64_t kReseedInterval = 1024;

class Oscillators {
 public:
  // `frequencies` has n entries; `swapped` makes a = cos, b = sin instead of
  // a = sin, b = cos (the rotation then turns the other way in (a, b)).
  Oscillators(const double* frequencies, int32_t n, bool swapped, double amplitude)
      : n_(n),
        swapped_(swapped),
        amplitude_(amplitude),
        storage_(new (std::nothrow) double[5 * static_cast<size_t>(n > 0 ? n : 1)]) {
    if (!storage_) return;
    w_ = storage_.get();
    a_ = w_ + n;
    b_ = a_ + n;
    c_ = b_ + n;
    s_ = c_ + n;
    for (int32_t i = 0; i < n; ++i) {
      w_[i] = frequencies[i];
      c_[i] = std::cos(frequencies[i]);
      s_[i] = swapped ? -std::sin(frequencies[i]) : std::sin(frequencies[i]);
    }
  }

  bool ok() const { return storage_ != nullptr; }

  // Puts every oscillator at angle position * w_i (the product rounded once,
  // as a direct float64 evaluation would).
  void seed(double position) {
    for (int32_t i = 0; i < n_; ++i) {
      const double angle = position * w_[i];
      const double sn = amplitude_ * std::sin(angle), cs = amplitude_ * std::cos(angle);
      a_[i] = swapped_ ? cs : sn;
      b_[i] = swapped_ ? sn : cs;
    }
  }

  double* a() { return a_; }
  double* b() { return b_; }
  const double* c() const { return c_; }
  const double* s() const { return s_; }
  int32_t size() const { return n_; }

 private:
  int32_t n_;
  bool swapped_;
  double amplitude_;
  std::unique_ptr<double[]> storage_;
  double *w_ = nullptr, *a_ = nullptr, *b_ = nullptr, *c_ = nullptr, *s_ = nullptr;
};

// Frequencies of the n pairs (both members share it when this is used).
std::unique_ptr<double[]> pairFrequencies(const Encoding& e);

// out[k] = sum_i cos(w_i k) for k = 0..maxOffset, in float64.
bool cosineSums(const Encoding& e, int64_t maxOffset, double* out);

}  // namespace posenc::detail
