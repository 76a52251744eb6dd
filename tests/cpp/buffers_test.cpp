// The buffers behind the wasm module's chunked copies (cpp/bindings/buffers.h).
#include "buffers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "reference.h"

// Under AddressSanitizer a failed allocation aborts unless told otherwise;
// these tests check that it gives null, as it does without the sanitizer.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

namespace {

namespace buffers = posenc::buffers;

constexpr size_t kHuge = std::numeric_limits<size_t>::max();

// Where the chunk lies relative to the destination, mod 4 KB.
size_t distanceModPage(uintptr_t chunkAddress, size_t destinationOffset) {
  return static_cast<size_t>((chunkAddress - destinationOffset) % 4096);
}

TEST(Placement, OffsetsWorkedByHand) {
  // Scratch on a page: the rows start half a page past the destination.
  EXPECT_EQ(buffers::placementBytes(0x10000, 0), 2048u);
  EXPECT_EQ(buffers::placementBytes(0x10000, 16), 2064u);
  EXPECT_EQ(buffers::placementBytes(0x10000, 3000), 944u);  // 5048 - 4096 = 952, down to 16
  // Scratch 16 bytes past a page (Node's large buffers).
  EXPECT_EQ(buffers::placementBytes(0x10010, 0), 2032u);
  // Scratch above the wanted offset mod 4 KB: (2148 - 4080) mod 4096 = 2164, down to 16: 2160.
  EXPECT_EQ(buffers::placementBytes(0x10FF0, 100), 2160u);
  // A destination a page further on is the same offset mod 4 KB.
  EXPECT_EQ(buffers::placementBytes(0x10FF0, 4096 + 100), 2160u);
  // Wanted 2048 + 2046 = 4094, down to 16: 4080, the largest offset there is.
  EXPECT_EQ(buffers::placementBytes(0x20000, 2046), 4080u);
}

TEST(Placement, HalfAPageFromTheDestinationForManyBasesAndOffsets) {
  for (uintptr_t base : {uintptr_t{0x10000}, uintptr_t{0x10010}, uintptr_t{0x10800}, uintptr_t{0x10FF0},
                         uintptr_t{0x7FFF0}, uintptr_t{0x123450}}) {
    for (size_t destination : {0, 4, 12, 16, 1000, 2044, 2048, 2052, 4092, 4096 + 8}) {
      const size_t offset = buffers::placementBytes(base, destination);
      SCOPED_TRACE(testing::Message() << "base " << base << ", destination " << destination);
      EXPECT_LT(offset, 4096u);    // within the page the scratch has to spare
      EXPECT_EQ(offset % 16, 0u);  // whole SIMD vectors
      // At most 15 bytes short of half a page, never past it.
      const size_t distance = distanceModPage(base + offset, destination);
      EXPECT_GE(distance, 2048u - 15);
      EXPECT_LE(distance, 2048u);
    }
  }
}

TEST(Placement, PlacedPointsIntoTheScratchPage) {
  float* scratch = static_cast<float*>(buffers::allocateAligned(1024 + 1024, sizeof(float)));
  ASSERT_NE(scratch, nullptr);
  for (size_t destination : {0, 4, 2000, 4092}) {
    float* rows = buffers::placed(scratch, destination);
    EXPECT_GE(rows, scratch);
    EXPECT_LT(rows, scratch + 1024);  // a page of floats
    EXPECT_EQ(reinterpret_cast<uintptr_t>(rows) % 16, 0u);
    const size_t distance = distanceModPage(reinterpret_cast<uintptr_t>(rows), destination);
    EXPECT_GE(distance, 2048u - 15);
    EXPECT_LE(distance, 2048u);
  }
  buffers::freeAligned(scratch);
}

reference::Knobs concatKnobs(int d) {
  reference::Knobs k;
  k.d = d;
  k.concat = true;
  k.start = 3;
  k.paddingRow = 5;
  return k;
}

// Copies every chunk to where a JS caller would (its offset mod 4 KB given),
// as web/lib/api.js drain() does.
template <typename Chunks, typename T>
bool drain(Chunks& chunks, std::vector<T>& out, size_t rowValues, long rowCount, int32_t chunkRows) {
  if (!chunks.ok()) return false;
  for (long r = 0; r < rowCount; r += chunkRows) {
    const int32_t rows = static_cast<int32_t>(std::min<long>(chunkRows, rowCount - r));
    T* destination = out.data() + r * rowValues;
    const T* chunk = chunks.next(rows, reinterpret_cast<uintptr_t>(destination) % 4096);
    if (!chunk) return false;
    std::memcpy(destination, chunk, rows * rowValues * sizeof(T));
  }
  return true;
}

template <typename T>
void expectChunkedTableEqualsWholeTable(double tolerance) {
  for (int d : {6, 33, 64}) {
    for (reference::Knobs k : {reference::Knobs{}, concatKnobs(d)}) {
      k.d = d;
      // Lengths that are not multiples of the chunk; 1100 crosses a reseed of the recurrence.
      for (long length : {1L, 7L, 37L, 1100L}) {
        for (int32_t chunkRows : {5, 16}) {
          SCOPED_TRACE(testing::Message() << "d " << d << ", length " << length << ", chunk " << chunkRows);
          std::vector<T> whole(length * d), chunked(length * d + 1, T(-7));
          ASSERT_TRUE(posenc::table(reference::encoding(k), length, whole.data()));
          buffers::TableChunks<T> chunks = buffers::tableChunks<T>(reference::encoding(k), 0, chunkRows);
          ASSERT_TRUE(drain(chunks, chunked, d, length, chunkRows));
          ASSERT_EQ(0, std::memcmp(chunked.data(), whole.data(), whole.size() * sizeof(T)));
          ASSERT_EQ(chunked.back(), T(-7)) << "wrote past the table";
          for (long r = 0; r < length; r += 13)
            for (int j = 0; j < d; ++j)
              ASSERT_NEAR(chunked[r * d + j], reference::value(k, k.start + r, j), tolerance);
        }
      }
    }
  }
}

TEST(ChunkedWriter, Float32TableEqualsTheWholeTable) { expectChunkedTableEqualsWholeTable<float>(1.2e-7); }
TEST(ChunkedWriter, Float64TableEqualsTheWholeTable) { expectChunkedTableEqualsWholeTable<double>(1e-12); }

TEST(ChunkedWriter, TableFromALaterRow) {
  const reference::Knobs k = concatKnobs(10);
  buffers::TableChunks32 chunks = buffers::tableChunks<float>(reference::encoding(k), 40, 8);
  ASSERT_TRUE(chunks.ok());
  const float* rows = chunks.next(3, 0);
  ASSERT_NE(rows, nullptr);
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < k.d; ++j)
      EXPECT_NEAR(rows[r * k.d + j], reference::value(k, k.start + 40 + r, j), 1.2e-7);
}

