// Embind layer: converts the options that web/lib/api.js has already
// validated and normalised into a posenc::Encoding and forwards. No math, and
// no buffer logic: scratch, chunking and placement are in cpp/src/buffers.h.
//
// Memory ownership: functions returning arrays return a copy owned by the
// JavaScript side. The writers return a view of their own scratch buffer that
// is valid only until the next call into the module; api.js copies each chunk
// into the caller's array at once. Arrays allocated for JS in the module's own
// memory (pe.allocate, web/lib/wasm-array.js) are addressed by number and
// written in place: no copy out.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "address.h"
#include "buffers.h"
#include "posenc/posenc.h"

using emscripten::val;
using posenc::bindings::at;

namespace {

// The options of the next call, written by api.js (stageEncoding()) as
// doubles into this block of wasm memory and read back by the call: an Embind
// value_object would cost a call into wasm per field (0.5 us per call).
// Validated and normalised by web/lib/options.js; one call at a time.
enum Field : size_t {
  kDModel,
  kLayout,
  kExponent,
  kOrder,
  kAngle,
  kBase,
  kFrequencyScale,
  kStart,
  kPaddingRow,
  kScale,
  kOddColumn,
  kExponentDtype,
  kFrequencyDtype,
  kPositionDtype,
  kAngleDtype,
  kFields
};
double staged[kFields];

double stagedEncodingAddress() { return static_cast<double>(reinterpret_cast<uintptr_t>(staged)); }

// Not inlined: a copy in each of the dozen bindings was 6 KB of the module
// (wasm size), for a call that costs nanoseconds.
__attribute__((noinline)) posenc::Encoding stagedEncoding() {
  posenc::Encoding e;
  e.dModel = static_cast<int32_t>(staged[kDModel]);
  e.layout = static_cast<posenc::Layout>(static_cast<int32_t>(staged[kLayout]));
  e.exponent = static_cast<posenc::Exponent>(static_cast<int32_t>(staged[kExponent]));
  e.order = static_cast<posenc::Order>(static_cast<int32_t>(staged[kOrder]));
  e.angle = static_cast<posenc::Angle>(static_cast<int32_t>(staged[kAngle]));
  e.base = staged[kBase];
  e.frequencyScale = staged[kFrequencyScale];
  e.start = staged[kStart];
  e.paddingRow = static_cast<int64_t>(staged[kPaddingRow]);
  e.scale = staged[kScale];
  e.oddColumn = static_cast<posenc::OddColumn>(static_cast<int32_t>(staged[kOddColumn]));
  e.precision.exponent = static_cast<posenc::Dtype>(static_cast<int32_t>(staged[kExponentDtype]));
  e.precision.frequency = static_cast<posenc::Dtype>(static_cast<int32_t>(staged[kFrequencyDtype]));
  e.precision.position = static_cast<posenc::Dtype>(static_cast<int32_t>(staged[kPositionDtype]));
  e.precision.angle = static_cast<posenc::Dtype>(static_cast<int32_t>(staged[kAngleDtype]));
  return e;
}

namespace buffers = posenc::buffers;

template <typename T>
val copyToJs(const char* arrayType, const T* data, size_t n) {
  return val::global(arrayType).new_(emscripten::typed_memory_view(n, data));
}

std::string validateEncoding() {
  const char* message = posenc::validate(stagedEncoding());
  return message ? message : "";
}

val frequencies() {
  const posenc::Encoding e = stagedEncoding();
  std::unique_ptr<double[]> out(new (std::nothrow) double[e.dModel]);
  if (!out) return val::null();
  posenc::columnFrequencies(e, out.get());
  return copyToJs("Float64Array", out.get(), e.dModel);
}

template <typename T>
val row(double position, const char* arrayType) {
  const posenc::Encoding e = stagedEncoding();
  std::unique_ptr<T[]> out(new (std::nothrow) T[e.dModel]);
  if (!out) return val::null();
  if (!buffers::row(e, position, out.get())) return val::null();
  return copyToJs(arrayType, out.get(), e.dModel);
}

val row32(double position) { return row<float>(position, "Float32Array"); }
val row64(double position) { return row<double>(position, "Float64Array"); }

val offsetDots(double from, double minOffset, double maxOffset) {
  const size_t count = static_cast<size_t>(maxOffset - minOffset) + 1;
  std::unique_ptr<double[]> out(new (std::nothrow) double[count]);
  if (!out || !posenc::offsetDots(stagedEncoding(), from, static_cast<int64_t>(minOffset),
                                  static_cast<int64_t>(maxOffset), out.get()))
    return val::null();
  return copyToJs("Float64Array", out.get(), count);
}

// A byte offset mod 4 KB, where the caller will copy what it is given (api.js
// pageOffset()): the module writes it half a page away (buffers::placed()).
size_t destination(double offset) { return static_cast<size_t>(offset); }

// A view of rows in the module's scratch, valid until the next call into the
// module: api.js copies it out at once.
template <typename T>
val scratchView(const T* rows, size_t count) {
  return rows ? val(emscripten::typed_memory_view(count, rows)) : val::null();
}

// The address of the rows (0: none), not a view: api.js keeps one view of
// the scratch for calls that get the same address (an Embind val and a new
// typed array per call were a fifth of a 1 x 512 table's time).
template <typename T>
double tableOnce(double length, double destinationOffset) {
  const T* rows =
      buffers::tableOnce<T>(stagedEncoding(), static_cast<int64_t>(length), destination(destinationOffset));
  return static_cast<double>(reinterpret_cast<uintptr_t>(rows));
}

double tableOnce32(double length, double destinationOffset) {
  return tableOnce<float>(length, destinationOffset);
}
double tableOnce64(double length, double destinationOffset) {
  return tableOnce<double>(length, destinationOffset);
}
double onceBytes() { return static_cast<double>(buffers::kOnceBytes); }

// A chunk writer for JS, addressed by a number (api.js drain()): plain
// functions, not an Embind class_, whose machinery was a third of the JS glue
// (17 KB) and 4 KB of wasm for three classes.
class AnyChunks {
 public:
  virtual ~AnyChunks() = default;
  // A view of the next rows (null when rows is out of range).
  virtual val next(int32_t rows, double destinationOffset) = 0;
};

template <typename Chunks>
class ChunksOf final : public AnyChunks {
 public:
  explicit ChunksOf(Chunks&& chunks) : chunks_(std::move(chunks)) {}
  val next(int32_t rows, double destinationOffset) override {
    return scratchView(chunks_.next(rows, destination(destinationOffset)),
                       chunks_.rowValues() * static_cast<size_t>(rows < 0 ? 0 : rows));
  }

