// Embind layer of the RoPE functions: converts what web/lib/rope-options.js
// has validated and resolved into posenc::rope calls. No math here.
//
// Plain functions and numbers only (no value_object or class_): each Embind
// registration adds wasm, and the module has a 64 KB budget.
//
// Memory ownership: results are copies owned by the JavaScript side, except
// the cache chunks, a view of the writer's scratch valid until the next call
// into the module (web/lib/rope.js copies each chunk out at once, and ends
// every writer it starts). ropeApply rotates an array that rope.js placed in
// wasm memory (allocateArray of bindings.cpp) in place.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <new>

#include "address.h"
#include "boundary.h"
#include "posenc/limits.h"
#include "posenc/rope.h"
#include "posenc/rope_base.h"

using emscripten::val;
using posenc::bindings::at;

namespace {

// A copy in wasm memory of a JS Float64Array (rope.js passes no other), or
// of nothing (null, undefined). Not a std::vector: its operator new aborts the
// module when the heap is full (no exceptions); a nothrow new returns null,
// and `ok` says whether the copy was made.
struct Numbers {
  std::unique_ptr<double[]> values;
  size_t size = 0;
  bool ok = true;
  const double* data() const { return values.get(); }
};

// Not inlined (wasm size: frequencies() alone took three copies).
__attribute__((noinline)) Numbers numbers(const val& array) {
  Numbers n;
  if (array.isNull() || array.isUndefined()) return n;
  n.size = array["length"].as<size_t>();
  n.values.reset(new (std::nothrow) double[n.size ? n.size : 1]);
  n.ok = n.values != nullptr;
  // The view is taken after the allocation, which may have grown the memory.
  if (n.ok) val(emscripten::typed_memory_view(n.size, n.values.get())).call<void>("set", array);
  return n;
}

// Float64Array [attentionFactor, invFreq...] of the configuration rope.js
// staged (boundary.h), or null (invalid, or out of memory).
val frequencies(const val& shortFactor, const val& longFactor) {
  const Numbers shortValues = numbers(shortFactor), longValues = numbers(longFactor);
  if (!shortValues.ok || !longValues.ok) return val::null();
  posenc::rope::Params p = posenc::bindings::ropeParamsFrom(posenc::bindings::stagedRope);
  const size_t pairs = static_cast<size_t>(p.rotaryDim > 0 ? p.rotaryDim / 2 : 0);
  if (shortValues.size == pairs && longValues.size == pairs) {
    p.shortFactor = shortValues.data();
    p.longFactor = longValues.data();
  }
  std::unique_ptr<double[]> out(new (std::nothrow) double[pairs + 1]);
  if (!out || posenc::rope::validate(p) != nullptr) return val::null();
  out[0] = posenc::rope::frequencies(p, out.get() + 1);
  return val::global("Float64Array").new_(emscripten::typed_memory_view(pairs + 1, out.get()));
}

// A cache writer and the scratch chunk it writes into: [cos rows | sin rows].
// The rounding of positions and angles (api: positionDtype, angleDtype).
posenc::Precision anglePrecision(int32_t positionDtype, int32_t angleDtype) {
  posenc::Precision precision;
  precision.position = static_cast<posenc::Dtype>(positionDtype);
  precision.angle = static_cast<posenc::Dtype>(angleDtype);
  return precision;
}

struct CacheChunks {
  std::unique_ptr<posenc::rope::CacheWriter> writer;
  size_t rowValues = 0;
  int32_t chunkRows = 0;
  bool float64 = false;
  std::unique_ptr<double[]> scratch;  // float rows use its bytes as floats
};

// A handle (an address) for ropeCacheNext / ropeCacheEnd; 0 when out of memory.
double cacheStart(const val& invFreq, double attentionFactor, int32_t layout, double start, int32_t chunkRows,
                  bool float64, int32_t positionDtype, int32_t angleDtype) {
  const Numbers w = numbers(invFreq);
  std::unique_ptr<CacheChunks> c(new (std::nothrow) CacheChunks);
  if (!w.ok || !c || chunkRows < 1) return 0;
  c->rowValues = 2 * w.size;
  c->chunkRows = chunkRows;
  c->float64 = float64;
  posenc::rope::Cache cache;
  cache.invFreq = w.data();
  cache.pairs = static_cast<int32_t>(w.size);
  cache.attentionFactor = attentionFactor;
  cache.layout = static_cast<posenc::rope::Layout>(layout);
  cache.start = start;
  cache.precision = anglePrecision(positionDtype, angleDtype);
  c->writer.reset(new (std::nothrow) posenc::rope::CacheWriter(cache));
  c->scratch.reset(new (std::nothrow) double[2 * c->rowValues * static_cast<size_t>(chunkRows)]);
  if (!c->writer || !c->writer->ok() || !c->scratch) return 0;
  return static_cast<double>(reinterpret_cast<uintptr_t>(c.release()));
}

CacheChunks* chunksAt(double handle) {
  return reinterpret_cast<CacheChunks*>(static_cast<uintptr_t>(handle));
}

// A view of the next `rows` rows of cos then of sin, valid until the next call.
val cacheNext(double handle, int32_t rows) {
  CacheChunks* c = chunksAt(handle);
  if (!c || rows < 0 || rows > c->chunkRows) return val::null();
  const size_t count = c->rowValues * static_cast<size_t>(rows);
  if (c->float64) {
    double* values = c->scratch.get();
    c->writer->write(values, values + count, rows);
    return val(emscripten::typed_memory_view(2 * count, values));
  }
  float* values = reinterpret_cast<float*>(c->scratch.get());
  c->writer->write(values, values + count, rows);
  return val(emscripten::typed_memory_view(2 * count, values));
}

void cacheEnd(double handle) { delete chunksAt(handle); }

// x (at `address`, float32 or float64) rotated in place.
bool apply(const val& invFreq, double attentionFactor, int32_t layout, int32_t headDim, int32_t heads,
           double tokens, double address, double positionsAddress, double start, bool float64,
           int32_t positionDtype, int32_t angleDtype) {
  const Numbers w = numbers(invFreq);
  if (!w.ok) return false;
  posenc::rope::Rotation r;
  r.invFreq = w.data();
  r.pairs = static_cast<int32_t>(w.size);
  r.attentionFactor = attentionFactor;
  r.layout = static_cast<posenc::rope::Layout>(layout);
  r.headDim = headDim;
  r.heads = heads;
  r.tokens = static_cast<int64_t>(tokens);
  r.positions = positionsAddress == 0 ? nullptr : at<const double>(positionsAddress);
  r.start = start;
  r.precision = anglePrecision(positionDtype, angleDtype);
  return float64 ? posenc::rope::apply(r, at<double>(address), at<double>(address))
                 : posenc::rope::apply(r, at<float>(address), at<float>(address));
}

// Float64Array [scores (maxOffset + 1) | bound (maxOffset + 1)], or null.
val scores(const val& invFreq, double attentionFactor, int32_t headDim, double from, double maxOffset,
           int32_t positionDtype, int32_t angleDtype) {
  const Numbers w = numbers(invFreq);
  posenc::rope::Scores s;
  s.invFreq = w.data();
  s.pairs = static_cast<int32_t>(w.size);
  s.attentionFactor = attentionFactor;
  s.headDim = headDim;
  s.from = from;
  s.maxOffset = static_cast<int64_t>(maxOffset);
  s.precision = anglePrecision(positionDtype, angleDtype);
  const size_t count = static_cast<size_t>(maxOffset) + 1;
  std::unique_ptr<double[]> out(new (std::nothrow) double[2 * count]);
  if (!w.ok || !out || !posenc::rope::scores(s, out.get(), out.get() + count)) return val::null();
  return val::global("Float64Array").new_(emscripten::typed_memory_view(2 * count, out.get()));
}

// The leading offsets with sum_i cos(m invFreq_i) >= 0, at most limit; -1 when memory is short.
double supportedContext(const val& invFreq, double limit) {
  const Numbers w = numbers(invFreq);
  if (!w.ok) return -1;
  return static_cast<double>(
      posenc::rope::supportedContext(w.data(), static_cast<int32_t>(w.size), static_cast<int64_t>(limit)));
}

// Searched up to the library's largest base (limits.h), which JS reads from the report.
double smallestBase(int32_t headDim, double context, int32_t stepsPerOctave) {
  return posenc::rope::smallestBase(headDim, static_cast<int64_t>(context), posenc::rope::kMaxBase,
                                    stepsPerOctave);
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc_rope) {
  using emscripten::function;
  function("ropeFrequencies", &frequencies);
  function("ropeCacheStart", &cacheStart);
  function("ropeCacheNext", &cacheNext);
  function("ropeCacheEnd", &cacheEnd);
  function("ropeApply", &apply);
  function("ropeScores", &scores);
  function("ropeSupportedContext", &supportedContext);
  function("ropeSmallestBase", &smallestBase);
}
