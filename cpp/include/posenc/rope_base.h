// Su Jianlin's criterion for choosing a RoPE base ("RoPE的底数选择",
// kexue.fm/archives/10122): a token should attend to a similar token more
// than to a random one at every distance the model sees, which for the
// all-ones direction asks that f(m) = sum_i cos(m * invFreq_i) >= 0 for
// every offset m < L. Plain C++17: no Emscripten.
#pragma once

#include <cstdint>

namespace posenc::rope {

// The number of leading offsets m = 0, 1, ... (at most `limit`) with
// f(m) >= 0: the first m where f turns negative, or `limit`. Steps a float64
// recurrence (reseeded every 1024 offsets); a sum within 1e-9 of zero is
// evaluated again with exact cos, so the answer is that of a direct float64
// sum. -1 when scratch memory is unavailable or `limit` is outside
// [0, kMaxContext] (posenc/limits.h).
int64_t supportedContext(const double* invFreq, int32_t pairs, int64_t limit);

// The smallest base b in [1, maxBase] whose ladder b^(-2i/headDim) keeps
// f(m) >= 0 for every m < context. f is not monotone in b (the context a
// base supports falls and rises again), so the bases are scanned upwards on
// a grid of `stepsPerOctave` per octave and the first bracket where the
// criterion starts to hold is narrowed by bisection to a relative 1e-9.
// NaN when no base up to maxBase qualifies; -1 when scratch memory is
// unavailable or an argument is out of range (headDim <= kMaxHeadDim,
// context <= kMaxContext, maxBase <= kMaxBase: posenc/limits.h).
double smallestBase(int32_t headDim, int64_t context, double maxBase, int32_t stepsPerOctave);

}  // namespace posenc::rope
