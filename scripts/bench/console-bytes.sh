#!/usr/bin/env bash
# The console's bytes before its first page is interactive: index.html, config.json and every
# file index.html loads, as the reference server sends them raw, gzip- and brotli-compressed
# (the server compresses as the browser asks). Build the console and the server first:
#   bash scripts/build-console.sh && cargo build -p platform-server
# Usage: bash scripts/bench/console-bytes.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
data=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
./target/debug/platform-server --listen "127.0.0.1:$port" --data-dir "$data" --console-dir dist \
  >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/config.json" >/dev/null && break; sleep 0.1; done

size() { curl -s -o /dev/null -w '%{size_download}' -H "Accept-Encoding: $2" "http://127.0.0.1:$port$1"; }
files="/ /config.json $(grep -o '\(href\|src\)="/[^"]*"' dist/index.html | sed 's/.*="\(.*\)"/\1/' | sort -u)"
printf '%-44s %10s %10s %10s\n' file raw gzip brotli
total_raw=0 total_gzip=0 total_br=0
for file in $files; do
  raw=$(size "$file" identity) gzip=$(size "$file" gzip) br=$(size "$file" br)
  printf '%-44s %10d %10d %10d\n' "$file" "$raw" "$gzip" "$br"
  total_raw=$((total_raw + raw)) total_gzip=$((total_gzip + gzip)) total_br=$((total_br + br))
done
printf '%-44s %10d %10d %10d\n' "before interactive" "$total_raw" "$total_gzip" "$total_br"
