#!/usr/bin/env bash
# npm run bench: builds what it measures, then runs the suite in Node and in
# headless Chromium and reports the package and page sizes.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash web/scripts/setup.sh test
bash web/scripts/build-wasm.sh >/dev/null
npx vite build --config web/vite.config.js --logLevel warn
echo "== sizes"
for f in web/lib/wasm/*.wasm; do
  printf '%s: %d bytes (%d gzip)%s\n' "$f" "$(stat -c %s "$f")" "$(gzip -9c "$f" | wc -c)" \
    "$([ "$(stat -c %s "$f")" -le 65536 ] && echo ' — MET ≤ 64 KB' || echo ' — MISS > 64 KB')"
done
echo "== Node"
node tests/bench/node.mjs
node tests/bench/identify.mjs
echo "== headless Chromium"
node tests/bench/browser.mjs
echo "== headless Chromium, per-call fixed cost by CPU time"
node tests/bench/fixed-cost-cpu.mjs
