"""Finding and running GNU Backgammon.

A script runs inside gnubg's embedded Python and exchanges JSON through files, never
through what gnubg prints: its C code writes boards and messages to the same stdout.
The script may print lines that start with ``PROGRESS_MARK`` to report progress while
it runs.

Each call starts one gnubg process, unless the caller asks for the kept one
(``keep=True``, the match analysis): then the script runs in a gnubg process this
Python process keeps between calls, started by the first. gnubg's own start (loading
its networks and bearoff databases, about 0.1 s of CPU) is then paid once per worker,
not once per match: at 0-ply it was a fifth of a match's analysis. A kept process
runs one script at a time (a second thread meanwhile gets a process of its own); one
that fails, runs past its time or was inherited through ``fork`` is never reused. Each
script sets every gnubg setting it relies on, since the process outlives it.

gnubg is a separate program, not a Python package, so a machine may not have it
(the README's first command on a fresh machine installs only Python packages):
``available()`` tells, and the site then says that analysis and bots are
unavailable instead of failing.
"""

from __future__ import annotations

import atexit
import contextlib
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
#: The line a kept process prints when a script has ended, answered or not.
DONE_MARK = PROGRESS_MARK + "-done"


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
    keep: bool = False,
) -> Any:
    """Run ``script`` in gnubg's Python and return the JSON it wrote.

    The script finds its input in the JSON file named by the environment variable
    ``GNUBG_BRIDGE_IN`` and writes its answer to ``GNUBG_BRIDGE_OUT``. A script that
    ends without writing an answer is a failure, whatever gnubg's exit status: gnubg
    reports a broken script on stdout and exits 0. ``keep`` runs it in the process kept
    between calls (see the module's docstring), with the same answer.
    """
    path = executable()
    if path is None:
        raise GnubgMissingError("GNU Backgammon (gnubg) is not installed")
    with tempfile.TemporaryDirectory(prefix="gnubg-bridge-") as tmp:
        folder = Path(tmp)
        (folder / "script.py").write_text(script)
        (folder / "in.json").write_text(json.dumps(payload))
        out = folder / "out.json"
        tail: list[str] = []
        if keep and _kept_lock.acquire(blocking=False):
            try:
                _kept_process(path).run(folder, tail, on_progress, timeout)
                ended = "the script ended"
            finally:
                _kept_lock.release()
        else:
            status = _run_once(path, folder, tail, on_progress, timeout)
            ended = f"gnubg exited with status {status}"
        if not out.exists():
            raise GnubgError(f"{ended} and no answer:\n" + "\n".join(tail[-40:]))
        return json.loads(out.read_text())


def _environment(home: str) -> dict[str, str]:
    # gnubg reads and writes ~/.gnubg: each process gets its own, so processes in
    # parallel never share settings, and the user's own are never read.
    return {**os.environ, "HOME": home, "LANG": "C", "LC_ALL": "C"}


def _run_once(
    path: str,
    folder: Path,
    tail: list[str],
    on_progress: Callable[[str], None] | None,
    timeout: float,
) -> int:
    """Run the script of ``folder`` in a gnubg process of its own; its exit status."""
    env = {
        **_environment(str(folder)),
        "GNUBG_BRIDGE_IN": str(folder / "in.json"),
        "GNUBG_BRIDGE_OUT": str(folder / "out.json"),
    }
    with subprocess.Popen(
        [path, "-t", "-q", "-p", str(folder / "script.py")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        env=env,
        cwd=folder,
        start_new_session=True,
    ) as process:
        try:
            _read_output(process, tail, on_progress, timeout, until=None)
        except BaseException:
            process.kill()
            raise
    return process.returncode


def _read_output(
    process: subprocess.Popen[str],
    tail: list[str],
    on_progress: Callable[[str], None] | None,
    timeout: float,
    *,
    until: str | None,
) -> None:
    """Read gnubg's output to its end, or to the line ``until``; kill it past ``timeout``."""
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        process.kill()

    timer = threading.Timer(timeout, expire)
    timer.start()
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if until is not None and line.rstrip("\n") == until:
                return
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
    if until is not None:
        raise GnubgError(
            f"gnubg exited with status {process.returncode} before the script ended:\n"
            + "\n".join(tail[-40:])
        )


#: The script of a kept process: each line of its input names a folder whose
#: ``script.py`` it runs, there, with the folder's ``in.json`` and ``out.json``; then it
#: prints ``DONE_MARK``. A script that raises is reported as gnubg reports one.
_KEPT_LOOP = f"""
import ctypes, os, sys, traceback

_libc = ctypes.CDLL(None)
for _line in iter(sys.stdin.readline, ""):
    _folder = _line.rstrip("\\n")
    os.chdir(_folder)
    os.environ["GNUBG_BRIDGE_IN"] = os.path.join(_folder, "in.json")
    os.environ["GNUBG_BRIDGE_OUT"] = os.path.join(_folder, "out.json")
    try:
        with open("script.py") as _file:
            exec(compile(_file.read(), "script.py", "exec"), {{"__name__": "__main__"}})
    except BaseException:
        traceback.print_exc(file=sys.stdout)
    _libc.fflush(None)
    sys.stdout.flush()
    os.chdir("/")
    # On a line of its own, whatever gnubg's C code printed last.
    os.write(1, ("\\n" + {DONE_MARK!r} + "\\n").encode())
"""


class _KeptProcess:
    """A gnubg process that runs one script after another (``_KEPT_LOOP``)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.pid = os.getpid()  # the Python process that started it, its only user
        self.home = tempfile.mkdtemp(prefix="gnubg-kept-")
        (Path(self.home) / "loop.py").write_text(_KEPT_LOOP)
        self.process = subprocess.Popen(
            [path, "-t", "-q", "-p", str(Path(self.home) / "loop.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            env=_environment(self.home),
            cwd=self.home,
            start_new_session=True,
        )

    def usable(self, path: str) -> bool:
        return self.pid == os.getpid() and self.path == path and self.process.poll() is None

    def run(
        self,
        folder: Path,
        tail: list[str],
        on_progress: Callable[[str], None] | None,
        timeout: float,
    ) -> None:
        """Run the script of ``folder``; a failure of the process closes it for good."""
        assert self.process.stdin is not None
        try:
            try:
                self.process.stdin.write(f"{folder}\n")
                self.process.stdin.flush()
            except OSError as error:  # it died since it was last asked
                raise GnubgError(f"gnubg could not be given the script: {error}") from error
            _read_output(self.process, tail, on_progress, timeout, until=DONE_MARK)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.pid != os.getpid():
            return  # the parent's process, inherited through fork: the parent closes it
        self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):  # what was unsent goes nowhere
                    stream.close()
        shutil.rmtree(self.home, ignore_errors=True)


_kept: _KeptProcess | None = None
_kept_lock = threading.Lock()


def _kept_process(path: str) -> _KeptProcess:
    """The kept process, started if there is none usable (call with ``_kept_lock``)."""
    global _kept
    if _kept is None or not _kept.usable(path):
        if _kept is not None:
            _kept.close()
        _kept = _KeptProcess(path)
    return _kept


def close_kept() -> None:
    """Stop the kept gnubg process, if any (at exit; a test that wants a fresh one)."""
    global _kept
    with _kept_lock:
        if _kept is not None:
            _kept.close()
            _kept = None


atexit.register(close_kept)


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
