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
# The crates' sources named by their place in the registry, not in this machine's CARGO_HOME: the
# panics' locations are shipped, and the same commit then builds the same bytes (the budget test's
# figures) whatever the builder's home. The main module is 7 KB smaller, 219 B once brotli'd.
registry="${CARGO_HOME:-$HOME/.cargo}/registry/src/"
cargo rustc --bin console --target wasm32-unknown-unknown --profile "$profile" \
  --config "target.wasm32-unknown-unknown.rustflags=['--remap-path-prefix=$registry=']" \
  -- -C link-arg=--emit-relocs >&2
profile_dir=$([ "$profile" = dev ] && echo debug || echo "$profile")
echo "$CARGO_TARGET_DIR/wasm32-unknown-unknown/$profile_dir/console.wasm"
