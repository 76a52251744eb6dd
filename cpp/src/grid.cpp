#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "kernels.h"
#include "posenc/elsewhere.h"
#include "posenc/limits.h"

namespace posenc {

namespace {

// Patches of one grid: enough for 16384 x 16384 patches.
constexpr int32_t kMaxGridSide = 16384;

// The 1-D half: [sin | cos] of dim/2 columns, frequencies base^(-i / (dim/4)).
Encoding halfEncoding(const Grid2d& g) {
  Encoding e;
  e.dModel = g.dim / 2;
  e.layout = Layout::kConcat;
  e.exponent = Exponent::kPair;
  e.base = g.base;
  return e;
}

// The 1-D rows of the `size` coordinates of one axis.
template <typename T>
bool axisRows(const Grid2d& g, int32_t size, T* out) {
  std::unique_ptr<double[]> coordinates(new (std::nothrow) double[size]);
  if (!coordinates) return false;
  for (int32_t k = 0; k < size; ++k) coordinates[k] = gridCoordinate(g, k, size);
  return rowsAt(halfEncoding(g), coordinates.get(), size, out);
}

void copyValues(float* to, const float* from, size_t count) { kernels::copy(to, from, count); }
void copyValues(double* to, const double* from, size_t count) {
  std::memcpy(to, from, count * sizeof(double));
}

template <typename T>
bool writeGrid(const Grid2d& g, T* out) {
  if (validate(g) != nullptr) return false;
  const size_t half = static_cast<size_t>(g.dim / 2), d = static_cast<size_t>(g.dim);
  // Each patch row copies the row of its column index and of its row index:
  // width + height 1-D rows evaluated, not height * width.
  std::unique_ptr<T[]> across(new (std::nothrow) T[static_cast<size_t>(g.width) * half]);
  std::unique_ptr<T[]> down(new (std::nothrow) T[static_cast<size_t>(g.height) * half]);
  if (!across || !down || !axisRows(g, g.width, across.get()) || !axisRows(g, g.height, down.get()))
    return false;
  std::fill(out, out + static_cast<size_t>(g.extraTokens) * d, T(0));
  const bool widthFirst = g.axisOrder == AxisOrder::kWidthFirst;
  T* row = out + static_cast<size_t>(g.extraTokens) * d;
  for (int32_t y = 0; y < g.height; ++y) {
    const T* ofRow = down.get() + static_cast<size_t>(y) * half;
    for (int32_t x = 0; x < g.width; ++x, row += d) {
      const T* ofColumn = across.get() + static_cast<size_t>(x) * half;
      copyValues(row, widthFirst ? ofColumn : ofRow, half);
      copyValues(row + half, widthFirst ? ofRow : ofColumn, half);
    }
  }
  return true;
}

}  // namespace

const char* validate(const Grid2d& g) {
  if (g.dim < 4 || g.dim > kMaxDModel || g.dim % 4 != 0)
    return "dim must be a multiple of 4 in [4, 1048576]: each axis gets dim/2 columns of sin and cos pairs";
  if (g.height < 1 || g.height > kMaxGridSide) return "height must be an integer in [1, 16384]";
  if (g.width < 1 || g.width > kMaxGridSide) return "width must be an integer in [1, 16384]";
  if (g.axisOrder != AxisOrder::kWidthFirst && g.axisOrder != AxisOrder::kHeightFirst)
    return "axisOrder must be 'w-h' or 'h-w'";
  if (g.extraTokens < 0 || g.extraTokens > kMaxGridSide)
    return "extraTokens must be an integer in [0, 16384]";
  if (!std::isfinite(g.baseSize) || g.baseSize < 0 || g.baseSize > kMaxGridSide)
    return "baseSize must be 0 (none) or a number in (0, 16384]";
  if (!std::isfinite(g.interpolationScale) || !(g.interpolationScale > 0) ||
      g.interpolationScale > kMaxGridSide)
    return "interpolationScale must be a number in (0, 16384]";
  if (!std::isfinite(g.base) || !(g.base > 1)) return "base must be a finite number > 1";
  if (g.coordinateDtype != Dtype::kFloat64 && g.coordinateDtype != Dtype::kFloat32)
    return "coordinateDtype must be 'float64' or 'float32'";
  return nullptr;
}

double gridCoordinate(const Grid2d& g, int32_t index, int32_t size) {
  if (g.coordinateDtype == Dtype::kFloat32) {
    // NumPy float32 arrays divided by Python floats: the divisor is rounded to
    // float32, and so is each quotient.
    float c = static_cast<float>(index);
    if (g.baseSize > 0) c = c / static_cast<float>(size / g.baseSize);
    return static_cast<double>(c / static_cast<float>(g.interpolationScale));
  }
  double c = index;
  if (g.baseSize > 0) c = c / (size / g.baseSize);
  return c / g.interpolationScale;
}

bool grid2d(const Grid2d& g, float* out) { return writeGrid(g, out); }
bool grid2d(const Grid2d& g, double* out) { return writeGrid(g, out); }

}  // namespace posenc
