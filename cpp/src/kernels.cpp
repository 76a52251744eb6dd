#include "kernels.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace posenc::kernels {

namespace scalar {

void storeInterleavedAndStep(double* a, double* b, const double* c, const double* s,
                             size_t n, float* out) {
  for (size_t i = 0; i < n; ++i) {
    const double ai = a[i], bi = b[i];
    out[2 * i] = static_cast<float>(ai);
    out[2 * i + 1] = static_cast<float>(bi);
    a[i] = ai * c[i] + bi * s[i];
    b[i] = bi * c[i] - ai * s[i];
  }
}

void storeSplitAndStep(double* a, double* b, const double* c, const double* s,
                       size_t n, float* outA, float* outB) {
  for (size_t i = 0; i < n; ++i) {
    const double ai = a[i], bi = b[i];
    outA[i] = static_cast<float>(ai);
    outB[i] = static_cast<float>(bi);
    a[i] = ai * c[i] + bi * s[i];
    b[i] = bi * c[i] - ai * s[i];
  }
}

double sumSecondAndStep(double* a, double* b, const double* c, const double* s,
                        size_t n) {
  // Two partial sums, matching the two lanes of the SIMD version.
  double sum0 = 0, sum1 = 0;
  size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    sum0 += b[i];
    sum1 += b[i + 1];
  }
  if (i < n) sum0 += b[i];
  for (i = 0; i < n; ++i) {
    const double ai = a[i], bi = b[i];
    a[i] = ai * c[i] + bi * s[i];
    b[i] = bi * c[i] - ai * s[i];
  }
  return sum0 + sum1;
}

}  // namespace scalar

#ifdef __wasm_simd128__

// Two float64 lanes per vector: a pair of oscillators per iteration, with the
// odd one out handled by the scalar code.
void storeInterleavedAndStep(double* a, double* b, const double* c, const double* s,
                             size_t n, float* out) {
  size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const v128_t av = wasm_v128_load(a + i), bv = wasm_v128_load(b + i);
    const v128_t cv = wasm_v128_load(c + i), sv = wasm_v128_load(s + i);
    // [a0 a1 0 0], [b0 b1 0 0] -> [a0 b0 a1 b1]
    const v128_t af = wasm_f32x4_demote_f64x2_zero(av);
    const v128_t bf = wasm_f32x4_demote_f64x2_zero(bv);
    wasm_v128_store(out + 2 * i, wasm_i32x4_shuffle(af, bf, 0, 4, 1, 5));
    wasm_v128_store(a + i, wasm_f64x2_add(wasm_f64x2_mul(av, cv), wasm_f64x2_mul(bv, sv)));
    wasm_v128_store(b + i, wasm_f64x2_sub(wasm_f64x2_mul(bv, cv), wasm_f64x2_mul(av, sv)));
  }
  scalar::storeInterleavedAndStep(a + i, b + i, c + i, s + i, n - i, out + 2 * i);
}

void storeSplitAndStep(double* a, double* b, const double* c, const double* s,
                       size_t n, float* outA, float* outB) {
  size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const v128_t av = wasm_v128_load(a + i), bv = wasm_v128_load(b + i);
    const v128_t cv = wasm_v128_load(c + i), sv = wasm_v128_load(s + i);
    wasm_v128_store64_lane(outA + i, wasm_f32x4_demote_f64x2_zero(av), 0);
    wasm_v128_store64_lane(outB + i, wasm_f32x4_demote_f64x2_zero(bv), 0);
    wasm_v128_store(a + i, wasm_f64x2_add(wasm_f64x2_mul(av, cv), wasm_f64x2_mul(bv, sv)));
    wasm_v128_store(b + i, wasm_f64x2_sub(wasm_f64x2_mul(bv, cv), wasm_f64x2_mul(av, sv)));
  }
  scalar::storeSplitAndStep(a + i, b + i, c + i, s + i, n - i, outA + i, outB + i);
}

double sumSecondAndStep(double* a, double* b, const double* c, const double* s,
                        size_t n) {
  v128_t sum = wasm_f64x2_splat(0.0);
  size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const v128_t av = wasm_v128_load(a + i), bv = wasm_v128_load(b + i);
    const v128_t cv = wasm_v128_load(c + i), sv = wasm_v128_load(s + i);
    sum = wasm_f64x2_add(sum, bv);
    wasm_v128_store(a + i, wasm_f64x2_add(wasm_f64x2_mul(av, cv), wasm_f64x2_mul(bv, sv)));
    wasm_v128_store(b + i, wasm_f64x2_sub(wasm_f64x2_mul(bv, cv), wasm_f64x2_mul(av, sv)));
  }
  double sum0 = wasm_f64x2_extract_lane(sum, 0);
  const double sum1 = wasm_f64x2_extract_lane(sum, 1);
  if (i < n) {
    sum0 += b[i];
    const double ai = a[i], bi = b[i];
    a[i] = ai * c[i] + bi * s[i];
    b[i] = bi * c[i] - ai * s[i];
  }
  return sum0 + sum1;
}

bool simd() { return true; }

#else

void storeInterleavedAndStep(double* a, double* b, const double* c, const double* s,
                             size_t n, float* out) {
  scalar::storeInterleavedAndStep(a, b, c, s, n, out);
}
void storeSplitAndStep(double* a, double* b, const double* c, const double* s,
                       size_t n, float* outA, float* outB) {
  scalar::storeSplitAndStep(a, b, c, s, n, outA, outB);
}
double sumSecondAndStep(double* a, double* b, const double* c, const double* s,
                        size_t n) {
  return scalar::sumSecondAndStep(a, b, c, s, n);
}
bool simd() { return false; }

#endif

}  // namespace posenc::kernels
