#!/usr/bin/env bash
# Installs what building and testing the console needs, skipping what is already there.
# Versions are the ones DESIGN.md §6 verified to work offline on these machines.
set -euo pipefail

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130

export PATH="$HOME/.cargo/bin:$PATH"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "setup: adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

missing_packages=()
command -v chromium >/dev/null || missing_packages+=(chromium)
command -v chromedriver >/dev/null || missing_packages+=(chromium-driver)
command -v wasm-opt >/dev/null || missing_packages+=(binaryen)
command -v git >/dev/null || missing_packages+=(git)
if [ ${#missing_packages[@]} -gt 0 ]; then
  echo "setup: installing ${missing_packages[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing_packages[@]}" >/dev/null
fi

if ! trunk --version 2>/dev/null | grep -q " $TRUNK_VERSION"; then
  echo "setup: installing trunk $TRUNK_VERSION (takes a few minutes once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION"; then
  echo "setup: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (takes a few minutes once)"
  # Not --locked: one locked dependency version is missing from the registry mirror.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi
