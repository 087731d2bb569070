#!/usr/bin/env bash
# Runs Kosumi under the real client programs, built outside this
# repository, and prints one line per client:
#
#   scripts/clients.sh [KOSUMI_BINARY]      (default target/release/kosumi)
#
#   gogui-regress  GoGui's gogui-regress on every regress/*.tst, engine
#                  "kosumi --seed 1 --playouts 500" (regress/README.md; each
#                  suite sets anything else it needs itself). PASS: no
#                  unexpected failure and no failing plain command in any
#                  suite (an unexpected pass is only reported).
#   gogui-twogtp   gogui-twogtp: 4 Go games on 9x9, komi 7, GNU Go
#                  (--mode gtp --chinese-rules --level 5) against Kosumi with
#                  alternating colours; then 2 NoGo games on 9x9, Kosumi
#                  against Kosumi (--game nogo: twogtp keeps a Go board, and
#                  no NoGo move is illegal in Go). Kosumi plays a fixed number
#                  of playouts a move. PASS: every game ends with a result from
#                  both programs, no game error, no error reply from Kosumi,
#                  and every NoGo game ends by resignation with no pass played.
#   cgos-python    a local CGOS round (zakki/cgos server on 127.0.0.1, 9x9,
#   cgos-tcl       sudden death, 2 games, alternating colours): Kosumi
#                  through the Python client and GNU Go through the Tcl
#                  client (cgos-python), then the other way round (cgos-tcl).
#                  Run by scripts/cgos_round.py. PASS: every game finishes,
#                  no illegal move or forfeit, no time loss for Kosumi, no
#                  client error, exit or engine restart, no panic.
#
# A check whose outside program is missing prints SKIP and the reason. The
# exit status is 1 if any check FAILs, 2 for a usage error, else 0.
#
# Environment (defaults in brackets):
#   GOGUI_DIR   GoGui 1.6 build: lib/gogui-regress.jar, lib/gogui-twogtp.jar,
#               run with `java` [/work/ext/gogui]
#   CGOS_DIR    zakki/cgos checkout (server-python/, client-python/, client/)
#               carrying the local patch that adds the server's `bindHost`
#               key, so that it listens on 127.0.0.1 only [/work/ext/cgos/src]
#   GNUGO       GNU Go 3.8 [gnugo on PATH, else /usr/games/gnugo]
#   CLIENTS_OUT where logs, SGFs and reports go
#               [target/clients/<date-time>]
#   CLIENTS_ONLY  the checks to run, a subset of "regress twogtp cgos"
#               [all three]
#   REGRESS_DIR the suites [regress/ of this checkout]
#   REGRESS_ARGS  Kosumi's arguments under gogui-regress
#               ["--seed 1 --playouts 500"]
#   TWOGTP_GO_PLAYOUTS / TWOGTP_NOGO_PLAYOUTS  Kosumi's playouts a move in
#               the twogtp games [5000 / 1000]
#   CGOS_SECONDS  each side's sudden-death time in the CGOS rounds [30]
#   CGOS_GAMES  games in each CGOS round [2]
#   CGOS_KOSUMI_ARGS  Kosumi's arguments on CGOS ["--threads 1"]
#
# Time: about 5 to 8 minutes on 2 cores (the CGOS rounds take most); every
# step runs under `timeout`, and every process a step starts is ended with
# it (the CGOS round ends the process groups it starts itself). Needs java
# for GoGui, python3 and tclsh for CGOS.
set -uo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -le 1 ] || { usage >&2; exit 2; }

kosumi="${1:-$here/target/release/kosumi}"
if [ ! -x "$kosumi" ]; then
  echo "clients.sh: no Kosumi binary at $kosumi (cargo build --release, or name one)" >&2
  exit 2
fi
kosumi="$(readlink -f "$kosumi")"
case "$kosumi" in *[[:space:]]*)
  echo "clients.sh: the binary's path may not hold spaces (clients split commands on them): $kosumi" >&2
  exit 2 ;;
esac
GOGUI_DIR="${GOGUI_DIR:-/work/ext/gogui}"
CGOS_DIR="${CGOS_DIR:-/work/ext/cgos/src}"
GNUGO="${GNUGO:-$(command -v gnugo || echo /usr/games/gnugo)}"
REGRESS_DIR="${REGRESS_DIR:-$here/regress}"
REGRESS_ARGS="${REGRESS_ARGS:---seed 1 --playouts 500}"
TWOGTP_GO_PLAYOUTS="${TWOGTP_GO_PLAYOUTS:-5000}"
TWOGTP_NOGO_PLAYOUTS="${TWOGTP_NOGO_PLAYOUTS:-1000}"
CGOS_SECONDS="${CGOS_SECONDS:-30}"
CGOS_GAMES="${CGOS_GAMES:-2}"
CGOS_KOSUMI_ARGS="${CGOS_KOSUMI_ARGS:---threads 1}"
CLIENTS_ONLY="${CLIENTS_ONLY:-regress twogtp cgos}"
out="${CLIENTS_OUT:-$here/target/clients/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out" || exit 2
out="$(cd "$out" && pwd)"

