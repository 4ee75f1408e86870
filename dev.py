#!/usr/bin/env python3
"""The two commands a developer needs. Standard library only.

    python3 dev.py run            set up, migrate, load demo data, serve on 127.0.0.1:$PORT (8000)
    python3 dev.py test [ARGS]    set up, then run the test suite (ARGS go to pytest)

Set-up creates .venv if it is missing and installs the project with its dev extra;
the install is skipped while pyproject.toml is unchanged since the last one. It then
compiles the translations (locale/*/LC_MESSAGES/*.po -> .mo, backgammon/i18n_compile.py).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".dev-install-hash"


def venv_python() -> Path:
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def say(message: str) -> None:
    print(f"dev.py: {message}", flush=True)


def run(args: list[str | os.PathLike[str]]) -> None:
    result = subprocess.run([str(a) for a in args], cwd=ROOT)
    if result.returncode != 0:
        sys.exit(result.returncode)


def setup() -> Path:
    python = venv_python()
    if not python.exists():
        say(f"creating {VENV}")
        run([sys.executable, "-m", "venv", VENV])
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text().strip() != wanted:
        say("installing the project and its dev dependencies")
        run([python, "-m", "pip", "install", "--quiet", "-e", ".[dev]"])
        STAMP.write_text(wanted + "\n")
    # Compile the translations (.po -> .mo) in pure Python: GNU gettext is not needed.
    run([python, "-m", "backgammon.i18n_compile"])
    return python


def manage(python: Path, *args: str) -> None:
    run([python, "manage.py", *args])


def has_command(python: Path, name: str) -> bool:
    code = (
        "import django, sys; django.setup();"
        "from django.core.management import get_commands;"
        f"sys.exit(0 if {name!r} in get_commands() else 1)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "backgammon.settings"}
    return subprocess.run([str(python), "-c", code], cwd=ROOT, env=env).returncode == 0


def cmd_run(args: list[str]) -> int:
    python = setup()
    manage(python, "migrate", "--noinput")
    if has_command(python, "demo_data"):
        manage(python, "demo_data")
    port = os.environ.get("PORT", "8000")
    say(f"serving on http://127.0.0.1:{port}/ (Ctrl-C stops)")
    try:
        return subprocess.call([str(python), "manage.py", "runserver", f"127.0.0.1:{port}", *args])
    except KeyboardInterrupt:
        return 0


def xdist_available(python: Path) -> bool:
    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('xdist') is None)"
    return subprocess.run([str(python), "-c", probe], cwd=ROOT).returncode == 0


def cmd_test(args: list[str]) -> int:
    python = setup()
    command = [str(python), "-m", "pytest"]
    user_chose_workers = any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in args)
    if not user_chose_workers and "-p" not in args and xdist_available(python):
        command += ["-n", "auto"]
    command += args
    say(" ".join(command[1:]))
    return subprocess.call(command, cwd=ROOT)


COMMANDS = {"run": cmd_run, "test": cmd_test}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip())
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
