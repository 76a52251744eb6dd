#include "posenc/least_squares.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>

#include "reflections.h"

namespace posenc {

namespace {

namespace rf = reflections;

// Columns of a row-major rows x columns array, one after another.
void copyColumns(const double* from, size_t columns, size_t rows, double* to) {
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < columns; ++c) to[c * rows + r] = from[r * columns + c];
}

// rows x columns doubles fit in memory's address range.
bool fits(size_t rows, size_t columns) {
  return columns == 0 || rows <= (SIZE_MAX / sizeof(double) - 1) / columns;
}

}  // namespace

int32_t leastSquaresResiduals(const double* inputs, size_t inputCount, const double* targets,
                              size_t targetCount, size_t rows, double rankTolerance, double* residuals) {
  if (!fits(rows, inputCount) || !fits(rows, targetCount) || !fits(rows, 4)) return -1;
  const size_t steps = inputCount < rows ? inputCount : rows;
  // X and Y by columns, then per input column: its place in X, the norm² left
  // below the rows done, that norm² when last summed, and its reflection's scale.
  std::unique_ptr<double[]> x(new (std::nothrow) double[rows * inputCount + 1]);
  std::unique_ptr<double[]> y(new (std::nothrow) double[rows * targetCount + 1]);
  std::unique_ptr<size_t[]> place(new (std::nothrow) size_t[inputCount + 1]);
  std::unique_ptr<double[]> perColumn(new (std::nothrow) double[3 * inputCount + 1]);
  // Four reflection vectors at a time, over the same rows (zero above each one's start).
  std::unique_ptr<double[]> four(new (std::nothrow) double[4 * rows + 1]);
  if (!x || !y || !place || !perColumn || !four) return -1;
  copyColumns(inputs, inputCount, rows, x.get());
  copyColumns(targets, targetCount, rows, y.get());
  double* left = perColumn.get();
  double* summedAt = left + inputCount;
  double* scale = summedAt + inputCount;
  auto column = [&](size_t c) { return x.get() + place[c] * rows; };
  double largest = 0;
  for (size_t c = 0; c < inputCount; ++c) {
    place[c] = c;
    left[c] = summedAt[c] = rf::dot(column(c), column(c), rows);
    largest = std::fmax(largest, left[c]);
  }
  largest = std::sqrt(largest);

  size_t rank = 0;
  for (size_t j = 0; j < steps; ++j) {
    // The remaining column with the most left (pivot), or stop: the rest is rounding.
    size_t pivot = j;
    for (size_t c = j + 1; c < inputCount; ++c)
      if (left[c] > left[pivot]) pivot = c;
    if (!(std::sqrt(left[pivot]) > rankTolerance * largest)) break;
    std::swap(place[j], place[pivot]);
    std::swap(left[j], left[pivot]);
    std::swap(summedAt[j], summedAt[pivot]);
    // v = this column from row j down, with v[j] moved away from the norm (no cancellation).
    double* v = column(j) + j;
    const size_t count = rows - j;
    const double norm = std::sqrt(rf::dot(v, v, count));
    v[0] -= v[0] > 0 ? -norm : norm;
    scale[j] = 2 / rf::dot(v, v, count);
    for (size_t c = j + 1; c < inputCount; ++c) {
      double* rest = column(c);
      rf::reflect(v, rest + j, count, scale[j]);
      // Downdated, and summed again where the update cancelled most of it (as LAPACK's xGEQP3).
      left[c] -= rest[j] * rest[j];
      if (left[c] < 1e-6 * summedAt[c])
        left[c] = summedAt[c] = rf::dot(rest + j + 1, rest + j + 1, count - 1);
    }
    ++rank;
  }

  // The reflections on Y, four at a time from the first row any of them reaches.
  size_t j = 0;
  for (; j + 4 <= rank; j += 4) {
    const size_t count = rows - j;
    rf::Four f;
    for (size_t n = 0; n < 4; ++n) {
      double* v = four.get() + n * rows;
      for (size_t r = 0; r < n; ++r) v[r] = 0;
      const double* from = column(j + n) + j;
      for (size_t r = n; r < count; ++r) v[r] = from[r];
      f.v[n] = v;
      f.scale[n] = scale[j + n];
    }
    const double gram[6] = {rf::dot(f.v[1], f.v[0], count), rf::dot(f.v[2], f.v[0], count),
                            rf::dot(f.v[2], f.v[1], count), rf::dot(f.v[3], f.v[0], count),
                            rf::dot(f.v[3], f.v[1], count), rf::dot(f.v[3], f.v[2], count)};
    std::copy(gram, gram + 6, f.gram);
    for (size_t t = 0; t < targetCount; ++t) rf::reflectFour(f, y.get() + t * rows + j, count);
  }
  for (; j < rank; ++j)
    for (size_t t = 0; t < targetCount; ++t)
      rf::reflect(column(j) + j, y.get() + t * rows + j, rows - j, scale[j]);

  for (size_t t = 0; t < targetCount; ++t) {
    const double* rest = y.get() + t * rows + rank;
    residuals[t] = std::sqrt(rf::dot(rest, rest, rows - rank));
  }
  return static_cast<int32_t>(rank);
}

}  // namespace posenc
