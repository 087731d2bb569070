"""A GTP engine on pipes, shared by the scripts: one command, one reply."""

import subprocess


class GtpPipe:
    """An engine started from `command` (a list of arguments, or one shell
    command line), its stderr dropped."""

    def __init__(self, command, cwd=None):
        self.process = subprocess.Popen(
            command,
            shell=isinstance(command, str),
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def reply(self, command):
        """Sends `command`; returns whether it succeeded and the response's
        lines, stripped, the first without its '=' or '?'."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"engine died on {command!r}")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        ok = lines[0].startswith("=")
        lines[0] = lines[0][1:].strip()
        return ok, lines

    def close(self):
        self.process.stdin.close()
        self.process.wait()
