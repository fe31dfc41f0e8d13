#!/usr/bin/env bash
# Runs the product: installs what is missing, builds the console (release), and starts the
# reference server with demo data, serving the console. Prints the address and a fresh sign-in
# token. Extra arguments go to platform-server (see `platform-server --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
# The server and the console's wasm (in a target directory of its own) compile while the tools
# are installed, and the server still while the console is split and optimized: both cores stay
# busy where one step alone would leave one idle (a link, the console's single codegen unit,
# wasm-split, wasm-bindgen).
cargo build --release -p platform-server &
server_build=$!
bash scripts/build-console.sh --compile-only &
console_build=$!
trap 'kill "$server_build" "$console_build" 2>/dev/null || true' EXIT
PATH="$(bash scripts/setup.sh)"
export PATH
wait "$console_build"
bash scripts/build-console.sh
wait "$server_build"
trap - EXIT
exec ./target/release/platform-server \
  --listen "${LISTEN:-127.0.0.1:8080}" \
  --data-dir "${DATA_DIR:-data}" \
  --console-dir dist \
  --demo \
  --new-sign-in-token \
  "$@"
