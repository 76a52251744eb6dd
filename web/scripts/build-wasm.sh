#!/usr/bin/env bash
# Builds the wasm modules (SIMD and scalar; with and without RoPE) and copies them into web/lib/wasm/.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NODE_PATH=/usr/share/nodejs  # Debian's emscripten needs Debian's acorn
jobs=$(nproc)
# Configured every time (1–2 s): a build directory from before a target was added has no rule for it.
emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
modules="posenc-simd posenc-scalar posenc-core-simd posenc-core-scalar"
cmake --build build/wasm -j"$jobs" --target $modules ${POSENC_WASM_TESTS:+posenc_tests}
mkdir -p web/lib/wasm
for m in $modules; do cp build/wasm/module/$m.mjs build/wasm/module/$m.wasm web/lib/wasm/; done
ls -l web/lib/wasm