TEST(ChunkedWriter, SimilarityEqualsTheWholeMatrix) {
  for (reference::Knobs k : {reference::Knobs{}, concatKnobs(9)}) {
    k.d = 9;
    for (long length : {5L, 37L, 130L}) {
      for (int32_t chunkRows : {8, 16}) {
        SCOPED_TRACE(testing::Message() << "length " << length << ", chunk " << chunkRows);
        std::vector<float> whole(length * length), chunked(length * length + 1, -7.0f);
        ASSERT_TRUE(posenc::similarity(reference::encoding(k), length, whole.data()));
        buffers::SimilarityChunks chunks =
            buffers::similarityChunks(reference::encoding(k), length, chunkRows);
        ASSERT_TRUE(drain(chunks, chunked, length, length, chunkRows));
        ASSERT_EQ(0, std::memcmp(chunked.data(), whole.data(), whole.size() * sizeof(float)));
        ASSERT_EQ(chunked.back(), -7.0f) << "wrote past the matrix";
        for (long p = 0; p < length; p += 11) {
          const std::vector<double> x = reference::row(k, k.start + p);
          for (long q = 0; q < length; q += 3)
            ASSERT_NEAR(chunked[p * length + q], reference::dot(x, reference::row(k, k.start + q)),
                        1e-6 * k.d);
        }
      }
    }
  }
}

TEST(ChunkedWriter, RefusesRowCountsOutsideTheChunk) {
  buffers::TableChunks32 chunks = buffers::tableChunks<float>(reference::encoding(reference::Knobs{}), 0, 4);
  ASSERT_TRUE(chunks.ok());
  EXPECT_EQ(chunks.next(5, 0), nullptr);
  EXPECT_EQ(chunks.next(-1, 0), nullptr);
  EXPECT_NE(chunks.next(4, 0), nullptr);
}

TEST(ChunkedWriter, NotOkForAnInvalidEncoding) {
  posenc::Encoding e;
  e.dModel = 0;
  buffers::TableChunks32 chunks = buffers::tableChunks<float>(e, 0, 4);
  EXPECT_FALSE(chunks.ok());
  EXPECT_EQ(chunks.next(1, 0), nullptr);
}

