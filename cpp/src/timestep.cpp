#include <cmath>
#include <memory>
#include <new>

#include "posenc/elsewhere.h"
#include "posenc/limits.h"
#include "precision.h"

namespace posenc {

namespace {

int32_t halfOf(const Timestep& t) { return t.dim / 2; }

// The exponent i / (h - shift) of frequency i (0 for i = 0, whatever h - shift).
double exponentOf(const Timestep& t, int32_t i) {
  return i == 0 ? 0.0 : static_cast<double>(i) / (halfOf(t) - t.downscaleFreqShift);
}

// The same rows as an Encoding, where one exists: [sin | cos] pairs with
// exponent i / (h - 1) ('half-minus-one', zero odd column) on a base b with
// b^(-i / (h - 1)) = maxPeriod^(-i / (h - shift)), and frequencyScale = scale.
// Then rowsAt() gives them, with the table's recurrence on runs of
// consecutive integer timesteps (arange(1000)). None where b would not be
// > 1 or the scale not > 0.
bool asEncoding(const Timestep& t, Encoding* e) {
  const int32_t h = halfOf(t);
  const double base = h > 1 ? std::pow(t.maxPeriod, (h - 1) / (h - t.downscaleFreqShift)) : t.maxPeriod;
  if (!(base > 1) || !std::isfinite(base) || !(t.scale > 0)) return false;
  e->dModel = t.dim;
  e->layout = Layout::kConcat;
  e->exponent = Exponent::kHalfMinusOne;
  e->order = t.flipSinToCos ? Order::kCosSin : Order::kSinCos;
  e->base = base;
  e->frequencyScale = t.scale;
  e->oddColumn = OddColumn::kZero;
  return validate(*e) == nullptr;
}

template <typename T>
bool embed(const Timestep& t, const double* timesteps, int64_t count, T* out) {
  if (validate(t) != nullptr) return false;
  for (int64_t k = 0; k < count; ++k)
    if (!(std::abs(timesteps[k]) <= kMaxMagnitude)) return false;
  Encoding e;
  if (asEncoding(t, &e)) return rowsAt(e, timesteps, count, out);
  // Elsewhere (maxPeriod <= 1, h < shift, scale <= 0) value by value.
  const int32_t h = halfOf(t);
  std::unique_ptr<double[]> w(new (std::nothrow) double[h > 0 ? h : 1]);
  if (!w) return false;
  timestepFrequencies(t, w.get());
  const size_t d = static_cast<size_t>(t.dim);
  const int32_t sinAt = t.flipSinToCos ? h : 0, cosAt = t.flipSinToCos ? 0 : h;
  for (int64_t k = 0; k < count; ++k) {
    T* row = out + static_cast<size_t>(k) * d;
    for (int32_t i = 0; i < h; ++i) {
      double sn, cs;
      detail::sinCos(timesteps[k] * w[i], &sn, &cs);
      row[sinAt + i] = static_cast<T>(sn);
      row[cosAt + i] = static_cast<T>(cs);
    }
    if (t.dim % 2 == 1) row[d - 1] = T(0);
  }
  return true;
}

}  // namespace

const char* validate(const Timestep& t) {
  if (t.dim < 1 || t.dim > kMaxDModel) return "dim must be an integer in [1, 1048576]";
  if (!std::isfinite(t.maxPeriod) || !(t.maxPeriod > 0)) return "maxPeriod must be a finite number > 0";
  if (!(std::abs(t.downscaleFreqShift) <= kMaxMagnitude))
    return "downscaleFreqShift must be a finite number of magnitude at most 2^53";
  if (halfOf(t) > 1 && halfOf(t) - t.downscaleFreqShift == 0)
    return "downscaleFreqShift must differ from floor(dim / 2): the exponent divides by floor(dim / 2) - "
           "shift";
  if (!(std::abs(t.scale) <= kMaxMagnitude)) return "scale must be a finite number of magnitude at most 2^53";
  return nullptr;
}

void timestepFrequencies(const Timestep& t, double* out) {
  const double logPeriod = std::log(t.maxPeriod);
  for (int32_t i = 0; i < halfOf(t); ++i) out[i] = t.scale * std::exp(-logPeriod * exponentOf(t, i));
}

bool timestepEmbedding(const Timestep& t, const double* timesteps, int64_t count, float* out) {
  return embed(t, timesteps, count, out);
}
bool timestepEmbedding(const Timestep& t, const double* timesteps, int64_t count, double* out) {
  return embed(t, timesteps, count, out);
}

}  // namespace posenc
