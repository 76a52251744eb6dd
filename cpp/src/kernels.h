// Inner loops that advance a bank of sinusoids by one position (or offset) per
// row. Every sequence u_m = A sin(x + m w + phi) obeys
//   u_{m+1} = 2 cos(w) u_m - u_{m-1}
// (Chebyshev's recurrence: one multiply and one subtract per value, half the
// work of a 2x2 rotation). Oscillator i holds the current values (a_i, b_i) of
// its two members and the previous ones; both members share k_i = 2 cos w_i.
// In float64 a rounding error e made at step j grows to at most (m - j + 1) e
// by step m, so 1024 steps stay below ~1e-10: far under float32's 3e-8.
// Every oscillator is stepped independently, so the SIMD and scalar versions
// (and any loop blocking) compute bit-identical results.
#pragma once

#include <cstddef>

namespace posenc::kernels {

struct Bank {
  double* a;
  double* b;
  double* previousA;
  double* previousB;
  const double* twiceCos;
  size_t size;
};

// Oscillators [first, first + count) of a bank.
inline Bank slice(const Bank& bank, size_t first, size_t count) {
  return {bank.a + first,         bank.b + first,        bank.previousA + first,
          bank.previousB + first, bank.twiceCos + first, count};
}

// For r in [0, rows): row r gets out[r*stride + 2i] = a_i and
// out[r*stride + 2i + 1] = b_i (rounded to float), then every oscillator steps.
void writeInterleavedRows(const Bank& bank, size_t rows, float* out, size_t stride);
// Same, with a_i at outA[r*stride + i] and b_i at outB[r*stride + i].
void writeSplitRows(const Bank& bank, size_t rows, float* outA, float* outB, size_t stride);
// For r in [0, rows): sums[r] = sum_i b_i (in float64), then the b members step
// (the a members are left alone). rows <= kMaxSumRows.
constexpr size_t kMaxSumRows = 8;
void sumSecondRows(const Bank& bank, size_t rows, double* sums);

// Portable versions, always compiled, so tests can compare the SIMD path
// against them in the same binary.
namespace scalar {
void writeInterleavedRows(const Bank& bank, size_t rows, float* out, size_t stride);
void writeSplitRows(const Bank& bank, size_t rows, float* outA, float* outB, size_t stride);
void sumSecondRows(const Bank& bank, size_t rows, double* sums);
}  // namespace scalar

// dst[0, count) = src[0, count) (emscripten's memcpy calls out to JS from 512 bytes).
void copy(float* dst, const float* src, size_t count);

bool simd();

}  // namespace posenc::kernels
