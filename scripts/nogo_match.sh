#!/usr/bin/env bash
# In-process NoGo self-play between two parameter sets (the ignored test
# `knowledge_match` of tests/nogo_solver.rs), for measuring NoGo knowledge.
#
# Usage: scripts/nogo_match.sh "A params" "B params" [games] [ms per move] [size]
#   e.g. scripts/nogo_match.sh "nogo_playouts=1" "nogo_playouts=0" 40 200 9
set -euo pipefail
cd "$(dirname "$0")/.."
NOGO_MATCH_A="${1:-nogo_priors=1}" NOGO_MATCH_B="${2:-}" \
NOGO_MATCH_GAMES="${3:-40}" NOGO_MATCH_MS="${4:-200}" NOGO_MATCH_SIZE="${5:-9}" \
  cargo test --release --test nogo_solver knowledge_match -- --ignored --nocapture
