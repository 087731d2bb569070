#!/usr/bin/env python3
"""Scores match directories written by scripts/match.sh, finished or not.

    scripts/match_score.py [--rate R] DIR [DIR ...]
    scripts/match_score.py --pace FILE DIR

For each directory, and pooled over all of them: wins, losses and draws
of engine A (Kosumi), its score with draws counting half and the 95%
Wilson interval, and each side's mean time a move. A finished match is
read from summary.json; one stopped early (MATCH_SECONDS, or killed) from
games.log, the referee's line per finished game, with the times read
from the engines' own logs (Kosumi's genmove lines, Pachi's "genmove in"
lines). With --rate (the peer's PACHI_RATE or HAHANOGO_RATE of the run),
it also prints the rate that would have matched Kosumi's mean time.

With --pace (match.sh runs it every half minute when PACHI_PACE=1), it
writes to FILE the playouts a move that would have matched Kosumi's time
a move over the last few games, read from their logs (Pachi's, started by
match.sh, begin with the playout count it was given): the peer then keeps
to equal time however the machine's speed drifts during the match.
"""

import argparse
import glob
import json
import math
import os
import re
import sys

GAME_LINE = re.compile(r"game\s+(\d+)\s+A=\w\s+winner=(\S+)")
KOSUMI_TIME = re.compile(r"genmove \w+: \S+, winrate .* ([0-9.]+) s$", re.M)
PACHI_TIME = re.compile(r"genmove in ([0-9.]+)s")
PEER_PLAYOUTS = re.compile(r"^peer playouts (\d+)$", re.M)
# Games whose logs set the pace, and the moves each needs to count.
PACE_GAMES = 8
PACE_MIN_MOVES = 5


def wilson(score, n, z=1.96):
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    denominator = 1 + z * z / n
    centre = (score + z * z / (2 * n)) / denominator
    spread = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / denominator
    return (centre - spread, centre + spread)


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def move_times(text):
    """Seconds of each move in one engine log's text (Kosumi's or Pachi's)."""
    for pattern in (KOSUMI_TIME, PACHI_TIME):
        times = [float(t) for t in pattern.findall(text)]
        if times:
            return times
    return []


def mean(values):
    return sum(values) / len(values)


def mean_time(path):
    """Mean seconds a move in one engine log (Kosumi's or Pachi's), or None."""
    times = move_times(read(path))
    return mean(times) if times else None


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return (ordered[middle] + ordered[~middle]) / 2


def pace(directory, playouts_file):
    """Writes the peer's playouts a move for equal time (see the module doc)."""
    rates, kosumi_times = [], []
    peer_logs = glob.glob(os.path.join(directory, "logs", "game*-B.log"))
    for peer_log in sorted(peer_logs)[-PACE_GAMES:]:
        peer_text = read(peer_log)
        given = PEER_PLAYOUTS.search(peer_text)
        peer_times = move_times(peer_text)
        times = move_times(read(peer_log[: -len("B.log")] + "A.log"))
        if given and len(peer_times) >= PACE_MIN_MOVES and len(times) >= PACE_MIN_MOVES:
            rates.append(int(given.group(1)) / mean(peer_times))
            kosumi_times.append(mean(times))
    if not rates:
        return
    playouts = round(median(rates) * median(kosumi_times))
    with open(playouts_file + ".new", "w") as f:
        print(playouts, file=f)
    os.replace(playouts_file + ".new", playouts_file)
    print(f"{len(rates)} games: peer {median(rates):.0f} playouts/s, "
          f"Kosumi {median(kosumi_times):.3f} s/move: {playouts} playouts")


def games_of(directory):
    """(winner, mean s/move of A, of B) per finished game; winner is A, B or '-'."""
    summary = os.path.join(directory, "summary.json")
    if os.path.exists(summary):
        with open(summary) as f:
            return [
                (g["winner"], g["mean_move_s"]["A"], g["mean_move_s"]["B"])
                for g in json.load(f)["games"]
            ]
    games = []
    with open(os.path.join(directory, "games.log")) as f:
        for line in f:
            found = GAME_LINE.match(line)
            if not found:
                continue
            number, winner = int(found.group(1)), found.group(2)
            log = os.path.join(directory, "logs", f"game{number:03d}-%s.log")
            games.append(
                (winner, mean_time(log % "A"), mean_time(log % "B"))
            )
    return games


def line(label, games):
    wins = sum(w == "A" for w, _, _ in games)
    losses = sum(w == "B" for w, _, _ in games)
    draws = len(games) - wins - losses
    n = len(games)
    if n == 0:
        return f"{label}: no finished game", None, None
    score = (wins + draws / 2) / n
    low, high = wilson(score, n)
    means = []
    for side in (1, 2):
        times = [g[side] for g in games if g[side] is not None]
        means.append(sum(times) / len(times) if times else None)
    shown = ["%.3f" % m if m is not None else "?" for m in means]
    text = (
        f"{label}: {wins}-{losses}-{draws} of {n}: {100 * score:.1f}% "
        f"[{100 * low:.1f}, {100 * high:.1f}]  s/move A {shown[0]} B {shown[1]}"
    )
    return text, means[0], means[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, help="the peer's playout rate in this run")
    parser.add_argument("--pace", metavar="FILE", help="write the peer's playouts for equal time")
    parser.add_argument("dirs", nargs="+")
    args = parser.parse_args()
    if args.pace:
        return pace(args.dirs[0], args.pace)
    pooled = []
    for directory in args.dirs:
        games = games_of(directory)
        pooled += games
        print(line(directory, games)[0])
    text, mean_a, mean_b = line("all", pooled)
    if len(args.dirs) > 1:
        print(text)
    if args.rate and mean_a and mean_b:
        print(f"equal time: rate {args.rate * mean_a / mean_b:.0f} (this run: {args.rate:.0f})")


if __name__ == "__main__":
    sys.exit(main())
