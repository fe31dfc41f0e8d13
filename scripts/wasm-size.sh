#!/usr/bin/env bash
# Where the console's wasm bytes are (crates/wasm-size): the shipped build's wasm compiled
# (scripts/compile-console.sh, shared with scripts/build-console.sh) and split as
# scripts/build-wasm.sh splits it, then read before wasm-opt strips the functions' names: per
# file of the build, its largest crates and functions, and the modules several groups' files
# hold. Expects scripts/setup.sh's PATH. `WASM_SIZE_TOP=20` lists more.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/console"
wasm=$(bash scripts/compile-console.sh release)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
wasm-split-cli "$wasm" "$work" --target web --out-name console >/dev/null
source scripts/split-groups.sh
cargo run --quiet --release -p wasm-size -- "$work" "$every_signed_in_page" "$on_demand" "${frames[@]}"
