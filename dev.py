#!/usr/bin/env python3
"""The two commands a developer needs. Standard library only.

    python3 dev.py run            set up, migrate, load demo data, serve on 127.0.0.1:$PORT (8000)
                                  with uvicorn (pages, the API and the live sockets)
    python3 dev.py test [ARGS]    set up, then run the test suite (ARGS go to pytest)
    python3 dev.py check          set up, then the guards CI runs before the tests: ruff,
                                  mypy --strict gammon, mypy on the apps, makemigrations
                                  --check, and the wheel installed in a fresh venv running
                                  check and migrate

Set-up creates .venv if it is missing and installs the project: ``run`` what the site
needs (``pip install -e .``), ``test`` and ``check`` its dev extra too (the test and
lint tools). A stamp in .venv records what was installed from which pyproject.toml, so
the install is skipped while that holds (``run`` after ``test`` installs nothing, ``test``
after ``run`` adds the dev extra). It then compiles the translations
(locale/*/LC_MESSAGES/*.po -> .mo, backgammon/i18n_compile.py).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
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


def run(
    args: list[str | os.PathLike[str]],
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
) -> None:
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env)
    if result.returncode != 0:
        sys.exit(result.returncode)


#: What an install put in .venv, as the stamp names it: the site's dependencies, or
#: those and the dev extra.
SITE, DEV = "site", "dev"


def install_needed(stamp: str | None, wanted: str, *, dev: bool) -> str | None:
    """What to install, given the stamp's text and the hash of pyproject.toml: None
    when .venv has it already, else ``SITE`` or ``DEV``.

    A stamp of a hash alone is an older dev.py's, which always installed the dev extra."""
    installed_hash, _, installed = (stamp or "").strip().partition(" ")
    want = DEV if dev else SITE
    if installed_hash == wanted and (installed or DEV) in {want, DEV}:
        return None
    return want


def setup(*, dev: bool) -> Path:
    python = venv_python()
    if not python.exists():
        say(f"creating the virtual environment {VENV}")
        run([sys.executable, "-m", "venv", VENV])
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    stamp = STAMP.read_text() if STAMP.exists() else None
    what = install_needed(stamp, wanted, dev=dev)
    if what is not None:
        target, needs = {
            SITE: (".", "what the site needs"),
            DEV: (".[dev]", "the site's dependencies and the test and lint tools"),
        }[what]
        say(f"installing {needs} (pip install -e {target}); a first install takes a minute")
        started = time.monotonic()
        run(
            [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", target]
        )
        STAMP.write_text(f"{wanted} {what}\n")
        say(f"installed in {time.monotonic() - started:.0f} s")
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
    python = setup(dev=False)
    manage(python, "migrate", "--noinput")
    if has_command(python, "demo_data"):
        manage(python, "demo_data")
    port = os.environ.get("PORT", "8000")
    say(f"serving pages and live sockets on http://127.0.0.1:{port}/ (Ctrl-C stops)")
    # The production server (uvicorn, ASGI: pages, the API and the sockets in one process),
    # reloading when a Python file of the checkout changes.
    command = [str(python), "-m", "uvicorn", "backgammon.asgi:application"]
    command += ["--host", "127.0.0.1", "--port", port, "--reload", "--reload-dir", str(ROOT)]
    command += ["--reload-exclude", ".venv", "--lifespan", "off", *args]
    try:
        return subprocess.call(command, cwd=ROOT)
    except KeyboardInterrupt:
        return 0


def xdist_available(python: Path) -> bool:
    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('xdist') is None)"
    return subprocess.run([str(python), "-c", probe], cwd=ROOT).returncode == 0


def cmd_test(args: list[str]) -> int:
    python = setup(dev=True)
    command = [str(python), "-m", "pytest"]
    user_chose_workers = any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in args)
    if not user_chose_workers and "-p" not in args and xdist_available(python):
        # loadgroup: tests marked xdist_group("name") share one worker (and so its
        # module fixtures); the others are spread as with the default "load".
        command += ["-n", "auto", "--dist", "loadgroup"]
    if os.environ.get("CI") == "true" and not any(a.startswith("--durations") for a in args):
        command += ["--durations=40"]  # what CI spends its minutes on, in its log
    command += args
    say(" ".join(command[1:]))
    return subprocess.call(command, cwd=ROOT)


def bin_path(venv: Path, name: str) -> Path:
    if os.name == "nt":
        return venv / "Scripts" / f"{name}.exe"
    return venv / "bin" / name


