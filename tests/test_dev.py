"""dev.py's set-up: ``run`` installs what the site needs, ``test`` and ``check`` add the
dev extra, and the stamp in .venv knows which is there (issue 26: ``run`` was silent for
34 to 52 s while pip installed the test and lint tools too, a 731 MB venv).

dev.py is loaded from the checkout with its ROOT, VENV and STAMP pointing at a temporary
directory, and its ``run`` recording the commands instead of running them: no network,
no pip.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

DEV_PY = Path(__file__).resolve().parent.parent / "dev.py"


def load_dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev_under_test", DEV_PY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def dev(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, list[list[str]]]:
    module = load_dev()
    venv = tmp_path / ".venv"
    monkeypatch.setattr(module, "ROOT", tmp_path)
    monkeypatch.setattr(module, "VENV", venv)
    monkeypatch.setattr(module, "STAMP", venv / ".dev-install-hash")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    commands: list[list[str]] = []

    def run(args: list[object], **kwargs: object) -> None:
        commands.append([str(a) for a in args])
        if args[:3] == [sys.executable, "-m", "venv"]:  # the venv, as far as dev.py looks
            python = module.venv_python()
            python.parent.mkdir(parents=True)
            python.touch()

    monkeypatch.setattr(module, "run", run)
    return module, commands


def installs(commands: list[list[str]]) -> list[str]:
    """What each pip install in ``commands`` installed."""
    return [c[-1] for c in commands if c[1:4] == ["-m", "pip", "install"]]


def test_run_installs_the_site_test_adds_the_dev_extra_and_neither_repeats(
    dev: tuple[ModuleType, list[list[str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    module, commands = dev
    module.setup(dev=False)
    assert commands[0][1:3] == ["-m", "venv"]
    assert installs(commands) == ["."]
    said = capsys.readouterr().out
    assert "installing what the site needs (pip install -e .)" in said
    assert "installed in " in said
    assert module.STAMP.read_text().split()[1:] == ["site"]
    commands.clear()
    module.setup(dev=False)  # nothing changed: nothing installed
    assert installs(commands) == []
    module.setup(dev=True)  # the test command adds the rest
    assert installs(commands) == [".[dev]"]
    assert "test and lint tools" in capsys.readouterr().out
    commands.clear()
    module.setup(dev=False)  # run after test: the dev extra is a superset
    module.setup(dev=True)
    assert installs(commands) == []
    assert [c[1:3] for c in commands] == [["-m", "backgammon.i18n_compile"]] * 2


def test_a_changed_pyproject_installs_again_what_the_command_needs(
    dev: tuple[ModuleType, list[list[str]]],
) -> None:
    module, commands = dev
    module.setup(dev=True)
    (module.ROOT / "pyproject.toml").write_text('[project]\nname = "y"\n')
    commands.clear()
    module.setup(dev=False)
    assert installs(commands) == ["."]
    module.setup(dev=True)
    assert installs(commands) == [".", ".[dev]"]


@pytest.mark.parametrize(
    ("stamp", "dev", "needed"),
    [
        (None, False, "site"),
        (None, True, "dev"),
        ("h site", False, None),
        ("h site", True, "dev"),
        ("h dev", False, None),
        ("h dev", True, None),
        ("h\n", True, None),  # an older dev.py's stamp: it always installed the dev extra
        ("old dev", False, "site"),
        ("old dev", True, "dev"),
    ],
)
def test_the_stamp_decides(stamp: str | None, dev: bool, needed: str | None) -> None:
    assert load_dev().install_needed(stamp, "h", dev=dev) == needed


def test_the_commands_ask_for_what_they_need(monkeypatch: pytest.MonkeyPatch) -> None:
    module = load_dev()
    asked: list[bool] = []

    def setup(*, dev: bool) -> Path:
        asked.append(dev)
        raise SystemExit(0)

    monkeypatch.setattr(module, "setup", setup)
    for command in ("run", "test", "check"):
        with pytest.raises(SystemExit):
            module.main([command])
    assert asked == [False, True, True]
