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

# The tests' compile is said only when it fails: it runs beside the console's build.
compile_tests() {
  local output=target/tests-compile.log
  mkdir -p target
  cargo test --workspace --exclude console --no-run >"$output" 2>&1 || { cat "$output"; return 1; }
}
source scripts/beside-console.sh
build_beside_console compile_tests

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Every test binary runs even when one fails: a flaky browser test must not hide the budgets.
cargo test --workspace --exclude console --no-fail-fast 2>&1 | tee -a "$log"
CHROMEDRIVER="$(command -v chromedriver)" \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test -p console --target wasm32-unknown-unknown 2>&1 | tee -a "$log"

awk '/^test result:/ { passed += $4; failed += $6 }
     END { printf "tests: %d passed, %d failed\n", passed, failed; exit (passed == 0 || failed > 0) }' "$log"
