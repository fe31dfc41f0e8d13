#!/usr/bin/env bash
# Builds the console into dist/ (release, size-optimized, split by page: scripts/build-wasm.sh,
# which trunk runs). Expects scripts/setup.sh's PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
# The wasm is compiled in a target directory of its own, so that the server (or the tests) can
# compile beside it in target/ at the same time: cargo locks a target directory per build.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/console"
# `--compile-only`: the wasm compiled and nothing else, started while the tools are installed
# (scripts/beside-console.sh; trunk's hook then finds it done).
if [ "${1:-}" = --compile-only ]; then
  bash scripts/compile-console.sh release >/dev/null
  exit
fi
trunk build --release --offline
# Compressed once at the highest levels, next to each file: the server (and any static host that
# knows .br/.gz siblings) sends these instead of compressing per request.
find dist -type f \( -name '*.wasm' -o -name '*.bin' -o -name '*.js' -o -name '*.css' -o -name '*.html' \) -print0 |
  xargs -0 -P "$(nproc)" -I{} sh -c 'gzip -9 -k -f "$1" && brotli -q 11 -f "$1"' _ {}
