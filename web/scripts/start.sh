#!/usr/bin/env bash
# The main job: install, build the wasm core and the page, serve it.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash web/scripts/setup.sh build
bash web/scripts/build-wasm.sh
npx vite build --config web/vite.config.js
echo "Serving the posenc explainer at http://127.0.0.1:${PORT:-5173}/ (Ctrl-C stops it)"
exec npx vite preview --config web/vite.config.js --host 127.0.0.1 --port "${PORT:-5173}" --strictPort
