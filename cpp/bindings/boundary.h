// The one definition of what crosses between web/lib and the module: the
// numbers of a call's options, staged by JS as doubles into a block of wasm
// memory in the order below and read back here. An Embind value_object would
// cost a call into wasm per field. The binding reports these lists, the
// enums (posenc.h, rope.h) and the limits (limits.h) by name, and
// web/lib/boundary.js refuses at load a module whose report differs from
// what it stages. Plain C++ (no Emscripten), so the native tests read it too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/elsewhere.h"
#include "posenc/limits.h"
#include "posenc/posenc.h"
#include "posenc/rope.h"

// X(name in JS, member of posenc::Encoding). The names are the keys of the
// parameters web/lib/options.js resolves.
#define POSENC_ENCODING_FIELDS(X)        \
  X(dModel, dModel)                      \
  X(layout, layout)                      \
  X(exponent, exponent)                  \
  X(order, order)                        \
  X(angle, angle)                        \
  X(base, base)                          \
  X(frequencyScale, frequencyScale)      \
  X(start, start)                        \
  X(paddingRow, paddingRow)              \
  X(scale, scale)                        \
  X(oddColumn, oddColumn)                \
  X(exponentDtype, precision.exponent)   \
  X(frequencyDtype, precision.frequency) \
  X(positionDtype, precision.position)   \
  X(angleDtype, precision.angle)

// X(name in JS, member of posenc::rope::Params): the keys of the parameters
// web/lib/rope-options.js resolves (shortFactor and longFactor, arrays, are
// passed beside the block).
#define POSENC_ROPE_FIELDS(X)                                     \
  X(rotaryDim, rotaryDim)                                         \
  X(scaling, scaling)                                             \
  X(base, base)                                                   \
  X(factor, factor)                                               \
  X(originalMaxPositionEmbeddings, originalMaxPositionEmbeddings) \
  X(maxPositionEmbeddings, maxPositionEmbeddings)                 \
  X(seqLen, seqLen)                                               \
  X(betaFast, betaFast)                                           \
  X(betaSlow, betaSlow)                                           \
  X(mscale, mscale)                                               \
  X(mscaleAllDim, mscaleAllDim)                                   \
  X(attentionFactor, attentionFactor)                             \
  X(truncate, truncate)                                           \
  X(lowFreqFactor, lowFreqFactor)                                 \
  X(highFreqFactor, highFreqFactor)                               \
  X(exponentDtype, precision.exponent)                            \
  X(frequencyDtype, precision.frequency)

// X(name in JS, member of posenc::Timestep): the keys of the parameters
// web/lib/elsewhere-options.js resolves for timestepEmbedding (the timesteps,
// an array, are passed beside the block).
#define POSENC_TIMESTEP_FIELDS(X)           \
  X(dim, dim)                               \
  X(maxPeriod, maxPeriod)                   \
  X(flipSinToCos, flipSinToCos)             \
  X(downscaleFreqShift, downscaleFreqShift) \
  X(scale, scale)

// X(name in JS, member of posenc::Grid2d): the keys of the parameters
// web/lib/elsewhere-options.js resolves for sincosGrid2d.
#define POSENC_GRID_FIELDS(X)               \
  X(dim, dim)                               \
  X(height, height)                         \
  X(width, width)                           \
  X(axisOrder, axisOrder)                   \
  X(extraTokens, extraTokens)               \
  X(baseSize, baseSize)                     \
  X(interpolationScale, interpolationScale) \
  X(base, base)                             \
  X(coordinateDtype, coordinateDtype)

// X(name in JS, member of posenc::Grid3d): the keys of the parameters
// web/lib/elsewhere-options.js resolves for sincosGrid3d.
#define POSENC_GRID3D_FIELDS(X)                             \
  X(dim, dim)                                               \
  X(frames, frames)                                         \
  X(height, height)                                         \
  X(width, width)                                           \
  X(axisOrder, axisOrder)                                   \
  X(extraTokens, extraTokens)                               \
  X(spatialInterpolationScale, spatialInterpolationScale)   \
  X(temporalInterpolationScale, temporalInterpolationScale) \
  X(base, base)                                             \
  X(coordinateDtype, coordinateDtype)

