#!/usr/bin/env python3
"""Checks a printsgf file with sgfmill, an independent SGF reader.

Usage: check_sgf.py FILE. Fails unless the file parses, the board size is
9, komi is 7 and every node's move is on the board.
"""
import sys

from sgfmill import sgf, sgf_moves


def main(path):
    with open(path, "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    if game.get_size() != 9:
        raise SystemExit(f"size {game.get_size()}, expected 9")
    if game.get_komi() != 7:
        raise SystemExit(f"komi {game.get_komi()}, expected 7")
    board, plays = sgf_moves.get_setup_and_moves(game)
    for colour, move in plays:
        if move is not None:
            row, col = move
            board.play(row, col, colour)
    print(f"ok: {path}: {len(plays)} moves, sgfmill agrees")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: check_sgf.py FILE")
    main(sys.argv[1])
