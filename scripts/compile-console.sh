#!/usr/bin/env bash
# Compiles the console's wasm with its relocations kept (wasm-split needs them) and prints where it
# is. PROFILE is trunk's (release or dev). scripts/build-wasm.sh runs it as trunk's hook; run.sh
# and test.sh start it before the tools are installed (scripts/beside-console.sh), and the hook's
# run then finds it done. Expects CARGO_TARGET_DIR (scripts/build-console.sh sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
profile_of_trunk=$1

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "compile-console: adding the wasm32-unknown-unknown target" >&2
  rustup target add wasm32-unknown-unknown >&2
fi

if [ "$profile_of_trunk" = release ]; then profile=wasm-release; else profile=dev; fi
cargo rustc --bin console --target wasm32-unknown-unknown --profile "$profile" \
  -- -C link-arg=--emit-relocs >&2
profile_dir=$([ "$profile" = dev ] && echo debug || echo "$profile")
echo "$CARGO_TARGET_DIR/wasm32-unknown-unknown/$profile_dir/console.wasm"
