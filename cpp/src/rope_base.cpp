#include "posenc/rope_base.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <new>

#include "cosine_sum.h"
#include "oscillators.h"
#include "posenc/limits.h"

namespace posenc::rope {

namespace {

// Sums this close to zero are summed again exactly: the recurrence is within ~1e-13 of them.
constexpr double kRecheck = 1e-9;
// Failing offsets remembered between bases: a base a little above one that failed at m usually fails at m
// too, or near it. The offset that settled the last base comes first, whether a scan found it or the
// neighbourhood search: the dip that fails moves with the base, and the search then starts where it went
// (at 512 x 2048, 80,000 direct sums -> 15,000, 236 -> 62 ms natively).
constexpr int kRemembered = 8;
// How far from a remembered offset its neighbourhood is tried (1, 2, 4, ... offsets away).
constexpr int64_t kNeighbourhood = 256;

double directSum(const double* invFreq, int32_t pairs, double m) {
  double sum = 0;
  for (int32_t i = 0; i < pairs; ++i) sum += std::cos(m * invFreq[i]);
  return sum;
}

// Whether directSum(invFreq, pairs, m) < 0, deciding by the polynomial sum when it is clear of zero by
// more than the two sums can differ, else by directSum itself. The probes below are most of the base
// search; with the polynomial (5.8 ns a term in wasm SIMD, std::cos 8-9) the search takes half the time.
bool negativeAt(const double* invFreq, int32_t pairs, double m, double largest) {
  if (m * largest < cosines::kMaxAngle) {
    const double sum = cosines::sum(invFreq, static_cast<size_t>(pairs), m);
    const double tolerance = cosines::sumTolerance(static_cast<size_t>(pairs));
    if (sum < -tolerance) return true;
    if (sum > tolerance) return false;
  }
  return directSum(invFreq, pairs, m) < 0;
}

void ladder(double base, int32_t headDim, double* invFreq) {
  for (int32_t i = 0; i < headDim / 2; ++i)
    invFreq[i] = 1.0 / std::pow(base, static_cast<double>(2 * i) / static_cast<double>(headDim));
}

// The bases tried by smallestBase, with the offsets where recent ones failed.
class Criterion {
 public:
  Criterion(int32_t headDim, int64_t context)
      : headDim_(headDim), context_(context), invFreq_(new (std::nothrow) double[headDim / 2]) {}
  bool ok() const { return invFreq_ != nullptr && !failed_; }

  bool holds(double base) {
    const int32_t pairs = headDim_ / 2;
    ladder(base, headDim_, invFreq_.get());
    double largest = 0;
    for (int32_t i = 0; i < pairs; ++i) largest = std::max(largest, std::fabs(invFreq_[i]));
    // A remembered offset where f < 0, or one near it (the dip that failed moves a
    // little with the base), settles it without a scan.
    for (int64_t reach = 0; reach <= kNeighbourhood; reach = reach == 0 ? 1 : 2 * reach) {
      for (int r = 0; r < remembered_; ++r) {
        const int64_t at = failures_[(next_ - 1 - r + kRemembered) % kRemembered];
        // At reach 0 both sides are the offset itself: summed once.
        for (int side = 0; side < (reach == 0 ? 1 : 2); ++side) {
          const int64_t m = side == 0 ? at - reach : at + reach;
          if (m >= 0 && m < context_ && negativeAt(invFreq_.get(), pairs, static_cast<double>(m), largest)) {
            if (reach > 0) remember(m);
            return false;
          }
        }
      }
    }
    const int64_t supported = supportedContext(invFreq_.get(), pairs, context_);
    if (supported < 0) {
      failed_ = true;
      return false;
    }
    if (supported >= context_) return true;
    remember(supported);
    return false;
  }

 private:
  // The most recent failure is tried first (failures_[next_ - 1]).
  void remember(int64_t m) {
    failures_[next_] = m;
    next_ = (next_ + 1) % kRemembered;
    if (remembered_ < kRemembered) ++remembered_;
  }

  int32_t headDim_;
  int64_t context_;
  std::unique_ptr<double[]> invFreq_;
  int64_t failures_[kRemembered] = {};
  int next_ = 0, remembered_ = 0;
  bool failed_ = false;
};

}  // namespace

int64_t supportedContext(const double* invFreq, int32_t pairs, int64_t limit) {
  if (pairs < 1 || pairs > kMaxHeadDim / 2 || limit < 0 || limit > kMaxContext) return -1;
  detail::Oscillators oscillators(invFreq, pairs, /*swapped=*/false, 1.0);
  if (!oscillators.ok()) return -1;
  // The cosines' sums a few offsets at a time by offsetDots' kernel (b = cos; only b steps there): the
  // same b values, bit for bit, as stepping each pair here, and SIMD sums (4-6x faster in wasm).
  const kernels::Bank bank = oscillators.bank();
  double sums[kernels::kMaxSumRows];
  for (int64_t m = 0; m < limit;) {
    if (m % detail::kReseedInterval == 0) oscillators.seed(static_cast<double>(m));
    const int64_t run = std::min({limit - m, detail::kReseedInterval - m % detail::kReseedInterval,
                                  static_cast<int64_t>(kernels::kMaxSumRows)});
    kernels::sumSecondRows(bank, static_cast<size_t>(run), sums);
    for (int64_t r = 0; r < run; ++r, ++m)
      if (sums[r] < kRecheck &&
          (sums[r] < -kRecheck || directSum(invFreq, pairs, static_cast<double>(m)) < 0))
        return m;
  }
  return limit;
}

double smallestBase(int32_t headDim, int64_t context, double maxBase, int32_t stepsPerOctave) {
  if (headDim < 2 || headDim % 2 != 0 || headDim > kMaxHeadDim || context < 1 || context > kMaxContext ||
      !(maxBase >= 1 && maxBase <= kMaxBase) || stepsPerOctave < 1)
    return -1;
  Criterion criterion(headDim, context);
  if (!criterion.ok()) return -1;
  double below = 1.0;
  if (criterion.holds(below)) return below;
  if (!criterion.ok()) return -1;
  // Grid points as 2^(k / steps), not repeated products: no drift over thousands of steps.
  double above = below;
  for (int64_t k = 1;; ++k) {
    above = std::pow(2.0, static_cast<double>(k) / stepsPerOctave);
    if (above > maxBase) above = maxBase;
    if (criterion.holds(above)) break;
    if (!criterion.ok()) return -1;
    if (above >= maxBase) return std::nan("");
    below = above;
  }
  // f fails at `below` and holds at `above`: narrow the bracket on a log scale.
  while (above / below > 1 + 1e-9) {
    const double middle = std::sqrt(below * above);
    if (criterion.holds(middle))
      above = middle;
    else if (!criterion.ok())
      return -1;
    else
      below = middle;
  }
  return above;
}

}  // namespace posenc::rope
