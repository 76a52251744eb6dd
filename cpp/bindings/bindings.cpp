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

#include "buffers.h"
#include "posenc/posenc.h"

using emscripten::val;

namespace {

// Plain numbers as they come from JS (int64 would need BigInt).
struct EncodingParams {
  int32_t dModel = 512;
  int32_t layout = 0, exponent = 0, order = 0, angle = 0, oddColumn = 0;
  double base = 10000, frequencyScale = 1, start = 0, paddingRow = -1, scale = 1;
  int32_t exponentDtype = 0, frequencyDtype = 0, positionDtype = 0, angleDtype = 0;
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
  e.precision.exponent = static_cast<posenc::Dtype>(p.exponentDtype);
  e.precision.frequency = static_cast<posenc::Dtype>(p.frequencyDtype);
  e.precision.position = static_cast<posenc::Dtype>(p.positionDtype);
  e.precision.angle = static_cast<posenc::Dtype>(p.angleDtype);
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

namespace buffers = posenc::buffers;

// A byte offset mod 4 KB, where the caller will copy what it is given (api.js
// pageOffset()): the module writes it half a page away (buffers::placed()).
size_t destination(double offset) { return static_cast<size_t>(offset); }

// A view of rows in the module's scratch, valid until the next call into the
// module: api.js copies it out at once.
template <typename T>
val scratchView(const T* rows, size_t count) {
  return rows ? val(emscripten::typed_memory_view(count, rows)) : val::null();
}

template <typename T>
val tableOnce(const EncodingParams& p, double length, double destinationOffset) {
  const T* rows =
      buffers::tableOnce<T>(toEncoding(p), static_cast<int64_t>(length), destination(destinationOffset));
  return scratchView(rows, static_cast<size_t>(length) * static_cast<size_t>(p.dModel));
}

val tableOnce32(const EncodingParams& p, double length, double destinationOffset) {
  return tableOnce<float>(p, length, destinationOffset);
}
val tableOnce64(const EncodingParams& p, double length, double destinationOffset) {
  return tableOnce<double>(p, length, destinationOffset);
}
double onceBytes() { return static_cast<double>(buffers::kOnceBytes); }

using buffers::SimilarityChunks;
using buffers::TableChunks32;
using buffers::TableChunks64;

template <typename T>
buffers::TableChunks<T>* makeTableChunks(const EncodingParams& p, double firstRow, int32_t chunkRows) {
  return new buffers::TableChunks<T>(
      buffers::tableChunks<T>(toEncoding(p), static_cast<int64_t>(firstRow), chunkRows));
}

SimilarityChunks* makeSimilarityChunks(const EncodingParams& p, double length, int32_t chunkRows) {
  return new SimilarityChunks(
      buffers::similarityChunks(toEncoding(p), static_cast<int64_t>(length), chunkRows));
}

// chunks.next(rows, destinationOffset) in JS: a view of the next rows or null.
template <typename Chunks>
val nextChunk(Chunks& chunks, int32_t rows, double destinationOffset) {
  return scratchView(chunks.next(rows, destination(destinationOffset)),
                     chunks.rowValues() * static_cast<size_t>(rows < 0 ? 0 : rows));
}

// An address in wasm memory as JS holds it: a plain number (wasm32: below 2^32).
template <typename T>
T* at(double address) {
  return reinterpret_cast<T*>(static_cast<uintptr_t>(address));
}

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

bool tableInto32(const EncodingParams& p, double length, double address) {
  return posenc::table(toEncoding(p), static_cast<int64_t>(length), at<float>(address));
}
bool tableInto64(const EncodingParams& p, double length, double address) {
  return posenc::table(toEncoding(p), static_cast<int64_t>(length), at<double>(address));
}
bool similarityInto(const EncodingParams& p, double length, double address) {
  return posenc::similarity(toEncoding(p), static_cast<int64_t>(length), at<float>(address));
}

double allocatedBytes() { return static_cast<double>(buffers::allocatedBytes()); }

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
      .field("oddColumn", &EncodingParams::oddColumn)
      .field("exponentDtype", &EncodingParams::exponentDtype)
      .field("frequencyDtype", &EncodingParams::frequencyDtype)
      .field("positionDtype", &EncodingParams::positionDtype)
      .field("angleDtype", &EncodingParams::angleDtype);
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
      .constructor(&makeTableChunks<float>, allow_raw_pointers())
      .function("ok", &TableChunks32::ok)
      .function("next", &nextChunk<TableChunks32>);
  class_<TableChunks64>("TableChunks64")
      .constructor(&makeTableChunks<double>, allow_raw_pointers())
      .function("ok", &TableChunks64::ok)
      .function("next", &nextChunk<TableChunks64>);
  class_<SimilarityChunks>("SimilarityChunks")
      .constructor(&makeSimilarityChunks, allow_raw_pointers())
      .function("ok", &SimilarityChunks::ok)
      .function("next", &nextChunk<SimilarityChunks>);
}
