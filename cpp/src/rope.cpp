#include "posenc/rope.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "kernels.h"
#include "oscillators.h"
#include "posenc/limits.h"
#include "precision.h"

namespace posenc::rope {

namespace {

constexpr double kPi = 3.141592653589793;

bool positive(double x) { return std::isfinite(x) && x > 0; }

bool present(double x) { return !std::isnan(x); }

// pos_freqs of HF: base ** (arange(0, dim, 2) / dim).
double power(const Params& p, double base, int32_t i) {
  const double exponent = static_cast<double>(2 * i) / static_cast<double>(p.rotaryDim);
  return std::pow(base, roundTo(p.precision.exponent, exponent));
}

// The inverse frequencies rounded per p.precision.frequency; returns attentionFactor.
double rounded(const Params& p, double* invFreq, double attentionFactor) {
  const int32_t n = p.rotaryDim / 2;
  for (int32_t i = 0; i < n; ++i) invFreq[i] = roundTo(p.precision.frequency, invFreq[i]);
  return attentionFactor;
}

// Yarn and longrope without a factor take max / original (HF's fallback).
double factorOrRatio(const Params& p) {
  return present(p.factor) ? p.factor : p.maxPositionEmbeddings / p.originalMaxPositionEmbeddings;
}

// get_mscale of _compute_yarn_parameters.
double yarnMscale(double scale, double mscale) {
  if (scale <= 1) return 1.0;
  return 0.1 * mscale * std::log(scale) + 1.0;
}

// find_correction_dim: the pair index whose wavelength fits `rotations`
// times into the original context.
double correctionDim(double rotations, double dim, double base, double original) {
  return (dim * std::log(original / (rotations * 2 * kPi))) / (2 * std::log(base));
}

using detail::sinCos;

// Column j of a cache row belongs to this pair.
inline int32_t pairOfColumn(Layout layout, int32_t pairs, int32_t j) {
  return layout == Layout::kHalf ? j % pairs : j / 2;
}

}  // namespace

const char* validate(const Params& p) {
  if (const char* message = posenc::validate(p.precision)) return message;
  if (p.rotaryDim < 2 || p.rotaryDim % 2 != 0 || p.rotaryDim > kMaxHeadDim)
    return "rotaryDim must be an even integer in [2, 65536]";
  if (!(std::isfinite(p.base) && p.base > 1)) return "base must be a finite number > 1";
  const bool needsFactor =
      p.scaling == Scaling::kLinear || p.scaling == Scaling::kDynamic || p.scaling == Scaling::kLlama3;
  if (needsFactor && !positive(p.factor)) return "scaling.factor must be a finite number > 0";
  const bool ratioFallback = p.scaling == Scaling::kYarn || p.scaling == Scaling::kLongrope;
  if (ratioFallback) {
    if (!positive(p.originalMaxPositionEmbeddings))
      return "scaling.originalMaxPositionEmbeddings must be a finite number > 0";
    if (present(p.factor) ? !positive(p.factor) : !positive(factorOrRatio(p)))
      return "scaling.factor must be a finite number > 0 (or maxPositionEmbeddings given)";
    if (present(p.attentionFactor) && !positive(p.attentionFactor))
      return "scaling.attentionFactor must be a finite number > 0";
  }
  if (!(std::isfinite(p.seqLen) && p.seqLen >= 0)) return "seqLen must be a finite number >= 0";
  switch (p.scaling) {
    case Scaling::kDefault:
    case Scaling::kLinear:
      break;
    case Scaling::kDynamic:
      if (p.rotaryDim < 4) return "rotaryDim must be >= 4 with dynamic scaling (exponent dim / (dim - 2))";
      if (!positive(p.maxPositionEmbeddings))
        return "scaling.maxPositionEmbeddings must be a finite number > 0";
      break;
    case Scaling::kYarn:
      if (!positive(p.betaFast)) return "scaling.betaFast must be a finite number > 0";
      if (!positive(p.betaSlow)) return "scaling.betaSlow must be a finite number > 0";
      if (!(std::isfinite(p.mscale) && p.mscale >= 0)) return "scaling.mscale must be a finite number >= 0";
      if (!(std::isfinite(p.mscaleAllDim) && p.mscaleAllDim >= 0))
        return "scaling.mscaleAllDim must be a finite number >= 0";
      break;
    case Scaling::kLongrope:
      if (!p.shortFactor || !p.longFactor) return "scaling.shortFactor and scaling.longFactor are required";
      for (int32_t i = 0; i < p.rotaryDim / 2; ++i) {
        if (!positive(p.shortFactor[i])) return "scaling.shortFactor must hold finite numbers > 0";
        if (!positive(p.longFactor[i])) return "scaling.longFactor must hold finite numbers > 0";
      }
      break;
    case Scaling::kLlama3:
      if (!positive(p.originalMaxPositionEmbeddings))
        return "scaling.originalMaxPositionEmbeddings must be a finite number > 0";
      if (!positive(p.lowFreqFactor)) return "scaling.lowFreqFactor must be a finite number > 0";
      if (!(std::isfinite(p.highFreqFactor) && p.highFreqFactor > p.lowFreqFactor))
        return "scaling.highFreqFactor must be a finite number > lowFreqFactor";
      break;
    default:
      return "scaling.type is unknown";
  }
  return nullptr;
}

namespace {
double unroundedFrequencies(const Params& p, double* invFreq) {
  const int32_t n = p.rotaryDim / 2;
  const double dim = static_cast<double>(p.rotaryDim);
  // Every type but dynamic starts from the unscaled ladder 1 / base^(2i/dim).
  double base = p.base;
  if (p.scaling == Scaling::kDynamic) {
    // seq_len defaults to, and is at least, max_position_embeddings.
    const double max = p.maxPositionEmbeddings;
    const double seqLen = p.seqLen > max ? p.seqLen : max;
    base = base * std::pow((p.factor * seqLen / max) - (p.factor - 1), dim / (dim - 2));
  }
  for (int32_t i = 0; i < n; ++i) invFreq[i] = 1.0 / power(p, base, i);

  switch (p.scaling) {
    case Scaling::kDefault:
    case Scaling::kDynamic:
      return 1.0;
    case Scaling::kLinear:
      for (int32_t i = 0; i < n; ++i) invFreq[i] /= p.factor;
      return 1.0;
    case Scaling::kYarn: {
      const double factor = factorOrRatio(p);
      double attentionFactor = p.attentionFactor;
      if (!present(attentionFactor)) {
        attentionFactor = p.mscale != 0 && p.mscaleAllDim != 0
                              ? yarnMscale(factor, p.mscale) / yarnMscale(factor, p.mscaleAllDim)
                              : yarnMscale(factor, 1);
      }
      const double original = p.originalMaxPositionEmbeddings;
      double low = correctionDim(p.betaFast, dim, p.base, original);
      double high = correctionDim(p.betaSlow, dim, p.base, original);
      if (p.truncate) {
        low = std::floor(low);
        high = std::ceil(high);
      }
      low = std::max(low, 0.0);
      high = std::min(high, dim - 1);
      if (low == high) high += 0.001;  // HF: "Prevent singularity"
      for (int32_t i = 0; i < n; ++i) {
        const double posFreq = power(p, p.base, i);
        const double extrapolation = 1.0 / posFreq;
        const double interpolation = 1.0 / (factor * posFreq);
        const double ramp = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
        const double extrapolationFactor = 1 - ramp;
        invFreq[i] = interpolation * (1 - extrapolationFactor) + extrapolation * extrapolationFactor;
      }
      return attentionFactor;
    }
    case Scaling::kLongrope: {
      const double factor = factorOrRatio(p);
      const double original = p.originalMaxPositionEmbeddings;
      double attentionFactor = p.attentionFactor;
      if (!present(attentionFactor))
        attentionFactor = factor <= 1.0 ? 1.0 : std::sqrt(1 + std::log(factor) / std::log(original));
      // Long factors once the sequence is longer than the original context.
      const double* ext = p.seqLen > original ? p.longFactor : p.shortFactor;
      for (int32_t i = 0; i < n; ++i) invFreq[i] = 1.0 / (ext[i] * power(p, p.base, i));
      return attentionFactor;
    }
    case Scaling::kLlama3: {
      const double old = p.originalMaxPositionEmbeddings;
      const double lowWavelength = old / p.lowFreqFactor;
      const double highWavelength = old / p.highFreqFactor;
      for (int32_t i = 0; i < n; ++i) {
        const double wavelength = 2 * kPi / invFreq[i];
        const double scaled = wavelength > lowWavelength ? invFreq[i] / p.factor : invFreq[i];
        const bool medium = !(wavelength < highWavelength) && !(wavelength > lowWavelength);
        if (medium) {
          const double smooth = (old / wavelength - p.lowFreqFactor) / (p.highFreqFactor - p.lowFreqFactor);
          invFreq[i] = (1 - smooth) * scaled / p.factor + smooth * scaled;
        } else {
          invFreq[i] = scaled;
        }
      }
      return 1.0;
    }
  }
  return std::nan("");
}
}  // namespace

double frequencies(const Params& p, double* invFreq) {
  if (validate(p) != nullptr) return std::nan("");
  return rounded(p, invFreq, unroundedFrequencies(p, invFreq));
}

// ---- caches ----

namespace {
// As in the table writer (table.cpp): rows per kernel call, oscillators per
// tile, and the bytes of rows every tile writes before the next rows start.
constexpr int64_t kRowsPerKernelCall = 8;
constexpr size_t kTileOscillators = 128;
constexpr size_t kGroupBytes = 32 * 1024;
}  // namespace

struct CacheWriter::State {
  int32_t pairs;
  double attentionFactor;
  Layout layout;
  double start;
  int64_t nextRow = 0;
  int64_t stepsSinceSeed = detail::kReseedInterval;  // seed before the first row
  std::unique_ptr<double[]> invFreq;
  Precision precision;
  // a = cos, b = sin. Half layout: one oscillator per pair, writing the
  // first half of a row, which is then copied to the second while in L1
  // (8192 x 128: 0.86 instead of 0.95 ms of CPU in Node, medians of a busy
  // machine). Interleaved: one oscillator per column, so that every store is
  // a whole SIMD vector [c_i, c_i, c_i+1, c_i+1] without shuffles.
  std::unique_ptr<detail::Oscillators> columns;  // null where angles are rounded
  // Rows evaluated directly: one row's angles, sines and cosines (3 * pairs),
  // and their sin and cos (kept for float16 and bfloat16 angles).
  std::unique_ptr<double[]> rowScratch = nullptr;
  detail::AngleSinCos angleSinCos{precision.angle};

