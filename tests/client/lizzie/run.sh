#!/usr/bin/env bash
# Lizzie check: Lizzie 0.7.4's own classes (Debian's liblizzie-java,
# /usr/share/java/lizzie.jar) drive a real Kosumi process headless, no X
# server: LizzieHarness.java.
#
#  engine  Lizzie's Leelaz class starts "ENGINE --lizzie --threads 1" and sends
#          Lizzie's exact sequence (name, version, boardsize, komi,
#          lz-analyze 10, play, undo, clear_board, komi, time_settings 0 2 1,
#          genmove, name, quit). Every reply goes through Lizzie's own parser;
#          after each step Lizzie must hold fresh candidates (visits, win
#          rate, pv) for the position it shows.
#  info    Kosumi's lz-analyze lines through Lizzie's MoveData parser.
# Both on 9x9 and on 19x19. About 15 s in all; every run has a time limit.
#
# Usage: tests/client/lizzie/run.sh [ENGINE [ARGS...]]  (default target/release/kosumi)
#   LIZZIE_FLAGS  flags appended to the engine command (default
#                 "--lizzie --threads 1"; LIZZIE_FLAGS="--threads 1" shows
#                 what Lizzie makes of Kosumi's plain version reply: FAIL).
#   LIZZIE_REQUIRED=1  fail instead of skipping when Lizzie or javac is missing
#                 (apt-get install liblizzie-java default-jdk-headless).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
jar=/usr/share/java/lizzie.jar
flags="${LIZZIE_FLAGS---lizzie --threads 1}"

if [ $# -eq 0 ]; then set -- "$root/target/release/kosumi"; fi
engine="$1"
shift
case "$engine" in */*) engine="$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")" ;; esac
if [ ! -x "$engine" ] && ! command -v "$engine" >/dev/null; then
    echo "lizzie/run.sh: no engine at $engine (cargo build --release first)" >&2
    exit 2
fi

missing=""
[ -r "$jar" ] || missing="$missing liblizzie-java"
command -v javac >/dev/null && command -v java >/dev/null || missing="$missing default-jdk-headless"
if [ -n "$missing" ]; then
    if [ "${LIZZIE_REQUIRED:-0}" = 1 ]; then
        echo "lizzie/run.sh: FAIL: missing$missing (apt-get install$missing)" >&2
        exit 1
    fi
    echo "lizzie/run.sh: SKIPPED: missing$missing (apt-get install$missing)"
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/classes" "$work/tmp"

start=$SECONDS
timeout -k 5 60 javac -nowarn -d "$work/classes" -cp "$jar" "$here/LizzieHarness.java"

# The engine command as Lizzie's Leelaz splits it: on spaces, quotes kept together.
quote() { case "$1" in *" "*) printf '"%s"' "$1" ;; *) printf '%s' "$1" ;; esac; }
cmd="$(quote "$engine")"
for a in "$@"; do cmd="$cmd $(quote "$a")"; done
cmd="$cmd${flags:+ $flags}"

harness=(java -Djava.awt.headless=true -Duser.home="$work/home" -Djava.io.tmpdir="$work/tmp"
    -XX:TieredStopAtLevel=1 -cp "$jar:$work/classes" LizzieHarness)

failed=""
for size in 9 19; do
    echo "== engine ${size}x${size}: Lizzie's Leelaz drives $cmd"
    if ! timeout -k 5 45 "${harness[@]}" engine --size "$size" --seconds 8 --deadline 40 -- "$cmd" \
        >"$work/engine$size.txt" 2>&1; then
        failed="$failed engine${size}x${size}"
    fi
    grep -v -e '^Creating config file' -e '^en$' "$work/engine$size.txt" || true

    echo "== info ${size}x${size}: Kosumi's lz-analyze lines through Lizzie's MoveData parser"
    # stdin stays open while Kosumi streams; "name" ends each analysis.
    # shellcheck disable=SC2086
    if ! { printf '1 boardsize %s\n2 komi 7.5\n3 lz-analyze 10\n' "$size"; sleep 1
           printf '4 play B D4\n5 lz-analyze 10\n'; sleep 1
           printf '6 name\n7 quit\n'; } \
        | timeout -k 2 10 "$engine" "$@" $flags 2>/dev/null \
        | timeout -k 5 15 "${harness[@]}" info --size "$size" --min-lines 10 --deadline 12 \
        >"$work/info$size.txt" 2>&1; then
        failed="$failed info${size}x${size}"
    fi
    grep -v -e '^Creating config file' -e '^en$' "$work/info$size.txt" || true
done

if [ -n "$failed" ]; then
    echo "lizzie/run.sh: FAIL:$failed ($((SECONDS - start)) s)"
    exit 1
fi
echo "lizzie/run.sh: PASS: Lizzie 0.7.4 analyses with Kosumi on 9x9 and 19x19 ($((SECONDS - start)) s)"
