#!/usr/bin/env python3
"""Measures how often Kosumi's `final_status_list dead` agrees with GNU Go's.

Reads the finished games in tests/data/finished/ (Kosumi against GNU Go,
played to two passes by scripts/finished_games.sh) and GNU Go's dead
stones at the end of each, listed in gnugo_dead.txt there as
`FILE.sgf<TAB>vertices` (sorted, space-separated, possibly none). For each
game a fresh Kosumi loads the record (`loadsgf FILE`: the final position)
and answers `final_status_list dead`; the two lists are compared as sets.

Prints, per board size, the games whose lists are equal, the mean
symmetric difference (stones), the stones only GNU Go or only Kosumi calls
dead (and how many of the former Kosumi lists as seki), the time
`final_status_list dead` took (median and max), then every
disagreeing game with both lists. Exits 0 whatever it finds: a benchmark,
not a test. GNU Go is no oracle either: a disagreement is a position to
look at, not necessarily a Kosumi error.

    scripts/dead_stones.py [KOSUMI] [--dir DIR] [--arg ARG ...] [--gtp COMMAND ...]
    scripts/dead_stones.py --write-gnugo GNUGO [--dir DIR]

KOSUMI defaults to target/release/kosumi, started as `KOSUMI --threads 1
--seed 1` plus every --arg (for instance --arg=--param --arg=NAME=VALUE),
and sent every --gtp command first (for instance --gtp 'kosumi-param
aftermath_playouts 0').
--write-gnugo rewrites gnugo_dead.txt from GNU Go's answers (default
level) for every SGF in DIR instead.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIR = os.path.join(HERE, "..", "tests", "data", "finished")
LIST = "gnugo_dead.txt"


class Engine:
    """A GTP engine on pipes, stderr dropped; `send` returns (ok, text)."""

    def __init__(self, argv, cwd):
        self.process = subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def send(self, command):
        """Sends `command` and reads its reply exactly: a line starting
        with '=' or '?', then lines up to the first empty one."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        first = self.process.stdout.readline()
        if not first:
            raise RuntimeError(f"engine died on {command!r}")
        first = first.rstrip("\r\n")
        if first[:1] not in ("=", "?"):
            raise RuntimeError(f"{command!r} answered {first!r}, not '=' or '?'")
        lines = [first[1:]]
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"engine died in the reply to {command!r}")
            line = line.rstrip("\r\n")
            if line == "":
                break
            lines.append(line)
        return first[0] == "=", "\n".join(lines).strip()

    def close(self):
        try:
            self.send("quit")
        except (RuntimeError, OSError):
            pass
        self.process.stdin.close()
        self.process.wait()


def vertex_key(vertex):
    """Sorts vertices by column, then row: A1 A2 ... A19 B1 ..."""
    return (vertex[0], int(vertex[1:]))


def status_list(engine, status, sgf):
    """The engine's `status` stones (sorted) and the seconds
    `final_status_list status` took."""
    start = time.perf_counter()
    ok, text = engine.send(f"final_status_list {status}")
    elapsed = time.perf_counter() - start
    if not ok:
        raise RuntimeError(f"final_status_list {status} on {sgf}: {text}")
    return sorted({v.upper() for v in text.split()}, key=vertex_key), elapsed


def dead_list(engine, sgf):
    """The engine's dead stones at the end of `sgf` (sorted) and the
    seconds `final_status_list dead` took."""
    ok, text = engine.send(f"loadsgf {sgf}")
    if not ok:
        raise RuntimeError(f"loadsgf {sgf}: {text}")
    return status_list(engine, "dead", sgf)


