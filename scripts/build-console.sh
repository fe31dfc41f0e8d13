#!/usr/bin/env bash
# Builds the console into dist/ (release, size-optimized). Expects scripts/setup.sh's PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
trunk build --release --offline
