// Embind layer of the least-squares residuals: forwards what
// web/lib/least-squares.js validated and placed in wasm memory. Linked into
// the full modules only (with RoPE): the page's first view, which loads the
// module without RoPE (load({ rope: false })), fits nothing, and the fit's
// code is 5 KB of wasm.
#include <emscripten/bind.h>

#include <cstdint>

#include "address.h"
#include "posenc/least_squares.h"

namespace {

using posenc::bindings::at;

// inputs and targets: rows x inputCount and rows x targetCount doubles that
// least-squares.js placed in wasm memory (allocateArray of bindings.cpp); the
// residuals go to residualsAddress. The rank, or -1 when out of memory.
int32_t leastSquaresInto(double inputsAddress, double inputCount, double targetsAddress, double targetCount,
                         double rows, double rankTolerance, double residualsAddress) {
  return posenc::leastSquaresResiduals(at<double>(inputsAddress), static_cast<size_t>(inputCount),
                                       at<double>(targetsAddress), static_cast<size_t>(targetCount),
                                       static_cast<size_t>(rows), rankTolerance,
                                       at<double>(residualsAddress));
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc_least_squares) { emscripten::function("leastSquaresInto", &leastSquaresInto); }
