// Inner loops of the angle-addition recurrence. Each oscillator i holds
// (a_i, b_i) = scale * (first, second) function of its current angle and
// steps by the rotation (c_i, s_i) = (cos w_i, sin w_i):
//   a' = a c + b s,   b' = b c - a s.
// State is float64: 1024 steps drift by < 1e-13 (measured), far below float32. Every oscillator
// is stepped independently, so the SIMD and scalar versions (and any loop
// blocking) compute bit-identical results.
#pragma once

#include <cstddef>

namespace posenc::kernels {

// For r in [0, rows): row r gets out[r*stride + 2i] = a_i and
// out[r*stride + 2i + 1] = b_i (rounded to float), then every oscillator steps.
void writeInterleavedRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                          float* out, size_t stride);
// Same, with a_i at outA[r*stride + i] and b_i at outB[r*stride + i].
void writeSplitRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                    float* outA, float* outB, size_t stride);
// For r in [0, rows): sums[r] = sum_i b_i (in float64), then every oscillator steps.
// rows <= kMaxSumRows.
constexpr size_t kMaxSumRows = 8;
void sumSecondRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                   double* sums);

// Portable versions, always compiled, so tests can compare the SIMD path
// against them in the same binary.
namespace scalar {
void writeInterleavedRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                          float* out, size_t stride);
void writeSplitRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                    float* outA, float* outB, size_t stride);
void sumSecondRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                   double* sums);
}  // namespace scalar

bool simd();

}  // namespace posenc::kernels
