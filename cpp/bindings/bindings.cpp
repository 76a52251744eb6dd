// Embind layer: converts the options that web/lib/api.js has already
// validated and normalised into a posenc::Encoding and forwards. No math here.
//
// Memory ownership: functions returning arrays return a copy owned by the
// JavaScript side. The writers return a view of their own scratch buffer that
// is valid only until the next call into the module; api.js copies each chunk
// into the caller's array at once. Arrays allocated for JS in the module's own
// memory (pe.allocate, web/lib/wasm-array.js) are addressed by number and
// written in place: no copy out.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "posenc/posenc.h"

using emscripten::val;

namespace {

// Plain numbers as they come from JS (int64 would need BigInt).
struct EncodingParams {
  int32_t dModel = 512;
  int32_t layout = 0, exponent = 0, order = 0, angle = 0, oddColumn = 0;
  double base = 10000, frequencyScale = 1, start = 0, paddingRow = -1, scale = 1;
};

posenc::Encoding toEncoding(const EncodingParams& p) {
  posenc::Encoding e;
  e.dModel = p.dModel;
  e.layout = static_cast<posenc::Layout>(p.layout);
  e.exponent = static_cast<posenc::Exponent>(p.exponent);
  e.order = static_cast<posenc::Order>(p.order);
  e.angle = static_cast<posenc::Angle>(p.angle);
  e.base = p.base;
  e.frequencyScale = p.frequencyScale;
  e.start = p.start;
  e.paddingRow = static_cast<int64_t>(p.paddingRow);
  e.scale = p.scale;
  e.oddColumn = static_cast<posenc::OddColumn>(p.oddColumn);
  return e;
}

template <typename T>
val copyToJs(const char* arrayType, const T* data, size_t n) {
  return val::global(arrayType).new_(emscripten::typed_memory_view(n, data));
}

std::string validateEncoding(const EncodingParams& p) {
  const char* message = posenc::validate(toEncoding(p));
  return message ? message : "";
}

val frequencies(const EncodingParams& p) {
  const posenc::Encoding e = toEncoding(p);
  std::unique_ptr<double[]> out(new (std::nothrow) double[e.dModel]);
  if (!out) return val::null();
  posenc::columnFrequencies(e, out.get());
  return copyToJs("Float64Array", out.get(), e.dModel);
}

template <typename T>
val row(const EncodingParams& p, double position, const char* arrayType) {
  const posenc::Encoding e = toEncoding(p);
  std::unique_ptr<T[]> out(new (std::nothrow) T[e.dModel]);
  if (!out) return val::null();
  posenc::row(e, position, out.get());
  return copyToJs(arrayType, out.get(), e.dModel);
}

val row32(const EncodingParams& p, double position) { return row<float>(p, position, "Float32Array"); }
val row64(const EncodingParams& p, double position) { return row<double>(p, position, "Float64Array"); }

val offsetDots(const EncodingParams& p, double from, double minOffset, double maxOffset) {
  const size_t count = static_cast<size_t>(maxOffset - minOffset) + 1;
  std::unique_ptr<double[]> out(new (std::nothrow) double[count]);
  if (!out || !posenc::offsetDots(toEncoding(p), from, static_cast<int64_t>(minOffset),
                                  static_cast<int64_t>(maxOffset), out.get()))
    return val::null();
  return copyToJs("Float64Array", out.get(), count);
}

constexpr uintptr_t kPageBytes = 4096;

// Where in `scratch` (a page longer than the rows) to write rows that the
// caller copies to `destinationOffset` (bytes, mod 4 KB): half a page away.
// Large ArrayBuffers start on a page (Chromium) or 16 bytes past one (Node);
// rows that began 16 bytes before the destination mod 4 KB made every load of
// the copy wait on the store before it ("4K aliasing"): 89 instead of 6 us for
// 256 KB in Chromium.
template <typename T>
T* placed(T* scratch, double destinationOffset) {
  const uintptr_t base = reinterpret_cast<uintptr_t>(scratch);
  const uintptr_t wanted = static_cast<uintptr_t>(destinationOffset) + kPageBytes / 2;
  return scratch + ((wanted - base) % kPageBytes & ~uintptr_t{15}) / sizeof(T);
}

template <typename T>
struct Free {
  void operator()(T* p) const { std::free(p); }
};

// 16-byte aligned (whole SIMD vectors), freed with std::free; null when the
// memory cannot grow that far.
void* alignedBytes(size_t bytes) { return std::aligned_alloc(16, (bytes + 15) / 16 * 16); }

template <typename T>
std::unique_ptr<T[], Free<T>> pageLonger(size_t bytes) {
  return std::unique_ptr<T[], Free<T>>(static_cast<T*>(alignedBytes(bytes + kPageBytes)));
}

// Tables of at most kOnceBytes: written by one call into scratch kept for
// them, without a writer object to build and delete (512 x 128: 31 instead of
// 40 us in Node, 29 instead of 40 in Chromium).
// A view valid until the next call.
constexpr size_t kOnceBytes = 256 * 1024;

// One for float and double tables alike; allocated at the first small table
// (and tried again by the next one if memory was short then).
unsigned char* onceScratch() {
  static std::unique_ptr<unsigned char[], Free<unsigned char>> scratch;
  if (!scratch) scratch = pageLonger<unsigned char>(kOnceBytes);
  return scratch.get();
}

template <typename T>
val tableOnce(const EncodingParams& p, double length, double destinationOffset) {
  const size_t count = static_cast<size_t>(length) * static_cast<size_t>(p.dModel);
  if (!onceScratch() || count * sizeof(T) > kOnceBytes) return val::null();
  T* rows = placed(reinterpret_cast<T*>(onceScratch()), destinationOffset);
  if (!posenc::table(toEncoding(p), static_cast<int64_t>(length), rows)) return val::null();
  return val(emscripten::typed_memory_view(count, rows));
}

val tableOnce32(const EncodingParams& p, double length, double destinationOffset) {
  return tableOnce<float>(p, length, destinationOffset);
}
val tableOnce64(const EncodingParams& p, double length, double destinationOffset) {
  return tableOnce<double>(p, length, destinationOffset);
}
double onceBytes() { return static_cast<double>(kOnceBytes); }

// A writer plus the scratch chunk it writes into.
template <typename Writer, typename T>
class ChunkedWriter {
 public:
  ChunkedWriter(Writer* writer, size_t rowValues, int32_t chunkRows)
      : writer_(writer),
        rowValues_(rowValues),
        chunkRows_(chunkRows),
        // A page more than a chunk: room to place each chunk (see next()).
        scratch_(pageLonger<T>(rowValues * static_cast<size_t>(chunkRows) * sizeof(T))) {}
  bool ok() const { return writer_ && writer_->ok() && scratch_; }
  // A view of the next `rows` (<= chunkRows) rows, valid until the next call,
  // placed for a copy to `destinationOffset` (see placed()).
  val next(int32_t rows, double destinationOffset) {
    if (!ok() || rows < 0 || rows > chunkRows_) return val::null();
    T* chunk = placed(scratch_.get(), destinationOffset);
    writer_->write(chunk, rows);
    return val(emscripten::typed_memory_view(rowValues_ * static_cast<size_t>(rows), chunk));
  }

