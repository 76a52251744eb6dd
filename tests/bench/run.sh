#!/usr/bin/env bash
# npm run bench: builds what it measures, then runs the suite in Node and in
# headless Chromium and reports the package and page sizes.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash web/scripts/setup.sh test
bash web/scripts/build-wasm.sh >/dev/null
npx vite build --config web/vite.config.js --logLevel warn
echo "== sizes"
# Budget of the module for a page's first view, load({ rope: false }):
# ≤ 64 KB and ≤ 30 KB gzip (tests/js/lib/loader.test.js fails above it). The full
# modules (load(), with RoPE) have none: their sizes are reported.
for f in web/lib/wasm/*.wasm; do
  bytes=$(stat -c %s "$f") gzip=$(gzip -9c "$f" | wc -c)
  case "$f" in
    *posenc-core-*) verdict=$([ "$bytes" -le 65536 ] && [ "$gzip" -le 30720 ] && echo ' — MET ≤ 64 KB, ≤ 30 KB gzip' || echo ' — MISS > 64 KB or > 30 KB gzip') ;;
    *) verdict=' (with RoPE; no budget)' ;;
  esac
  printf '%s: %d bytes (%d gzip)%s\n' "$f" "$bytes" "$gzip" "$verdict"
done
echo "== Node"
node tests/bench/node.mjs
node tests/bench/identify.mjs
echo "== headless Chromium"
node tests/bench/browser.mjs
echo "== headless Chromium, per-call fixed cost by CPU time"
node tests/bench/fixed-cost-cpu.mjs
