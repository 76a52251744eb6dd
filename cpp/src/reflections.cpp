#include "reflections.h"

#include "simd.h"

namespace posenc::reflections {

namespace {

// What the dots of the four reflections leave to subtract: the multiples w[n]
// of v[n] (sequential application, H0 first, written with the Gram terms).
void fourMultiples(const Four& f, const double d[4], double w[4]) {
  w[0] = f.scale[0] * d[0];
  w[1] = f.scale[1] * (d[1] - w[0] * f.gram[0]);
  w[2] = f.scale[2] * (d[2] - w[0] * f.gram[1] - w[1] * f.gram[2]);
  w[3] = f.scale[3] * (d[3] - w[0] * f.gram[3] - w[1] * f.gram[4] - w[2] * f.gram[5]);
}

}  // namespace

namespace scalar {

// Rows 4m, 4m+1, 4m+2, 4m+3 go to four sums (the SIMD version's two vectors),
// added as (s0 + s2) + (s1 + s3); the rows past the last four follow in order.
double dot(const double* a, const double* b, size_t count) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  size_t r = 0;
  for (; r + 4 <= count; r += 4) {
    s0 += a[r] * b[r];
    s1 += a[r + 1] * b[r + 1];
    s2 += a[r + 2] * b[r + 2];
    s3 += a[r + 3] * b[r + 3];
  }
  double sum = (s0 + s2) + (s1 + s3);
  for (; r < count; ++r) sum += a[r] * b[r];
  return sum;
}

void reflect(const double* v, double* column, size_t count, double scale) {
  const double factor = scale * dot(v, column, count);
  for (size_t r = 0; r < count; ++r) column[r] -= factor * v[r];
}

// Even and odd rows summed apart (the SIMD version's lanes), then together.
void reflectFour(const Four& f, double* column, size_t count) {
  double even[4] = {0, 0, 0, 0}, odd[4] = {0, 0, 0, 0};
  size_t r = 0;
  for (; r + 2 <= count; r += 2) {
    for (int n = 0; n < 4; ++n) {
      even[n] += f.v[n][r] * column[r];
      odd[n] += f.v[n][r + 1] * column[r + 1];
    }
  }
  double d[4], w[4];
  for (int n = 0; n < 4; ++n) d[n] = even[n] + odd[n] + (r < count ? f.v[n][r] * column[r] : 0.0);
  fourMultiples(f, d, w);
  for (r = 0; r < count; ++r)
    column[r] -= (w[0] * f.v[0][r] + w[1] * f.v[1][r]) + (w[2] * f.v[2][r] + w[3] * f.v[3][r]);
}

}  // namespace scalar

#if POSENC_SIMD

namespace {
double sumLanes(v128_t x) { return wasm_f64x2_extract_lane(x, 0) + wasm_f64x2_extract_lane(x, 1); }
const v128_t kZero = wasm_f64x2_splat(0);
v128_t multiplyAdd(v128_t sum, const double* a, const double* b) {
  return wasm_f64x2_add(sum, wasm_f64x2_mul(wasm_v128_load(a), wasm_v128_load(b)));
}
}  // namespace

double dot(const double* a, const double* b, size_t count) {
  v128_t low = kZero, high = kZero;
  size_t r = 0;
  for (; r + 4 <= count; r += 4) {
    low = multiplyAdd(low, a + r, b + r);
    high = multiplyAdd(high, a + r + 2, b + r + 2);
  }
  double sum = sumLanes(wasm_f64x2_add(low, high));
  for (; r < count; ++r) sum += a[r] * b[r];
  return sum;
}

void reflect(const double* v, double* column, size_t count, double scale) {
  const double factor = scale * dot(v, column, count);
  const v128_t f = wasm_f64x2_splat(factor);
  size_t r = 0;
  for (; r + 2 <= count; r += 2)
    wasm_v128_store(column + r,
                    wasm_f64x2_sub(wasm_v128_load(column + r), wasm_f64x2_mul(f, wasm_v128_load(v + r))));
  for (; r < count; ++r) column[r] -= factor * v[r];
}

void reflectFour(const Four& f, double* column, size_t count) {
  v128_t s0 = kZero, s1 = kZero, s2 = kZero, s3 = kZero;
  size_t r = 0;
  for (; r + 2 <= count; r += 2) {
    const v128_t c = wasm_v128_load(column + r);
    s0 = wasm_f64x2_add(s0, wasm_f64x2_mul(wasm_v128_load(f.v[0] + r), c));
    s1 = wasm_f64x2_add(s1, wasm_f64x2_mul(wasm_v128_load(f.v[1] + r), c));
    s2 = wasm_f64x2_add(s2, wasm_f64x2_mul(wasm_v128_load(f.v[2] + r), c));
    s3 = wasm_f64x2_add(s3, wasm_f64x2_mul(wasm_v128_load(f.v[3] + r), c));
  }
  const bool tail = r < count;
  double d[4] = {sumLanes(s0), sumLanes(s1), sumLanes(s2), sumLanes(s3)}, w[4];
  for (int n = 0; n < 4; ++n) d[n] += tail ? f.v[n][r] * column[r] : 0.0;
  fourMultiples(f, d, w);
  const v128_t w0 = wasm_f64x2_splat(w[0]), w1 = wasm_f64x2_splat(w[1]);
  const v128_t w2 = wasm_f64x2_splat(w[2]), w3 = wasm_f64x2_splat(w[3]);
  for (r = 0; r + 2 <= count; r += 2) {
    const v128_t first = wasm_f64x2_add(wasm_f64x2_mul(w0, wasm_v128_load(f.v[0] + r)),
                                        wasm_f64x2_mul(w1, wasm_v128_load(f.v[1] + r)));
    const v128_t second = wasm_f64x2_add(wasm_f64x2_mul(w2, wasm_v128_load(f.v[2] + r)),
                                         wasm_f64x2_mul(w3, wasm_v128_load(f.v[3] + r)));
    wasm_v128_store(column + r, wasm_f64x2_sub(wasm_v128_load(column + r), wasm_f64x2_add(first, second)));
  }
  if (tail) column[r] -= (w[0] * f.v[0][r] + w[1] * f.v[1][r]) + (w[2] * f.v[2][r] + w[3] * f.v[3][r]);
}

#else

double dot(const double* a, const double* b, size_t count) { return scalar::dot(a, b, count); }
void reflect(const double* v, double* column, size_t count, double scale) {
  scalar::reflect(v, column, count, scale);
}
void reflectFour(const Four& four, double* column, size_t count) { scalar::reflectFour(four, column, count); }

#endif

}  // namespace posenc::reflections
