// Least-squares residuals: how much of each target column no combination of
// the input columns reaches. The page's "why both sine and cosine" section
// asks it of the encoding's sine columns and its cosine columns (can one half
// be mapped onto the other half shifted by k?); it is a plain numerical
// routine, kept in the core for its speed (WASM SIMD, blocked reflections).
#pragma once

#include <cstddef>
#include <cstdint>

namespace posenc {

// For inputs X (rows x inputCount) and targets Y (rows x targetCount), both
// row-major as a table is: residuals[t] = |y_t - P y_t|, where P projects on
// the span of X's columns (least squares). Householder QR with column
// pivoting, stopped at the numerical rank: once every remaining column of X is
// below rankTolerance times X's largest column, the rest is rounding, and
// projecting on it would remove a random part of the targets (slow sinusoids
// are nearly parallel over a finite window). Returns that rank, or -1 when
// the scratch (rows x (inputCount + targetCount) doubles) cannot be allocated.
int32_t leastSquaresResiduals(const double* inputs, size_t inputCount, const double* targets,
                              size_t targetCount, size_t rows, double rankTolerance, double* residuals);

}  // namespace posenc