  template <typename T>
  void writeDirect(T* cos, T* sin, int64_t rows);
};

CacheWriter::CacheWriter(const Cache& c)
    : state_(new (std::nothrow) State{c.pairs, c.attentionFactor, c.layout, c.start, 0,
                                      detail::kReseedInterval, nullptr, c.precision, nullptr}) {
  const int32_t pairs = c.pairs;
  const Layout layout = c.layout;
  if (!state_ || pairs < 1 || pairs > kMaxHeadDim / 2 || !c.invFreq ||
      !(std::fabs(c.start) <= kMaxMagnitude) || posenc::validate(c.precision) != nullptr) {
    state_.reset();
    return;
  }
  const int32_t d = layout == Layout::kHalf ? pairs : 2 * pairs;
  state_->invFreq.reset(new (std::nothrow) double[pairs]);
  std::unique_ptr<double[]> columnFrequencies(new (std::nothrow) double[d]);
  if (!state_->invFreq || !columnFrequencies) {
    state_.reset();
    return;
  }
  std::copy(c.invFreq, c.invFreq + pairs, state_->invFreq.get());
  // float64 rows, and every row where angles are rounded, are evaluated directly.
  state_->rowScratch.reset(new (std::nothrow) double[3 * static_cast<size_t>(pairs)]);
  if (!state_->rowScratch) {
    state_.reset();
    return;
  }
  if (!linearAngles(c.precision)) return;  // no recurrence
  for (int32_t j = 0; j < d; ++j) columnFrequencies[j] = c.invFreq[pairOfColumn(layout, pairs, j)];
  state_->columns.reset(new (std::nothrow) detail::Oscillators(columnFrequencies.get(), d, /*swapped=*/true,
                                                               c.attentionFactor));
  if (!state_->columns || !state_->columns->ok()) state_.reset();
}

CacheWriter::~CacheWriter() = default;

bool CacheWriter::ok() const { return state_ != nullptr; }

void CacheWriter::write(float* cos, float* sin, int64_t rows) {
  if (!state_) return;
  State& st = *state_;
  if (!st.columns) {
    st.writeDirect(cos, sin, rows);
    return;
  }
  const size_t d = static_cast<size_t>(2 * st.pairs);
  const bool half = st.layout == Layout::kHalf;
  const size_t n = static_cast<size_t>(st.pairs);
  const kernels::Bank bank = st.columns->bank();
  const int64_t groupRows =
      std::max<int64_t>(kRowsPerKernelCall, static_cast<int64_t>(kGroupBytes / (d * sizeof(float))) /
                                                kRowsPerKernelCall * kRowsPerKernelCall);
  // Runs between reseeds; groups of rows within a run; one tile of
  // oscillators at a time down a group, its state staying in L1.
  for (int64_t r = 0; r < rows;) {
    if (st.stepsSinceSeed == detail::kReseedInterval) {
      st.columns->seed(st.start + static_cast<double>(st.nextRow));
      st.stepsSinceSeed = 0;
    }
    const int64_t run = std::min(rows - r, detail::kReseedInterval - st.stepsSinceSeed);
    for (int64_t group = 0; group < run; group += groupRows) {
      const int64_t groupEnd = std::min(run, group + groupRows);
      for (size_t first = 0; first < bank.size; first += kTileOscillators) {
        const size_t count = std::min(bank.size - first, kTileOscillators);
        const kernels::Bank tile = kernels::slice(bank, first, count);
        for (int64_t done = group; done < groupEnd; done += kRowsPerKernelCall) {
          const size_t rowsNow = static_cast<size_t>(std::min(groupEnd - done, kRowsPerKernelCall));
          const size_t at = static_cast<size_t>(r + done) * d + first;
          kernels::writeSplitRows(tile, rowsNow, cos + at, sin + at, d);
          if (!half) continue;
          // The rows just written are in L1: their second halves repeat them.
          for (size_t k = 0; k < rowsNow; ++k) {
            kernels::copy(cos + at + k * d + n, cos + at + k * d, count);
            kernels::copy(sin + at + k * d + n, sin + at + k * d, count);
          }
        }
      }
    }
    r += run;
    st.nextRow += run;
    st.stepsSinceSeed += run;
  }
}

void CacheWriter::write(double* cos, double* sin, int64_t rows) {
  if (!state_) return;
  state_->writeDirect(cos, sin, rows);
}

// Rows from sin/cos of each (rounded) angle, each value rounded once to T:
// the position rounded once per row, the angles a row at a time, and a row
// whose rounded position is the previous row's repeats it.
template <typename T>
void CacheWriter::State::writeDirect(T* cos, T* sin, int64_t rows) {
  const size_t n = static_cast<size_t>(pairs);
  const size_t d = 2 * n;
  double* angles = rowScratch.get();
  double* sines = angles + n;
  double* cosines = sines + n;
  bool havePrevious = false;
  double previousPosition = 0;
  for (int64_t r = 0; r < rows; ++r, ++nextRow) {
    const double position = roundTo(precision.position, start + static_cast<double>(nextRow));
    T* c = cos + static_cast<size_t>(r) * d;
    T* s = sin + static_cast<size_t>(r) * d;
    if (havePrevious && std::memcmp(&position, &previousPosition, sizeof position) == 0) {
      std::copy(c - d, c, c);
      std::copy(s - d, s, s);
      continue;
    }
    havePrevious = true;
    previousPosition = position;
    detail::roundedAngles(precision.angle, position, invFreq.get(), n, angles);
    angleSinCos.evaluate(angles, n, sines, cosines);
    for (size_t i = 0; i < n; ++i) {
      const size_t first = layout == Layout::kHalf ? i : 2 * i;
      const size_t second = layout == Layout::kHalf ? first + n : first + 1;
      c[first] = c[second] = static_cast<T>(attentionFactor * cosines[i]);
      s[first] = s[second] = static_cast<T>(attentionFactor * sines[i]);
    }
  }
}

// ---- rotation ----

namespace {

template <typename T>
bool applyRotation(const Rotation& r, const T* x, T* out) {
  const double* invFreq = r.invFreq;
  const int32_t pairs = r.pairs, headDim = r.headDim, heads = r.heads;
  const int64_t tokens = r.tokens;
  const double attentionFactor = r.attentionFactor;
  const Layout layout = r.layout;
  const Precision& precision = r.precision;
  if (posenc::validate(precision) != nullptr) return false;
  if (!invFreq || pairs < 1 || 2 * pairs > headDim || headDim > kMaxHeadDim || heads < 1 || tokens < 0)
    return false;
  std::unique_ptr<double[]> cs(new (std::nothrow) double[2 * static_cast<size_t>(pairs)]);
  if (!cs) return false;
  double* c = cs.get();
  double* s = c + pairs;
  const size_t hd = static_cast<size_t>(headDim);
  for (int64_t t = 0; t < tokens; ++t) {
    const double position = r.positions ? r.positions[t] : r.start + static_cast<double>(t);
    for (int32_t i = 0; i < pairs; ++i) {
      sinCos(roundedAngle(precision, position, invFreq[i]), &s[i], &c[i]);
      c[i] *= attentionFactor;
      s[i] *= attentionFactor;
    }
    for (int32_t h = 0; h < heads; ++h) {
      const size_t at = (static_cast<size_t>(t) * static_cast<size_t>(heads) + static_cast<size_t>(h)) * hd;
      const T* in = x + at;
      T* o = out + at;
      for (int32_t i = 0; i < pairs; ++i) {
        const size_t first = layout == Layout::kHalf ? static_cast<size_t>(i) : 2 * static_cast<size_t>(i);
        const size_t second = layout == Layout::kHalf ? first + static_cast<size_t>(pairs) : first + 1;
        // Both read before either is written: out may be x.
        const double a = in[first], b = in[second];
        o[first] = static_cast<T>(a * c[i] - b * s[i]);
        o[second] = static_cast<T>(b * c[i] + a * s[i]);
      }
      if (o != in) std::copy(in + 2 * pairs, in + hd, o + 2 * pairs);
    }
  }
  return true;
}

}  // namespace

bool apply(const Rotation& r, const float* x, float* out) { return applyRotation(r, x, out); }

bool apply(const Rotation& r, const double* x, double* out) { return applyRotation(r, x, out); }

// ---- relative scores ----

bool scores(const Scores& s, double* out, double* bound) {
  const double* invFreq = s.invFreq;
  const int32_t pairs = s.pairs, headDim = s.headDim;
  const double from = s.from;
  const Precision& precision = s.precision;
  if (!invFreq || pairs < 1 || 2 * pairs > headDim || headDim > kMaxHeadDim || s.maxOffset < 0 ||
      !(std::fabs(from) <= kMaxMagnitude) || posenc::validate(precision) != nullptr)
    return false;
  // Rounded angles are no sinusoids of the offset: R(from + k) from sin/cos of each.
  const bool rounded = !linearAngles(precision);
  // R(from) applied to q: exact sin/cos at `from`.
  std::unique_ptr<double[]> atFrom(new (std::nothrow) double[2 * static_cast<size_t>(pairs)]);
  if (!atFrom) return false;
  double* cosFrom = atFrom.get();
  double* sinFrom = cosFrom + pairs;
  for (int32_t i = 0; i < pairs; ++i)
    sinCos(roundedAngle(precision, from, invFreq[i]), &sinFrom[i], &cosFrom[i]);
  // R(from + k): oscillators stepping k (a = sin, b = cos) ...
  detail::Oscillators moving(invFreq, pairs, /*swapped=*/false, 1.0);
  // ... and e^{i k w_l} for the partial sums S_j.
  detail::Oscillators relative(invFreq, pairs, /*swapped=*/false, 1.0);
  if (!moving.ok() || !relative.ok()) return false;
  const kernels::Bank m = moving.bank(), rel = relative.bank();
  // Each pair (u, u), u = 1/sqrt(headDim), turned by R: u (c - s, s + c); two
  // such dot to 2 u^2 (c1 c2 + s1 s2). Unrotated columns add u^2 each.
  const double pairWeight = s.attentionFactor * s.attentionFactor * 2.0 / headDim;
  const double unrotated = static_cast<double>(headDim - 2 * pairs) / headDim;
  const auto step = [](const kernels::Bank& bank) {
    for (size_t i = 0; i < bank.size; ++i) {
      const double nextA = bank.twiceCos[i] * bank.a[i] - bank.previousA[i];
      const double nextB = bank.twiceCos[i] * bank.b[i] - bank.previousB[i];
      bank.previousA[i] = bank.a[i];
      bank.previousB[i] = bank.b[i];
      bank.a[i] = nextA;
      bank.b[i] = nextB;
    }
  };
  for (int64_t k = 0; k <= s.maxOffset; ++k) {
    if (k % detail::kReseedInterval == 0) {
      moving.seed(from + static_cast<double>(k));
      relative.seed(static_cast<double>(k));
    }
    double dot = 0, re = 0, im = 0, sum = 0;
    for (int32_t i = 0; i < pairs; ++i) {
      if (rounded)
        sinCos(roundedAngle(precision, from + static_cast<double>(k), invFreq[i]), &m.a[i], &m.b[i]);
      dot += cosFrom[i] * m.b[i] + sinFrom[i] * m.a[i];
      re += rel.b[i];
      im += rel.a[i];
      sum += std::sqrt(re * re + im * im);  // |S_{i+1}|
    }
    out[k] = pairWeight * dot + unrotated;
    bound[k] = sum / pairs;
    step(m);
    step(rel);
  }
  return true;
}

}  // namespace posenc::rope
