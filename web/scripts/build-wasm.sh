#!/usr/bin/env bash
# Builds the wasm modules (SIMD and scalar) and copies them into web/lib/wasm/.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NODE_PATH=/usr/share/nodejs  # Debian's emscripten needs Debian's acorn
jobs=$(nproc)
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/wasm -j"$jobs" --target posenc-simd posenc-scalar ${POSENC_WASM_TESTS:+posenc_tests}
mkdir -p web/lib/wasm
cp build/wasm/module/posenc-simd.mjs build/wasm/module/posenc-simd.wasm \
   build/wasm/module/posenc-scalar.mjs build/wasm/module/posenc-scalar.wasm web/lib/wasm/
ls -l web/lib/wasm
