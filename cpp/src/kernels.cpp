#include "kernels.h"

#include "simd.h"

namespace posenc::kernels {

namespace scalar {

namespace {

// One member through `rows` rows, writing every stride-th float.
inline void oscillate(double& value, double& previous, double k, size_t rows, float* out, size_t stride) {
  double u = value, before = previous;
  for (size_t r = 0; r < rows; ++r) {
    out[r * stride] = static_cast<float>(u);
    const double next = k * u - before;
    before = u;
    u = next;
  }
  value = u;
  previous = before;
}

}  // namespace

void writeInterleavedRows(const Bank& bank, size_t rows, float* out, size_t stride) {
  for (size_t i = 0; i < bank.size; ++i) {
    oscillate(bank.a[i], bank.previousA[i], bank.twiceCos[i], rows, out + 2 * i, stride);
    oscillate(bank.b[i], bank.previousB[i], bank.twiceCos[i], rows, out + 2 * i + 1, stride);
  }
}

void writeSplitRows(const Bank& bank, size_t rows, float* outA, float* outB, size_t stride) {
  for (size_t i = 0; i < bank.size; ++i) {
    oscillate(bank.a[i], bank.previousA[i], bank.twiceCos[i], rows, outA + i, stride);
    oscillate(bank.b[i], bank.previousB[i], bank.twiceCos[i], rows, outB + i, stride);
  }
}

void sumSecondRows(const Bank& bank, size_t rows, double* sums) {
  const size_t n = bank.size;
  for (size_t r = 0; r < rows; ++r) {
    // Even and odd oscillators in two partial sums: the two lanes of the SIMD version.
    double sum0 = 0, sum1 = 0;
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
      sum0 += bank.b[i];
      sum1 += bank.b[i + 1];
    }
    if (i < n) sum0 += bank.b[i];
    sums[r] = sum0 + sum1;
    for (i = 0; i < n; ++i) {
      const double next = bank.twiceCos[i] * bank.b[i] - bank.previousB[i];
      bank.previousB[i] = bank.b[i];
      bank.b[i] = next;
    }
  }
}

}  // namespace scalar

#if POSENC_SIMD

namespace {

// kVectors x 2 oscillators stay in registers across the rows of one call, so
// state is loaded and stored once per call rather than once per row. Two
// vectors give four independent multiply-subtract chains, enough to hide their
// latency; measured in V8, three or more spill registers and run slower.
template <size_t kVectors>
struct Block {
  static constexpr size_t kOscillators = 2 * kVectors;
  v128_t a[kVectors], b[kVectors], previousA[kVectors], previousB[kVectors], k[kVectors];

  void load(const Bank& bank, size_t i) {
    for (size_t v = 0; v < kVectors; ++v) {
      const size_t at = i + 2 * v;
      a[v] = wasm_v128_load(bank.a + at);
      b[v] = wasm_v128_load(bank.b + at);
      previousA[v] = wasm_v128_load(bank.previousA + at);
      previousB[v] = wasm_v128_load(bank.previousB + at);
      k[v] = wasm_v128_load(bank.twiceCos + at);
    }
  }
  void store(const Bank& bank, size_t i) const {
    for (size_t v = 0; v < kVectors; ++v) {
      const size_t at = i + 2 * v;
      wasm_v128_store(bank.a + at, a[v]);
      wasm_v128_store(bank.b + at, b[v]);
      wasm_v128_store(bank.previousA + at, previousA[v]);
      wasm_v128_store(bank.previousB + at, previousB[v]);
    }
  }
  void step() {
    for (size_t v = 0; v < kVectors; ++v) {
      const v128_t nextA = wasm_f64x2_sub(wasm_f64x2_mul(k[v], a[v]), previousA[v]);
      const v128_t nextB = wasm_f64x2_sub(wasm_f64x2_mul(k[v], b[v]), previousB[v]);
      previousA[v] = a[v];
      previousB[v] = b[v];
      a[v] = nextA;
      b[v] = nextB;
    }
  }
};

Bank tail(const Bank& bank, size_t i) { return slice(bank, i, bank.size - i); }

}  // namespace

void writeInterleavedRows(const Bank& bank, size_t rows, float* out, size_t stride) {
  using Oscillators = Block<2>;
  size_t i = 0;
  for (; i + Oscillators::kOscillators <= bank.size; i += Oscillators::kOscillators) {
    Oscillators block;
    block.load(bank, i);
    float* dst = out + 2 * i;
    for (size_t r = 0; r < rows; ++r, dst += stride) {
      for (size_t v = 0; v < 2; ++v) {
        // [a0 a1 0 0], [b0 b1 0 0] -> [a0 b0 a1 b1]
        const v128_t af = wasm_f32x4_demote_f64x2_zero(block.a[v]);
        const v128_t bf = wasm_f32x4_demote_f64x2_zero(block.b[v]);
        wasm_v128_store(dst + 4 * v, wasm_i32x4_shuffle(af, bf, 0, 4, 1, 5));
      }
      block.step();
    }
    block.store(bank, i);
  }
  scalar::writeInterleavedRows(tail(bank, i), rows, out + 2 * i, stride);
}

