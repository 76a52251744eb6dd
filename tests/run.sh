#!/usr/bin/env bash
# Runs every test of posenc from a clean clone: installs what is missing, then
# formatting checks, the C++ suite natively, under ASan+UBSan and as WASM under
# Node, Vitest, the page and embeds in headless Chromium, the packed package, and
# the package in real site generators (Hugo, Hexo, VitePress, Astro).
# Every step runs even if an earlier one failed; the exit code reports any failure.
# The end prints each step's wall time (docs/performance.md, "The test suite").
set -uo pipefail
cd "$(dirname "$0")/.."
began=$SECONDS
setup_began=$SECONDS
bash web/scripts/setup.sh test || exit 1
jobs=$(nproc)
failures=()
timings=("$(printf '%6d s  %s' $((SECONDS - setup_began)) 'setup (Debian and npm packages)')")
step() {
  local name=$1
  shift
  echo
  echo "=== $name"
  local step_began=$SECONDS outcome=''
  if ! "$@"; then
    failures+=("$name")
    outcome=' (FAILED)'
  fi
  timings+=("$(printf '%6d s  %s%s' $((SECONDS - step_began)) "$name" "$outcome")")
}

format_check() {
  clang-format --dry-run --Werror $(git ls-files 'cpp/**.cpp' 'cpp/**.h' 'tests/cpp/**') &&
    npx prettier --check $(git ls-files 'web/**.js' 'web/**.d.ts' 'tests/**.js' 'tests/**.mjs' 'tests/**.ts' | grep -v '^web/lib/wasm/')
}

native_tests() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build/native -j"$jobs" >/dev/null &&
    ctest --test-dir build/native --output-on-failure
}

sanitizer_tests() {
  cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Debug -DPOSENC_SANITIZE=ON >/dev/null &&
    cmake --build build/sanitize -j"$jobs" >/dev/null &&
    ctest --test-dir build/sanitize --output-on-failure
}

fuzz_short() {
  # A short libFuzzer run (clang, ASan+UBSan) over the core's parameter space;
  # docs/reliability.md gives the longer command.
  CC=clang CXX=clang++ cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOSENC_FUZZ=ON \
    -DPOSENC_TESTS=OFF >/dev/null &&
    cmake --build build/fuzz -j"$jobs" >/dev/null &&
    mkdir -p build/fuzz/corpus &&
    ./build/fuzz/posenc_fuzz -max_total_time="${POSENC_FUZZ_SECONDS:-20}" -print_final_stats=1 build/fuzz/corpus 2>&1 |
    grep -E '^(stat::number_of_executed_units|Done|==|SUMMARY|invariant)' &&
    test "${PIPESTATUS[0]}" -eq 0
}

wasm_tests() {
  POSENC_WASM_TESTS=1 bash web/scripts/build-wasm.sh >/dev/null &&
    ctest --test-dir build/wasm --output-on-failure
}

step "format (clang-format, prettier)" format_check
step "C++ native (GoogleTest)" native_tests
step "C++ native under AddressSanitizer + UndefinedBehaviorSanitizer" sanitizer_tests
step "C++ fuzzing (libFuzzer, short run)" fuzz_short
step "C++ as WASM under Node (GoogleTest)" wasm_tests
step "JS API (Vitest)" npx vitest run --config tests/js/vitest.config.js
step "page and embeds in headless Chromium (every tests/e2e/*.test.mjs)" node tests/e2e/run.mjs
step "npm package (pack, install, import in Node)" node tests/pack/pack.test.mjs
step "npm package in a fresh Vite project (dev server and build)" node tests/pack/vite-app.test.mjs
step "npm package in a fresh webpack 5 project (build)" node tests/pack/webpack-app.test.mjs
step "site generators: Hugo, Hexo, VitePress, Astro (install, build, serve, Chromium)" node tests/integrations/run.mjs

echo
echo "=== wall time per step (load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%s\n' "${timings[@]}"
printf '%6d s  %s\n' $((SECONDS - began)) 'in all'
echo
if [ ${#failures[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failures[@]}"
  exit 1
fi
echo "All test steps passed."
