#!/usr/bin/env python3
"""Checks the root reading's claims against GNU Go's tactical reader.

For every position a gogui-regress suite loads, asks Kosumi's
`kosumi-tactics` which moves capture an enemy string, save an own one, or
extend an own one in vain, and checks each claim with GNU Go's `attack` and
`defend` (GNU Go 3.8, `apt-get install gnugo`):

- captures M: some enemy string with three liberties or fewer that GNU Go
  can defend with its owner to move is gone, or cannot be defended, after M;
- saves M: some own string that GNU Go can attack is no longer attackable
  after M;
- futile M: the string through M is still attackable after M.

Prints each claim GNU Go disputes, then the counts. GNU Go is no oracle
(it reads ko as ko, and it has its own horizons), but a change to
`src/go/reading.rs` that adds disputed claims deserves a look.

    scripts/reading_vs_gnugo.py SUITE.tst [KOSUMI] [GNUGO]

SUITE.tst is read from its own folder, where its loadsgf paths point.
KOSUMI defaults to target/release/kosumi, GNUGO to /usr/games/gnugo.
"""

import os
import sys

from gtp_pipe import GtpPipe


class Gtp(GtpPipe):
    """An engine called with a command: the response's text, or '?' and
    the error."""

    def __call__(self, command):
        ok, lines = self.reply(command)
        text = "\n".join(lines)
        return text if ok else "?" + text


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    suite = os.path.abspath(sys.argv[1])
    kosumi = os.path.abspath(
        sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "target/release/kosumi")
    )
    gnugo = sys.argv[3] if len(sys.argv) > 3 else "/usr/games/gnugo"
    folder = os.path.dirname(suite)
    ours = Gtp([kosumi, "--threads", "1", "--no-book"], folder)
    theirs = Gtp([gnugo, "--mode", "gtp", "--chinese-rules"], folder)

    loads = []
    with open(suite) as lines:
        for line in lines:
            line = line.strip()
            if line.startswith("loadsgf") and line not in loads:
                loads.append(line)

    def opponent(color):
        return "white" if color == "black" else "black"

    def short_strings(color):
        """One stone of each of color's strings with three liberties or fewer."""
        seen, found = set(), []
        for stone in theirs("list_stones " + color).split():
            if stone in seen:
                continue
            seen.update(theirs("worm_stones " + stone).split())
            if int(theirs("countlib " + stone)) <= 3:
                found.append(stone)
        return found

    def attackable(stone):
        return not theirs("attack " + stone).startswith("0")

    def dies(stone):
        return theirs("defend " + stone).startswith("0")

    claims = disputed = 0
    for load in loads:
        if ours(load).startswith("?"):
            continue
        mover = theirs(load)
        if mover not in ("black", "white"):
            continue
        report = [t for t in ours("kosumi-tactics").splitlines() if t.startswith("TEXT")]
        if not report or "captures:" not in report[0]:
            continue
        # "TEXT <color> captures: ...; saves: ...; futile: ..."
        fields = report[0].split(" ", 2)[2]
        parts = dict(part.strip().split(": ", 1) for part in fields.split(";"))
        # What each claim is checked against depends on the position
        # alone (every move tried is undone): found once, for the first
        # claim that needs it.
        alive = threatened = None
        for kind in ("captures", "saves", "futile"):
            moves = [] if parts[kind] == "none" else parts[kind].split()
            for move in moves:
                claims += 1
                if kind == "captures":
                    if alive is None:
                        alive = [s for s in short_strings(opponent(mover)) if not dies(s)]
                    theirs(f"play {mover} {move}")
                    holds = any(
                        theirs("color " + s) != opponent(mover) or dies(s) for s in alive
                    )
                elif kind == "saves":
                    if threatened is None:
                        threatened = [s for s in short_strings(mover) if attackable(s)]
                    theirs(f"play {mover} {move}")
                    holds = any(
                        theirs("color " + s) == mover and not attackable(s)
                        for s in threatened
                    )
                else:
                    theirs(f"play {mover} {move}")
                    holds = attackable(move)
                theirs("undo")
                if not holds:
                    disputed += 1
                    print(f"disputed: {load} {mover} {kind} {move}", flush=True)
    ours.close()
    theirs.close()
    print(f"{os.path.basename(suite)}: {claims} claims, {disputed} disputed by GNU Go")


if __name__ == "__main__":
    main()
