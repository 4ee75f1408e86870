"""The processes of the cluster's hosts: each started inside its host's namespace in a
process group of its own, its output in a log file, stopped or killed as a group."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from .hosts import Host

ROOT = Path(__file__).resolve().parents[2]


def wait_for(check: Callable[[], bool], seconds: float, what: str) -> float:
    """Poll ``check`` until it holds; returns the seconds it took, or raises naming ``what``."""
    started = time.monotonic()
    while True:
        if check():
            return time.monotonic() - started
        if time.monotonic() - started > seconds:
            raise TimeoutError(f"timed out after {seconds:.0f} s waiting for {what}")
        time.sleep(0.2)


class Service:
    """One long-running process (or a process and its children) on one host.

    ``user`` runs it as that account (PostgreSQL refuses root) through ``setpriv``,
    which execs in place, so the group's leader is the program itself.
    """

    def __init__(
        self,
        name: str,
        host: Host,
        argv: list[str],
        *,
        env: dict[str, str],
        log: Path,
        user: str | None = None,
        cwd: Path = ROOT,
    ) -> None:
        self.name = name
        self.cwd = cwd
        self.host = host
        self.argv = argv
        self.env = env
        self.log = log
        self.user = user
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        argv = self.argv
        if self.user:
            argv = ["setpriv", f"--reuid={self.user}", f"--regid={self.user}", "--init-groups"]
            argv += self.argv
        with self.log.open("ab") as out:
            out.write(f"--- start {time.strftime('%H:%M:%S')}: {' '.join(self.argv)}\n".encode())
            out.flush()
            self.process = subprocess.Popen(
                self.host.command(argv),
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, number: int) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, number)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        """SIGKILL the whole group at once, as a power cut would."""
        self.signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(10)

    def stop(self, grace: float = 15) -> None:
        """SIGTERM, then SIGKILL after ``grace`` seconds."""
        if self.process is None:
            return
        self.signal(signal.SIGTERM)
        try:
            self.process.wait(grace)
        except subprocess.TimeoutExpired:
            self.kill()

    def output(self, last: int = 4000) -> str:
        try:
            return self.log.read_text(errors="replace")[-last:]
        except FileNotFoundError:
            return ""
