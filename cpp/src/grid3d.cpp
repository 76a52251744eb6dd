#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>

#include "kernels.h"
#include "posenc/elsewhere.h"
#include "posenc/limits.h"

namespace posenc {

namespace {

// As grid.cpp: frames, height and width of at most 16384 each.
constexpr int32_t kMaxSide = 16384;

// The 1-D [sin | cos] row of `columns` columns, frequencies base^(-i / (columns/2)).
Encoding partEncoding(const Grid3d& g, int32_t columns) {
  Encoding e;
  e.dModel = columns;
  e.layout = Layout::kConcat;
  e.exponent = Exponent::kPair;
  e.base = g.base;
  return e;
}

// The rows of one axis's `size` coordinates, `columns` values each.
template <typename T>
bool axisRows(const Grid3d& g, int32_t size, double scale, int32_t columns, T* out) {
  std::unique_ptr<double[]> coordinates(new (std::nothrow) double[size]);
  if (!coordinates) return false;
  for (int32_t k = 0; k < size; ++k) coordinates[k] = grid3dCoordinate(g, k, scale);
  return rowsAt(partEncoding(g, columns), coordinates.get(), size, out);
}

void copyValues(float* to, const float* from, size_t count) { kernels::copy(to, from, count); }
void copyValues(double* to, const double* from, size_t count) {
  std::memcpy(to, from, count * sizeof(double));
}

template <typename T>
bool writeGrid(const Grid3d& g, T* out) {
  if (validate(g) != nullptr) return false;
  const size_t d = static_cast<size_t>(g.dim), temporal = d / 4, half = 3 * d / 8;
  // frames + height + width 1-D rows evaluated; every patch row is three copies.
  std::unique_ptr<T[]> times(new (std::nothrow) T[static_cast<size_t>(g.frames) * temporal]);
  std::unique_ptr<T[]> across(new (std::nothrow) T[static_cast<size_t>(g.width) * half]);
  std::unique_ptr<T[]> down(new (std::nothrow) T[static_cast<size_t>(g.height) * half]);
  if (!times || !across || !down ||
      !axisRows(g, g.frames, g.temporalInterpolationScale, static_cast<int32_t>(temporal), times.get()) ||
      !axisRows(g, g.width, g.spatialInterpolationScale, static_cast<int32_t>(half), across.get()) ||
      !axisRows(g, g.height, g.spatialInterpolationScale, static_cast<int32_t>(half), down.get()))
    return false;
  std::fill(out, out + static_cast<size_t>(g.extraTokens) * d, T(0));
  const bool widthFirst = g.axisOrder == AxisOrder::kWidthFirst;
  T* row = out + static_cast<size_t>(g.extraTokens) * d;
  for (int32_t t = 0; t < g.frames; ++t) {
    const T* ofFrame = times.get() + static_cast<size_t>(t) * temporal;
    for (int32_t y = 0; y < g.height; ++y) {
      const T* ofRow = down.get() + static_cast<size_t>(y) * half;
      for (int32_t x = 0; x < g.width; ++x, row += d) {
        const T* ofColumn = across.get() + static_cast<size_t>(x) * half;
        copyValues(row, ofFrame, temporal);
        copyValues(row + temporal, widthFirst ? ofColumn : ofRow, half);
        copyValues(row + temporal + half, widthFirst ? ofRow : ofColumn, half);
      }
    }
  }
  return true;
}

}  // namespace

const char* validate(const Grid3d& g) {
  if (g.dim < 16 || g.dim > kMaxDModel || g.dim % 16 != 0)
    return "dim must be a multiple of 16 in [16, 1048576]: dim/4 temporal and 3*dim/4 spatial columns of sin "
           "and "
           "cos pairs";
  if (g.frames < 1 || g.frames > kMaxSide) return "frames must be an integer in [1, 16384]";
  if (g.height < 1 || g.height > kMaxSide) return "height must be an integer in [1, 16384]";
  if (g.width < 1 || g.width > kMaxSide) return "width must be an integer in [1, 16384]";
  if (g.axisOrder != AxisOrder::kWidthFirst && g.axisOrder != AxisOrder::kHeightFirst)
    return "axisOrder must be 'w-h' or 'h-w'";
  if (g.extraTokens < 0 || g.extraTokens > kMaxSide) return "extraTokens must be an integer in [0, 16384]";
  if (!std::isfinite(g.spatialInterpolationScale) || !(g.spatialInterpolationScale > 0) ||
      g.spatialInterpolationScale > kMaxSide)
    return "spatialInterpolationScale must be a number in (0, 16384]";
  if (!std::isfinite(g.temporalInterpolationScale) || !(g.temporalInterpolationScale > 0) ||
      g.temporalInterpolationScale > kMaxSide)
    return "temporalInterpolationScale must be a number in (0, 16384]";
  if (!std::isfinite(g.base) || !(g.base > 1)) return "base must be a finite number > 1";
  if (g.coordinateDtype != Dtype::kFloat64 && g.coordinateDtype != Dtype::kFloat32)
    return "coordinateDtype must be 'float64' or 'float32'";
  return nullptr;
}

double grid3dCoordinate(const Grid3d& g, int32_t index, double scale) {
  // torch.arange(n, dtype=float32) / scale: the scale rounded to float32, then the quotient.
  if (g.coordinateDtype == Dtype::kFloat32)
    return static_cast<double>(static_cast<float>(index) / static_cast<float>(scale));
  return index / scale;
}

bool grid3d(const Grid3d& g, float* out) { return writeGrid(g, out); }
bool grid3d(const Grid3d& g, double* out) { return writeGrid(g, out); }

}  // namespace posenc
