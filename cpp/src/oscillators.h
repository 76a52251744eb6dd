// A bank of float64 oscillators, one per (sin, cos) pair, stepped by the
// recurrence in kernels.h and reseeded from exact sin/cos every
// kReseedInterval steps so rounding cannot accumulate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "kernels.h"

namespace posenc::detail {

constexpr int64_t kReseedInterval = 1024;

class Oscillators {
 public:
  // `frequencies` has n entries; `swapped` makes a = cos, b = sin instead of
  // a = sin, b = cos.
  Oscillators(const double* frequencies, int32_t n, bool swapped, double amplitude);

  bool ok() const { return constants_ != nullptr && state_ != nullptr; }

  // Puts every oscillator at angle position * w_i (the product rounded once,
  // as a direct float64 evaluation would) and its previous value one step back.
  void seed(double position);

  // Keeps the state the next seed() computes: a later seed() at the same
  // position copies it back instead of evaluating a sin and cos per
  // oscillator (what a writer restarted at the same row would redo: 3 of the
  // 4 us of a 512-column row). Without memory for the copy, seeds evaluate.
  void rememberNextSeed();

  // Moves the state, if need be, into the middle of the widest gap (modulo
  // 4 KB) between the columns of oscillator 0 in `rows` rows from `out`.
  // Why: the kernel loads a block's state while its stores to those rows are
  // still in flight, and a load whose address equals an in-flight store's
  // modulo 4 KB waits for that store (4K aliasing); into a table bigger than
  // the caches that is a wait for memory. In place, 8192 x 1024 took 4.1-5.0
  // ms with the state within ~200 bytes of the rows' columns, 2.6 ms 2 KB away.
  // The state arrays are whole pages apart, so one shift places them all.
  void placeAwayFrom(const float* out, size_t rowBytes, size_t rows);

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
  // The remembered seed: a, b, previous a, previous b of each oscillator in turn.
  std::unique_ptr<double[]> remembered_;
  double rememberedPosition_ = 0;
  bool hasRemembered_ = false, remembering_ = false;
};

}  // namespace posenc::detail
