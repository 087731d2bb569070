#!/usr/bin/env bash
# Self-play soak: many fast games through the shared referee, Go and NoGo,
# 9x9 and 19x19, plus one long-lived engine playing game after game to
# check that its memory stays flat. Fails (exit 1) on an illegal move, a
# crash or GTP error, a time loss, or memory growth.
#
#   scripts/soak.sh [SCALE]
#
# SCALE multiplies the number of games (default 1: 100 + 100 + 100 + 40
# referee games and 60 long-lived games; 0.1 is a quick check).
# Environment: KOSUMI (binary, default target/release/kosumi), REFEREE
# (default ../shared/tools/referee.py from the repository root, as CI
# clones have it), SOAK_DIR (results), PLAYOUTS (per move, default 32),
# PARALLEL (referee games at once, default 2), RSS_GROWTH_MB (allowed growth
# of the long-lived engine between the end of warm-up and the end, default
# 16), LONG_PLAYOUTS (its playouts per move, default 300).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
scale="${1:-1}"
kosumi="${KOSUMI:-$here/target/release/kosumi}"
referee="${REFEREE:-$here/../shared/tools/referee.py}"
playouts="${PLAYOUTS:-32}"
parallel="${PARALLEL:-2}"
growth_mb="${RSS_GROWTH_MB:-16}"
out="${SOAK_DIR:-$here/target/soak/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"

[ -x "$kosumi" ] || { echo "no engine at $kosumi (cargo build --release)" >&2; exit 2; }
[ -f "$referee" ] || { echo "no referee at $referee" >&2; exit 2; }

games() { python3 -c "import sys; print(max(2, round($1 * float(sys.argv[1]))))" "$scale"; }

# Peak RSS of every engine process the referee starts, sampled from /proc.
rss_log="$out/referee_rss.txt"
: > "$rss_log"
sample_rss() {
  while :; do
    for status in /proc/[0-9]*/status; do
      pid="${status#/proc/}"; pid="${pid%/status}"
      exe="$(readlink "/proc/$pid/exe" 2>/dev/null || true)"
      [ "$exe" = "$kosumi" ] || continue
      awk '/^VmRSS:/ {print $2}' "$status" 2>/dev/null >> "$rss_log" || true
    done
    sleep 0.5
  done
}
sample_rss &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true' EXIT

failures=0
# One referee set: NAME GAME SIZE GAMES MOVE_TIME ENGINE_A ENGINE_B [SETUP]
run_set() {
  local name="$1" game="$2" size="$3" count="$4" move_time="$5" a="$6" b="$7" setup="${8:-}"
  local dir="$out/$name"
  mkdir -p "$dir"
  local started=$SECONDS
  python3 "$referee" --a "$a" --b "$b" --game "$game" --size "$size" \
    --komi "$([ "$game" = go ] && echo 7 || echo 0)" --games "$count" \
    --move-time "$move_time" ${setup:+--setup-a "$setup" --setup-b "$setup"} \
    --parallel "$parallel" --log-dir "$dir/logs" --json "$dir/summary.json" \
    > "$dir/referee.txt" 2>&1 || true
  if ! python3 - "$dir/summary.json" "$name" "$((SECONDS - started))" <<'EOF'
import json, sys
path, name, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    data = json.load(open(path))
except (OSError, ValueError) as e:
    print(f"{name}: no summary ({e})")
    sys.exit(1)
games = data["games"]
bad_words = ("illegal", "error", "passed", "refused", "bad vertex", "setup failed",
             "no answer", "exited", "died", "garbage")
bad = [g for g in games if any(w in g["reason"] for w in bad_words)]
moves = sum(g["moves"] for g in games)
max_move = max(max(g["max_move_s"].values()) for g in games) if games else 0
mean_move = (sum(sum(g["mean_move_s"].values()) for g in games) / (2 * len(games))) if games else 0
reasons = {}
for g in games:
    key = g["reason"].split(",")[0]
    reasons[key] = reasons.get(key, 0) + 1
print(f"{name}: {len(games)} games, {moves} moves in {seconds} s, "
      f"mean move {mean_move * 1000:.1f} ms, max move {max_move:.2f} s, "
      f"endings {reasons}, problems {len(bad)}")
for g in bad:
    print(f"  game {g['game']}: {g['reason']}")
sys.exit(1 if bad or not games else 0)
EOF
  then
    failures=$((failures + 1))
  fi
}

