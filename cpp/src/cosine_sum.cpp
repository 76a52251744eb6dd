#include "cosine_sum.h"

#include <cmath>

#include "simd.h"

namespace posenc::cosines {

namespace {

// fdlibm (e_rem_pio2.c, k_sin.c, k_cos.c): 2/pi, pi/2 as a 33-bit head and its tail, and the polynomials'
// coefficients on [-pi/4, pi/4].
constexpr double kTwoOverPi = 6.36619772367581382433e-01;
constexpr double kPiOver2Head = 1.57079632673412561417e+00;
constexpr double kPiOver2Tail = 6.07710050650619224932e-11;
constexpr double kS1 = -1.66666666666666324348e-01, kS2 = 8.33333333332248946124e-03,
                 kS3 = -1.98412698298579493134e-04, kS4 = 2.75573137070700676789e-06,
                 kS5 = -2.50507602534068634195e-08, kS6 = 1.58969099521155010221e-10;
constexpr double kC1 = 4.16666666666666019037e-02, kC2 = -1.38888888888741095749e-03,
                 kC3 = 2.48015872894767294178e-05, kC4 = -2.75573143513906633035e-07,
                 kC5 = 2.08757232129817482790e-09, kC6 = -1.13596475577881948265e-11;
// Adding and subtracting 1.5 * 2^52 rounds to the nearest integer (ties to even), in both versions.
constexpr double kRound = 6755399441055744.0;

// cos(angle) for 0 <= angle < kMaxAngle, as the SIMD version computes each lane.
double cosine(double angle) {
  const double shifted = angle * kTwoOverPi + kRound;
  const double quotient = shifted - kRound;
  const double r = (angle - quotient * kPiOver2Head) - quotient * kPiOver2Tail;
  const double z = r * r;
  const double sine = r + (z * r) * (kS1 + z * (kS2 + z * (kS3 + z * (kS4 + z * (kS5 + z * kS6)))));
  const double half = 0.5 * z;
  const double w = 1.0 - half;
  const double r4 = z * (kC1 + z * (kC2 + z * (kC3 + z * (kC4 + z * (kC5 + z * kC6)))));
  const double cosineOfR = w + (((1.0 - w) - half) + z * r4);
  // cos(q pi/2 + r) = cos r, -sin r, -cos r, sin r for q = 0, 1, 2, 3 (mod 4).
  const int quadrant = static_cast<int>(static_cast<long long>(quotient) & 3);
  const double value = (quadrant & 1) ? sine : cosineOfR;
  return (quadrant == 1 || quadrant == 2) ? -value : value;
}

}  // namespace

namespace scalar {

// Terms 4k, 4k+1, 4k+2, 4k+3 go to four sums (the SIMD version's two vectors), added as (s0 + s2) and
// (s1 + s3); a last pair adds to those two, a last term to the first; then the two are added.
double sum(const double* w, size_t count, double x) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    s0 += cosine(std::fabs(x * w[i]));
    s1 += cosine(std::fabs(x * w[i + 1]));
    s2 += cosine(std::fabs(x * w[i + 2]));
    s3 += cosine(std::fabs(x * w[i + 3]));
  }
  double even = s0 + s2, odd = s1 + s3;
  if (i + 2 <= count) {
    even += cosine(std::fabs(x * w[i]));
    odd += cosine(std::fabs(x * w[i + 1]));
    i += 2;
  }
  if (i < count) even += cosine(std::fabs(x * w[i]));
  return even + odd;
}

}  // namespace scalar

#if POSENC_SIMD

