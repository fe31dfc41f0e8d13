# Sourced by run.sh and test.sh. `build_beside_console COMMAND…` runs COMMAND (a cargo compile)
# while the console's wasm compiles (in a target directory of its own) and the tools are installed,
# then builds the console while COMMAND goes on, and waits for both: the two cores stay busy where
# one step alone would leave one idle (a link, the console's single codegen unit, wasm-split,
# wasm-bindgen). Leaves scripts/setup.sh's PATH exported.
build_beside_console() {
  "$@" &
  local other=$!
  bash scripts/build-console.sh --compile-only &
  local console=$!
  trap "kill $other $console 2>/dev/null || true" EXIT
  PATH="$(bash scripts/setup.sh)"
  export PATH
  wait "$console"
  bash scripts/build-console.sh
  wait "$other"
  trap - EXIT
}