engine="$kosumi --threads 1 --playouts $playouts"
nogo_engine="$engine --game nogo"
# A ponders between its moves; B does not.
run_set go9 go 9 "$(games 100)" 0 "$engine --ponder" "$engine"
run_set nogo9 nogo 9 "$(games 100)" 0 "$nogo_engine --ponder" "$nogo_engine"
run_set nogo19 nogo 19 "$(games 40)" 0 "$nogo_engine" "$nogo_engine --ponder"
run_set go19 go 19 "$(games 40)" 0 "$engine" "$engine --ponder"
# On the clock: the referee's time_settings 0 0.3 1, no fixed playouts.
run_set go9-clock go 9 "$(games 20)" 0.3 "$kosumi --threads 1" "$kosumi --threads 1 --ponder"

kill "$sampler" 2>/dev/null || true
if [ -s "$rss_log" ]; then
  sort -n "$rss_log" | awk '{a[NR]=$1} END {printf "referee engines: %d RSS samples, median %.1f MiB, peak %.1f MiB\n", NR, a[int((NR+1)/2)]/1024, a[NR]/1024}'
fi

# One engine for many games: RSS after warm-up against RSS at the end. It
# searches more per move, with a small tree cap, so that trees reach the cap.
if ! python3 - "$kosumi" "$(games 60)" "${LONG_PLAYOUTS:-300}" "$growth_mb" "$out/long_lived.txt" <<'EOF'
import subprocess, sys, time
kosumi, games, playouts, growth_mb, log_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), sys.argv[5]
log = open(log_path, "w")
proc = subprocess.Popen([kosumi, "--threads", "2", "--playouts", playouts, "--ponder"],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True)

def send(command):
    proc.stdin.write(command + "\n")
    proc.stdin.flush()
    lines = []
    while True:
        line = proc.stdout.readline()
        if line == "":
            raise SystemExit(f"engine exited during {command!r}")
        line = line.rstrip("\n")
        if line == "":
            break
        lines.append(line)
    if not lines or not lines[0].startswith("="):
        raise SystemExit(f"{command!r} failed: {lines}")
    return lines[0][1:].strip()

def rss_kib():
    with open(f"/proc/{proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

send("kosumi-param max_tree_mb 8")
rss_file = open(log_path.replace(".txt", "_rss.txt"), "w")
samples = []
started = time.monotonic()
kinds = [("go", 9), ("nogo", 9), ("go", 19), ("nogo", 19)]
total_moves = 0
for index in range(games):
    game, size = kinds[index % len(kinds)]
    send(f"kosumi-game {game}")
    send(f"boardsize {size}")
    send("clear_board")
    colour, passes = "b", 0
    for _ in range(size * size * 3):
        answer = send(f"genmove {colour}").lower()
        total_moves += 1
        if answer == "resign":
            break
        passes = passes + 1 if answer == "pass" else 0
        if passes >= 2 or (game == "nogo" and answer == "pass"):
            break
        colour = "w" if colour == "b" else "b"
    samples.append(rss_kib())
    print(f"game {index + 1} {game} {size}x{size}: RSS {samples[-1] / 1024:.1f} MiB", file=rss_file, flush=True)
send("quit")
proc.wait(timeout=10)
warm = max(1, len(samples) // 4)
early, late = max(samples[:warm]), max(samples[warm:] or samples)
growth = (late - early) / 1024
print(f"long-lived engine: {games} games, {total_moves} moves in {time.monotonic() - started:.0f} s, "
      f"RSS after warm-up {early / 1024:.1f} MiB, at the end {samples[-1] / 1024:.1f} MiB, "
      f"peak after warm-up {late / 1024:.1f} MiB (growth {growth:+.1f} MiB, allowed {growth_mb:g})")
tenths = [samples[min(len(samples) - 1, k * len(samples) // 10)] for k in range(10)] + [samples[-1]]
print("  RSS by tenth of the run (MiB): " + " ".join(f"{v / 1024:.1f}" for v in tenths))
sys.exit(1 if growth > growth_mb else 0)
EOF
then
  failures=$((failures + 1))
fi

echo "results in $out"
if [ "$failures" -gt 0 ]; then
  echo "soak FAILED: $failures check(s)" >&2
  exit 1
fi
echo "soak passed"
