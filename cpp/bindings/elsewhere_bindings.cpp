// Embind layer of the sinusoids beyond token positions (posenc/elsewhere.h):
// timestep embeddings, 2-D and 3-D grids, grid resizing and table rows at any positions, for what
// web/lib/elsewhere.js has validated and staged. No math here.
//
// Memory ownership: each result is a copy owned by JavaScript. The timesteps
// and positions (and a grid to resize) are an array elsewhere.js placed in wasm memory
// (allocateArray of bindings.cpp) and frees after the call.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "address.h"
#include "boundary.h"
#include "posenc/elsewhere.h"

using emscripten::val;
using posenc::bindings::at;

namespace {

// A Float32Array or Float64Array copy of `count` values written by `write`
// into fresh memory, or null when memory is short or write() fails.
template <typename T, typename Write>
val written(size_t count, const char* arrayType, Write write) {
  std::unique_ptr<T[]> out(new (std::nothrow) T[count ? count : 1]);
  if (!out || !write(out.get())) return val::null();
  return val::global(arrayType).new_(emscripten::typed_memory_view(count, out.get()));
}

template <typename Write>
val writtenAs(bool float64, size_t count, Write write) {
  if (float64) return written<double>(count, "Float64Array", write);
  return written<float>(count, "Float32Array", write);
}

// Rows at the `count` timesteps at `address` of the staged timestep block.
val timestepEmbedding(double address, double count, bool float64) {
  const posenc::Timestep t = posenc::bindings::timestepFrom(posenc::bindings::stagedTimestep);
  const int64_t rows = static_cast<int64_t>(count);
  const double* timesteps = at<const double>(address);
  return writtenAs(float64, static_cast<size_t>(rows) * static_cast<size_t>(t.dim),
                   [&](auto* out) { return posenc::timestepEmbedding(t, timesteps, rows, out); });
}

// The staged grid block's grid.
val grid2d(bool float64) {
  const posenc::Grid2d g = posenc::bindings::gridFrom(posenc::bindings::stagedGrid);
  return writtenAs(float64, static_cast<size_t>(posenc::gridRows(g)) * static_cast<size_t>(g.dim),
                   [&](auto* out) { return posenc::grid2d(g, out); });
}

// The staged 3-D grid block's grid.
val grid3d(bool float64) {
  const posenc::Grid3d g = posenc::bindings::grid3dFrom(posenc::bindings::stagedGrid3d);
  return writtenAs(float64, static_cast<size_t>(posenc::gridRows(g)) * static_cast<size_t>(g.dim),
                   [&](auto* out) { return posenc::grid3d(g, out); });
}

// The grid of extraTokens + height * width rows of dim values at `address`
// resized to toHeight x toWidth (the extra rows kept).
val resizeGrid(double address, int32_t dim, int32_t height, int32_t width, int32_t toHeight, int32_t toWidth,
               int32_t extraTokens, bool float64) {
  posenc::GridResize r;
  r.dim = dim;
  r.fromHeight = height;
  r.fromWidth = width;
  r.toHeight = toHeight;
  r.toWidth = toWidth;
  r.extraTokens = extraTokens;
  const double* table = at<const double>(address);
  return writtenAs(float64, static_cast<size_t>(posenc::gridRows(r)) * static_cast<size_t>(dim),
                   [&](auto* out) { return posenc::resizeGrid(r, table, out); });
}

// Rows of the staged encoding at the `count` positions at `address`.
val tableAt(double address, double count, bool float64) {
  const posenc::Encoding e = posenc::bindings::encodingFrom(posenc::bindings::stagedEncoding);
  const int64_t rows = static_cast<int64_t>(count);
  const double* positions = at<const double>(address);
  return writtenAs(float64, static_cast<size_t>(rows) * static_cast<size_t>(e.dModel),
                   [&](auto* out) { return posenc::rowsAt(e, positions, rows, out); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc_elsewhere) {
  emscripten::function("timestepEmbedding", &timestepEmbedding);
  emscripten::function("grid2d", &grid2d);
  emscripten::function("grid3d", &grid3d);
  emscripten::function("resizeGrid", &resizeGrid);
  emscripten::function("tableAt", &tableAt);
}
