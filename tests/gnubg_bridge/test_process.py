"""Running a script in gnubg's Python: its answer, its progress lines and its failures."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
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


#: A script that answers with its input and the id of the gnubg process that ran it.
WHO = process.PRELUDE + (
    "import os\n"
    "data = bridge_input()\n"
    "bridge_progress('running ' + str(data))\n"
    "gnubg.command('new game')\n"
    "bridge_answer({'pid': os.getpid(), 'data': data, 'board': len(gnubg.board()[0])})\n"
)


@pytest.fixture
def kept() -> Iterator[None]:
    """Each test starts without a kept process and leaves none behind."""
    process.close_kept()
    yield
    process.close_kept()


@pytest.mark.gnubg
def test_the_kept_process_runs_one_script_after_another(kept: None) -> None:
    seen: list[str] = []
    first = process.run_script(WHO, 1, timeout=60, on_progress=seen.append, keep=True)
    second = process.run_script(WHO, 2, timeout=60, on_progress=seen.append, keep=True)
    assert (first["data"], second["data"]) == (1, 2)
    assert first["board"] == second["board"] == 25
    assert seen == ["running 1", "running 2"]
    assert first["pid"] == second["pid"]  # gnubg started once
    once = process.run_script(WHO, 3, timeout=60)
    assert once["pid"] != first["pid"]  # without keep, a process of its own as before


@pytest.mark.gnubg
def test_a_script_that_fails_in_the_kept_process_is_an_error_and_the_next_runs(
    kept: None,
) -> None:
    first = process.run_script(WHO, 1, timeout=60, keep=True)
    broken = process.PRELUDE + "raise ValueError('no position here')\n"
    with pytest.raises(process.GnubgError, match="no position here"):
        process.run_script(broken, {}, timeout=60, keep=True)
    after = process.run_script(WHO, 2, timeout=60, keep=True)
    assert after["data"] == 2 and after["pid"] == first["pid"]


@pytest.mark.gnubg
def test_a_kept_process_past_its_time_is_killed_and_replaced(kept: None) -> None:
    first = process.run_script(WHO, 1, timeout=60, keep=True)
    slow = process.PRELUDE + "import time\ntime.sleep(60)\nbridge_answer(1)\n"
    with pytest.raises(process.GnubgError, match="within 1 s"):
        process.run_script(slow, {}, timeout=1, keep=True)
    after = process.run_script(WHO, 2, timeout=60, keep=True)
    assert after["data"] == 2 and after["pid"] != first["pid"]


@pytest.mark.gnubg
def test_a_second_thread_gets_a_process_of_its_own_while_the_kept_one_is_busy(
    kept: None,
) -> None:
    first = process.run_script(WHO, 1, timeout=60, keep=True)
    with process._kept_lock:  # as while another thread's analysis runs in it
        meanwhile = process.run_script(WHO, 2, timeout=60, keep=True)
    assert meanwhile["data"] == 2 and meanwhile["pid"] != first["pid"]
    assert process.run_script(WHO, 3, timeout=60, keep=True)["pid"] == first["pid"]
