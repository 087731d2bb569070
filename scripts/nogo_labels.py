#!/usr/bin/env python3
"""Training positions for the learned NoGo move table, labelled by a long
Kosumi search.

Reads 9x9 NoGo SGF games (e.g. the records scripts/match.sh keeps), takes
every distinct position with at least --min-empty empty points, shuffles
them with a fixed seed, and asks `kosumi --game nogo --playouts N` for its
move in each. Each output line is one labelled position:

    SIZE<TAB>MOVES<TAB>LABEL

MOVES are the moves from the empty board (space-separated GTP vertices,
Black first); LABEL is the search's move for the side to move. Lines are
appended as they come, so a run can be stopped and restarted (positions
already in the output are skipped).

    scripts/nogo_labels.py --kosumi target/release/kosumi --playouts 150000 \
        --out ../nogo-labels.txt GAMES_DIR...

With --played each position is labelled by the move played next in the
game instead (no engine needed).
"""

import argparse
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtp_pipe import GtpPipe  # noqa: E402

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def sgf_moves(text):
    """The moves of a NoGo SGF game as GTP vertices, and its board size."""
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    moves = []
    for color, coord in re.findall(r";([BW])\[([a-z]{0,2})\]", text):
        if len(coord) != 2:
            break
        col = ord(coord[0]) - ord("a")
        row = size - (ord(coord[1]) - ord("a"))
        moves.append(f"{LETTERS[col]}{row}")
    return size, moves


def positions(paths, min_empty, played=False):
    """Distinct positions (size, moves) of the games; with `played`, each
    with the move played next (repeated positions keep the first)."""
    seen = set()
    for path in paths:
        files = [path] if os.path.isfile(path) else [
            os.path.join(path, f) for f in sorted(os.listdir(path)) if f.endswith(".sgf")]
        for file in files:
            with open(file, encoding="utf-8", errors="replace") as handle:
                size, moves = sgf_moves(handle.read())
            for k in range(len(moves)):
                if size * size - k < min_empty:
                    break
                key = (size, " ".join(moves[:k]))
                if key not in seen:
                    seen.add(key)
                    yield (*key, moves[k]) if played else key


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kosumi", help="the engine that labels (not needed with --played)")
    parser.add_argument("--playouts", type=int, default=150000)
    parser.add_argument("--min-empty", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=0, help="positions at most (0: all)")
    parser.add_argument("--shard", default="0/1", help="K/N: label every Nth position from the Kth")
    parser.add_argument("--played", action="store_true",
                        help="label each position with the move played in the game (no search)")
    parser.add_argument("--out", required=True)
    parser.add_argument("games", nargs="+")
    args = parser.parse_args()
    if args.played:
        with open(args.out, "w", encoding="utf-8") as out:
            for size, moves, move in positions(args.games, args.min_empty, played=True):
                out.write(f"{size}\t{moves}\t{move}\n")
        return
    if not args.kosumi:
        parser.error("--kosumi is needed unless --played")
    todo = sorted(positions(args.games, args.min_empty))
    random.Random(args.seed).shuffle(todo)
    if args.limit:
        todo = todo[: args.limit]
    shard, shards = (int(x) for x in args.shard.split("/"))
    todo = todo[shard::shards]
    done = set()
    if os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as handle:
            for line in handle:
                size, moves, _ = line.rstrip("\n").split("\t")
                done.add((int(size), moves))
    engine = GtpPipe([args.kosumi, "--game", "nogo", "--threads", "1",
                      "--playouts", str(args.playouts), "--seed", str(args.seed),
                      "--param", "resign_threshold=0"])
    with open(args.out, "a", encoding="utf-8") as out:
        for n, (size, moves) in enumerate(todo):
            if (size, moves) in done:
                continue
            engine.reply(f"boardsize {size}")
            engine.reply("clear_board")
            color = "b"
            for move in moves.split():
                ok, reply = engine.reply(f"play {color} {move}")
                if not ok:
                    raise SystemExit(f"illegal {move} in {moves}: {reply}")
                color = "w" if color == "b" else "b"
            ok, reply = engine.reply(f"genmove {color}")
            if not ok or reply[0].lower() in ("pass", "resign"):
                continue
            out.write(f"{size}\t{moves}\t{reply[0].upper()}\n")
            out.flush()
            if n % 100 == 0:
                print(f"{n}/{len(todo)}", file=sys.stderr, flush=True)
    engine.close()


if __name__ == "__main__":
    main()
