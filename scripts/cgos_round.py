#!/usr/bin/env python3
"""One CGOS round on loopback, for scripts/clients.sh.

Starts a fresh server from a zakki/cgos checkout (github.com/zakki/cgos,
built outside this repository and patched there to take a `bindHost` key, so
that it listens on 127.0.0.1 only), engine A and engine B each through one of
the checkout's clients (Python: client-python/src/cgosclient.py, Tcl:
client/cgosGtp.tcl), and plays GAMES games, A black in odd games, started by
the server's admin `match` command. Then it stops everything it started,
prints one line a game and checks the round:

  every game finished; no result by an illegal move or a forfeit (either
  side); no time loss for the engine under test (--check NAME, default A);
  no client exited, restarted its engine, or logged an error; no engine
  panicked.

The last line printed is `# verdict: PASS` or `# verdict: FAIL: reasons`;
the exit status is 0 for PASS, 1 for FAIL, 2 for bad arguments or a
checkout this script cannot use. Everything else (server and client logs,
every GTP line of the Python client, SGFs, summary.txt) is left in --out.

No CGOS code is here: the script only writes the server's and clients'
configuration files, runs their programs, talks to the server's admin
interface and reads its state database and SGFs.

  scripts/cgos_round.py --cgos-dir DIR --out DIR SIZE SECONDS GAMES \\
      "ENGINE_A_CMD" "ENGINE_B_CMD" [--name-a N] [--name-b N] \\
      [--client-a py|tcl] [--client-b py|tcl] [--komi K] [--timeout S]
"""
import argparse
import os
import re
import select
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time

ADMIN_USER = "admin"
ADMIN_PASS = "adminpw"


