#!/usr/bin/env bash
# Runs the product: installs what is missing, builds the console (release), and starts the
# reference server with demo data, serving the console. Prints the address and a fresh sign-in
# token. Extra arguments go to platform-server (see `platform-server --help`).
# IDENTITY_PROVIDER=local also starts a local OpenID Connect provider (the browser tests' own,
# oidc-provider on 127.0.0.1:8081, any login and password) and signs people in through it.
#
# The server is built as the tests build it (the workspace, dev profile, no incremental cache),
# so that `bash scripts/test.sh` afterwards compiles only the tests themselves. RELEASE=1 builds
# it optimized instead, for a server a team uses: it answers 2 to 2.5 times faster (the demo's
# reads in 2-3 ms rather than 4-7), and its first build takes about 7.5 min more on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
source scripts/beside-console.sh
if [ "${RELEASE:-0}" = 1 ]; then
  build_beside_console cargo build --release -p platform-server
  server=target/release/platform-server
else
  build_beside_console cargo build --workspace --exclude console
  server=target/debug/platform-server
fi
listen="${LISTEN:-127.0.0.1:8080}"
provider_arguments=()
if [ "${IDENTITY_PROVIDER:-}" = local ]; then
  tools="${PLATFORM_TOOLS_DIR:-$HOME/.cache/platform-console-tools}"
  OIDC_PROVIDER="$(echo "$tools"/oidc-provider-*/node_modules/oidc-provider/lib/index.js)" \
    node crates/e2e/identity-provider/provider.mjs 8081 "http://$listen" urn:platform:api 300 \
    >/dev/null 2>&1 &
  provider=$!
  trap 'kill "$provider" 2>/dev/null || true' EXIT
  provider_arguments=(--oidc-issuer http://127.0.0.1:8081 --oidc-audience urn:platform:api
    --oidc-client-id platform-console)
  echo "  Identity provider http://127.0.0.1:8081 (any login and password: the login is the e-mail address)"
fi
"$server" \
  --listen "$listen" \
  --data-dir "${DATA_DIR:-data}" \
  --console-dir dist \
  --demo \
  --new-sign-in-token \
  "${provider_arguments[@]}" \
  "$@"
