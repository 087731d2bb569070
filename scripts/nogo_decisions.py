#!/usr/bin/env python3
"""NoGo decision sets: positions from real games, solved exactly, as a quick
and noise-free measure of the search where games are decided.

A match of 40 games cannot show a change of a few points; a set of solved
middle-game positions can: each position is one where the side to move can
win but not every move wins, and a search is scored by how often its move is
one of the winning ones.

    nogo_decisions.py collect --lo 27 --hi 30 GAME.sgf ... > positions.txt
    nogo_decisions.py solve positions.txt --seconds 90 --jobs 2 > solved.txt
    nogo_decisions.py score solved.txt --engine "target/release/kosumi" \
        --setup "time_settings 0 0.58 1" --seeds 1,2,3

`collect` keeps, for every game, the positions (either side to move) where
between LO and HI points are legal for either side. `solve` asks Kosumi's
exact solver (`kosumi-solve`) for the winner and every winning move, and
keeps the positions the side to move wins with some moves but not all.
`score` plays `genmove` on each solved position with each seed and prints
how many moves were winning ones. Positions are lines of
`SIZE TO_MOVE MOVES...` (moves as GTP vertices); solved lines add
`| WINNING_MOVES...`.

Middle-game positions (30 points and more) are beyond any exact solve.
`reference` labels them instead by a long search of a reference engine:

    nogo_decisions.py reference positions.txt --playouts 1500000 > labelled.txt

The moves with at least `--fraction` of the best move's visits count as
the right ones, and `score` reads the labelled lines as it reads solved
ones. This measures agreement with a search some 20 times longer, not
correctness: it suits changes to how the tree spends its playouts, and
it favours whatever resembles the reference's own playouts and priors.
On 150 positions at 28-44 points from 120 match games (labels from
1.5 million playouts, fraction 0.5), 3 seeds at the match clock, Kosumi
agreed on 345 of 450 moves and on 365 with twice the time. Variants
within about 10 of each other are not told apart: one seed's 150 moves
vary by about 5 from seed to seed.
"""

import argparse
import re
import sys
from concurrent.futures import ThreadPoolExecutor

from gtp_pipe import GtpPipe

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def vertex(col, row):
    return f"{COLUMNS[col]}{row + 1}"


def sgf_moves(text):
    """Size and (colour, vertex) moves of an SGF game record."""
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    moves = []
    for color, coords in re.findall(r";\s*([BW])\[([a-z]{2})\]", text):
        col = ord(coords[0]) - ord("a")
        row = size - 1 - (ord(coords[1]) - ord("a"))
        moves.append((color.lower(), vertex(col, row)))
    return size, moves


class NoGoBoard:
    """A plain NoGo board: enough to count the points legal for either side."""

    def __init__(self, size):
        self.size = size
        self.stones = {}

    def neighbours(self, p):
        col, row = p
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c, r = col + dc, row + dr
            if 0 <= c < self.size and 0 <= r < self.size:
                yield (c, r)

    def has_liberty(self, start, stones):
        color = stones[start]
        seen, todo = {start}, [start]
        while todo:
            p = todo.pop()
            for n in self.neighbours(p):
                if n not in stones:
                    return True
                if stones[n] == color and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False

    def legal(self, p, color):
        if p in self.stones:
            return False
        after = dict(self.stones)
        after[p] = color
        if not self.has_liberty(p, after):
            return False
        return all(
            self.has_liberty(n, after)
            for n in self.neighbours(p)
            if after.get(n) not in (None, color)
        )

    def play(self, text, color):
        col = COLUMNS.index(text[0].upper())
        self.stones[(col, int(text[1:]) - 1)] = color

    def either_legal(self):
        points = [(c, r) for c in range(self.size) for r in range(self.size)]
        return sum(1 for p in points if self.legal(p, "b") or self.legal(p, "w"))


def collect(args):
    for path in args.games:
        size, moves = sgf_moves(open(path).read())
        board = NoGoBoard(size)
        for k, (color, mv) in enumerate(moves):
            if args.lo <= board.either_legal() <= args.hi:
                played = " ".join(m for _, m in moves[:k])
                print(f"{size} {color} {played}".rstrip())
            board.play(mv, color)


class Engine(GtpPipe):
    """A GTP engine on pipes whose every command must succeed."""

    def send(self, command):
        ok, lines = self.reply(command)
        if not ok:
            raise RuntimeError(f"{command!r}: ? {' '.join(lines)}")
        return " ".join(lines).strip()

    def set_up(self, size, moves, to_move):
        self.send(f"boardsize {size}")
        self.send("clear_board")
        color = "b"
        for mv in moves:
            self.send(f"play {color} {mv}")
            color = "w" if color == "b" else "b"
        assert color == to_move, "moves alternate from Black"


