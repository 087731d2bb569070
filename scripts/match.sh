#!/usr/bin/env bash
# Plays Kosumi against a peer engine with the shared referee and prints the
# score. Peers are built outside the repository (see README, "Measuring").
#
#   scripts/match.sh OPPONENT GAMES SIZE SECONDS_PER_MOVE [referee options...]
#
# OPPONENT: gnugo (level 10), pachi (equal time via a playout count),
# hahanogo (NoGo, equal time via a playout count), or self (Kosumi against
# itself with KOSUMI_B_SETUP applied to the second engine, or against the
# binary KOSUMI_B, e.g. a build of an older commit).
# Environment: KOSUMI (binary), REFEREE, GNUGO, PACHI, HAHANOGO,
# PACHI_RATE and HAHANOGO_RATE (their playouts per second on this machine;
# after a match the script prints the rate that would have matched
# Kosumi's mean time),
# KOSUMI_SETUP / KOSUMI_B_SETUP (extra GTP commands, ';'-separated),
# KOSUMI_MAIN (seconds: Kosumi gets this much main time a game, sudden
# death as on CGOS, instead of SECONDS_PER_MOVE on every move; the peer's
# playouts still follow SECONDS_PER_MOVE), SEED_PER_GAME=1 (every Kosumi
# process the referee starts, one a game, draws its own search seed:
# without it a fixed playout count replays the same game each time),
# MATCH_SECONDS (stop after this long and score the games finished: with
# many games in parallel, a fixed time suits better than a fixed count),
# PACHI_PACE=1 (Pachi starts at PACHI_RATE, then every half minute its
# playouts a move are set to match Kosumi's time a move over the last
# games: equal time however the machine's speed drifts; pace.log has the
# counts).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
opponent="${1:?opponent: gnugo|pachi|hahanogo|self}"
games="${2:-20}"
size="${3:-9}"
seconds="${4:-1}"
shift $(( $# < 4 ? $# : 4 ))

kosumi="${KOSUMI:-$here/target/release/kosumi}"
referee="${REFEREE:-$here/../shared/tools/referee.py}"
gnugo="${GNUGO:-/usr/games/gnugo}"
pachi="${PACHI:-$here/../peers/pachi/pachi}"
hahanogo="${HAHANOGO:-$here/../peers/hahanogo/hahanogo}"
out="${MATCH_DIR:-$here/target/matches/$opponent-$size-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"

# The referee would send `time_settings 0 T 1` with T as a decimal, which
# GNU Go and Pachi refuse: send none (--move-time 0) and give Kosumi its
# time in its own setup instead; the peers get theirs on the command line.
kosumi_cmd="$kosumi --threads 1"
if [ -n "${KOSUMI_MAIN:-}" ]; then
  kosumi_clock="time_settings $KOSUMI_MAIN 0 0"
else
  kosumi_clock="time_settings 0 $seconds 1"
fi
kosumi_setup="$kosumi_clock${KOSUMI_SETUP:+;$KOSUMI_SETUP}"
other_setup=""
game=go
scorer=()
extra=()
case "$opponent" in
  gnugo)
    other="$gnugo --mode gtp --chinese-rules --level 10"
    scorer=(--scorer "$gnugo --mode gtp --chinese-rules")
    ;;
  pachi)
    rate="${PACHI_RATE:-16400}"
    playouts=$(python3 -c "print(int($rate * $seconds))")
    other="$pachi -t =$playouts threads=1"
    if [ "${PACHI_PACE:-0}" = 1 ]; then
      echo "$playouts" > "$out/peer-playouts"
      other="sh -c 'n=\$(cat $out/peer-playouts); echo peer playouts \$n >&2; exec $pachi -t =\$n threads=1'"
      rate=""  # no single rate to report: pace.log has them
    fi
    scorer=(--scorer "$gnugo --mode gtp --chinese-rules")
    ;;
  hahanogo)
    rate="${HAHANOGO_RATE:-67600}"
    playouts=$(python3 -c "print(int($rate * $seconds))")
    other="$hahanogo $playouts"
    game=nogo
    extra=(--bare B)
    ;;
  self)
    other="${KOSUMI_B:-$kosumi} --threads 1"
    other_setup="time_settings 0 $seconds 1${KOSUMI_B_SETUP:+;$KOSUMI_B_SETUP}"
    game="${GAME:-go}"
    ;;
  *) echo "unknown opponent $opponent" >&2; exit 2 ;;
esac

# The referee does not tell engines the game: start Kosumi in it.
if [ "$game" = nogo ]; then
  kosumi_cmd="$kosumi_cmd --game nogo"
  [ "$opponent" = self ] && other="$other --game nogo"
fi

# The referee starts each engine without a shell, once a game: a shell
# around Kosumi's command draws a fresh seed at every start.
if [ "${SEED_PER_GAME:-0}" = 1 ]; then
  seeded() { echo "sh -c 'exec $1 --seed \$(od -An -N4 -tu4 /dev/urandom)'"; }
  kosumi_cmd="$(seeded "$kosumi_cmd")"
  [ "$opponent" = self ] && other="$(seeded "$other")"
fi

# The referee prints a line per finished game: kept in games.log, so that
# a match stopped early (MATCH_SECONDS, or by hand) can still be scored.
referee_cmd=(python3 "$referee" --a "$kosumi_cmd" --b "$other" --game "$game" --size "$size"
  --komi "$([ "$game" = go ] && echo 7 || echo 0)" --games "$games"
  --move-time 0 --setup-a "$kosumi_setup" ${other_setup:+--setup-b "$other_setup"}
  "${scorer[@]}" "${extra[@]}" --sgf-dir "$out/sgf" --log-dir "$out/logs"
  --json "$out/summary.json" "$@")
if [ -f "$out/peer-playouts" ]; then
  ( while sleep 30; do
      python3 "$here/scripts/match_score.py" --pace "$out/peer-playouts" "$out" >> "$out/pace.log" 2>&1
    done ) &
  pacer=$!
  trap 'kill $pacer 2>/dev/null' EXIT
fi
if [ -n "${MATCH_SECONDS:-}" ]; then
  timeout "$MATCH_SECONDS" "${referee_cmd[@]}" | tee "$out/games.log" || true
else
  "${referee_cmd[@]}" | tee "$out/games.log"
fi
# Equal time is the point of most matches: say how long each side took,
# and which playout rate would have matched Kosumi's mean on this machine
# (a peer at a fixed playout count runs at this machine's speed).
python3 "$here/scripts/match_score.py" ${rate:+--rate "$rate"} "$out"
echo "results in $out"