void writeSplitRows(const Bank& bank, size_t rows, float* outA, float* outB, size_t stride) {
  using Oscillators = Block<2>;
  size_t i = 0;
  for (; i + Oscillators::kOscillators <= bank.size; i += Oscillators::kOscillators) {
    Oscillators block;
    block.load(bank, i);
    float* dstA = outA + i;
    float* dstB = outB + i;
    for (size_t r = 0; r < rows; ++r, dstA += stride, dstB += stride) {
      // Two vectors of two doubles -> one vector of four floats.
      wasm_v128_store(dstA, wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(block.a[0]),
                                               wasm_f32x4_demote_f64x2_zero(block.a[1]), 0, 1, 4, 5));
      wasm_v128_store(dstB, wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(block.b[0]),
                                               wasm_f32x4_demote_f64x2_zero(block.b[1]), 0, 1, 4, 5));
      block.step();
    }
    block.store(bank, i);
  }
  scalar::writeSplitRows(tail(bank, i), rows, outA + i, outB + i, stride);
}

void sumSecondRows(const Bank& bank, size_t rows, double* sums) {
  v128_t acc[kMaxSumRows];
  for (size_t r = 0; r < rows; ++r) acc[r] = wasm_f64x2_splat(0.0);
  // Four vectors of cosines at a time: the only member that steps here.
  constexpr size_t kSumVectors = 4;
  size_t i = 0;
  for (; i + 2 * kSumVectors <= bank.size; i += 2 * kSumVectors) {
    v128_t b[kSumVectors], previous[kSumVectors], k[kSumVectors];
    for (size_t v = 0; v < kSumVectors; ++v) {
      b[v] = wasm_v128_load(bank.b + i + 2 * v);
      previous[v] = wasm_v128_load(bank.previousB + i + 2 * v);
      k[v] = wasm_v128_load(bank.twiceCos + i + 2 * v);
    }
    for (size_t r = 0; r < rows; ++r) {
      for (size_t v = 0; v < kSumVectors; ++v) {
        acc[r] = wasm_f64x2_add(acc[r], b[v]);
        const v128_t next = wasm_f64x2_sub(wasm_f64x2_mul(k[v], b[v]), previous[v]);
        previous[v] = b[v];
        b[v] = next;
      }
    }
    for (size_t v = 0; v < kSumVectors; ++v) {
      wasm_v128_store(bank.b + i + 2 * v, b[v]);
      wasm_v128_store(bank.previousB + i + 2 * v, previous[v]);
    }
  }
  for (; i + 2 <= bank.size; i += 2) {
    v128_t b = wasm_v128_load(bank.b + i), previous = wasm_v128_load(bank.previousB + i);
    const v128_t k = wasm_v128_load(bank.twiceCos + i);
    for (size_t r = 0; r < rows; ++r) {
      acc[r] = wasm_f64x2_add(acc[r], b);
      const v128_t next = wasm_f64x2_sub(wasm_f64x2_mul(k, b), previous);
      previous = b;
      b = next;
    }
    wasm_v128_store(bank.b + i, b);
    wasm_v128_store(bank.previousB + i, previous);
  }
  double odd[kMaxSumRows] = {};
  if (i < bank.size) {
    double b = bank.b[i], previous = bank.previousB[i];
    for (size_t r = 0; r < rows; ++r) {
      odd[r] = b;
      const double next = bank.twiceCos[i] * b - previous;
      previous = b;
      b = next;
    }
    bank.b[i] = b;
    bank.previousB[i] = previous;
  }
  for (size_t r = 0; r < rows; ++r)
    sums[r] = (wasm_f64x2_extract_lane(acc[r], 0) + odd[r]) + wasm_f64x2_extract_lane(acc[r], 1);
}

void copy(float* dst, const float* src, size_t count) {
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const v128_t x = wasm_v128_load(src + i), y = wasm_v128_load(src + i + 4);
    wasm_v128_store(dst + i, x);
    wasm_v128_store(dst + i + 4, y);
  }
  for (; i < count; ++i) dst[i] = src[i];
}

bool simd() { return true; }

#else

void writeInterleavedRows(const Bank& bank, size_t rows, float* out, size_t stride) {
  scalar::writeInterleavedRows(bank, rows, out, stride);
}
void writeSplitRows(const Bank& bank, size_t rows, float* outA, float* outB, size_t stride) {
  scalar::writeSplitRows(bank, rows, outA, outB, stride);
}
void sumSecondRows(const Bank& bank, size_t rows, double* sums) { scalar::sumSecondRows(bank, rows, sums); }
void copy(float* dst, const float* src, size_t count) {
  for (size_t i = 0; i < count; ++i) dst[i] = src[i];
}
bool simd() { return false; }

#endif

}  // namespace posenc::kernels
