"""GNU Backgammon reading our ``.mat`` files: many files in one gnubg process.

gnubg runs its embedded Python (``gnubg -t -q -p script``). For each file the
script imports it, takes gnubg's record of the match (``gnubg.match()``), the
Position ID at the end of every game, and exports the match again with gnubg's
own writer (``export match mat``). What gnubg prints while importing is cut
out between marker lines (gnubg's C output is flushed before each marker), so
every message is charged to the file that caused it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_BOARD_LINE = re.compile(
    r"^( GNU Backgammon  Position ID: |\s+Match ID   : | [|+]|[v^]\|)|^\s*$"
    r"|^Will (not )?use the Jacoby rule for money sessions\.$"
)
_MARK = "@@@ gnubg_mat"

_SCRIPT = """
import ctypes, gnubg, json, os, sys

libc = ctypes.CDLL(None)


def mark(text):
    libc.fflush(None)
    sys.stdout.flush()
    os.write(1, ({mark!r} + " " + text + "\\n").encode())


gnubg.command("set confirm new off")
with open({jobs!r}) as f:
    jobs = json.load(f)
for job in jobs:
    mark("begin " + job["name"])
    gnubg.command("set jacoby " + ("on" if job["jacoby"] else "off"))
    gnubg.command("import mat " + job["mat"])
    mark("end " + job["name"])
    match = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
    finals = []
    gnubg.navigate()
    for _ in match["games"]:
        gnubg.navigate(next=100000)
        finals.append(gnubg.positionid())
        gnubg.navigate(game=1)
    gnubg.command("export match mat " + job["again"])
    games = [{{"info": g["info"], "records": g["game"]}} for g in match["games"]]
    with open(job["out"], "w") as f:
        json.dump({{"games": games, "finals": finals}}, f)
mark("done")
"""


@dataclass
class GnubgImport:
    """What gnubg made of one file."""

    messages: list[str]  # what gnubg printed while importing, besides boards
    reexport: str  # the match as gnubg's own ``export match mat`` writes it
    games: list[dict[str, Any]]  # per game: "info" and "records", as gnubg.match() gives
    finals: list[str]  # per game, the Position ID at its end

    def score(self) -> tuple[int, int]:
        """The score after the last game, as gnubg counts it."""
        info = self.games[-1]["info"]
        score = [info["score-X"], info["score-O"]]
        if info.get("winner"):
            score["XO".index(info["winner"])] += info["points-won"]
        return score[0], score[1]

    def positions_after_plays(self) -> list[list[str]]:
        """Per game, the Position ID after each play (the board before the next one)."""
        result = []
        for game, final in zip(self.games, self.finals, strict=True):
            boards = [r["board"] for r in game["records"] if r["action"] == "move"]
            result.append([*boards[1:], final] if boards else [])
        return result


def gnubg_import_many(
    gnubg: str, files: Mapping[str, tuple[str, bool]], tmp_path: Path
) -> dict[str, GnubgImport]:
    """Have one gnubg process import each of ``files`` (name: (text, jacoby))."""
    jobs = []
    for number, (name, (text, jacoby)) in enumerate(files.items()):
        mat = tmp_path / f"{number}.mat"
        mat.write_text(text)
        again = tmp_path / f"{number}.again.mat"
        again.unlink(missing_ok=True)
        out = tmp_path / f"{number}.json"
        jobs.append(
            {"name": name, "mat": str(mat), "again": str(again), "out": str(out), "jacoby": jacoby}
        )
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    script = tmp_path / "import.py"
    script.write_text(_SCRIPT.format(mark=_MARK, jobs=str(tmp_path / "jobs.json")))
    env = {**os.environ, "HOME": str(tmp_path), "LANG": "C", "LC_ALL": "C"}
    run = subprocess.run(
        [gnubg, "-t", "-q", "-p", str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        env=env,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    printed: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in run.stdout.splitlines():
        if line.startswith(_MARK + " "):
            word, _, name = line[len(_MARK) + 1 :].partition(" ")
            current = printed.setdefault(name, []) if word == "begin" else None
        elif current is not None and not _BOARD_LINE.search(line):
            current.append(line)
    if run.returncode or f"{_MARK} done" not in run.stdout:
        raise AssertionError(f"gnubg failed ({run.returncode}):\n{run.stdout[-3000:]}")
    results = {}
    for job in jobs:
        record = json.loads(Path(job["out"]).read_text())
        again = Path(job["again"])
        results[job["name"]] = GnubgImport(
            messages=printed[job["name"]],
            reexport=again.read_text() if again.exists() else "",
            games=record["games"],
            finals=record["finals"],
        )
    return results


def gnubg_import(gnubg: str, text: str, tmp_path: Path, *, jacoby: bool = False) -> GnubgImport:
    """Have gnubg import ``text``: what it printed, its record and its re-export."""
    return gnubg_import_many(gnubg, {"match": (text, jacoby)}, tmp_path)["match"]


def without_date(text: str) -> str:
    """The text without its ``EventDate`` line."""
    return "".join(line for line in text.splitlines(True) if "[EventDate " not in line)