TEST(ChunkedWriter, NotOkWhenTheChunkCannotBeAllocated) {
  // 512 x 2^31 - 1 floats: about 4 TB, and its byte count overflows a 32-bit size_t.
  posenc::Encoding e;
  e.dModel = 512;
  buffers::TableChunks32 chunks = buffers::tableChunks<float>(e, 0, std::numeric_limits<int32_t>::max());
  EXPECT_FALSE(chunks.ok());
  EXPECT_EQ(chunks.next(1, 0), nullptr);
  buffers::SimilarityChunks matrix = buffers::similarityChunks(e, 1 << 20, 1 << 20);
  EXPECT_FALSE(matrix.ok());
}

template <typename T>
void expectTableOnceEqualsTheWholeTable() {
  const reference::Knobs k = concatKnobs(24);
  const long length = 50;
  std::vector<T> whole(length * k.d);
  ASSERT_TRUE(posenc::table(reference::encoding(k), length, whole.data()));
  for (size_t destination : {0, 16, 1000, 4092}) {
    const T* rows = buffers::tableOnce<T>(reference::encoding(k), length, destination);
    ASSERT_NE(rows, nullptr);
    EXPECT_EQ(0, std::memcmp(rows, whole.data(), whole.size() * sizeof(T)));
    EXPECT_NEAR(rows[7 * k.d + 3], reference::value(k, k.start + 7, 3), 1.2e-7);
    const size_t distance = distanceModPage(reinterpret_cast<uintptr_t>(rows), destination);
    EXPECT_GE(distance, 2048u - 15);
    EXPECT_LE(distance, 2048u);
  }
}

TEST(TableOnce, Float32EqualsTheWholeTable) { expectTableOnceEqualsTheWholeTable<float>(); }
TEST(TableOnce, Float64EqualsTheWholeTable) { expectTableOnceEqualsTheWholeTable<double>(); }

TEST(TableOnce, OnlyTablesThatFitTheScratch) {
  posenc::Encoding e;
  e.dModel = 64;
  // 1024 x 64 floats are exactly 256 KB; one row more is too many.
  EXPECT_NE(buffers::tableOnce<float>(e, 1024, 0), nullptr);
  EXPECT_EQ(buffers::tableOnce<float>(e, 1025, 0), nullptr);
  EXPECT_NE(buffers::tableOnce<double>(e, 512, 0), nullptr);
  EXPECT_EQ(buffers::tableOnce<double>(e, 513, 0), nullptr);
  // 2^31 x 2 floats are 2^32 values: their byte count overflows a 32-bit size_t.
  e.dModel = 2;
  EXPECT_EQ(buffers::tableOnce<float>(e, int64_t{1} << 31, 0), nullptr);
  EXPECT_EQ(buffers::tableOnce<float>(e, -1, 0), nullptr);
  e.dModel = 0;
  EXPECT_EQ(buffers::tableOnce<float>(e, 1, 0), nullptr);
}

TEST(AllocateAligned, SixteenByteAlignedAndWritable) {
  for (size_t count : {0, 1, 3, 1000}) {
    float* values = static_cast<float*>(buffers::allocateAligned(count, sizeof(float)));
    ASSERT_NE(values, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(values) % 16, 0u);
    for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i);
    buffers::freeAligned(values);
  }
}

TEST(AllocateAligned, NullWhenTooLargeOrOverflowing) {
  // More than any memory (wasm: above its 2 GB maximum).
  EXPECT_EQ(buffers::allocateAligned(kHuge / 2, 1), nullptr);
  // Products that overflow size_t, to 0 and to a few bytes: must not allocate those.
  EXPECT_EQ(buffers::allocateAligned(kHuge / 2 + 1, 2), nullptr);
  EXPECT_EQ(buffers::allocateAligned(kHuge / 8 + 2, 8), nullptr);
  // Rounding up to whole vectors must not wrap either.
  EXPECT_EQ(buffers::allocateAligned(kHuge, 1), nullptr);
  EXPECT_EQ(buffers::allocateAligned(kHuge - 3, 1), nullptr);
}

TEST(AllocatedBytes, CountsAnArrayWhileItLives) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer's allocator is not the one malloc statistics describe";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "AddressSanitizer's allocator is not the one malloc statistics describe";
#endif
#endif
  const size_t before = buffers::allocatedBytes();
  void* memory = buffers::allocateAligned(16 * 1024, 1);  // below glibc's mmap threshold
  ASSERT_NE(memory, nullptr);
  EXPECT_GE(buffers::allocatedBytes(), before + 16 * 1024);
  buffers::freeAligned(memory);
  EXPECT_EQ(buffers::allocatedBytes(), before);
}

}  // namespace

