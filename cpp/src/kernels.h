// Inner loops of the angle-addition recurrence. Each oscillator i holds
// (a_i, b_i) = scale * (first, second) function of its current angle and
// steps by the rotation (c_i, s_i) = (cos w_i, sin w_i):
//   a' = a c + b s,   b' = b c - a s.
// State is float64 so that hundreds of steps stay at ~1e-14; the SIMD and
// scalar versions compute the same float64 operations in the same order.
#pragma once

#include <cstddef>

namespace posenc::kernels {

// out[2i] = a_i, out[2i+1] = b_i (rounded to float), then step.
void storeInterleavedAndStep(double* a, double* b, const double* c, const double* s,
                             size_t n, float* out);
// outA[i] = a_i, outB[i] = b_i, then step.
void storeSplitAndStep(double* a, double* b, const double* c, const double* s,
                       size_t n, float* outA, float* outB);
// Returns sum_i b_i (accumulated in float64), then steps.
double sumSecondAndStep(double* a, double* b, const double* c, const double* s,
                        size_t n);

// Portable versions, always compiled, so tests can compare the SIMD path
// against them in the same binary.
namespace scalar {
void storeInterleavedAndStep(double* a, double* b, const double* c, const double* s,
                             size_t n, float* out);
void storeSplitAndStep(double* a, double* b, const double* c, const double* s,
                       size_t n, float* outA, float* outB);
double sumSecondAndStep(double* a, double* b, const double* c, const double* s,
                        size_t n);
}  // namespace scalar

bool simd();

}  // namespace posenc::kernels
