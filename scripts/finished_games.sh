#!/usr/bin/env bash
# Plays Kosumi against GNU Go to the end (two passes) and keeps the records
# in tests/data/finished/, the set scripts/dead_stones.py reads. One
# referee run a seed, two games a run (Kosumi Black, then White); Kosumi
# never resigns (resign_threshold=0) and GNU Go does not, so a game stops
# only on two passes; any other ending is dropped.
#
#   scripts/finished_games.sh SIZE FIRST_SEED LAST_SEED [SECONDS]
#
# SIZE 9: Kosumi 1000 playouts a move, GNU Go --level 1. Other sizes:
# Kosumi 300 playouts, GNU Go --level 0. Komi 7. SECONDS (optional) stops
# starting new runs after that long. Environment: KOSUMI
# (target/release/kosumi), GNUGO (/usr/games/gnugo), REFEREE
# (/work/shared/tools/referee.py). Run from anywhere; one game at a time.
# Afterwards, scripts/dead_stones.py --write-gnugo GNUGO writes gnugo_dead.txt.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
size="${1:?size}"
first="${2:?first seed}"
last="${3:?last seed}"
budget="${4:-0}"
kosumi="${KOSUMI:-target/release/kosumi}"
gnugo="${GNUGO:-/usr/games/gnugo}"
referee="${REFEREE:-/work/shared/tools/referee.py}"
out="$here/tests/data/finished"
if [ "$size" = 9 ]; then playouts=1000 level=1; else playouts=300 level=0; fi
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$here"
start=$SECONDS
for seed in $(seq "$first" "$last"); do
  if [ "$budget" != 0 ] && [ $((SECONDS - start)) -ge "$budget" ]; then
    echo "time is up before seed $seed"
    break
  fi
  rm -rf "$work/run"
  python3 "$referee" \
    --a "$kosumi --threads 1 --playouts $playouts --seed $seed --param resign_threshold=0" \
    --b "$gnugo --mode gtp --level $level --seed $seed" \
    --size "$size" --komi 7 --games 2 --parallel 1 --sgf-dir "$work/run" |
    grep '^game' || true
  for game in 1 2; do
    sgf="$work/run/game00$game.sgf"
    name="$(printf '%dx%d-s%03d-g%d.sgf' "$size" "$size" "$seed" "$game")"
    if [ -f "$sgf" ] && grep -q 'C\[two passes' "$sgf"; then
      cp "$sgf" "$out/$name"
    else
      echo "dropped $name (not ended by two passes)"
    fi
  done
done
