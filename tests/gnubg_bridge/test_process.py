"""Running a script in gnubg's Python: its answer, its progress lines and its failures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gnubg_bridge import process


@pytest.mark.gnubg
def test_a_script_reads_its_input_reports_progress_and_answers() -> None:
    script = process.PRELUDE + (
        "data = bridge_input()\n"
        "bridge_progress('set up')\n"
        "gnubg.command('new game')\n"
        "bridge_progress('started')\n"
        "bridge_answer({'doubled': data['n'] * 2, 'board': len(gnubg.board()[0])})\n"
    )
    seen: list[str] = []
    answer = process.run_script(script, {"n": 21}, timeout=60, on_progress=seen.append)
    assert answer == {"doubled": 42, "board": 25}
    assert seen == ["set up", "started"]


@pytest.mark.gnubg
def test_a_script_that_fails_before_answering_is_an_error() -> None:
    script = process.PRELUDE + "raise ValueError('no position here')\n"
    with pytest.raises(process.GnubgError, match="no position here"):
        process.run_script(script, {}, timeout=60)


@pytest.mark.gnubg
def test_a_script_that_runs_too_long_is_killed() -> None:
    script = process.PRELUDE + "import time\ntime.sleep(60)\nbridge_answer(1)\n"
    with pytest.raises(process.GnubgError, match="within 1 s"):
        process.run_script(script, {}, timeout=1)


def test_a_machine_without_gnubg_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GNUBG", str(tmp_path / "no-gnubg-here"))
    assert not process.available()
    with pytest.raises(process.GnubgMissingError):
        process.run_script(process.PRELUDE, {}, timeout=5)


def test_the_bridge_pulls_in_no_django() -> None:
    """The apps call the bridge, never the reverse: it runs in any worker, or none."""
    code = (
        "import sys, gnubg_bridge.process;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery'));"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
