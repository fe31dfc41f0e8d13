#!/usr/bin/env bash
# Runs every test: platform-api rules, server integration and engine tests, the browser
# end-to-end tests (real server + built console + headless Chromium), and the console's component
# tests (wasm-bindgen-test in headless Chromium). Installs what is missing first, and ends with one
# line counting every test that ran.
set -euo pipefail
cd "$(dirname "$0")/.."
# A test run is mostly a fresh build (CI starts from a clean checkout): incremental caches would
# only take disk. Set CARGO_INCREMENTAL=1 to keep them while working.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
log="$(mktemp)"
compiled="$(mktemp)"
trap 'rm -f "$log" "$compiled"' EXIT

# The tests and the console's wasm (in a target directory of its own) compile while the tools are
# installed, and the tests still while the console is split and optimized: both cores stay busy
# where one step alone would leave one idle.
cargo test --workspace --exclude console --no-run >"$compiled" 2>&1 &
tests_build=$!
bash scripts/build-console.sh --compile-only &
console_build=$!
trap 'kill "$tests_build" "$console_build" 2>/dev/null || true; rm -f "$log" "$compiled"' EXIT
PATH="$(bash scripts/setup.sh)"
export PATH
wait "$console_build"
bash scripts/build-console.sh
wait "$tests_build" || { cat "$compiled"; exit 1; }
cargo test --workspace --exclude console 2>&1 | tee -a "$log"
CHROMEDRIVER="$(command -v chromedriver)" \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test -p console --target wasm32-unknown-unknown 2>&1 | tee -a "$log"

awk '/^test result:/ { passed += $4; failed += $6 }
     END { printf "tests: %d passed, %d failed\n", passed, failed; exit (passed == 0 || failed > 0) }' "$log"