def parse_position(line):
    head, _, winning = line.partition("|")
    size, to_move, *moves = head.split()
    return int(size), to_move, moves, winning.split()


def solve_one(args, line):
    size, to_move, moves, _ = parse_position(line)
    engine = Engine(f"{args.kosumi} --game nogo")
    try:
        engine.set_up(size, moves, to_move)
        reply = engine.send(f"kosumi-solve {to_move} {args.seconds}").split()
        legal = engine.send("gogui-rules_legal_moves").split()
    finally:
        engine.close()
    winner, winning = reply[0], reply[1:]
    mover = {"b": "black", "w": "white"}[to_move]
    # Time ran out before every move was classified: the winning list is
    # partial, and a move missing from it may win too.
    if "unresolved" in winning:
        return None
    if winner != mover or len(winning) == len(legal):
        return None
    return f"{line.strip()} | {' '.join(winning)}"


def label_positions(args, label_one):
    """Prints `label_one(args, line)` for every position of `args.positions`
    that it labels (not None), `args.jobs` engines at a time, in order."""
    lines = [line for line in open(args.positions) if line.strip()]
    with ThreadPoolExecutor(args.jobs) as pool:
        for labelled in pool.map(lambda line: label_one(args, line), lines):
            if labelled:
                print(labelled, flush=True)


def solve(args):
    label_positions(args, solve_one)


def reference_one(args, line):
    size, to_move, moves, _ = parse_position(line)
    engine = Engine(
        f"{args.kosumi} --game nogo --threads 1 --seed 1 --playouts {args.playouts}"
    )
    try:
        engine.set_up(size, moves, to_move)
        # An interval longer than any search: one summary line at the end.
        reply = engine.send(f"lz-genmove_analyze {to_move} 1000000")
    finally:
        engine.close()
    visits = {}
    for move, count in re.findall(r"info move (\S+) visits (\d+)", reply):
        visits[move] = int(count)
    if len(visits) < 2:
        return None
    best = max(visits.values())
    right = [m for m, v in visits.items() if v >= args.fraction * best]
    return f"{line.strip()} | {' '.join(right)}"


def reference(args):
    label_positions(args, reference_one)


def score(args):
    lines = [line for line in open(args.solved) if line.strip()]
    total = right = 0
    for seed in args.seeds.split(","):
        # Kosumi gets its game, seed and one thread; another engine (--peer)
        # only its own command line, and its own randomness.
        flags = "" if args.peer else f" --game nogo --seed {seed} --threads 1"
        engine = Engine(args.engine + flags)
        for command in filter(None, (c.strip() for c in args.setup.split(";"))):
            engine.send(command)
        seed_right = 0
        for line in lines:
            size, to_move, moves, winning = parse_position(line)
            engine.set_up(size, moves, to_move)
            move = engine.send(f"genmove {to_move}").upper()
            seed_right += move in winning
        engine.close()
        print(f"seed {seed}: {seed_right}/{len(lines)}", flush=True)
        total += len(lines)
        right += seed_right
    print(f"right {right}/{total} ({100.0 * right / max(total, 1):.1f}%)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("collect", help="positions from SGF games")
    p.add_argument("--lo", type=int, default=27)
    p.add_argument("--hi", type=int, default=30)
    p.add_argument("games", nargs="+")
    p = commands.add_parser("solve", help="keep the positions with a decision")
    p.add_argument("positions")
    p.add_argument("--kosumi", default="target/release/kosumi")
    p.add_argument("--seconds", type=float, default=90)
    p.add_argument("--jobs", type=int, default=2)
    p = commands.add_parser("reference", help="label positions by a long search")
    p.add_argument("positions")
    p.add_argument("--kosumi", default="target/release/kosumi")
    p.add_argument("--playouts", type=int, default=1500000)
    p.add_argument("--fraction", type=float, default=0.5)
    p.add_argument("--jobs", type=int, default=2)
    p = commands.add_parser("score", help="how often genmove wins")
    p.add_argument("solved")
    p.add_argument("--engine", default="target/release/kosumi")
    p.add_argument("--setup", default="time_settings 0 0.58 1")
    p.add_argument("--seeds", default="1,2,3")
    p.add_argument("--peer", action="store_true", help="the engine is not Kosumi")
    args = parser.parse_args()
    {"collect": collect, "solve": solve, "reference": reference, "score": score}[
        args.command
    ](args)


if __name__ == "__main__":
    sys.exit(main())
