#include "kernels.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace posenc::kernels {

namespace scalar {

namespace {
// One oscillator through `rows` rows; `first`/`second` advance by stride.
inline void oscillate(double& a, double& b, double c, double s, size_t rows, float* first, float* second,
                      size_t stride) {
  double ai = a, bi = b;
  for (size_t r = 0; r < rows; ++r) {
    first[r * stride] = static_cast<float>(ai);
    second[r * stride] = static_cast<float>(bi);
    const double next = ai * c + bi * s;
    bi = bi * c - ai * s;
    ai = next;
  }
  a = ai;
  b = bi;
}
}  // namespace

void writeInterleavedRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                          float* out, size_t stride) {
  for (size_t i = 0; i < n; ++i)
    oscillate(a[i], b[i], c[i], s[i], rows, out + 2 * i, out + 2 * i + 1, stride);
}

void writeSplitRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                    float* outA, float* outB, size_t stride) {
  for (size_t i = 0; i < n; ++i) oscillate(a[i], b[i], c[i], s[i], rows, outA + i, outB + i, stride);
}

void sumSecondRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                   double* sums) {
  for (size_t r = 0; r < rows; ++r) {
    // Even and odd oscillators in two partial sums: the two lanes of the SIMD version.
    double sum0 = 0, sum1 = 0;
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
      sum0 += b[i];
      sum1 += b[i + 1];
    }
    if (i < n) sum0 += b[i];
    sums[r] = sum0 + sum1;
    for (i = 0; i < n; ++i) {
      const double ai = a[i], bi = b[i];
      a[i] = ai * c[i] + bi * s[i];
      b[i] = bi * c[i] - ai * s[i];
    }
  }
}

}  // namespace scalar

#ifdef __wasm_simd128__

namespace {

// Blocks of kVectors x 2 oscillators stay in registers across the rows of one
// call (the writer passes a few rows at a time so they stay in L1), so state
// is loaded and stored once per call rather than once per row, and the
// independent recurrences hide each other's latency. Two vectors measured
// best in V8; four spill registers.
constexpr size_t kVectors = 2;
constexpr size_t kBlock = 2 * kVectors;

struct Block {
  v128_t a[kVectors], b[kVectors], c[kVectors], s[kVectors];

  void load(const double* pa, const double* pb, const double* pc, const double* ps) {
    for (size_t v = 0; v < kVectors; ++v) {
      a[v] = wasm_v128_load(pa + 2 * v);
      b[v] = wasm_v128_load(pb + 2 * v);
      c[v] = wasm_v128_load(pc + 2 * v);
      s[v] = wasm_v128_load(ps + 2 * v);
    }
  }
  void store(double* pa, double* pb) const {
    for (size_t v = 0; v < kVectors; ++v) {
      wasm_v128_store(pa + 2 * v, a[v]);
      wasm_v128_store(pb + 2 * v, b[v]);
    }
  }
  void step() {
    for (size_t v = 0; v < kVectors; ++v) {
      const v128_t next = wasm_f64x2_add(wasm_f64x2_mul(a[v], c[v]), wasm_f64x2_mul(b[v], s[v]));
      b[v] = wasm_f64x2_sub(wasm_f64x2_mul(b[v], c[v]), wasm_f64x2_mul(a[v], s[v]));
      a[v] = next;
    }
  }
};

}  // namespace

void writeInterleavedRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                          float* out, size_t stride) {
  size_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    Block block;
    block.load(a + i, b + i, c + i, s + i);
    float* dst = out + 2 * i;
    for (size_t r = 0; r < rows; ++r, dst += stride) {
      for (size_t v = 0; v < kVectors; ++v) {
        // [a0 a1 0 0], [b0 b1 0 0] -> [a0 b0 a1 b1]
        const v128_t af = wasm_f32x4_demote_f64x2_zero(block.a[v]);
        const v128_t bf = wasm_f32x4_demote_f64x2_zero(block.b[v]);
        wasm_v128_store(dst + 4 * v, wasm_i32x4_shuffle(af, bf, 0, 4, 1, 5));
      }
      block.step();
    }
    block.store(a + i, b + i);
  }
  scalar::writeInterleavedRows(a + i, b + i, c + i, s + i, n - i, rows, out + 2 * i, stride);
}

void writeSplitRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                    float* outA, float* outB, size_t stride) {
  size_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    Block block;
    block.load(a + i, b + i, c + i, s + i);
    float* dstA = outA + i;
    float* dstB = outB + i;
    for (size_t r = 0; r < rows; ++r, dstA += stride, dstB += stride) {
      for (size_t v = 0; v < kVectors; v += 2) {
        // Two vectors of two doubles -> one vector of four floats.
        wasm_v128_store(dstA + 2 * v,
                        wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(block.a[v]),
                                           wasm_f32x4_demote_f64x2_zero(block.a[v + 1]), 0, 1, 4, 5));
        wasm_v128_store(dstB + 2 * v,
                        wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(block.b[v]),
                                           wasm_f32x4_demote_f64x2_zero(block.b[v + 1]), 0, 1, 4, 5));
      }
      block.step();
    }
    block.store(a + i, b + i);
  }
  scalar::writeSplitRows(a + i, b + i, c + i, s + i, n - i, rows, outA + i, outB + i, stride);
}

void sumSecondRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                   double* sums) {
  v128_t acc[kMaxSumRows];
  for (size_t r = 0; r < rows; ++r) acc[r] = wasm_f64x2_splat(0.0);
  size_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    Block block;
    block.load(a + i, b + i, c + i, s + i);
    for (size_t r = 0; r < rows; ++r) {
      for (size_t v = 0; v < kVectors; ++v) acc[r] = wasm_f64x2_add(acc[r], block.b[v]);
      block.step();
    }
    block.store(a + i, b + i);
  }
  for (; i + 2 <= n; i += 2) {
    v128_t av = wasm_v128_load(a + i), bv = wasm_v128_load(b + i);
    const v128_t cv = wasm_v128_load(c + i), sv = wasm_v128_load(s + i);
    for (size_t r = 0; r < rows; ++r) {
      acc[r] = wasm_f64x2_add(acc[r], bv);
      const v128_t next = wasm_f64x2_add(wasm_f64x2_mul(av, cv), wasm_f64x2_mul(bv, sv));
      bv = wasm_f64x2_sub(wasm_f64x2_mul(bv, cv), wasm_f64x2_mul(av, sv));
      av = next;
    }
    wasm_v128_store(a + i, av);
    wasm_v128_store(b + i, bv);
  }
  double tail[kMaxSumRows] = {};
  if (i < n) {
    double ai = a[i], bi = b[i];
    for (size_t r = 0; r < rows; ++r) {
      tail[r] = bi;
      const double next = ai * c[i] + bi * s[i];
      bi = bi * c[i] - ai * s[i];
      ai = next;
    }
    a[i] = ai;
    b[i] = bi;
  }
  for (size_t r = 0; r < rows; ++r)
    sums[r] = (wasm_f64x2_extract_lane(acc[r], 0) + tail[r]) + wasm_f64x2_extract_lane(acc[r], 1);
}

bool simd() { return true; }

#else

void writeInterleavedRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                          float* out, size_t stride) {
  scalar::writeInterleavedRows(a, b, c, s, n, rows, out, stride);
}
void writeSplitRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                    float* outA, float* outB, size_t stride) {
  scalar::writeSplitRows(a, b, c, s, n, rows, outA, outB, stride);
}
void sumSecondRows(double* a, double* b, const double* c, const double* s, size_t n, size_t rows,
                   double* sums) {
  scalar::sumSecondRows(a, b, c, s, n, rows, sums);
}
bool simd() { return false; }

#endif

}  // namespace posenc::kernels