def board_size(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    at = text.find("SZ[")
    return int(text[at + 3 : text.index("]", at)]) if at >= 0 else 19


def games(folder):
    return sorted(
        (f for f in os.listdir(folder) if f.endswith(".sgf")),
        key=lambda f: (board_size(os.path.join(folder, f)), f),
    )


def write_gnugo(gnugo, folder):
    rows = []
    for name in games(folder):
        engine = Engine([gnugo, "--mode", "gtp"], folder)
        try:
            vertices, _ = dead_list(engine, name)
        finally:
            engine.close()
        rows.append(f"{name}\t{' '.join(vertices)}\n")
        print(f"{name}: {len(vertices)} dead", flush=True)
    with open(os.path.join(folder, LIST), "w", encoding="utf-8") as f:
        f.writelines(rows)


def read_list(folder):
    expected = {}
    with open(os.path.join(folder, LIST), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                name, _, vertices = line.partition("\t")
                expected[name] = set(vertices.split())
    return expected


def benchmark(kosumi, extra, setup, folder):
    expected = read_list(folder)
    per_size = {}
    for name in games(folder):
        if name not in expected:
            print(f"{name}: not in {LIST}, skipped")
            continue
        engine = Engine([kosumi, "--threads", "1", "--seed", "1", *extra], folder)
        try:
            for command in setup:
                ok, text = engine.send(command)
                if not ok:
                    raise RuntimeError(f"{command}: {text}")
            vertices, elapsed = dead_list(engine, name)
            seki = set(status_list(engine, "seki", name)[0])
        except RuntimeError as e:
            print(f"{name}: {e}")
            continue
        finally:
            engine.close()
        ours, theirs = set(vertices), expected[name]
        size = board_size(os.path.join(folder, name))
        per_size.setdefault(size, []).append((name, ours, theirs, seki, elapsed))

    def show(stones):
        return " ".join(sorted(stones, key=vertex_key)) or "-"

    for size, rows in sorted(per_size.items()):
        equal = sum(1 for _, ours, theirs, _, _ in rows if ours == theirs)
        sym = [len(ours ^ theirs) for _, ours, theirs, _, _ in rows]
        missed = sum(len(theirs - ours) for _, ours, theirs, _, _ in rows)
        missed_seki = sum(len((theirs - ours) & seki) for _, ours, theirs, seki, _ in rows)
        extra_dead = sum(len(ours - theirs) for _, ours, theirs, _, _ in rows)
        ms = [elapsed * 1000 for *_, elapsed in rows]
        print(
            f"{size}x{size}: {equal}/{len(rows)} games agree "
            f"({100 * equal / len(rows):.1f}%), mean symmetric difference "
            f"{statistics.mean(sym):.2f} stones; dead only for GNU Go "
            f"{missed} stones ({missed_seki} of them Kosumi's seki), "
            f"only for Kosumi {extra_dead}; "
            f"final_status_list median {statistics.median(ms):.0f} ms, "
            f"max {max(ms):.0f} ms"
        )
    for size, rows in sorted(per_size.items()):
        for name, ours, theirs, seki, _ in rows:
            if ours != theirs:
                print(f"\n{name}")
                print(f"  GNU Go: {show(theirs)}")
                print(f"  Kosumi: {show(ours)}")
                print(f"  only GNU Go: {show(theirs - ours)}")
                print(f"    of which Kosumi's seki: {show((theirs - ours) & seki)}")
                print(f"  only Kosumi: {show(ours - theirs)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_kosumi = os.path.join(HERE, "..", "target", "release", "kosumi")
    ap.add_argument("kosumi", nargs="?", default=default_kosumi)
    ap.add_argument("--dir", default=DEFAULT_DIR)
    ap.add_argument("--arg", action="append", default=[], help="extra Kosumi argument")
    ap.add_argument(
        "--gtp",
        action="append",
        default=[],
        help="GTP command sent to each fresh Kosumi first (e.g. 'kosumi-param aftermath_playouts 0')",
    )
    ap.add_argument("--write-gnugo", metavar="GNUGO", help="rewrite gnugo_dead.txt with GNU Go")
    args = ap.parse_args()
    folder = os.path.abspath(args.dir)
    try:
        if args.write_gnugo:
            write_gnugo(args.write_gnugo, folder)
        else:
            benchmark(os.path.abspath(args.kosumi), args.arg, args.gtp, folder)
    except (OSError, RuntimeError) as e:
        print(f"dead_stones: {e}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
