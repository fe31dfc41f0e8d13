#!/usr/bin/env bash
# Builds the console into dist/ (release, size-optimized). Expects scripts/setup.sh's PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
trunk build --release --offline
# Compressed once at the highest levels, next to each file: the server (and any static host that
# knows .br/.gz siblings) sends these instead of compressing per request.
for file in dist/*.wasm dist/*.js dist/*.css dist/*.html; do
  gzip -9 -k -f "$file"
  brotli -q 11 -f "$file"
done
