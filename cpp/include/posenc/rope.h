// Rotary position embedding (RoPE, RoFormer): the frequencies of every
// Hugging Face rope type, cos/sin caches, rotation of queries and keys, and
// the relative scores of the RoFormer paper (§3.4.3).
//
// Plain C++17, like posenc.h. Frequencies follow transformers'
// src/transformers/modeling_rope_utils.py (docs/rope.md names the commit),
// evaluated in float64 in the same order of operations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>

#include "posenc/posenc.h"

namespace posenc::rope {

// The rope types of Hugging Face's rope_scaling (POSENC_ENUMERATOR: posenc.h).
#define POSENC_ROPE_SCALINGS(X) \
  X(kDefault, "default", 0)     \
  X(kLinear, "linear", 1)       \
  X(kDynamic, "dynamic", 2)     \
  X(kYarn, "yarn", 3)           \
  X(kLongrope, "longrope", 4)   \
  X(kLlama3, "llama3", 5)

enum class Scaling : int32_t { POSENC_ROPE_SCALINGS(POSENC_ENUMERATOR) };

// Where the two members of pair i sit in a head of rotaryDim values: the
// sinusoidal table's numbering (kHalf is its kConcat), one enum for both.
using Layout = posenc::Layout;

constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();

// A fully resolved configuration: the JS options layer has applied every
// default and fallback (HF's standardize_rope_params) and checked the ranges.
struct Params {
  int32_t rotaryDim = 128;  // even, in [2, kMaxHeadDim] (>= 4 for kDynamic)
  double base = 10000.0;    // rope_theta
  Scaling scaling = Scaling::kDefault;
  double factor = 1.0;                               // kAbsent (yarn, longrope): max / original
  double originalMaxPositionEmbeddings = kAbsent;    // yarn, longrope, llama3
  double maxPositionEmbeddings = kAbsent;            // dynamic; yarn/longrope without factor
  double seqLen = 0;                                 // 0: none (dynamic, longrope)
  double betaFast = 32.0, betaSlow = 1.0;            // yarn
  double mscale = 0, mscaleAllDim = 0;               // yarn; 0 means absent, as in HF
  double attentionFactor = kAbsent;                  // yarn, longrope: kAbsent derives it
  bool truncate = true;                              // yarn
  double lowFreqFactor = 1.0, highFreqFactor = 4.0;  // llama3
  const double* shortFactor = nullptr;               // longrope: rotaryDim/2 values each
  const double* longFactor = nullptr;
  // The exponent 2i/rotaryDim and the final inverse frequencies are rounded
  // per precision.exponent and precision.frequency (positions and angles are
  // the business of the cache, apply and scores, which take a Precision).
  Precision precision = {};
};

// nullptr when `p` is usable, else a static message naming the bad field.
const char* validate(const Params& p);

// invFreq[0, rotaryDim/2) and the attention factor HF multiplies cos and sin
// by. NaN when `p` is not valid.
double frequencies(const Params& p, double* invFreq);

// The rows of the cos and sin caches, [2 * pairs] each, for positions start,
// start + 1, ...: attentionFactor * cos(position * invFreq) laid out per
// `layout`; the angles are rounded per precision.position and precision.angle.
struct Cache {
  const double* invFreq = nullptr;  // pairs values
  int32_t pairs = 0;
  double attentionFactor = 1.0;
  Layout layout = Layout::kHalf;
  double start = 0;
  Precision precision = {};
};

// Writes the rows of a Cache a chunk at a time. Float32 rows come from the
// float64 angle-addition recurrence of the sinusoidal table (reseeded from
// exact sin/cos), float64 rows, and rows whose angles are rounded
// (roundedAngle()), from sin/cos of each angle.
class CacheWriter {
 public:
  // The writer keeps a copy of c.invFreq.
  explicit CacheWriter(const Cache& c);
  ~CacheWriter();
  CacheWriter(const CacheWriter&) = delete;
  CacheWriter& operator=(const CacheWriter&) = delete;

  void write(float* cos, float* sin, int64_t rows);
  void write(double* cos, double* sin, int64_t rows);
  // False when scratch memory is unavailable or the Cache is not usable.
  bool ok() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// A rotation of x, [tokens x heads x headDim] row-major: the first 2 * pairs
// values of every head turn by position * invFreq (times attentionFactor),
// the rest are copied. Token t is at positions[t], or at start + t when
// positions is null; the angles are rounded per precision.position and
// precision.angle.
struct Rotation {
  const double* invFreq = nullptr;  // pairs values
  int32_t pairs = 0;
  double attentionFactor = 1.0;
  Layout layout = Layout::kHalf;
  int32_t headDim = 0;  // at most kMaxHeadDim (posenc/limits.h)
  int32_t heads = 1;
  int64_t tokens = 0;
  const double* positions = nullptr;  // tokens values, or null
  double start = 0;
  Precision precision = {};
};

// x rotated into out (which may be x); arithmetic in float64, rounded once.
// False when scratch memory is unavailable or `r` is not usable.
bool apply(const Rotation& r, const float* x, float* out);
bool apply(const Rotation& r, const double* x, double* out);

// The relative scores of the RoFormer paper for q = k = (1, ..., 1) /
// sqrt(headDim) and offsets k = 0..maxOffset from position `from`: the first
// 2 * pairs values of the head turn by position * invFreq (and are scaled by
// attentionFactor, as the cache does), the rest do not turn. The angles are
// rounded per precision.position and precision.angle.
struct Scores {
  const double* invFreq = nullptr;  // pairs values
  int32_t pairs = 0;
  double attentionFactor = 1.0;
  int32_t headDim = 0;  // at most kMaxHeadDim (posenc/limits.h)
  double from = 0;
  int64_t maxOffset = 0;
  Precision precision = {};
};

// For k = 0..s.maxOffset (maxOffset + 1 values each):
//   out[k]   = q . R(from)^T R(from + k) k, R(m) rotating pairs by m * invFreq,
//   bound[k] = (1 / pairs) * sum_{j=1..pairs} |S_j|, S_j = sum_{l<j} e^{i k invFreq_l},
// RoFormer's relative upper bound of the long-term decay, normalised as its
// §3.4.3 writes it (1 / (d/2), d the rotated width); the bound is the
// frequencies' own (no rounding). False when scratch memory is unavailable
// or `s` is not usable.
bool scores(const Scores& s, double* out, double* bound);

}  // namespace posenc::rope
