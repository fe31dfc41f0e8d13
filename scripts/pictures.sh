#!/usr/bin/env bash
# The README's pictures of the console (docs/pictures/*.png), taken again from the demo by the
# browser test that checks what each shows (crates/e2e/tests/browser/pictures.rs). Run after a
# change that shows on those pages; the tools come from scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$(bash scripts/setup.sh)"
export PATH
[ -f dist/index.html ] || bash scripts/build-console.sh
PICTURES_INTO_DOCS=1 CHROMEDRIVER="$(command -v chromedriver)" \
  cargo test --quiet -p e2e --test browser -- pictures::
ls -l docs/pictures