# ------------------------------------------------------------- processes
# Each step runs as `timeout -k 15 LIMIT ...` in the background: timeout
# puts itself in a process group of its own and, at the limit or on the
# TERM this script's trap forwards, signals that whole group (java and the
# engines it started included).
step_pid=""
on_signal() {
  trap - INT TERM HUP
  if [ -n "$step_pid" ]; then
    kill -TERM "$step_pid" 2>/dev/null
    wait "$step_pid" 2>/dev/null
  fi
  echo "clients.sh: interrupted; output in $out" >&2
  exit 130
}
trap on_signal INT TERM HUP

# run_step LIMIT LOG CMD...: runs CMD with stdout and stderr to LOG; returns
# CMD's status (124 or 137: over the limit).
run_step() {
  local limit="$1" logf="$2"
  shift 2
  timeout -k 15 "$limit" "$@" >"$logf" 2>&1 </dev/null &
  step_pid=$!
  wait "$step_pid"
  local rc=$?
  step_pid=""
  return "$rc"
}

say() { echo "[clients $(date +%H:%M:%S)] $*" >&2; }
wants() { case " $CLIENTS_ONLY " in *" $1 "*) return 0 ;; esac; return 1; }
results=()
failed=0
result() { # NAME VERDICT TEXT
  results+=("$(printf '%-14s %-4s %s' "$1" "$2" "$3")")
  [ "$2" = FAIL ] && failed=1
  return 0
}

# a GoGui tool's command line, keeping its preferences out of ~/.gogui and ~/.java
java_tool=(java -Djava.awt.headless=true -Duser.home="$out/java-home" -jar)

gogui_missing() { # TOOL: why GoGui's TOOL cannot run, or nothing
  command -v java >/dev/null || { echo "no java on PATH"; return; }
  [ -f "$GOGUI_DIR/lib/$1.jar" ] || echo "no $GOGUI_DIR/lib/$1.jar (set GOGUI_DIR)"
}

gnugo_missing() {
  [ -x "$GNUGO" ] || { echo "no GNU Go at $GNUGO (set GNUGO)"; return; }
  "$GNUGO" --version 2>/dev/null | grep -q "GNU Go" || echo "$GNUGO --version does not say GNU Go"
}

say "Kosumi: $kosumi ($("$kosumi" --version 2>/dev/null))"
say "output: $out"

