// Embind layer of the least-squares residuals: forwards what
// web/lib/least-squares.js validated and placed in wasm memory. Linked into
// the full modules only (with RoPE): the page's first view, which loads the
// module without RoPE (load({ rope: false })), fits nothing, and the fit's
// code is 5 KB of wasm.
#include <emscripten/bind.h>

#include <cstdint>

#include "posenc/least_squares.h"

namespace {

// An address in wasm memory as JS holds it: a plain number (wasm32: below 2^32).
double* at(double address) { return reinterpret_cast<double*>(static_cast<uintptr_t>(address)); }

// inputs and targets: rows x inputCount and rows x targetCount doubles that
// least-squares.js placed in wasm memory (allocateArray of bindings.cpp); the
// residuals go to residualsAddress. The rank, or -1 when out of memory.
int32_t leastSquaresInto(double inputsAddress, double inputCount, double targetsAddress, double targetCount,
                         double rows, double rankTolerance, double residualsAddress) {
  return posenc::leastSquaresResiduals(at(inputsAddress), static_cast<size_t>(inputCount), at(targetsAddress),
                                       static_cast<size_t>(targetCount), static_cast<size_t>(rows),
                                       rankTolerance, at(residualsAddress));
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc_least_squares) { emscripten::function("leastSquaresInto", &leastSquaresInto); }
