#include "buffers.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <utility>
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif

namespace posenc::buffers {

namespace {

// Largest size handled: adding a page and rounding up to 16 cannot overflow.
constexpr size_t kMaxBytes = std::numeric_limits<size_t>::max() - kPageBytes - 15;

// Whether count * size <= kMaxBytes.
bool fits(size_t count, size_t size) { return size == 0 || count <= kMaxBytes / size; }

void* alignedBytes(size_t bytes) { return std::aligned_alloc(16, (bytes + 15) / 16 * 16); }

// A page more than count * bytesPerValue: room to place the rows (see placed()).
void* pageLonger(size_t count, size_t bytesPerValue) {
  return fits(count, bytesPerValue) ? alignedBytes(count * bytesPerValue + kPageBytes) : nullptr;
}

struct FreeBytes {
  void operator()(unsigned char* p) const { freeAligned(p); }
};

// One for float and double tables alike; allocated at the first small table
// (and tried again by the next one if memory was short then).
unsigned char* onceScratch() {
  static std::unique_ptr<unsigned char[], FreeBytes> scratch;
  if (!scratch) scratch.reset(static_cast<unsigned char*>(pageLonger(kOnceBytes, 1)));
  return scratch.get();
}

bool sameBits(double x, double y) { return std::memcmp(&x, &y, sizeof(double)) == 0; }

bool samePrecision(const Precision& a, const Precision& b) {
  return a.exponent == b.exponent && a.frequency == b.frequency && a.position == b.position &&
         a.angle == b.angle;
}

bool sameEncoding(const Encoding& a, const Encoding& b) {
  return a.dModel == b.dModel && a.layout == b.layout && a.exponent == b.exponent && a.order == b.order &&
         a.angle == b.angle && sameBits(a.base, b.base) && sameBits(a.frequencyScale, b.frequencyScale) &&
         sameBits(a.start, b.start) && a.paddingRow == b.paddingRow && sameBits(a.scale, b.scale) &&
         a.oddColumn == b.oddColumn && samePrecision(a.precision, b.precision);
}

struct CachedWriter {
  Encoding encoding;
  std::unique_ptr<TableWriter> writer;
};

// Most recently used first.
CachedWriter* writerCache() {
  static CachedWriter cache[kCachedWriters];
  return cache;
}

// The cached writer of `e`, moved to the front, or a new one in place of the
// least recently used; null (nothing evicted) when `e` has too many columns,
// is invalid or the writer cannot be allocated.
TableWriter* cachedWriter(const Encoding& e) {
  CachedWriter* cache = writerCache();
  size_t found = 0;
  while (found < kCachedWriters && !(cache[found].writer && sameEncoding(cache[found].encoding, e))) ++found;
  if (found == kCachedWriters) {
    if (e.dModel > kCachedDModel) return nullptr;
    std::unique_ptr<TableWriter> writer(new (std::nothrow) TableWriter(e, 0));
    if (!writer || !writer->ok()) return nullptr;
    found = kCachedWriters - 1;
    cache[found] = {e, std::move(writer)};
  }
  for (; found > 0; --found) std::swap(cache[found], cache[found - 1]);
  return cache[0].writer.get();
}

}  // namespace

void clearCaches() {
  for (size_t i = 0; i < kCachedWriters; ++i) writerCache()[i] = {};
}

void* allocateAligned(size_t count, size_t bytesPerValue) {
  // A product that overflows would otherwise allocate a few bytes for it.
  return fits(count, bytesPerValue) ? alignedBytes(count * bytesPerValue) : nullptr;
}

void freeAligned(void* memory) { std::free(memory); }

size_t allocatedBytes() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  return mallinfo2().uordblks;  // mallinfo() is deprecated from glibc 2.33
#elif __has_include(<malloc.h>)
  return static_cast<size_t>(mallinfo().uordblks);
#else
  return 0;
#endif
}

size_t placementBytes(uintptr_t scratchAddress, size_t destinationOffset) {
  const uintptr_t wanted = static_cast<uintptr_t>(destinationOffset) + kPageBytes / 2;
  // Unsigned arithmetic wraps modulo a multiple of the page, so this holds
  // when the scratch lies above the wanted offset too.
  return static_cast<size_t>((wanted - scratchAddress) % kPageBytes & ~uintptr_t{15});
}

template <typename T>
T* tableOnce(const Encoding& e, int64_t length, size_t destinationOffset) {
  // Compared by rows, not by length * dModel * sizeof(T), which can overflow
  // a 32-bit size_t.
  if (e.dModel < 1 || length < 0 ||
      static_cast<uint64_t>(length) > kOnceBytes / sizeof(T) / static_cast<size_t>(e.dModel))
    return nullptr;
  unsigned char* scratch = onceScratch();
  if (!scratch) return nullptr;
  T* rows = placed(reinterpret_cast<T*>(scratch), destinationOffset);
  if (TableWriter* writer = cachedWriter(e)) {
    writer->restart(0);
    writer->write(rows, length);
    return rows;
  }
  return table(e, length, rows) ? rows : nullptr;
}

template float* tableOnce<float>(const Encoding&, int64_t, size_t);
template double* tableOnce<double>(const Encoding&, int64_t, size_t);

template <typename T>
bool row(const Encoding& e, double position, T* out) {
  if (TableWriter* writer = cachedWriter(e)) {
    writer->row(position, out);
    return true;
  }
  // Too many columns to keep, or no memory for a writer: row() needs none.
  if (validate(e) != nullptr) return false;
  posenc::row(e, position, out);
  return true;
}

template bool row<float>(const Encoding&, double, float*);
template bool row<double>(const Encoding&, double, double*);

template <typename Writer, typename T>
ChunkedWriter<Writer, T>::ChunkedWriter(std::unique_ptr<Writer> writer, size_t rowValues, int32_t chunkRows)
    : writer_(std::move(writer)),
      rowValues_(rowValues),
      chunkRows_(chunkRows),
      scratch_(chunkRows >= 0 && fits(rowValues, static_cast<size_t>(chunkRows))
                   ? static_cast<T*>(pageLonger(rowValues * static_cast<size_t>(chunkRows), sizeof(T)))
                   : nullptr) {}

template <typename Writer, typename T>
bool ChunkedWriter<Writer, T>::ok() const {
  return writer_ && writer_->ok() && scratch_;
}

template <typename Writer, typename T>
T* ChunkedWriter<Writer, T>::next(int32_t rows, size_t destinationOffset) {
  if (!ok() || rows < 0 || rows > chunkRows_) return nullptr;
  T* chunk = placed(scratch_.get(), destinationOffset);
  writer_->write(chunk, rows);
  return chunk;
}

template class ChunkedWriter<TableWriter, float>;
template class ChunkedWriter<TableWriter, double>;
template class ChunkedWriter<SimilarityWriter, float>;

template <typename T>
TableChunks<T> tableChunks(const Encoding& e, int64_t firstRow, int32_t chunkRows) {
  return TableChunks<T>(std::unique_ptr<TableWriter>(new (std::nothrow) TableWriter(e, firstRow)),
                        static_cast<size_t>(e.dModel), chunkRows);
}

template TableChunks32 tableChunks<float>(const Encoding&, int64_t, int32_t);
template TableChunks64 tableChunks<double>(const Encoding&, int64_t, int32_t);

SimilarityChunks similarityChunks(const Encoding& e, int64_t length, int32_t chunkRows) {
  return SimilarityChunks(std::unique_ptr<SimilarityWriter>(new (std::nothrow) SimilarityWriter(e, length)),
                          static_cast<size_t>(length), chunkRows);
}

}  // namespace posenc::buffers
