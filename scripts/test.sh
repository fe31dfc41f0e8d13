#!/usr/bin/env bash
# Runs every test: platform-api rules, server integration and engine tests, the browser
# end-to-end tests (real server + built console + headless Chromium), and the console's component
# tests (wasm-bindgen-test in headless Chromium). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$(bash scripts/setup.sh)"
export PATH
bash scripts/build-console.sh
cargo test --workspace --exclude console
CHROMEDRIVER="$(command -v chromedriver)" \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test -p console --target wasm32-unknown-unknown
