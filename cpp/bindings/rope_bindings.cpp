// Embind layer of the RoPE functions: converts what web/lib/rope-options.js
// has validated and resolved into posenc::rope calls. No math here.
//
// Memory ownership: results are copies owned by the JavaScript side, except
// the cache chunks, a view of the writer's scratch valid until the next call
// into the module (web/lib/rope.js copies each chunk out at once). ropeApply
// rotates an array that rope.js placed in wasm memory (allocateArray of
// bindings.cpp) in place.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "posenc/rope.h"

using emscripten::val;

namespace {

// Plain numbers as they come from JS; NaN marks an absent optional value.
struct RopeParams {
  int32_t rotaryDim = 128;
  int32_t scaling = 0;
  double base = 10000, factor = 1, originalMaxPositionEmbeddings = 0, maxPositionEmbeddings = 0, seqLen = 0;
  double betaFast = 32, betaSlow = 1, mscale = 0, mscaleAllDim = 0, attentionFactor = 0;
  bool truncate = true;
  double lowFreqFactor = 1, highFreqFactor = 4;
};

std::vector<double> numbers(const val& array) {
  if (array.isNull() || array.isUndefined()) return {};
  return emscripten::convertJSArrayToNumberVector<double>(array);
}

// {invFreq: Float64Array, attentionFactor} or null (invalid, or out of memory).
val frequencies(const RopeParams& r, const val& shortFactor, const val& longFactor) {
  const std::vector<double> shortValues = numbers(shortFactor), longValues = numbers(longFactor);
  posenc::rope::Params p;
  p.rotaryDim = r.rotaryDim;
  p.base = r.base;
  p.scaling = static_cast<posenc::rope::Scaling>(r.scaling);
  p.factor = r.factor;
  p.originalMaxPositionEmbeddings = r.originalMaxPositionEmbeddings;
  p.maxPositionEmbeddings = r.maxPositionEmbeddings;
  p.seqLen = r.seqLen;
  p.betaFast = r.betaFast;
  p.betaSlow = r.betaSlow;
  p.mscale = r.mscale;
  p.mscaleAllDim = r.mscaleAllDim;
  p.attentionFactor = r.attentionFactor;
  p.truncate = r.truncate;
  p.lowFreqFactor = r.lowFreqFactor;
  p.highFreqFactor = r.highFreqFactor;
  const size_t pairs = static_cast<size_t>(r.rotaryDim / 2);
  if (shortValues.size() == pairs && longValues.size() == pairs) {
    p.shortFactor = shortValues.data();
    p.longFactor = longValues.data();
  }
  std::unique_ptr<double[]> invFreq(new (std::nothrow) double[pairs > 0 ? pairs : 1]);
  if (!invFreq || posenc::rope::validate(p) != nullptr) return val::null();
  const double attentionFactor = posenc::rope::frequencies(p, invFreq.get());
  val result = val::object();
  result.set("invFreq",
             val::global("Float64Array").new_(emscripten::typed_memory_view(pairs, invFreq.get())));
  result.set("attentionFactor", attentionFactor);
  return result;
}

// A cache writer and the scratch chunk it writes into: [cos rows | sin rows].
template <typename T>
class CacheChunks {
 public:
  CacheChunks(const val& invFreq, double attentionFactor, int32_t layout, double start, int32_t chunkRows)
      : chunkRows_(chunkRows) {
    const std::vector<double> w = numbers(invFreq);
    rowValues_ = 2 * w.size();
    writer_.reset(new (std::nothrow)
                      posenc::rope::CacheWriter(w.data(), static_cast<int32_t>(w.size()), attentionFactor,
                                                static_cast<posenc::rope::Layout>(layout), start));
    scratch_.reset(new (std::nothrow) T[2 * rowValues_ * static_cast<size_t>(chunkRows > 0 ? chunkRows : 1)]);
  }
  bool ok() const { return writer_ && writer_->ok() && scratch_; }
  // A view of the next `rows` rows of cos then of sin, valid until the next call.
  val next(int32_t rows) {
    if (!ok() || rows < 0 || rows > chunkRows_) return val::null();
    const size_t count = rowValues_ * static_cast<size_t>(rows);
    writer_->write(scratch_.get(), scratch_.get() + count, rows);
    return val(emscripten::typed_memory_view(2 * count, scratch_.get()));
  }