 private:
  std::unique_ptr<Writer> writer_;
  size_t rowValues_;
  int32_t chunkRows_;
  std::unique_ptr<T[], Free<T>> scratch_;
};

using TableChunks32 = ChunkedWriter<posenc::TableWriter, float>;
using TableChunks64 = ChunkedWriter<posenc::TableWriter, double>;
using SimilarityChunks = ChunkedWriter<posenc::SimilarityWriter, float>;

template <typename Chunks>
Chunks* makeTableChunks(const EncodingParams& p, double firstRow, int32_t chunkRows) {
  return new Chunks(new (std::nothrow) posenc::TableWriter(toEncoding(p), static_cast<int64_t>(firstRow)),
                    static_cast<size_t>(p.dModel), chunkRows);
}

SimilarityChunks* makeSimilarityChunks(const EncodingParams& p, double length, int32_t chunkRows) {
  return new SimilarityChunks(new (std::nothrow)
                                  posenc::SimilarityWriter(toEncoding(p), static_cast<int64_t>(length)),
                              static_cast<size_t>(length), chunkRows);
}

// An address in wasm memory as JS holds it: a plain number (wasm32: below 2^32).
template <typename T>
T* at(double address) {
  return reinterpret_cast<T*>(static_cast<uintptr_t>(address));
}

// 0 when the memory cannot grow that far.
double allocateArray(double count, int32_t bytesPerValue) {
  void* memory = alignedBytes(static_cast<size_t>(count) * static_cast<size_t>(bytesPerValue));
  return static_cast<double>(reinterpret_cast<uintptr_t>(memory));
}

void freeArray(double address) { std::free(at<void>(address)); }

// A fresh view: one taken before the memory grew is detached.
val view32(double address, double count) {
  return val(emscripten::typed_memory_view(static_cast<size_t>(count), at<float>(address)));
}
val view64(double address, double count) {
  return val(emscripten::typed_memory_view(static_cast<size_t>(count), at<double>(address)));
}

bool tableInto32(const EncodingParams& p, double length, double address) {
  return posenc::table(toEncoding(p), static_cast<int64_t>(length), at<float>(address));
}
bool tableInto64(const EncodingParams& p, double length, double address) {
  return posenc::table(toEncoding(p), static_cast<int64_t>(length), at<double>(address));
}
bool similarityInto(const EncodingParams& p, double length, double address) {
  return posenc::similarity(toEncoding(p), static_cast<int64_t>(length), at<float>(address));
}

// Bytes currently malloc'ed: lets tests show that nothing stays alive.
double allocatedBytes() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(posenc) {
  using namespace emscripten;
  value_object<EncodingParams>("EncodingParams")
      .field("dModel", &EncodingParams::dModel)
      .field("layout", &EncodingParams::layout)
      .field("exponent", &EncodingParams::exponent)
      .field("order", &EncodingParams::order)
      .field("angle", &EncodingParams::angle)
      .field("base", &EncodingParams::base)
      .field("frequencyScale", &EncodingParams::frequencyScale)
      .field("start", &EncodingParams::start)
      .field("paddingRow", &EncodingParams::paddingRow)
      .field("scale", &EncodingParams::scale)
      .field("oddColumn", &EncodingParams::oddColumn);
  function("validateEncoding", &validateEncoding);
  function("frequencies", &frequencies);
  function("row32", &row32);
  function("row64", &row64);
  function("offsetDots", &offsetDots);
  function("simd", &posenc::simdEnabled);
  function("allocatedBytes", &allocatedBytes);
  function("tableOnce32", &tableOnce32);
  function("tableOnce64", &tableOnce64);
  function("onceBytes", &onceBytes);
  function("allocateArray", &allocateArray);
  function("freeArray", &freeArray);
  function("view32", &view32);
  function("view64", &view64);
  function("tableInto32", &tableInto32);
  function("tableInto64", &tableInto64);
  function("similarityInto", &similarityInto);
  class_<TableChunks32>("TableChunks32")
      .constructor(&makeTableChunks<TableChunks32>, allow_raw_pointers())
      .function("ok", &TableChunks32::ok)
      .function("next", &TableChunks32::next);
  class_<TableChunks64>("TableChunks64")
      .constructor(&makeTableChunks<TableChunks64>, allow_raw_pointers())
      .function("ok", &TableChunks64::ok)
      .function("next", &TableChunks64::next);
  class_<SimilarityChunks>("SimilarityChunks")
      .constructor(&makeSimilarityChunks, allow_raw_pointers())
      .function("ok", &SimilarityChunks::ok)
      .function("next", &SimilarityChunks::next);
}
