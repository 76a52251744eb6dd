// What the module tells web/lib/boundary.js at load: the names of the staged
// blocks' fields in order, every enum's names and values, the limits (all from
// the lists of boundary.h, posenc.h, rope.h and limits.h) and where the blocks
// are. Text made by the compiler from those lists, one item a line: an Embind
// object built field by field would take much more of the module (wasm size).
#include "boundary.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>

namespace posenc::bindings {

// The encoding's block, then the RoPE configuration's: one address for both.
double staged[encoding_field::kCount + rope_field::kCount];
double* const stagedEncoding = staged;
double* const stagedRope = staged + encoding_field::kCount;

// The timestep block, then the 2-D and 3-D grids': one address for all three
// (read only by modules with elsewhere_bindings.cpp; the array costs the others nothing).
double stagedElsewhere[timestep_field::kCount + grid_field::kCount + grid3d_field::kCount];
double* const stagedTimestep = stagedElsewhere;
double* const stagedGrid = stagedElsewhere + timestep_field::kCount;
double* const stagedGrid3d = stagedGrid + grid_field::kCount;

}  // namespace posenc::bindings

using emscripten::val;

namespace {

#define POSENC_FIELD_NAME(name, member) " " #name
#define POSENC_ENUM_MEMBER(id, name, value) " " name " " #value
#define POSENC_LIMIT_LINE(id, name, type, value) "limit " #name " " #value "\n"

// The RoPE lines only in modules with the RoPE functions (CMakeLists.txt):
// the others read no RoPE block and check no RoPE limit.
#ifdef POSENC_ROPE_BINDINGS
#define POSENC_ROPE_REPORT \
  "ropeFields" POSENC_ROPE_FIELDS(POSENC_FIELD_NAME) "\n"       \
  "enum scaling" POSENC_ROPE_SCALINGS(POSENC_ENUM_MEMBER) "\n"  \
  POSENC_ROPE_LIMITS(POSENC_LIMIT_LINE)
#else
#define POSENC_ROPE_REPORT ""
#endif

// The timestep and grid lines only in modules with their functions: the core
// modules leave them out (their size budget), and read no such block.
#ifdef POSENC_ELSEWHERE_BINDINGS
#define POSENC_ELSEWHERE_REPORT \
  "timestepFields" POSENC_TIMESTEP_FIELDS(POSENC_FIELD_NAME) "\n"   \
  "gridFields" POSENC_GRID_FIELDS(POSENC_FIELD_NAME) "\n"           \
  "grid3dFields" POSENC_GRID3D_FIELDS(POSENC_FIELD_NAME) "\n"       \
  "enum axisOrder" POSENC_AXIS_ORDERS(POSENC_ENUM_MEMBER) "\n"
#else
#define POSENC_ELSEWHERE_REPORT ""
#endif

constexpr char kReport[] =
    "encodingFields" POSENC_ENCODING_FIELDS(POSENC_FIELD_NAME) "\n"
    "enum layout" POSENC_LAYOUTS(POSENC_ENUM_MEMBER) "\n"
    "enum exponent" POSENC_EXPONENTS(POSENC_ENUM_MEMBER) "\n"
    "enum order" POSENC_ORDERS(POSENC_ENUM_MEMBER) "\n"
    "enum angle" POSENC_ANGLES(POSENC_ENUM_MEMBER) "\n"
    "enum oddColumn" POSENC_ODD_COLUMNS(POSENC_ENUM_MEMBER) "\n"
    "enum dtype" POSENC_DTYPES(POSENC_ENUM_MEMBER) "\n"
    POSENC_ROPE_REPORT
    POSENC_ELSEWHERE_REPORT
    POSENC_LIMITS(POSENC_LIMIT_LINE) POSENC_TRANSPORT_LIMITS(POSENC_LIMIT_LINE);

// A view of the report's bytes (ASCII) in the module's memory, read at once by loader.js.
val boundary() {
  return val(emscripten::typed_memory_view(sizeof kReport - 1, reinterpret_cast<const uint8_t*>(kReport)));
}

// The staged blocks' address: the encoding's, then the RoPE configuration's.
double stagedAddress() { return static_cast<double>(reinterpret_cast<uintptr_t>(posenc::bindings::staged)); }

#ifdef POSENC_ELSEWHERE_BINDINGS
// The timestep and grid blocks' address: the timestep's, then the 2-D grid's, then the 3-D grid's.
double stagedElsewhereAddress() {
  return static_cast<double>(reinterpret_cast<uintptr_t>(posenc::bindings::stagedElsewhere));
}
#endif

}  // namespace

EMSCRIPTEN_BINDINGS(posenc_boundary) {
  emscripten::function("boundary", &boundary);
  emscripten::function("stagedAddress", &stagedAddress);
#ifdef POSENC_ELSEWHERE_BINDINGS
  emscripten::function("stagedElsewhereAddress", &stagedElsewhereAddress);
#endif
}
