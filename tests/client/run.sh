#!/usr/bin/env bash
# Real-client check: drives kosumi with Sabaki's GTP library (@sabaki/gtp
# 3.0.0 from npm) and, when sgfmill can be installed, reads the game record
# it wrote with sgfmill.
#
# Usage: tests/client/run.sh [PATH_TO_KOSUMI]   (default target/release/kosumi)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
engine="${1:-$root/target/release/kosumi}"
engine="$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")"

if [ ! -x "$engine" ]; then
    echo "run.sh: no engine at $engine (cargo build --release first)" >&2
    exit 2
fi

if [ ! -d "$here/node_modules/@sabaki/gtp" ]; then
    (cd "$here" && npm ci --no-audit --no-fund >/dev/null)
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sgf="$work/sabaki.sgf"

node "$here/sabaki_attach.js" "$engine" "$sgf"

if python3 -c "import sgfmill" 2>/dev/null || python3 -m pip install --quiet sgfmill >/dev/null 2>&1; then
    python3 "$here/check_sgf.py" "$sgf"
else
    echo "run.sh: sgfmill not available; SGF check skipped"
fi
