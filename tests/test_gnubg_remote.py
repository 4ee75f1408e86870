"""gnubg on other machines (GNUBG_REMOTE): the web machine, without gnubg of its own,
offers analysis and bots, whose tasks the workers of the ``analysis`` and ``bots``
queues run where gnubg is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from analysis.services import analysis_available
from bots.services import bots_available
from gnubg_bridge import process


@pytest.fixture
def no_local_gnubg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GNUBG", str(tmp_path / "not-installed"))
    assert not process.available()


@pytest.mark.usefixtures("no_local_gnubg")
def test_without_gnubg_here_the_site_offers_neither(settings: Any) -> None:
    settings.GNUBG_REMOTE = False
    assert not analysis_available() and not bots_available()


@pytest.mark.usefixtures("no_local_gnubg")
def test_with_gnubg_on_the_workers_the_site_offers_both(settings: Any) -> None:
    settings.GNUBG_REMOTE = True
    assert analysis_available() and bots_available()