 private:
  int32_t chunkRows_;
  size_t rowValues_ = 0;
  std::unique_ptr<posenc::rope::CacheWriter> writer_;
  std::unique_ptr<T[]> scratch_;
};

using CacheChunks32 = CacheChunks<float>;
using CacheChunks64 = CacheChunks<double>;

template <typename T>
T* at(double address) {
  return reinterpret_cast<T*>(static_cast<uintptr_t>(address));
}

template <typename T>
bool applyAt(const val& invFreq, double attentionFactor, int32_t layout, int32_t headDim, int32_t heads,
             double tokens, double address, double positionsAddress, double start) {
  const std::vector<double> w = numbers(invFreq);
  T* x = at<T>(address);
  return posenc::rope::apply(
      w.data(), static_cast<int32_t>(w.size()), attentionFactor, static_cast<posenc::rope::Layout>(layout),
      headDim, heads, static_cast<int64_t>(tokens),
      positionsAddress == 0 ? nullptr : at<const double>(positionsAddress), start, x, x);
}

bool apply32(const val& invFreq, double attentionFactor, int32_t layout, int32_t headDim, int32_t heads,
             double tokens, double address, double positionsAddress, double start) {
  return applyAt<float>(invFreq, attentionFactor, layout, headDim, heads, tokens, address, positionsAddress,
                        start);
}
bool apply64(const val& invFreq, double attentionFactor, int32_t layout, int32_t headDim, int32_t heads,
             double tokens, double address, double positionsAddress, double start) {
  return applyAt<double>(invFreq, attentionFactor, layout, headDim, heads, tokens, address, positionsAddress,
                         start);
}

// Float64Array [scores (maxOffset + 1) | bound (maxOffset + 1)], or null.
val scores(const val& invFreq, double attentionFactor, int32_t headDim, double from, double maxOffset) {
  const std::vector<double> w = numbers(invFreq);
  const size_t count = static_cast<size_t>(maxOffset) + 1;
  std::unique_ptr<double[]> out(new (std::nothrow) double[2 * count]);
  if (!out || !posenc::rope::scores(w.data(), static_cast<int32_t>(w.size()), attentionFactor, headDim, from,
                                    static_cast<int64_t>(maxOffset), out.get(), out.get() + count))
    return val::null();
  return val::global("Float64Array").new_(emscripten::typed_memory_view(2 * count, out.get()));
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc_rope) {
  using namespace emscripten;
  value_object<RopeParams>("RopeParams")
      .field("rotaryDim", &RopeParams::rotaryDim)
      .field("scaling", &RopeParams::scaling)
      .field("base", &RopeParams::base)
      .field("factor", &RopeParams::factor)
      .field("originalMaxPositionEmbeddings", &RopeParams::originalMaxPositionEmbeddings)
      .field("maxPositionEmbeddings", &RopeParams::maxPositionEmbeddings)
      .field("seqLen", &RopeParams::seqLen)
      .field("betaFast", &RopeParams::betaFast)
      .field("betaSlow", &RopeParams::betaSlow)
      .field("mscale", &RopeParams::mscale)
      .field("mscaleAllDim", &RopeParams::mscaleAllDim)
      .field("attentionFactor", &RopeParams::attentionFactor)
      .field("truncate", &RopeParams::truncate)
      .field("lowFreqFactor", &RopeParams::lowFreqFactor)
      .field("highFreqFactor", &RopeParams::highFreqFactor);
  function("ropeFrequencies", &frequencies);
  function("ropeApply32", &apply32);
  function("ropeApply64", &apply64);
  function("ropeScores", &scores);
  class_<CacheChunks32>("RopeCacheChunks32")
      .constructor<const val&, double, int32_t, double, int32_t>()
      .function("ok", &CacheChunks32::ok)
      .function("next", &CacheChunks32::next);
  class_<CacheChunks64>("RopeCacheChunks64")
      .constructor<const val&, double, int32_t, double, int32_t>()
      .function("ok", &CacheChunks64::ok)
      .function("next", &CacheChunks64::next);
}