TEST(TableOnce, EncodingsInTurnBeyondTheCachedWritersEachEqualANewTable) {
  // Six encodings (more than kCachedWriters), each differing from the first
  // in one field: start, scale (-0 included: its zeros are -0), base, layout.
  std::vector<reference::Knobs> knobs(6);
  knobs[1].start = 7;
  knobs[2].scale = 0.0;
  knobs[3].scale = -0.0;
  knobs[4].base = 100;
  knobs[5].concat = true;
  static_assert(buffers::kCachedWriters < 6);
  for (int round = 0; round < 3; ++round)
    for (const reference::Knobs& k : knobs) {
      for (long length : {1L, 40L}) {
        std::vector<float> want(length * k.d);
        ASSERT_TRUE(posenc::table(reference::encoding(k), length, want.data()));
        const float* rows = buffers::tableOnce<float>(reference::encoding(k), length, 0);
        ASSERT_NE(rows, nullptr);
        ASSERT_EQ(0, std::memcmp(rows, want.data(), want.size() * sizeof(float)));
        ASSERT_NEAR(rows[(length - 1) * k.d + 1], reference::value(k, k.start + length - 1, 1), 1.2e-7);
      }
    }
  // -0 in every column of the row at position 0 (sin 0 = 0, cos 0 = 1, times -0).
  const float* zeros = buffers::tableOnce<float>(reference::encoding(knobs[3]), 1, 0);
  ASSERT_NE(zeros, nullptr);
  EXPECT_TRUE(std::signbit(zeros[0]) && std::signbit(zeros[1]));
  buffers::clearCaches();
}

TEST(TableOnce, EncodingsDifferingOnlyByAPrecisionDtypeGetTheirOwnWriters) {
  // Angles near 3000 rounded to float32 move by up to 1.2e-4: a writer kept
  // for the exact angles would give visibly different rows.
  reference::Knobs k;
  k.d = 16;
  k.start = 3001;
  posenc::Encoding exact = reference::encoding(k);
  posenc::Encoding roundedAngles = exact, roundedPositions = exact;
  roundedAngles.precision.angle = posenc::Dtype::kFloat32;
  roundedPositions.precision.position = posenc::Dtype::kBfloat16;
  const long length = 8;
  // Row 0, column 2: sin(3001 w) with w = 10000^(-2/16), its angle rounded to
  // float32, or its position rounded to bfloat16 (steps of 16 there: 3008).
  const double w = std::pow(10000.0, -2.0 / 16.0);
  const double want[] = {std::sin(3001 * w), std::sin(static_cast<double>(static_cast<float>(3001 * w))),
                         std::sin(3008 * w)};
  const posenc::Encoding* encodings[] = {&exact, &roundedAngles, &roundedPositions};
  ASSERT_GT(std::abs(want[1] - want[0]), 1e-6);
  for (int round = 0; round < 3; ++round)
    for (int i = 0; i < 3; ++i) {
      std::vector<double> fresh(length * k.d);
      ASSERT_TRUE(posenc::table(*encodings[i], length, fresh.data()));
      const double* rows = buffers::tableOnce<double>(*encodings[i], length, 0);
      ASSERT_NE(rows, nullptr);
      ASSERT_EQ(0, std::memcmp(rows, fresh.data(), fresh.size() * sizeof(double)));
      EXPECT_NEAR(rows[2], want[i], 1e-12) << "encoding " << i << ", round " << round;
    }
  buffers::clearCaches();
}

TEST(Row, RowsOfEncodingsInTurnEqualRow) {
  std::vector<reference::Knobs> knobs(6);
  for (size_t i = 0; i < knobs.size(); ++i) knobs[i].base = 10 + 1000.0 * static_cast<double>(i);
  knobs[5].scale = -0.0;
  std::vector<double> got(8), want(8);
  for (int round = 0; round < 3; ++round)
    for (const reference::Knobs& k : knobs) {
      ASSERT_TRUE(buffers::row(reference::encoding(k), 7.5, got.data()));
      posenc::row(reference::encoding(k), 7.5, want.data());
      ASSERT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * sizeof(double)));
      for (int j = 0; j < 8; ++j) ASSERT_NEAR(got[j], reference::value(k, 7.5, j), 1e-12);
    }
  buffers::clearCaches();
}
