// The library's limits, defined once: the core checks against them and the
// binding reports them to JS (cpp/bindings/boundary.cpp), whose validation
// uses the same numbers (web/lib/limits.js, checked against the report).
#pragma once

#include <cstdint>

// X(constant, name in the report, type, value).
#define POSENC_LIMITS(X)                                                                         \
  /* dModel of a sinusoidal encoding: 2^20 columns */                                            \
  X(kMaxDModel, maxDModel, int32_t, 1048576)                                                     \
  /* A position, start, scale or frequencyScale: beyond 2^53 positions are no longer distinct */ \
  /* integers, and products such as 2 * start, pos * w or scale^2 * dModel could overflow. */    \
  X(kMaxMagnitude, maxMagnitude, double, 9007199254740992.0)

// The RoPE functions' limits (posenc::rope), reported only by modules that
// have them.
#define POSENC_ROPE_LIMITS(X)                                                    \
  /* A head's dimension: far above any in use (DeepSeek's 192, Gemma's 256). */  \
  X(kMaxHeadDim, maxHeadDim, int32_t, 65536)                                     \
  /* The context of Su Jianlin's base criterion: supportedContext's limit and */ \
  /* smallestBase's context. */                                                  \
  X(kMaxContext, maxContext, int64_t, 1048576)                                   \
  /* The largest base smallestBase searches. */                                  \
  X(kMaxBase, maxBase, double, 1e12)

namespace posenc {

#define POSENC_LIMIT_CONSTANT(id, name, type, value) constexpr type id = value;
POSENC_LIMITS(POSENC_LIMIT_CONSTANT)
namespace rope {
POSENC_ROPE_LIMITS(POSENC_LIMIT_CONSTANT)
}
#undef POSENC_LIMIT_CONSTANT

}  // namespace posenc
