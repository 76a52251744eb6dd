#!/usr/bin/env bash
# Runs every test of posenc from a clean clone: installs what is missing, then
# formatting checks, the C++ suite natively, under ASan+UBSan and as WASM under
# Node, Vitest, the page and embeds in headless Chromium, the packed package, and
# the package in real site generators (Hugo, Hexo, VitePress, Astro).
# Every step runs even if an earlier one failed; the exit code reports any failure.
# Steps that cannot disturb each other overlap (below); the browser tests, some
# of which time the page, run alone. The end prints each step's wall time
# (docs/performance.md, "The test suite").
set -uo pipefail
cd "$(dirname "$0")/.."
began=$SECONDS
bash web/scripts/setup.sh test || exit 1
jobs=$(nproc)
failures=()
timings=("$(printf '%6d s  %s' $((SECONDS - began)) 'setup (Debian and npm packages)')")
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# record NAME SECONDS STATUS [NOTE]
record() {
  local outcome=''
  if [ "$3" -ne 0 ]; then
    failures+=("$1")
    outcome=' (FAILED)'
  fi
  timings+=("$(printf '%6d s  %s%s%s' "$2" "$1" "$outcome" "${4:-}")")
}

step() {
  local name=$1
  shift
  echo
  echo "=== $name"
  local step_began=$SECONDS status=0
  "$@" || status=$?
  record "$name" $((SECONDS - step_began)) "$status"
}

# A step run in the background beside the next ones; background_done [NAME...]
# waits for the named ones (all without a name) and prints their output whole.
background_names=()
background_pids=()
background() {
  local index=${#background_names[@]}
  background_names+=("$1")
  shift
  (
    step_began=$SECONDS
    status=0
    "$@" >"$logs/$index.out" 2>&1 || status=$?
    echo "$status $((SECONDS - step_began))" >"$logs/$index.status"
  ) &
  background_pids[$index]=$!
}
background_done() {
  local index status took name
  for index in "${!background_pids[@]}"; do
    name=${background_names[$index]}
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF "$name"; then continue; fi
    wait "${background_pids[$index]}"
    echo
    echo "=== $name (ran beside the steps above)"
    cat "$logs/$index.out"
    read -r status took <"$logs/$index.status"
    record "$name" "$took" "$status" ' (overlapped)'
    unset "background_pids[$index]"
  done
}

format_check() {
  clang-format --dry-run --Werror $(git ls-files 'cpp/**.cpp' 'cpp/**.h' 'tests/cpp/**') &&
    npx prettier --check $(git ls-files 'web/**.js' 'web/**.d.ts' 'tests/**.js' 'tests/**.mjs' 'tests/**.ts' | grep -v '^web/lib/wasm/')
}

native_tests() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build/native -j"$jobs" >/dev/null &&
    ctest --test-dir build/native --output-on-failure -j"$jobs"
}

sanitizer_tests() {
  cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Debug -DPOSENC_SANITIZE=ON >/dev/null &&
    cmake --build build/sanitize -j"$jobs" >/dev/null &&
    ctest --test-dir build/sanitize --output-on-failure -j"$jobs"
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

# The tarball every package test installs: one npm pack (its prepack builds the elements bundle).
pack_once() {
  rm -rf build/pack && mkdir -p build/pack &&
    npm pack --json --pack-destination build/pack >build/pack/pack.json &&
    export POSENC_PACKED=$PWD/build/pack/pack.json
}

# The npm packages the app and site-generator tests install, into their npm caches while the C++
# builds keep the cores busy (niced); done before the browser tests start.
npm_caches="npm caches for the app and site-generator tests (fills them; not a test)"
background "$npm_caches" nice -n 10 node tests/pack/npm-packages.mjs
step "format (clang-format, prettier)" format_check
step "C++ native (GoogleTest)" native_tests
# Mostly one core (libFuzzer's run): beside the sanitizer and WASM builds.
fuzzing="C++ fuzzing (libFuzzer, short run)"
background "$fuzzing" fuzz_short
step "C++ native under AddressSanitizer + UndefinedBehaviorSanitizer" sanitizer_tests
step "C++ as WASM under Node (GoogleTest)" wasm_tests
background_done "$fuzzing"
step "JS API (Vitest)" npx vitest run --config tests/js/vitest.config.js
background_done "$npm_caches"
step "page and embeds in headless Chromium (every tests/e2e/*.test.mjs)" node tests/e2e/run.mjs
step "npm pack (once, for the package tests below)" pack_once
# The site generators' installs and builds beside the app tests (no test below times anything).
background "site generators: Hugo, Hexo, VitePress, Astro (install, build, serve, Chromium)" \
  node tests/integrations/run.mjs
step "npm package (pack, install, import in Node)" node tests/pack/pack.test.mjs
step "npm package in a fresh Vite project (dev server and build)" node tests/pack/vite-app.test.mjs
step "npm package in a fresh webpack 5 project (build)" node tests/pack/webpack-app.test.mjs
background_done

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
