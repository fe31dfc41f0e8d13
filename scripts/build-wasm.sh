#!/usr/bin/env bash
# trunk's post-build hook (Trunk.toml): builds the console's wasm split by page and puts it in the
# build. trunk builds index.html and the stylesheet; it cannot run a step between cargo and
# wasm-bindgen (trunk-rs/trunk#1022), and the split must run there:
#   cargo (with relocations kept) -> wasm-split-cli (the main module, one wasm per page, one per
#   piece of code pages share, and __wasm_split.js, which fetches them) -> wasm-bindgen on the
#   main module -> wasm-opt on every module -> the modules packed into a file per group of pages
#   (crates/bundle-split) -> one directory named by the hash of its content (served as
#   immutable) -> index.html loads its main module.
# Tools: scripts/setup.sh. Environment: trunk's TRUNK_* variables.
set -euo pipefail
cd "$TRUNK_SOURCE_DIR"

wasm=$(bash scripts/compile-console.sh "$TRUNK_PROFILE")

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
wasm-split-cli "$wasm" "$work/console" --target web --out-name console
wasm-bindgen --target web --keep-lld-exports --no-typescript --out-name console \
  --out-dir "$work/console" "$work/console/console.wasm"
rm "$work/console/console.wasm"
# wasm-bindgen's glue, which every page loads, minified: 9.4 → 7.5 KB brotli. Its exports and the
# names the wasm imports are kept (terser renames neither). The split's loader is not minified: it
# is 1.8 KB brotli (crates/bundle-split), and the budget test reads it as written.
if [ "$TRUNK_PROFILE" = release ]; then
  terser "$work/console/console.js" --module --compress --mangle \
    --output "$work/console/console.min.js"
  mv "$work/console/console.min.js" "$work/console/console.js"
fi
# Which split module holds each page, for the budget test (crates/e2e/tests/budgets.rs): the
# split's export names, `__wasm_split_00<module>00_export_<hash>_<function>`.
grep -aoE '__wasm_split_00[a-z0-9_]+00_export_[0-9a-f]{32}_[a-z0-9_]+' "$wasm" | sort -u \
  > "$work/console/split-points.txt"

# wasm-opt -Oz on every module, in one node process per core (scripts/wasm-opt.mjs: the CLI would
# start once per module). binaryen 132 from the npm registry (scripts/setup.sh), not Debian's 108:
# 108 re-points the `__wbindgen_externrefs` export at the function table and the console fails at
# start.
if [ "$TRUNK_PROFILE" = release ]; then
  binaryen="$(dirname "$(command -v wasm-opt)")/../binaryen/index.js"
  cores=$(nproc)
  optimizing=()
  for shard in $(seq 0 $((cores - 1))); do
    # The modules dealt largest first, in turn, so that each process has a like share.
    find "$work/console" -name '*.wasm' -printf '%s %p\n' | sort -rn |
      awk -v cores="$cores" -v shard="$shard" 'NR % cores == shard { print $2 }' |
      xargs node scripts/wasm-opt.mjs "$binaryen" &
    optimizing+=($!)
  done
  for process in "${optimizing[@]}"; do wait "$process"; done
fi

# One file per group of pages rather than a module per combination of groups
# (crates/bundle-split, as scripts/split-groups.sh says).
source scripts/split-groups.sh
cargo run --quiet --release -p bundle-split -- "$work/console" "$every_signed_in_page" "$on_demand" "${frames[@]}"

# The script that starts the console, a file of its own rather than inline in index.html: the
# server's Content-Security-Policy allows scripts of its own origin only. It finds the wasm beside
# itself, wherever the build is served from. With a session stored, a signed-in page comes next:
# the shell's code (every signed-in page's frame) is fetched beside the main module rather than
# once the main module has started (~30 ms sooner on the 1,000-service environment page). The
# storage key is the console's own, read from src/api/session.rs.
session_key=$(sed -n 's/^const STORAGE_KEY: &str = "\(.*\)";$/\1/p' src/api/session.rs)
[ -n "$session_key" ] || { echo "build-wasm: no STORAGE_KEY in src/api/session.rs" >&2; exit 1; }
cat > "$work/console/start.js" <<JS
import init from "./console.js";
import { fetchGroup } from "./__wasm_split.js";
try {
  if (sessionStorage.getItem("$session_key") || localStorage.getItem("$session_key")) fetchGroup("$every_signed_in_page");
} catch {}
init({ module_or_path: new URL("./console_bg.wasm", import.meta.url) });
JS

hash=$(cd "$work/console" && find . -type f | sort | xargs cat | sha256sum | cut -c1-16)
rm -rf "$TRUNK_STAGING_DIR"/console-*
mv "$work/console" "$TRUNK_STAGING_DIR/console-$hash"
chmod 755 "$TRUNK_STAGING_DIR/console-$hash"

# The main module and its script start loading with the page; the page's own code is fetched by
# the main module as the router matches the address.
pkg="${TRUNK_PUBLIC_URL%/}/console-$hash"
load="<link rel=\"modulepreload\" href=\"$pkg/console.js\" />"
load+="<link rel=\"modulepreload\" href=\"$pkg/__wasm_split.js\" />"
load+="<link rel=\"preload\" href=\"$pkg/console_bg.wasm\" as=\"fetch\" type=\"application/wasm\" crossorigin=\"anonymous\" />"
load+="<script type=\"module\" src=\"$pkg/start.js\"></script>"
# trunk has minified the page (Trunk.toml) into one line: the skipped tag is cut out, not its line.
sed -i -e "s|<link[^>]*data-trunk-skip[^>]*>||" -e "s|</head>|$load</head>|" "$TRUNK_STAGING_DIR/index.html"