# Run by the installed package, away from the checkout: the templates, static files and
# translations must come from the wheel, or the site does not work once installed.
INSTALLED_PROBE = """
import sys
from pathlib import Path
import django
django.setup()
import backgammon
from django.contrib.staticfiles import finders
from django.template.loader import get_template
from django.utils import translation
here = Path(backgammon.__file__).resolve()
assert Path(sys.prefix).resolve() in here.parents, f"backgammon imported from {here}"
get_template("matches/game_detail.html")
get_template("moderation/suspended.html")
assert finders.find("css/site.css"), "static/ missing from the wheel"
with translation.override("es"):
    assert translation.gettext("Spanish") != "Spanish", "locale/ missing from the wheel"
print(f"dev.py: installed package at {here.parent} serves templates, static and locale")
"""


def site_packages(python: Path) -> str:
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    return subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def check_wheel(python: Path, tmp: Path) -> None:
    """Build the wheel, install it in a fresh venv, run check and migrate from there.

    The editable install of the checkout hides what the wheel leaves out (a missing app
    once went unnoticed), so this runs from a temporary directory with the installed
    package only, on a new SQLite database. The wheel goes in with --no-deps, and the
    fresh venv reads its dependencies from .venv's site-packages (a plain path in a .pth
    file, so the editable install's own .pth there is not run): the dev install already
    resolved the same pyproject.toml, and resolving it again took minutes on CI.
    """
    dist, venv, site = tmp / "dist", tmp / "venv", tmp / "site"
    site.mkdir()
    pip = [python, "-m", "pip", "--quiet"]
    # setuptools builds in the checkout's build/ and packs whatever an earlier build left
    # there: a module since moved or deleted would ride along and hide a real omission.
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    run([*pip, "wheel", ".", "--no-deps", "-w", dist])
    wheel = next(dist.glob("*.whl"))
    run([sys.executable, "-m", "venv", "--without-pip", venv])
    vpython = bin_path(venv, "python")
    Path(site_packages(vpython), "dev-venv-dependencies.pth").write_text(
        site_packages(python) + "\n"
    )
    run([*pip, "--python", vpython, "install", "--no-deps", wheel], cwd=site)
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "REDIS_URL"}}
    env["DATABASE_URL"] = f"sqlite:///{site / 'db.sqlite3'}"
    env["DJANGO_SETTINGS_MODULE"] = "backgammon.settings"
    manage = [vpython, "-m", "django"]  # django-admin with the installed settings
    run([*manage, "check", "--fail-level", "WARNING"], cwd=site, env=env)
    run([*manage, "migrate", "--noinput", "-v", "0"], cwd=site, env=env)
    run([vpython, "-c", INSTALLED_PROBE], cwd=site, env=env)


#: The Django apps that the second mypy run checks (default mode, pyproject's flags).
MYPY_APPS = [
    "backgammon",
    "accounts",
    "matches",
    "challenges",
    "chouettes",
    "notifications",
    "stats",
    "bots",
    "analysis",
    "tournaments",
    "moderation",
]


def cmd_check(args: list[str]) -> int:
    """The guards CI runs before the tests; each one stops the run when it fails."""
    python = setup(dev=True)
    steps: list[tuple[str, list[str | os.PathLike[str]]]] = [
        ("ruff check", [bin_path(VENV, "ruff"), "check", "."]),
        ("ruff format --check", [bin_path(VENV, "ruff"), "format", "--check", "."]),
        (
            "mypy --strict gammon gnubg_bridge",
            [bin_path(VENV, "mypy"), "--strict", "gammon", "gnubg_bridge"],
        ),
        # The apps, with django-stubs and djangorestframework-stubs ([tool.mypy] in
        # pyproject.toml).
        ("mypy apps", [bin_path(VENV, "mypy"), *MYPY_APPS]),
        ("makemigrations --check", [python, "manage.py", "makemigrations", "--check", "--dry-run"]),
    ]
    for name, command in steps:
        started = time.monotonic()
        say(name)
        run(command)
        say(f"{name}: ok ({time.monotonic() - started:.1f} s)")
    started = time.monotonic()
    say("wheel installed in a fresh venv: check, migrate")
    with tempfile.TemporaryDirectory(prefix="bg-wheel-") as tmp:
        check_wheel(python, Path(tmp))
    say(f"wheel: ok ({time.monotonic() - started:.1f} s)")
    return 0


COMMANDS = {"run": cmd_run, "test": cmd_test, "check": cmd_check}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip())
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