def log(msg):
    print(f"[cgos_round {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def listeners(port):
    """Local addresses of the sockets listening on `port`, from /proc/net."""
    out = []
    for fn, v6 in (("/proc/net/tcp", False), ("/proc/net/tcp6", True)):
        try:
            with open(fn) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            t = row.split()
            if len(t) < 4 or t[3] != "0A":  # 0A = LISTEN
                continue
            addr, p = t[1].split(":")
            if int(p, 16) != port:
                continue
            if v6:
                out.append("::1" if addr == "0" * 24 + "01000000"
                           else "[v6 " + addr + "]")
            else:
                b = bytes.fromhex(addr)[::-1]
                out.append(".".join(str(x) for x in b))
    return out


def write_server_files(run, src, port, size, seconds, komi):
    os.makedirs(os.path.join(run, "logs"), exist_ok=True)
    os.makedirs(os.path.join(run, "html"), exist_ok=True)
    cfg = f"""[cgos-server]
adminPassword = not_used
serverName = local-cgos-{size}x{size}
htmlInfoMsg = local test {size}x{size} {seconds}s
portNumber = {port}
# keys of the local patch: listen on loopback only, schedule quickly
bindHost = 127.0.0.1
firstScheduleDelay = 2
scheduleInterval = 2
boardsize = {size}
komi = {komi}
ko = POSITIONAL
rule = Chinese
level = {seconds}
handiElo = 100
timeGift = 0.25
database_state_file = {run}/cgos.state
# no game_archive_database: the server's archive set-up fails on it
web_data_file = {run}/wdata.txt
defaultRating = 1800.0
minK = 3.0
maxK = 200.0
htmlDir = {run}/html
sgfDir = SGF
compressSgf = False
moveIntervalBetweenSave = 1
provisionalAge = 0.04
establishedAge = 31.0
killFile = {run}/killCgos
tools_dir = {run}
bin_dir = {run}
bad_users_file =
hashPassword = False
matchMode = ADMIN
"""
    with open(os.path.join(run, "cgos.ini"), "w") as f:
        f.write(cfg)
    # the checkout's log.ini, with the file log at DEBUG (every protocol line)
    with open(os.path.join(src, "server-python", "log.ini")) as f:
        li = f.read()
    li = li.replace("[handler_fileHandler]\nclass=logging.handlers.TimedRotatingFileHandler\nlevel=INFO",
                    "[handler_fileHandler]\nclass=logging.handlers.TimedRotatingFileHandler\nlevel=DEBUG")
    with open(os.path.join(run, "log.ini"), "w") as f:
        f.write(li)
    # the state database with the server's schema and an admin account,
    # which the server never creates by itself
    db = sqlite3.connect(os.path.join(run, "cgos.state"))
    db.execute("create table gameid(gid int)")
    db.execute("create table password(name, pass, games int, rating, K, last_game, primary key(name) )")
    db.execute("create table games(gid int, w, wr, b, br, dte, wtu, btu, res, final, primary key(gid))")
    db.execute("create table anchors(name, rating, primary key(name))")
    db.execute("create table clients(name, count)")
    db.execute("INSERT into gameid VALUES(1)")
    db.execute("""INSERT INTO password VALUES(?, ?, 0, 1800.0, 200.0, "2000-01-01 00:00")""",
               (ADMIN_USER, ADMIN_PASS))
    db.commit()
    db.close()


def write_py_client_cfg(path, name, cmd, port, sgfdir, logdir):
    with open(path, "w") as f:
        f.write(f"""Common:
  KillFile = {logdir}/kill-{name}.txt
  LogFile = {logdir}/pyclient-{name}.log

GTPEngine:
  Name = {name}
  CommandLine = {cmd}
  ServerHost = 127.0.0.1
  ServerPort = {port}
  ServerUser = {name}
  ServerPassword = pw{name}
  NumberOfGames = 1000
  SGFDirectory = {sgfdir}
  LogFile = {logdir}/gtp-{name}.log
""")


def write_tcl_client_cfg(path, name, cmd, port):
    with open(path, "w") as f:
        f.write(f"""%section server
    server 127.0.0.1
    port {port}

%section player
    name      {name}
    password  pw{name}
    invoke    {cmd}
    priority  1
""")


def spawn(cmd, logpath, cwd, env=None):
    lf = open(logpath, "w")
    return subprocess.Popen(cmd, cwd=cwd, stdout=lf, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True, env=env)


def stop(p):
    """Ends the process group this script created for `p` (TERM, then KILL)."""
    if p is None:
        return
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(p.pid, sig)  # p is its group's leader (start_new_session)
        except ProcessLookupError:
            break
        end = time.time() + wait
        while time.time() < end:
            try:
                os.killpg(p.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            continue
        break
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


class Admin:
    """Minimal admin client for the zakki/cgos Python server (its `who` reply
    has no terminator, so reads use a short quiet period)."""

    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""
        self.expect("protocol")
        self.send("e1 round-admin")
        self.expect("username")
        self.send(ADMIN_USER)
        self.expect("password")
        self.send(ADMIN_PASS)
        self.expect("ok")

    def send(self, line):
        self.s.sendall((line + "\n").encode())

    def readline(self, quiet=None):
        """One line; None if `quiet` seconds pass without one."""
        end = time.time() + (quiet if quiet is not None else 30)
        while b"\n" not in self.buf:
            left = end - time.time()
            if left <= 0:
                if quiet is not None:
                    return None
                raise RuntimeError("admin: no reply")
            r, _, _ = select.select([self.s], [], [], left)
            if r:
                d = self.s.recv(65536)
                if not d:
                    raise RuntimeError("admin connection closed")
                self.buf += d
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def expect(self, prefix):
        while True:
            line = self.readline()
            if line.startswith(prefix):
                return line
            if line.startswith("info") or line == "":
                continue
            raise RuntimeError(f"admin: expected {prefix!r}, got {line!r}")

    def who(self):
        """{name: state} of logged-on players."""
        self.send("who")
        out = {}
        while True:
            line = self.readline(quiet=0.4)
            if line is None:
                return out
            t = line.split()
            if len(t) >= 2 and not line.startswith("info"):
                out[t[0]] = t[1]

    def match(self, white, black):
        self.send(f"match {white} {black}")
        while True:
            line = self.readline()
            if line.startswith("info") or line == "":
                continue
            return line


def parse_sgf_moves(text):
    """[(colour, move or '' for pass, seconds_left)] from a server SGF."""
    return [(c, m, int(t)) for c, m, c2, t in
            re.findall(r";([BW])\[([a-z]{0,2})\]([BW])L\[(-?\d+)\]", text)]


def sgf_point_to_gtp(m, size):
    if m == "":
        return "pass"
    col = "abcdefghjklmnopqrstuvwxyz"[ord(m[0]) - 97]
    return f"{col}{size - (ord(m[1]) - 97)}"


# Lines in a client's log (its stdout and its engine's stderr) that mean
# something went wrong: a client error, an engine error reply, a crash.
PY_CLIENT_ERRORS = re.compile(
    r"Traceback|GTP engine error|Socket error|CGOS Error|Empty response|Unsupported|"
    r"Switch failed|Could not connect|Connection failed|no move|Exception")
TCL_CLIENT_ERRORS = re.compile(
    r"Aborting|Apparently, engine crashed|do not understand server request|"
    r"Irregular response|error response")
ENGINE_ERRORS = re.compile(r"panicked at|RUST_BACKTRACE|\sERROR\s+kosumi")


def client_problems(name, kind, path):
    """Error lines in a client's log (at most 5), and how often the Python
    client started its engine."""
    bad = []
    starts = 0
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        return [f"{name}: no client log ({e})"], 0
    pat = PY_CLIENT_ERRORS if kind == "py" else TCL_CLIENT_ERRORS
    for line in lines:
        if kind == "py" and "Starting GTP engine" in line:
            starts += 1
        # the Tcl client logs every GTP and server line (C->E, E->C, S->C,
        # C->S): moves and replies are data, not errors
        if kind == "tcl" and re.search(r"\s(C->E|E->C|S->C|C->S)\s", line):
            if ENGINE_ERRORS.search(line):
                bad.append(f"{name}: {line.strip()}")
            continue
        if pat.search(line) or ENGINE_ERRORS.search(line):
            # the same error again (the Python client retries): once
            text = re.sub(r"^\d{4}-\d\d-\d\d [\d:,]+: ", "", line.strip())
            if f"{name}: {text}" not in bad:
                bad.append(f"{name}: {text}")
    if kind == "py" and starts > 1:
        bad.insert(0, f"{name}: the Python client started its engine {starts} times")
    return bad[:5], starts


def main():
    ap = argparse.ArgumentParser(prog="cgos_round.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("size", type=int)
    ap.add_argument("seconds", type=int, help="sudden-death main time per side")
    ap.add_argument("games", type=int)
    ap.add_argument("engine_a", help="GTP command of engine A (split on spaces)")
    ap.add_argument("engine_b", help="GTP command of engine B (split on spaces)")
    ap.add_argument("--cgos-dir", default=os.environ.get("CGOS_DIR"),
                    help="zakki/cgos checkout with the bindHost patch (default $CGOS_DIR)")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--name-a", default="EngineA")
    ap.add_argument("--name-b", default="EngineB")
    ap.add_argument("--client-a", choices=["py", "tcl"], default="py")
    ap.add_argument("--client-b", choices=["py", "tcl"], default="tcl")
    ap.add_argument("--check", default=None,
                    help="name of the engine under test: a time loss of its fails the round (default A)")
    ap.add_argument("--komi", type=float, default=None, help="default 7.0 on 9x9, else 7.5")
    ap.add_argument("--timeout", type=int, default=None,
                    help="wall-clock limit of the whole round in seconds "
                         "(default 60 + GAMES*(2*SECONDS+45))")
    a = ap.parse_args()
    for n in (a.name_a, a.name_b):
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_.-]{2,17}", n) or n.startswith("admin"):
            print(f"bad player name {n!r}: 3-18 chars [A-Za-z0-9_.-], letter first, not admin*")
            sys.exit(2)
    if a.name_a == a.name_b:
        print("names must differ")
        sys.exit(2)
    under_test = a.check or a.name_a
    if under_test not in (a.name_a, a.name_b):
        print(f"--check {under_test}: not a player of this round")
        sys.exit(2)
    src = os.path.abspath(a.cgos_dir or "")
    server_py = os.path.join(src, "server-python", "cgos", "server.py")
    clients = {"py": os.path.join(src, "client-python", "src", "cgosclient.py"),
               "tcl": os.path.join(src, "client", "cgosGtp.tcl")}
    for path in [server_py, os.path.join(src, "server-python", "log.ini")] + [
            clients[a.client_a], clients[a.client_b]]:
        if not os.path.isfile(path):
            print(f"# verdict: SKIP: no {path} (set --cgos-dir or CGOS_DIR)")
            sys.exit(2)
    with open(os.path.join(src, "server-python", "cgos", "app", "config.py")) as f:
        if "bindHost" not in f.read():
            print(f"# verdict: SKIP: {src} lacks the bindHost patch (the server would listen on every interface)")
            sys.exit(2)
    if "tcl" in (a.client_a, a.client_b) and not shutil.which("tclsh"):
        print("# verdict: SKIP: no tclsh")
        sys.exit(2)

    komi = a.komi if a.komi is not None else (7.0 if a.size == 9 else 7.5)
    timeout = a.timeout or int(60 + a.games * (2 * a.seconds + 45))
    run = os.path.abspath(a.out)
    os.makedirs(run, exist_ok=True)
    sgfdir = os.path.join(run, "sgf")
    os.makedirs(sgfdir, exist_ok=True)
    port = free_port()
    write_server_files(run, src, port, a.size, a.seconds, komi)
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"

    def on_term(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGHUP, on_term)
    signal.signal(signal.SIGINT, on_term)

    procs = []
    deadline = time.time() + timeout
    results = []
    aborted = None
    early_exits = []
    try:
        server = spawn([sys.executable, server_py, "cgos.ini"],
                       os.path.join(run, "server.out"), run, env=env)
        procs.append(("server", server))
        for _ in range(150):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None:
                    raise RuntimeError("server exited at start; see server.out")
                time.sleep(0.1)
        else:
            raise RuntimeError("server did not listen within 15 s; see server.out")
        listen = listeners(port)
        with open(os.path.join(run, "listen.txt"), "w") as f:
            f.write("\n".join(listen) + "\n")
        log(f"server on port {port}, listening on {listen}")
        if not listen or any(x != "127.0.0.1" for x in listen):
            raise RuntimeError(f"server is not listening on 127.0.0.1 only: {listen}")

        for name, cmd, kind in ((a.name_a, a.engine_a, a.client_a),
                                (a.name_b, a.engine_b, a.client_b)):
            if kind == "py":
                c = os.path.join(run, f"pyclient-{name}.cfg")
                write_py_client_cfg(c, name, cmd, port, os.path.join(sgfdir, f"client-{name}"), run)
                p = spawn([sys.executable, clients["py"], c],
                          os.path.join(run, f"client-{name}.out"), run, env)
            else:
                c = os.path.join(run, f"tclclient-{name}.cfg")
                # `2>@stderr`: Tcl's `open |cmd` would otherwise keep the
                # engine's stderr; this sends it to the client's log
                write_tcl_client_cfg(c, name, cmd + " 2>@stderr", port)
                p = spawn(["tclsh", clients["tcl"], "-c", c],
                          os.path.join(run, f"client-{name}.out"), run, env)
            procs.append((f"client-{name}", p))
            log(f"{name}: {kind} client, engine: {cmd}")

        def check_alive():
            for pname, p in procs:
                if p.poll() is not None:
                    raise RuntimeError(f"{pname} exited (rc {p.returncode}); see its log in {run}")

        adm = Admin(port)
        db = sqlite3.connect(os.path.join(run, "cgos.state"), timeout=30)
        for g in range(1, a.games + 1):
            black, white = (a.name_a, a.name_b) if g % 2 == 1 else (a.name_b, a.name_a)
            wait_until = min(deadline, time.time() + 90)
            while True:
                st = adm.who()
                if st.get(a.name_a) == "waiting" and st.get(a.name_b) == "waiting":
                    break
                check_alive()
                if time.time() > wait_until:
                    raise RuntimeError(f"players not both waiting before game {g}: {st}")
                time.sleep(0.5)
            (ngid,) = db.execute("SELECT gid FROM gameid WHERE ROWID=1").fetchone()
            reply = adm.match(white, black)
            log(f"game {g}: gid {ngid} black={black} white={white}: {reply}")
            if not reply.startswith("match "):
                raise RuntimeError(f"match refused: {reply}")
            while True:
                row = db.execute("SELECT gid, w, b, wtu, btu, res FROM games WHERE gid=?",
                                 (ngid,)).fetchone()
                if row:
                    results.append(row)
                    break
                if time.time() > deadline:
                    raise TimeoutError(f"wall-clock timeout ({timeout}s) during game {g}")
                check_alive()
                time.sleep(0.5)
            log(f"game {g} over: {row[5]}")
        time.sleep(1)  # let the clients log the game's end
        for pname, p in procs:
            if p.poll() is not None:
                early_exits.append(f"{pname} exited (rc {p.returncode})")
    except (Exception, KeyboardInterrupt) as e:  # report whatever finished
        aborted = f"{type(e).__name__}: {e}"
        log("ABORTED: " + aborted)
    finally:
        for pname, p in reversed(procs):
            stop(p)

    # ---------------------------------------------------------------- report
    found = {}
    for root, _, files in os.walk(os.path.join(run, "html", "SGF")):
        for fn in files:
            m = re.fullmatch(r"(\d+)\.sgf", fn)
            if m:
                shutil.copy(os.path.join(root, fn), os.path.join(sgfdir, fn))
                found[int(m.group(1))] = os.path.join(sgfdir, fn)
    level_ms = a.seconds * 1000
    lines = [f"# round {a.size}x{a.size} {a.seconds}s komi {komi}: "
             f"A={a.name_a} ({a.client_a} client) `{a.engine_a}`  "
             f"B={a.name_b} ({a.client_b} client) `{a.engine_b}`",
             f"# out: {run}",
             f"game gid black      white      result       moves "
             f"{a.name_a[:10]:>10}_left {a.name_b[:10]:>10}_left  first_pass"]
    problems = []
    for i, (gid, w, b, wtu, btu, res) in enumerate(results, 1):
        left = {w: (level_ms - wtu) / 1000.0, b: (level_ms - btu) / 1000.0}
        sgf = open(found[gid]).read() if gid in found else ""
        mv = parse_sgf_moves(sgf)
        # the server records a resignation or an illegal move as one more
        # (pass-looking) node; it records nothing for a time loss
        if res.endswith("Resign") or res.endswith("Illegal"):
            mv = mv[:-1]
        col_of = {"B": b, "W": w}
        first_pass = next((k for k, (c, m, t) in enumerate(mv) if m == ""), None)
        fp = "-" if first_pass is None else f"{mv[first_pass][0]}@{first_pass + 1}"
        lines.append(f"{i:<4} {gid:<3} {b[:10]:<10} {w[:10]:<10} {res:<12} {len(mv):>5} "
                     f"{left[a.name_a]:>15.3f} {left[a.name_b]:>15.3f}  {fp:>10}")
        with open(os.path.join(run, f"game{i}-moves.txt"), "w") as f:
            f.write(f"# gid {gid} B={b} W={w} result {res}\n# n colour player move seconds_left_after_move\n")
            for k, (c, m, t) in enumerate(mv, 1):
                f.write(f"{k} {c} {col_of[c]} {sgf_point_to_gtp(m, a.size)} {t}\n")
        loser = {"B": w, "W": b}.get(res[:1])
        if "Illegal" in res or "Forfeit" in res:
            problems.append(f"game {i}: {res} ({loser or '?'} lost by an illegal move)")
        if res.endswith("Time") and loser == under_test:
            problems.append(f"game {i}: {res} ({under_test} lost on time)")
        if not re.fullmatch(r"[BW]\+(Resign|Time|Illegal|\d+(\.\d+)?)|Draw", res.strip()):
            problems.append(f"game {i}: unexpected result {res!r}")
    done = {r[0] for r in results}
    for gid in sorted(set(found) - done):
        mv = parse_sgf_moves(open(found[gid]).read())
        lines.append(f"# unfinished gid {gid}: {len(mv)} moves recorded (partial SGF {found[gid]})")
    if len(results) < a.games:
        problems.append(f"{len(results)}/{a.games} games finished")
    if aborted:
        problems.append(f"aborted: {aborted}")
    problems += early_exits
    for name, kind in ((a.name_a, a.client_a), (a.name_b, a.client_b)):
        bad, _ = client_problems(name, kind, os.path.join(run, f"client-{name}.out"))
        problems += bad
    if problems:
        lines.append("# verdict: FAIL: " + "; ".join(problems))
    else:
        lines.append("# verdict: PASS")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(run, "summary.txt"), "w") as f:
        f.write(text)
    print(text, end="", flush=True)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
