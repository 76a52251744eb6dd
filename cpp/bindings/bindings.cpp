// Embind layer: converts the options that web/lib/api.js has already
// validated and normalised into a posenc::Encoding and forwards. No math, and
// no buffer logic: scratch, chunking and placement are in buffers.h.
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
#include "boundary.h"
#include "buffers.h"
#include "posenc/posenc.h"

using emscripten::val;
using posenc::bindings::at;

namespace {

// The convention api.js staged for this call (boundary.h). Not inlined: a copy
// in each of the dozen bindings was 6 KB of the module (wasm size).
__attribute__((noinline)) posenc::Encoding stagedEncoding() {
  return posenc::bindings::encodingFrom(posenc::bindings::stagedEncoding);
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
val rowOf(double position, const char* arrayType) {
  const posenc::Encoding e = stagedEncoding();
  std::unique_ptr<T[]> out(new (std::nothrow) T[e.dModel]);
  if (!out) return val::null();
  if (!buffers::row(e, position, out.get())) return val::null();
  return copyToJs(arrayType, out.get(), e.dModel);
}

// A Float64Array or Float32Array row of the staged encoding, or null.
val row(double position, bool float64) {
  return float64 ? rowOf<double>(position, "Float64Array") : rowOf<float>(position, "Float32Array");
}

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

double addressOf(const void* p) { return static_cast<double>(reinterpret_cast<uintptr_t>(p)); }

// A table of `length` rows of the staged encoding, the way its size calls for
// (api.js tells which from the same numbers):
//  - address != 0 (a WasmArray): written there in place; 1, or 0 when out of memory;
//  - at most kOnceBytes: the address of its rows in the scratch kept for small
//    tables (0: none), not a view: api.js keeps one view of the scratch for
//    calls that get the same address, saving an Embind val and a typed array;
//  - larger: the handle of a writer of chunkRows rows a chunk, for chunksNext
//    (0: out of memory).
template <typename T>
double table(double length, double address, double destinationOffset, int32_t chunkRows) {
  const posenc::Encoding e = stagedEncoding();
  const int64_t rows = static_cast<int64_t>(length);
  if (address != 0) return posenc::table(e, rows, at<T>(address)) ? 1 : 0;
  if (static_cast<uint64_t>(rows) * static_cast<uint64_t>(e.dModel) * sizeof(T) <= buffers::kOnceBytes)
    return addressOf(buffers::tableOnce<T>(e, rows, destination(destinationOffset)));
  return startChunks(buffers::tableChunks<T>(e, 0, chunkRows));
}
double table32(double length, double address, double destinationOffset, int32_t chunkRows) {
  return table<float>(length, address, destinationOffset, chunkRows);
}
double table64(double length, double address, double destinationOffset, int32_t chunkRows) {
  return table<double>(length, address, destinationOffset, chunkRows);
}

// The length x length matrix: written at address != 0 (1, or 0 when out of
// memory), else the handle of a writer of chunkRows rows a chunk (0: out of memory).
double similarity(double length, double address, int32_t chunkRows) {
  const posenc::Encoding e = stagedEncoding();
  if (address != 0) return posenc::similarity(e, static_cast<int64_t>(length), at<float>(address)) ? 1 : 0;
  return startChunks(buffers::similarityChunks(e, static_cast<int64_t>(length), chunkRows));
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

// What calls left behind: the writers kept for repeated options are dropped first.
double allocatedBytes() {
  buffers::clearCaches();
  return static_cast<double>(buffers::allocatedBytes());
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc) {
  using namespace emscripten;
  function("validateEncoding", &validateEncoding);
  function("frequencies", &frequencies);
  function("row", &row);
  function("offsetDots", &offsetDots);
  function("simd", &posenc::simdEnabled);
  function("allocatedBytes", &allocatedBytes);
  function("onceBytes", &onceBytes);
  function("table32", &table32);
  function("table64", &table64);
  function("similarity", &similarity);
  function("allocateArray", &allocateArray);
  function("freeArray", &freeArray);
  function("view32", &view32);
  function("view64", &view64);
  function("chunksNext", &chunksNext);
  function("chunksEnd", &chunksEnd);
}
