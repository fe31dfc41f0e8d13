#!/usr/bin/env bash
# Installs what building and testing the console needs, skipping what is already there, and
# prints the PATH to use. Nothing is downloaded from outside the package registries.
# Versions: DESIGN.md §6, except wasm-opt (see scripts/build-wasm.sh) and wasm-split-cli (not in it).
set -euo pipefail

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
WASM_SPLIT_VERSION=0.2.4
BINARYEN_VERSION=132
AXE_CORE_VERSION=4.14.1
TERSER_VERSION=5.51.4
OIDC_PROVIDER_VERSION=9.13.3
TOOLS_DIR="${PLATFORM_TOOLS_DIR:-$HOME/.cache/platform-console-tools}"

export PATH="$TOOLS_DIR/binaryen-$BINARYEN_VERSION/node_modules/.bin:$TOOLS_DIR/terser-$TERSER_VERSION/node_modules/.bin:$HOME/.cargo/bin:$PATH"
say() { echo "setup: $*" >&2; }

missing_packages=()
command -v chromium >/dev/null || missing_packages+=(chromium)
command -v chromedriver >/dev/null || missing_packages+=(chromium-driver)
command -v brotli >/dev/null || missing_packages+=(brotli)
command -v git >/dev/null || missing_packages+=(git)
command -v node >/dev/null || missing_packages+=(nodejs)
command -v npm >/dev/null || missing_packages+=(npm)
if [ ${#missing_packages[@]} -gt 0 ]; then
  say "installing ${missing_packages[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${missing_packages[@]}" >/dev/null
fi

if ! wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION"; then
  say "installing binaryen $BINARYEN_VERSION (wasm-opt) from the npm registry"
  mkdir -p "$TOOLS_DIR/binaryen-$BINARYEN_VERSION"
  npm install --silent --no-audit --no-fund --prefix "$TOOLS_DIR/binaryen-$BINARYEN_VERSION" \
    "binaryen@$BINARYEN_VERSION" >&2
fi

# wasm-bindgen's glue minified in the shipped build (scripts/build-wasm.sh).
if ! terser --version 2>/dev/null | grep -q "terser $TERSER_VERSION"; then
  say "installing terser $TERSER_VERSION from the npm registry"
  mkdir -p "$TOOLS_DIR/terser-$TERSER_VERSION"
  npm install --silent --no-audit --no-fund --prefix "$TOOLS_DIR/terser-$TERSER_VERSION" \
    "terser@$TERSER_VERSION" >&2
fi

# The accessibility rules the browser tests run in each page (crates/e2e reads the link).
if [ ! -f "$TOOLS_DIR/axe-core-$AXE_CORE_VERSION/node_modules/axe-core/axe.min.js" ]; then
  say "installing axe-core $AXE_CORE_VERSION from the npm registry"
  mkdir -p "$TOOLS_DIR/axe-core-$AXE_CORE_VERSION"
  npm install --silent --no-audit --no-fund --prefix "$TOOLS_DIR/axe-core-$AXE_CORE_VERSION" \
    "axe-core@$AXE_CORE_VERSION" >&2
fi
ln -sfn "$TOOLS_DIR/axe-core-$AXE_CORE_VERSION/node_modules/axe-core/axe.min.js" "$TOOLS_DIR/axe.min.js"

# The identity provider the browser tests sign in through (crates/e2e/identity-provider).
if [ ! -f "$TOOLS_DIR/oidc-provider-$OIDC_PROVIDER_VERSION/node_modules/oidc-provider/package.json" ]; then
  say "installing oidc-provider $OIDC_PROVIDER_VERSION from the npm registry"
  mkdir -p "$TOOLS_DIR/oidc-provider-$OIDC_PROVIDER_VERSION"
  npm install --silent --no-audit --no-fund --prefix "$TOOLS_DIR/oidc-provider-$OIDC_PROVIDER_VERSION" \
    "oidc-provider@$OIDC_PROVIDER_VERSION" >&2
fi

# The three tools are compiled in one target directory, so that what they share (serde, clap,
# walrus, wasmparser…) is compiled once, and without their TLS and update check: they fetch
# nothing (trunk runs --offline; the tests' driver is local).
export CARGO_TARGET_DIR="$TOOLS_DIR/target"
# All three in the dev profile, without debug info: they copy, hash, rewrite and split files, in
# seconds per build unoptimized (wasm-split-cli 3 s, wasm-bindgen 1 s on the console) and compile
# in far less time (wasm-bindgen-cli and wasm-split-cli 64 s on 2 cores, wasm-bindgen-cli alone
# 102 s at opt-level 1). Their output is the same byte for byte.
export CARGO_PROFILE_DEV_DEBUG=false

if ! trunk --version 2>/dev/null | grep -q " $TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (a few minutes, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked --no-default-features --debug >&2
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a minute, once)"
  # Not --locked: one locked dependency version is missing from the registry mirror.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --no-default-features --debug >&2
fi

# wasm-split-cli has no --version: cargo's list of what it installed says which one is there.
if ! command -v wasm-split-cli >/dev/null ||
  ! cargo install --list | grep -q "^wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "installing wasm-split-cli $WASM_SPLIT_VERSION (a minute, once)"
  cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary \
    --locked --debug >&2
fi
rm -rf "$CARGO_TARGET_DIR"

echo "$PATH"
