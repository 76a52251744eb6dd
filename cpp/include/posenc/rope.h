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
  int32_t rotaryDim = 128;  // even, >= 2 (>= 4 for kDynamic)
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

// Rows of the cos and sin caches, [rotaryDim] each, a chunk at a time, for
// positions start, start + 1, ...: attentionFactor * cos(position * invFreq)
// laid out per `layout`. Float32 rows come from the float64 angle-addition
// recurrence of the sinusoidal table (reseeded from exact sin/cos), float64
// rows from sin/cos of each angle.
class CacheWriter {
 public:
  // precision.position and precision.angle round every angle (roundedAngle());
  // rows are then evaluated directly, float32 ones too.
  CacheWriter(const double* invFreq, int32_t pairs, double attentionFactor, Layout layout, double start,
              const Precision& precision = {});
  ~CacheWriter();
  CacheWriter(const CacheWriter&) = delete;
  CacheWriter& operator=(const CacheWriter&) = delete;

  void write(float* cos, float* sin, int64_t rows);
  void write(double* cos, double* sin, int64_t rows);
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
  int32_t headDim = 0;
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

// For q = k = (1, ..., 1) / sqrt(headDim) and k = 0..maxOffset:
//   scores[k] = q . R(from)^T R(from + k) k, R(m) rotating pairs by m * invFreq
//               and scaling them by attentionFactor (as the cache does),
//   bound[k]  = (1 / pairs) * sum_{j=1..pairs} |S_j|, S_j = sum_{l<j} e^{i k invFreq_l},
// RoFormer's relative upper bound of the long-term decay, normalised as its
// §3.4.3 writes it (1 / (d/2), d the rotated width). The angles of
// R(from) and R(from + k) are rounded per precision.position and
// precision.angle (the bound is the frequencies' own). False when scratch
// memory is unavailable.
bool scores(const double* invFreq, int32_t pairs, double attentionFactor, int32_t headDim, double from,
            int64_t maxOffset, double* scores, double* bound, const Precision& precision = {});

}  // namespace posenc::rope
