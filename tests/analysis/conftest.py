"""gnubg there or not, whatever this machine has: the tests that run no analysis say which."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis import services


@pytest.fixture
def gnubg_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """gnubg counts as installed (the test runs no analysis)."""
    monkeypatch.setattr(services, "analysis_available", lambda: True)


@pytest.fixture
def no_gnubg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """gnubg is missing: GNUBG names a file that does not exist."""
    monkeypatch.setenv("GNUBG", str(tmp_path / "no-gnubg-here"))