# --------------------------------------------------------- gogui-regress
check_regress() {
  local why
  why="$(gogui_missing gogui-regress)"
  [ -z "$why" ] || { result gogui-regress SKIP "$why"; return; }
  local files=("$REGRESS_DIR"/*.tst)
  [ -f "${files[0]}" ] || { result gogui-regress SKIP "no $REGRESS_DIR/*.tst"; return; }
  mkdir -p "$out/regress"
  local f name rc dat tests=0 passed=0 bad=() notes=()
  for f in "${files[@]}"; do
    name="$(basename "$f" .tst)"
    mkdir -p "$out/regress/$name"
    say "gogui-regress $name"
    # gogui-regress starts the engine in the .tst file's directory (loadsgf
    # paths are relative to it); the command is split by GoGui itself
    run_step 300 "$out/regress/$name.log" \
      "${java_tool[@]}" "$GOGUI_DIR/lib/gogui-regress.jar" -long -output "$out/regress/$name" \
      "$kosumi $REGRESS_ARGS" "$(readlink -f "$f")"
    rc=$?
    sed 's/^/    /' "$out/regress/$name.log" | grep -E 'FAIL|PASS|Summary|rror|xception' >&2
    # summary.dat: #Tests FAIL fail PASS pass Error Time CpuTime
    dat="$(sed -n 2p "$out/regress/$name/summary.dat" 2>/dev/null)"
    if [ "$rc" -ge 124 ] || [ -z "$dat" ]; then
      bad+=("$name: no result (exit $rc: $(grep -v '^[0-9]* passed' "$out/regress/$name.log" | tail -2 | tr '\n' ' '))")
      continue
    fi
    read -r n fail _xfail xpass pass errors _ <<<"$dat"
    tests=$((tests + n))
    passed=$((passed + xpass + pass))
    if [ "$fail" -gt 0 ] || [ "$errors" -gt 0 ] || [ "$rc" -ne 0 ]; then
      bad+=("$name: $fail unexpected failures ($(grep -oE '^[0-9]+ (unexpected )?FAIL' "$out/regress/$name.log" | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')), $errors failing commands, exit $rc")
    fi
    [ "$xpass" -gt 0 ] && notes+=("$name: $xpass unexpected passes")
  done
  local summary="${#files[@]} suites, $passed/$tests tests pass"
  [ ${#notes[@]} -eq 0 ] || summary="$summary; ${notes[*]}"
  if [ ${#bad[@]} -eq 0 ]; then
    result gogui-regress PASS "$summary"
  else
    local IFS=';'
    result gogui-regress FAIL "$summary; ${bad[*]} (logs in $out/regress)"
  fi
}

# ---------------------------------------------------------- gogui-twogtp
# twogtp_check PREFIX GAMES KOSUMI_SIDE NOGO: problems with a twogtp run's
# .dat and SGFs, one a line (none: fine). KOSUMI_SIDE is B, W or BW: the
# programs whose error replies count.
twogtp_check() {
  local prefix="$1" games="$2" sides="$3" nogo="$4"
  local dat="$prefix.dat"
  [ -f "$dat" ] || { echo "no $dat"; return; }
  local rows
  rows="$(grep -v '^#' "$dat" | grep -c .)"
  [ "$rows" -eq "$games" ] || echo "$rows of $games games in $dat"
  # GAME RES_B RES_W RES_R ALT DUP LEN TIME_B TIME_W CPU_B CPU_W ERR ERR_MSG
  awk -F'\t' -v nogo="$nogo" '!/^#/ && NF {
      if ($2 == "" || $2 == "?" || $3 == "" || $3 == "?")
        printf "game %s: no result from both programs (%s / %s)\n", $1, $2, $3
      if ($12 != 0)
        printf "game %s: error: %s\n", $1, $13
      if (nogo && ($2 !~ /^[BW]\+R$/ || $3 !~ /^[BW]\+R$/))
        printf "game %s: NoGo game not ended by resignation (%s / %s)\n", $1, $2, $3
    }' "$dat"
  local g sgf
  for ((g = 0; g < games; g++)); do
    sgf="$prefix-$g.sgf"
    [ -f "$sgf" ] || { echo "game $g: no $sgf"; continue; }
    if [ "$nogo" = 1 ] && grep -qE ';[BW]\[\]' "$sgf"; then
      echo "game $g: a pass was played in NoGo ($sgf)"
    fi
  done
  # error replies: twogtp -verbose logs replies as "B<< ..." / "W<< ..."
  local errs
  errs="$(grep -E "^[$sides]<< \?" "$prefix.err" 2>/dev/null | sort | uniq -c | head -3 | sed 's/^ *//')"
  [ -z "$errs" ] || echo "Kosumi error replies: $(echo "$errs" | tr '\n' ';')"
}

check_twogtp() {
  local why
  why="$(gogui_missing gogui-twogtp)"
  [ -z "$why" ] || { result gogui-twogtp SKIP "$why"; return; }
  mkdir -p "$out/twogtp"
  local problems=() summary="" p rc dat
  why="$(gnugo_missing)"
  if [ -n "$why" ]; then
    summary="Go games skipped: $why"
  else
    say "gogui-twogtp: 4 Go games, GNU Go against Kosumi"
    run_step 480 "$out/twogtp/go.err" "${java_tool[@]}" "$GOGUI_DIR/lib/gogui-twogtp.jar" \
      -black "$GNUGO --mode gtp --chinese-rules --level 5" \
      -white "$kosumi --threads 1 --playouts $TWOGTP_GO_PLAYOUTS" \
      -auto -games 4 -alternate -size 9 -komi 7 -maxmoves 300 \
      -sgffile "$out/twogtp/go" -verbose
    rc=$?
    [ "$rc" -eq 0 ] || problems+=("Go: twogtp exit $rc$( [ "$rc" -ge 124 ] && echo ' (time limit)')")
    while IFS= read -r p; do
      [ -z "$p" ] || problems+=("Go: $p")
    done < <(twogtp_check "$out/twogtp/go" 4 W 0)
    dat="$out/twogtp/go.dat"
    # RES_W is Kosumi's own count (the .dat always names -black/-white)
    summary="Go (B=GNU Go, W=Kosumi, colours swapped in odd games; results GNU Go/Kosumi): $(
      awk -F'\t' '!/^#/ && NF { printf "%s%s/%s %s moves", sep, $2, $3, $7; sep = ", " }' "$dat" 2>/dev/null)"
  fi
  say "gogui-twogtp: 2 NoGo games, Kosumi against Kosumi"
  run_step 300 "$out/twogtp/nogo.err" "${java_tool[@]}" "$GOGUI_DIR/lib/gogui-twogtp.jar" \
    -black "$kosumi --game nogo --threads 1 --playouts $TWOGTP_NOGO_PLAYOUTS" \
    -white "$kosumi --game nogo --threads 1 --playouts $TWOGTP_NOGO_PLAYOUTS" \
    -auto -games 2 -alternate -size 9 -komi 0 -maxmoves 200 \
    -sgffile "$out/twogtp/nogo" -verbose
  rc=$?
  [ "$rc" -eq 0 ] || problems+=("NoGo: twogtp exit $rc$( [ "$rc" -ge 124 ] && echo ' (time limit)')")
  while IFS= read -r p; do
    [ -z "$p" ] || problems+=("NoGo: $p")
  done < <(twogtp_check "$out/twogtp/nogo" 2 BW 1)
  summary="$summary; NoGo 9x9: $(
    awk -F'\t' '!/^#/ && NF { printf "%s%s %s moves", sep, $2, $7; sep = ", " }' "$out/twogtp/nogo.dat" 2>/dev/null)"
  if [ ${#problems[@]} -eq 0 ]; then
    result gogui-twogtp PASS "$summary"
  else
    local IFS=';'
    result gogui-twogtp FAIL "${problems[*]}; $summary (logs in $out/twogtp)"
  fi
}

# ------------------------------------------------------------------ CGOS
cgos_missing() {
  command -v python3 >/dev/null || { echo "no python3"; return; }
  command -v tclsh >/dev/null || { echo "no tclsh"; return; }
  [ -f "$CGOS_DIR/server-python/cgos/server.py" ] || { echo "no CGOS server in $CGOS_DIR (set CGOS_DIR)"; return; }
  [ -f "$CGOS_DIR/client-python/src/cgosclient.py" ] || { echo "no Python client in $CGOS_DIR"; return; }
  [ -f "$CGOS_DIR/client/cgosGtp.tcl" ] || { echo "no Tcl client in $CGOS_DIR"; return; }
  grep -q bindHost "$CGOS_DIR/server-python/cgos/app/config.py" 2>/dev/null ||
    { echo "$CGOS_DIR lacks the bindHost patch: the server would listen on every interface"; return; }
  python3 -c 'import passlib' 2>/dev/null || echo "the CGOS server needs the Python package passlib"
}

# cgos_round CHECK_NAME KOSUMI_CLIENT GNUGO_CLIENT
cgos_round() {
  local name="$1" kc="$2" gc="$3" rc verdict games
  local dir="$out/$name"
  say "$name: CGOS round, Kosumi through the $kc client, GNU Go through the $gc client"
  # the round stops itself (and its process groups) at its own limit; the
  # outer limit is only a backstop
  local limit=$((60 + CGOS_GAMES * (2 * CGOS_SECONDS + 45)))
  run_step $((limit + 60)) "$dir.log" python3 "$here/scripts/cgos_round.py" \
    --cgos-dir "$CGOS_DIR" --out "$dir" --timeout "$limit" \
    --name-a Kosumi --client-a "$kc" --name-b GnuGo --client-b "$gc" --check Kosumi \
    9 "$CGOS_SECONDS" "$CGOS_GAMES" "$kosumi $CGOS_KOSUMI_ARGS" "$GNUGO --mode gtp --chinese-rules"
  rc=$?
  grep -v '^\[cgos_round' "$dir.log" | sed 's/^/    /' >&2
  verdict="$(grep '^# verdict: ' "$dir.log" | tail -1 | sed 's/^# verdict: //')"
  games="$(awk '$1 ~ /^[0-9]+$/ && NF >= 8 { printf "%s%s B=%s W=%s %s moves, Kosumi %ss left", sep, $5, $3, $4, $6, $7; sep = "; " }' "$dir.log")"
  if [ "$rc" -eq 0 ] && [ "$verdict" = PASS ]; then
    result "$name" PASS "$CGOS_GAMES games 9x9 ${CGOS_SECONDS}s: $games"
  elif [ "$rc" -eq 2 ]; then
    result "$name" SKIP "${verdict#SKIP: }"
  else
    result "$name" FAIL "${verdict:-exit $rc, no verdict (see $dir.log)}${games:+; games: $games} (logs in $dir)"
  fi
}

check_cgos() {
  local why
  why="$(cgos_missing)"
  [ -z "$why" ] || why="$why"
  [ -n "$why" ] || why="$(gnugo_missing)"
  if [ -n "$why" ]; then
    result cgos-python SKIP "$why"
    result cgos-tcl SKIP "$why"
    return
  fi
  cgos_round cgos-python py tcl
  cgos_round cgos-tcl tcl py
}

wants regress && check_regress
wants twogtp && check_twogtp
wants cgos && check_cgos

echo
echo "Kosumi: $kosumi"
echo "output: $out"
printf '%s\n' "${results[@]}"
exit "$failed"
