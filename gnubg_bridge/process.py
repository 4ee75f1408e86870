"""Finding and running GNU Backgammon.

Each call starts one gnubg process that runs a script inside gnubg's embedded
Python and exchanges JSON through files, never through what gnubg prints: its C
code writes boards and messages to the same stdout. The script may print lines
that start with ``PROGRESS_MARK`` to report progress while it runs.

gnubg is a separate program, not a Python package, so a machine may not have it
(the README's first command on a fresh machine installs only Python packages):
``available()`` tells, and the site then says that analysis and bots are
unavailable instead of failing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Where Debian installs gnubg; /usr/games is often not on PATH (services, cron).
DEBIAN_DIRECTORY = "/usr/games"
#: A line the script prints to report progress: ``PROGRESS_MARK + " " + text``.
PROGRESS_MARK = "@@@gnubg-bridge"


class GnubgError(RuntimeError):
    """gnubg is missing, failed, or did not answer in time."""


class GnubgMissingError(GnubgError):
    """gnubg is not installed on this machine."""


def executable() -> str | None:
    """gnubg's path, from ``GNUBG`` in the environment, PATH or Debian's directory."""
    configured = os.environ.get("GNUBG")
    if configured:
        return configured if Path(configured).is_file() else None
    return shutil.which("gnubg") or shutil.which("gnubg", path=DEBIAN_DIRECTORY)


def available() -> bool:
    return executable() is not None


def run_script(
    script: str,
    payload: Any,
    *,
    timeout: float,
    on_progress: Callable[[str], None] | None = None,
) -> Any:
    """Run ``script`` in gnubg's Python and return the JSON it wrote.

    The script finds its input in the JSON file named by the environment variable
    ``GNUBG_BRIDGE_IN`` and writes its answer to ``GNUBG_BRIDGE_OUT``. A script that
    ends without writing an answer is a failure, whatever gnubg's exit status: gnubg
    reports a broken script on stdout and exits 0.
    """
    path = executable()
    if path is None:
        raise GnubgMissingError("GNU Backgammon (gnubg) is not installed")
    with tempfile.TemporaryDirectory(prefix="gnubg-bridge-") as tmp:
        folder = Path(tmp)
        (folder / "script.py").write_text(script)
        (folder / "in.json").write_text(json.dumps(payload))
        out = folder / "out.json"
        env = {
            **os.environ,
            # gnubg reads and writes ~/.gnubg: each run gets its own, so runs in
            # parallel never share settings, and the user's own are never read.
            "HOME": tmp,
            "LANG": "C",
            "LC_ALL": "C",
            "GNUBG_BRIDGE_IN": str(folder / "in.json"),
            "GNUBG_BRIDGE_OUT": str(out),
        }
        tail: list[str] = []
        with subprocess.Popen(
            [path, "-t", "-q", "-p", str(folder / "script.py")],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            env=env,
            cwd=tmp,
            start_new_session=True,
        ) as process:
            try:
                _read_output(process, tail, on_progress, timeout)
            except BaseException:
                process.kill()
                raise
        if not out.exists():
            raise GnubgError(
                f"gnubg exited with status {process.returncode} and no answer:\n"
                + "\n".join(tail[-40:])
            )
        return json.loads(out.read_text())


def _read_output(
    process: subprocess.Popen[str],
    tail: list[str],
    on_progress: Callable[[str], None] | None,
    timeout: float,
) -> None:
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        process.kill()

    timer = threading.Timer(timeout, expire)
    timer.start()
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith(PROGRESS_MARK + " "):
                if on_progress is not None:
                    on_progress(line[len(PROGRESS_MARK) + 1 :].rstrip("\n"))
                continue
            tail.append(line.rstrip("\n"))
            del tail[:-200]
        process.wait()
    finally:
        timer.cancel()
    if expired.is_set():
        raise GnubgError(f"gnubg did not finish within {timeout:g} s")


#: Prepended to every script: the helpers a script uses to read its input, report
#: progress and write its answer. gnubg's C output is flushed before each progress
#: line so the lines arrive in order.
PRELUDE = f"""
import ctypes, json, os, sys
import gnubg

_libc = ctypes.CDLL(None)


def bridge_input():
    with open(os.environ["GNUBG_BRIDGE_IN"]) as f:
        return json.load(f)


def bridge_progress(text):
    _libc.fflush(None)
    sys.stdout.flush()
    os.write(1, ({PROGRESS_MARK!r} + " " + text + "\\n").encode())


def bridge_answer(value):
    tmp = os.environ["GNUBG_BRIDGE_OUT"] + ".part"
    with open(tmp, "w") as f:
        json.dump(value, f)
    os.rename(tmp, os.environ["GNUBG_BRIDGE_OUT"])
"""