// Limits of the transport itself, X(constant, name in the report, type, value)
// as in limits.h.
#define POSENC_TRANSPORT_LIMITS(X)                                         \
  /* Bytes of one result array: what a wasm32 heap (and a scratch copy) */ \
  /* can hold. */                                                          \
  X(kMaxBytes, maxBytes, double, 2147483647.0)

namespace posenc::bindings {

#define POSENC_FIELD_INDEX(name, member) name,
namespace encoding_field {
enum Index : size_t { POSENC_ENCODING_FIELDS(POSENC_FIELD_INDEX) kCount };
}
namespace rope_field {
enum Index : size_t { POSENC_ROPE_FIELDS(POSENC_FIELD_INDEX) kCount };
}
namespace timestep_field {
enum Index : size_t { POSENC_TIMESTEP_FIELDS(POSENC_FIELD_INDEX) kCount };
}
namespace grid_field {
enum Index : size_t { POSENC_GRID_FIELDS(POSENC_FIELD_INDEX) kCount };
}
namespace grid3d_field {
enum Index : size_t { POSENC_GRID3D_FIELDS(POSENC_FIELD_INDEX) kCount };
}
#undef POSENC_FIELD_INDEX

#define POSENC_LIMIT_CONSTANT(id, name, type, value) constexpr type id = value;
POSENC_TRANSPORT_LIMITS(POSENC_LIMIT_CONSTANT)
#undef POSENC_LIMIT_CONSTANT

// The staged blocks (boundary.cpp): one call at a time writes and reads them.
extern double* const stagedEncoding;
extern double* const stagedRope;
// The timestep block, then the 2-D grid's, then the 3-D grid's (a block of
// their own after the RoPE block, so that neither list moves the other's fields).
extern double* const stagedTimestep;
extern double* const stagedGrid;
extern double* const stagedGrid3d;

// A staged double as the member's type: enums through their int32_t, bool as != 0.
template <typename T>
void assign(T& member, double value) {
  if constexpr (std::is_same_v<T, bool>)
    member = value != 0;
  else if constexpr (std::is_enum_v<T>)
    member = static_cast<T>(static_cast<std::underlying_type_t<T>>(value));
  else
    member = static_cast<T>(value);
}

// The convention a staged block describes (validated by web/lib/options.js).
inline Encoding encodingFrom(const double* staged) {
  Encoding e;
#define POSENC_READ_FIELD(name, member) assign(e.member, staged[encoding_field::name]);
  POSENC_ENCODING_FIELDS(POSENC_READ_FIELD)
#undef POSENC_READ_FIELD
  return e;
}

// The RoPE configuration a staged block describes (validated by web/lib/rope-options.js).
inline rope::Params ropeParamsFrom(const double* staged) {
  rope::Params p;
#define POSENC_READ_FIELD(name, member) assign(p.member, staged[rope_field::name]);
  POSENC_ROPE_FIELDS(POSENC_READ_FIELD)
#undef POSENC_READ_FIELD
  return p;
}

// The timestep embedding a staged block describes (validated by web/lib/elsewhere-options.js).
inline Timestep timestepFrom(const double* staged) {
  Timestep t;
#define POSENC_READ_FIELD(name, member) assign(t.member, staged[timestep_field::name]);
  POSENC_TIMESTEP_FIELDS(POSENC_READ_FIELD)
#undef POSENC_READ_FIELD
  return t;
}

// The 2-D grid a staged block describes (validated by web/lib/elsewhere-options.js).
inline Grid2d gridFrom(const double* staged) {
  Grid2d g;
#define POSENC_READ_FIELD(name, member) assign(g.member, staged[grid_field::name]);
  POSENC_GRID_FIELDS(POSENC_READ_FIELD)
#undef POSENC_READ_FIELD
  return g;
}

// The 3-D grid a staged block describes (validated by web/lib/elsewhere-options.js).
inline Grid3d grid3dFrom(const double* staged) {
  Grid3d g;
#define POSENC_READ_FIELD(name, member) assign(g.member, staged[grid3d_field::name]);
  POSENC_GRID3D_FIELDS(POSENC_READ_FIELD)
#undef POSENC_READ_FIELD
  return g;
}

}  // namespace posenc::bindings
