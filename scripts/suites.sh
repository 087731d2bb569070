#!/usr/bin/env bash
# Pass counts of the externally written Go suites (../shared/suites: Fuego's
# ladder_19, ld_nakade_9x9 and tactics_19, GNU Go's tactics_ld) for several
# search seeds at a fixed playout count, one thread: the measurement behind
# the suite targets of the strength issue. A single seed is noisy (tactics_ld
# has passed 30 to 35 of 46 tests at 10,000 playouts, depending on the seed),
# and so are three: seeds 1-3 gave tactics_19 35/31/35 and tactics_ld
# 33/35/31, seeds 4-7 30/31/32/34 and 32/32/34/31, so the medians of seven
# are 32 and 32 where those of the first three read 35 and 33. The default is
# therefore seven seeds, and the table ends with each suite's median.
# More playouts is no cure: at 40,000 tactics_ld passed 30/31/30 for seeds
# 1-3 where 10,000 passed 33/35/31, tactics_19 34/31/35 against 35/31/35.
# tactics_19 test 4 asks White for L8 where White already stands (the
# position after 69 moves, as the GTP loadsgf rule gives it; Fuego marked
# the test expected-fail), so that suite can pass at most 44 of its 45.
#
#   scripts/suites.sh [SEEDS] [PLAYOUTS] [SETUP]
#
# SEEDS: space-separated (default "1 2 3 4 5 6 7"); PLAYOUTS: per move (default
# 10000); SETUP: GTP commands, ';'-separated, sent before each suite, e.g.
# "kosumi-param dyn_komi_trigger 0.75" to measure a tunable.
# Environment: SUITES (default ../shared/suites), OUT (folder for the full
# reports, default target/suites-<date>). Prints one line per suite and
# seed, then a table.
set -euo pipefail
shopt -s nullglob
here="$(cd "$(dirname "$0")/.." && pwd)"
seeds="${1:-1 2 3 4 5 6 7}"
playouts="${2:-10000}"
setup="${3:-}"
suites="$(cd "${SUITES:-$here/../shared/suites}" && pwd)"
out="${OUT:-$here/target/suites-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"

cd "$here"
cargo test --release --test regress --no-run --quiet

# The runner takes a folder of .tst files: each suite gets its own folder,
# beside links to what its loadsgf lines read, with SETUP in front.
declare -A counts
names=()
for suite in "$suites"/fuego/*.tst "$suites"/gnugo/*.tst; do
  name="$(basename "$suite" .tst)"
  names+=("$name")
  for seed in $seeds; do
    folder="$out/$name-seed$seed"
    mkdir -p "$folder"
    for entry in "$(dirname "$suite")"/*; do
      case "$entry" in
        *.tst) ;;
        *) ln -sfn "$entry" "$folder/" ;;
      esac
    done
    { tr ';' '\n' <<< "$setup"; cat "$suite"; } > "$folder/$name.tst"
    KOSUMI_REGRESS_DIR="$folder" KOSUMI_REGRESS_SEED="$seed" \
      KOSUMI_REGRESS_PLAYOUTS="$playouts" \
      cargo test --release --test regress --quiet -- --ignored --nocapture external_suites \
      > "$folder/report.txt" 2>&1
    line="$(grep -m1 " passed; failed:" "$folder/report.txt" || echo "?: no result")"
    counts["$name,$seed"]="$(sed -E 's|.*: ([0-9]+)/([0-9]+) passed.*|\1/\2|' <<< "$line")"
    echo "$name seed $seed: ${line#*: }"
  done
done

printf '\n%-16s' suite
for seed in $seeds; do printf '%10s' "seed $seed"; done
printf '%10s\n' median
for name in "${names[@]}"; do
  printf '%-16s' "$name"
  passes=()
  for seed in $seeds; do
    printf '%10s' "${counts[$name,$seed]}"
    passes+=("${counts[$name,$seed]%%/*}")
  done
  # The lower middle of the pass counts (the middle one for an odd count).
  median="$(printf '%s\n' "${passes[@]}" | sort -n | sed -n "$(( (${#passes[@]} + 1) / 2 ))p")"
  printf '%10s\n' "$median"
done
echo "reports: $out"