namespace {

// The cosines of the two lanes of `angle` (>= 0), as cosine() computes each.
v128_t cosine2(v128_t angle) {
  const v128_t round = wasm_f64x2_splat(kRound), one = wasm_f64x2_splat(1.0);
  auto horner = [](v128_t z, double c1, double c2, double c3, double c4, double c5, double c6) {
    v128_t p = wasm_f64x2_mul(z, wasm_f64x2_splat(c6));
    p = wasm_f64x2_mul(z, wasm_f64x2_add(wasm_f64x2_splat(c5), p));
    p = wasm_f64x2_mul(z, wasm_f64x2_add(wasm_f64x2_splat(c4), p));
    p = wasm_f64x2_mul(z, wasm_f64x2_add(wasm_f64x2_splat(c3), p));
    p = wasm_f64x2_mul(z, wasm_f64x2_add(wasm_f64x2_splat(c2), p));
    return wasm_f64x2_add(wasm_f64x2_splat(c1), p);
  };
  const v128_t shifted = wasm_f64x2_add(wasm_f64x2_mul(angle, wasm_f64x2_splat(kTwoOverPi)), round);
  const v128_t quotient = wasm_f64x2_sub(shifted, round);
  const v128_t r =
      wasm_f64x2_sub(wasm_f64x2_sub(angle, wasm_f64x2_mul(quotient, wasm_f64x2_splat(kPiOver2Head))),
                     wasm_f64x2_mul(quotient, wasm_f64x2_splat(kPiOver2Tail)));
  const v128_t z = wasm_f64x2_mul(r, r);
  const v128_t sine =
      wasm_f64x2_add(r, wasm_f64x2_mul(wasm_f64x2_mul(z, r), horner(z, kS1, kS2, kS3, kS4, kS5, kS6)));
  const v128_t half = wasm_f64x2_mul(wasm_f64x2_splat(0.5), z);
  const v128_t w = wasm_f64x2_sub(one, half);
  // fdlibm's z * r, r = z * (C1 + z * (C2 + ...)).
  const v128_t tail = wasm_f64x2_mul(z, wasm_f64x2_mul(z, horner(z, kC1, kC2, kC3, kC4, kC5, kC6)));
  const v128_t cosineOfR =
      wasm_f64x2_add(w, wasm_f64x2_add(wasm_f64x2_sub(wasm_f64x2_sub(one, w), half), tail));
  // The quadrant is in the low bits of `shifted` (1.5 * 2^52 + q: q is its mantissa's integer).
  const v128_t quadrant = wasm_v128_and(shifted, wasm_i64x2_splat(3));
  const v128_t odd = wasm_i64x2_eq(wasm_v128_and(quadrant, wasm_i64x2_splat(1)), wasm_i64x2_splat(1));
  const v128_t negate = wasm_v128_or(wasm_i64x2_eq(quadrant, wasm_i64x2_splat(1)),
                                     wasm_i64x2_eq(quadrant, wasm_i64x2_splat(2)));
  const v128_t value = wasm_v128_bitselect(sine, cosineOfR, odd);
  return wasm_v128_xor(value, wasm_v128_and(negate, wasm_f64x2_splat(-0.0)));
}

}  // namespace

// Two vectors a step, into two sums (the scalar version's four); one vector a step measured the same.
double sum(const double* w, size_t count, double x) {
  const v128_t scale = wasm_f64x2_splat(x);
  const auto angles = [&](size_t i) { return wasm_f64x2_abs(wasm_f64x2_mul(scale, wasm_v128_load(w + i))); };
  v128_t low = wasm_f64x2_splat(0.0), high = wasm_f64x2_splat(0.0);
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    low = wasm_f64x2_add(low, cosine2(angles(i)));
    high = wasm_f64x2_add(high, cosine2(angles(i + 2)));
  }
  v128_t both = wasm_f64x2_add(low, high);
  if (i + 2 <= count) {
    both = wasm_f64x2_add(both, cosine2(angles(i)));
    i += 2;
  }
  double even = wasm_f64x2_extract_lane(both, 0);
  const double odd = wasm_f64x2_extract_lane(both, 1);
  if (i < count) even += cosine(std::fabs(x * w[i]));
  return even + odd;
}

#else

double sum(const double* w, size_t count, double x) { return scalar::sum(w, count, x); }

#endif

}  // namespace posenc::cosines
