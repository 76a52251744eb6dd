// Inner loops of the least-squares residuals (least_squares.cpp): dot
// products and Householder reflections I - scale v v^T applied to columns.
// The SIMD and scalar versions add the same products in the same order (the
// two lanes of a vector are the even and odd rows, summed lane by lane and
// then together), so they give the same bits, and the tests compare them.
#pragma once

#include <cstddef>

namespace posenc::reflections {

// sum a[r] b[r] over r in [0, count).
double dot(const double* a, const double* b, size_t count);

// column -= (scale * dot(v, column)) * v over [0, count).
void reflect(const double* v, double* column, size_t count, double scale);

// Four reflections in a row, H3 H2 H1 H0 (H0 first), applied to one column in
// two passes over it instead of eight. v[n] are the vectors over the same
// [0, count) (zero where a reflection does not reach), scale[n] their scales,
// and gram = {v1.v0, v2.v0, v2.v1, v3.v0, v3.v1, v3.v2}.
struct Four {
  const double* v[4];
  double scale[4];
  double gram[6];
};
void reflectFour(const Four& four, double* column, size_t count);

// Portable versions, always compiled, for the tests.
namespace scalar {
double dot(const double* a, const double* b, size_t count);
void reflect(const double* v, double* column, size_t count, double scale);
void reflectFour(const Four& four, double* column, size_t count);
}  // namespace scalar

}  // namespace posenc::reflections
