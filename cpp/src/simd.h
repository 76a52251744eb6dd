// The one place that selects the WASM SIMD kernels: POSENC_SIMD is 1 where
// the compiler targets WASM SIMD (-msimd128), else 0. Each file with a SIMD
// path keeps a scalar one (namespace scalar) that native builds run and the
// tests compare the SIMD results with.
#pragma once

#ifdef __wasm_simd128__
#define POSENC_SIMD 1
#include <wasm_simd128.h>
#else
#define POSENC_SIMD 0
#endif