 private:
  Chunks chunks_;
};

// The handle of a new writer; 0 when it or its scratch cannot be allocated.
template <typename Chunks>
double startChunks(Chunks&& chunks) {
  if (!chunks.ok()) return 0;
  AnyChunks* started = new (std::nothrow) ChunksOf<Chunks>(std::move(chunks));
  return static_cast<double>(reinterpret_cast<uintptr_t>(started));
}

AnyChunks* chunksAt(double handle) { return reinterpret_cast<AnyChunks*>(static_cast<uintptr_t>(handle)); }

double tableChunks32(double firstRow, int32_t chunkRows) {
  return startChunks(
      buffers::tableChunks<float>(stagedEncoding(), static_cast<int64_t>(firstRow), chunkRows));
}
double tableChunks64(double firstRow, int32_t chunkRows) {
  return startChunks(
      buffers::tableChunks<double>(stagedEncoding(), static_cast<int64_t>(firstRow), chunkRows));
}
double similarityChunks(double length, int32_t chunkRows) {
  return startChunks(buffers::similarityChunks(stagedEncoding(), static_cast<int64_t>(length), chunkRows));
}

// chunksNext(handle, rows, destinationOffset) in JS: a view of the next rows, or null.
val chunksNext(double handle, int32_t rows, double destinationOffset) {
  return chunksAt(handle)->next(rows, destinationOffset);
}

void chunksEnd(double handle) { delete chunksAt(handle); }

// 0 when the memory cannot grow that far.
double allocateArray(double count, int32_t bytesPerValue) {
  void* memory = buffers::allocateAligned(static_cast<size_t>(count), static_cast<size_t>(bytesPerValue));
  return static_cast<double>(reinterpret_cast<uintptr_t>(memory));
}

void freeArray(double address) { buffers::freeAligned(at<void>(address)); }

// A fresh view: one taken before the memory grew is detached.
val view32(double address, double count) {
  return val(emscripten::typed_memory_view(static_cast<size_t>(count), at<float>(address)));
}
val view64(double address, double count) {
  return val(emscripten::typed_memory_view(static_cast<size_t>(count), at<double>(address)));
}

bool tableInto32(double length, double address) {
  return posenc::table(stagedEncoding(), static_cast<int64_t>(length), at<float>(address));
}
bool tableInto64(double length, double address) {
  return posenc::table(stagedEncoding(), static_cast<int64_t>(length), at<double>(address));
}
bool similarityInto(double length, double address) {
  return posenc::similarity(stagedEncoding(), static_cast<int64_t>(length), at<float>(address));
}

// What calls left behind: the writers kept for repeated options are dropped first.
double allocatedBytes() {
  buffers::clearCaches();
  return static_cast<double>(buffers::allocatedBytes());
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc) {
  using namespace emscripten;
  function("stagedEncodingAddress", &stagedEncodingAddress);
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
  function("tableChunks32", &tableChunks32);
  function("tableChunks64", &tableChunks64);
  function("similarityChunks", &similarityChunks);
  function("chunksNext", &chunksNext);
  function("chunksEnd", &chunksEnd);
}
