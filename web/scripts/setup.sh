#!/usr/bin/env bash
# Installs what posenc needs on a fresh Debian machine: Debian packages (when
# run as root; otherwise it names the command to run) and the npm packages.
#   setup.sh build   Emscripten, CMake, a C++ compiler
#   setup.sh test    the above plus GoogleTest, clang (sanitizers, libFuzzer),
#                    Chromium (end-to-end tests), NumPy and PyTorch (snippet tests) and
#                    Hugo (the site-generator tests, tests/integrations/)
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-build}

packages=()
need() { packages+=("$@"); }
command -v em++ >/dev/null || need emscripten
command -v cmake >/dev/null || need cmake
command -v g++ >/dev/null || need g++
command -v make >/dev/null || need make
if [ "$mode" = test ]; then
  # GoogleTest: the sources for the wasm build, the prebuilt library for the native ones.
  [ -d /usr/src/googletest ] || need googletest
  [ -n "$(ls /usr/lib/*/cmake/GTest/GTestConfig.cmake 2>/dev/null)" ] || need libgtest-dev
  command -v clang++ >/dev/null || need clang
  [ -n "$(find /usr/lib/llvm-*/lib/clang -name 'libclang_rt.fuzzer*' 2>/dev/null | head -1)" ] || need libclang-rt-14-dev
  command -v clang-format >/dev/null || need clang-format
  command -v chromium >/dev/null || need chromium
  # CJK glyphs, so the Chinese screenshots saved by the page tests are readable.
  [ -d /usr/share/fonts/truetype/wqy ] || need fonts-wqy-zenhei
  /usr/bin/python3 -c 'import numpy' 2>/dev/null || need python3-numpy  # Debian's python, as the tests run it
  # The RoPE code snippets are run in PyTorch too (tests/js/lib/rope.test.js, model/rope-lab-data.test.js).
  /usr/bin/python3 -c 'import torch' 2>/dev/null || need python3-torch
  command -v hugo >/dev/null || need hugo
fi

if [ ${#packages[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing ${packages[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
  else
    echo "setup: missing packages; run: sudo apt-get install -y ${packages[*]}" >&2
    exit 1
  fi
fi

# npm ci only when the lockfile changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
