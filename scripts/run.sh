#!/usr/bin/env bash
# Runs the product: installs what is missing, builds the console (release), and starts the
# reference server with demo data, serving the console. Prints the address and a fresh sign-in
# token. Extra arguments go to platform-server (see `platform-server --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/beside-console.sh
build_beside_console cargo build --release -p platform-server
exec ./target/release/platform-server \
  --listen "${LISTEN:-127.0.0.1:8080}" \
  --data-dir "${DATA_DIR:-data}" \
  --console-dir dist \
  --demo \
  --new-sign-in-token \
  "$@"
