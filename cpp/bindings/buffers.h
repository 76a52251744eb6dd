// The binding's transport policy: buffers for a caller that copies results
// out of the library's memory a chunk at a time (the JavaScript side of the
// wasm module), and arrays lent to such a caller. Beside the binding, not in
// the core: a C++ user writes straight into its own memory with TableWriter
// and SimilarityWriter. Plain C++ (no Emscripten), so the native tests cover it.
//
// Nothing here aborts when memory is short: allocations that fail or whose
// size overflows size_t give null (wasm: size_t is 32 bits, and the module
// is linked with -sABORTING_MALLOC=0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "posenc/posenc.h"

namespace posenc::buffers {

constexpr size_t kPageBytes = 4096;

// count * bytesPerValue bytes, 16-byte aligned (whole SIMD vectors), freed
// with freeAligned; null when the size overflows or memory cannot grow that far.
void* allocateAligned(size_t count, size_t bytesPerValue);
void freeAligned(void* memory);

// Bytes currently malloc'ed (lets the JS tests show that nothing stays alive).
size_t allocatedBytes();

// Where in a scratch buffer (a page longer than the rows) starting at
// `scratchAddress` to write rows that the caller copies to
// `destinationOffset` (bytes, mod 4 KB): the byte offset that puts them half
// a page away from the destination, mod 4 KB, rounded down to 16 bytes.
// Large ArrayBuffers start on a page (Chromium) or 16 bytes past one (Node);
// rows that began 16 bytes before the destination mod 4 KB made every load of
// the copy wait on the store before it ("4K aliasing"): 89 instead of 6 us for
// 256 KB in Chromium. Always below kPageBytes.
size_t placementBytes(uintptr_t scratchAddress, size_t destinationOffset);

template <typename T>
T* placed(T* scratch, size_t destinationOffset) {
  return scratch + placementBytes(reinterpret_cast<uintptr_t>(scratch), destinationOffset) / sizeof(T);
}

// Tables of at most kOnceBytes are written by one call into scratch kept for
// them, without a writer object to build and delete (512 x 128: 31 instead of
// 40 us in Node, 29 instead of 40 in Chromium).
constexpr size_t kOnceBytes = 256 * 1024;

// The length x dModel table in that scratch, placed for a copy to
// `destinationOffset`, valid until the next call; null when it is larger than
// kOnceBytes, the encoding is invalid or the scratch cannot be allocated (the
// next call tries again). T: float or double.
template <typename T>
T* tableOnce(const Encoding& e, int64_t length, size_t destinationOffset);

// tableOnce() keeps the writers of the last kCachedWriters encodings of at
// most kCachedDModel columns (restarted for each table: TableWriter::restart),
// so that a caller repeating the same options pays for the rows only: a
// 1 x 512 table took 13 us, nearly all of it the writer's set-up. Bounded:
// at most about 0.25 MB per writer. Encodings are compared field by field
// (doubles bit for bit). One caller at a time, as for the scratch.
constexpr size_t kCachedWriters = 4;
constexpr int32_t kCachedDModel = 4096;

// posenc::row() through the same writers: repeated rows of one encoding
// skip the pow per column. False when the writer cannot be allocated.
template <typename T>
bool row(const Encoding& e, double position, T* out);

// Drops those writers (leak checks count what calls leave behind).
void clearCaches();

// A writer plus the scratch chunk it writes into, a page longer than a chunk
// so that each chunk can be placed (see placementBytes()).
template <typename Writer, typename T>
class ChunkedWriter {
 public:
  // Each row has rowValues values; at most chunkRows rows per chunk.
  ChunkedWriter(std::unique_ptr<Writer> writer, size_t rowValues, int32_t chunkRows);
  // False when the writer or the scratch could not be allocated.
  bool ok() const;
  // The next `rows` (0 <= rows <= chunkRows) rows, placed for a copy to
  // `destinationOffset` and valid until the next call; null if !ok() or
  // `rows` is out of range.
  T* next(int32_t rows, size_t destinationOffset);
  size_t rowValues() const { return rowValues_; }

 private:
  struct Free {
    void operator()(T* p) const { freeAligned(p); }
  };
  std::unique_ptr<Writer> writer_;
  size_t rowValues_;
  int32_t chunkRows_;
  std::unique_ptr<T[], Free> scratch_;
};

// The instantiations buffers.cpp defines.
extern template class ChunkedWriter<TableWriter, float>;
extern template class ChunkedWriter<TableWriter, double>;
extern template class ChunkedWriter<SimilarityWriter, float>;
template <typename T>
using TableChunks = ChunkedWriter<TableWriter, T>;
using TableChunks32 = TableChunks<float>;
using TableChunks64 = TableChunks<double>;
using SimilarityChunks = ChunkedWriter<SimilarityWriter, float>;

// Rows of the table from row `firstRow` on (dModel values each).
template <typename T>
TableChunks<T> tableChunks(const Encoding& e, int64_t firstRow, int32_t chunkRows);
// Rows of the length x length similarity matrix.
SimilarityChunks similarityChunks(const Encoding& e, int64_t length, int32_t chunkRows);

}  // namespace posenc::buffers
