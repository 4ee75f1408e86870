#!/usr/bin/env python3
"""Throughput of ``legal_plays`` on the oracle corpus mix, one core, pure Python.

    .venv/bin/python bench/rules.py [--rounds N]

Prints positions per second for our engine and, where Debian's GNU Backgammon
is installed, for gnubg on the same positions in the same run (its embedded
Python: ``set board``, ``set dice``, ``hint`` at 0 ply, which generates every
legal play and evaluates each with its neural net at 0 ply), and the ratio.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gammon import Play, Position, legal_plays  # noqa: E402
from gammon.moves import _search  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "oracle.jsonl"


def load_corpus() -> list[dict]:
    path = CORPUS if CORPUS.exists() else CORPUS.with_suffix(".jsonl.gz")
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def ours(items: list[tuple[Position, tuple[int, int]]], rounds: int) -> float:
    """Best of ``rounds`` passes over the corpus, in positions per second."""
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        for position, dice in items:
            legal_plays(position, dice)
        rates.append(len(items) / (time.perf_counter() - start))
    return max(rates)


def plain_search(position: Position, dice: tuple[int, int]) -> list[Play]:
    """The straightforward generator: gnubg's recursive search for every roll, no shortcut."""
    d1, d2 = dice
    board = [position.bar[1], *position.points, position.bar[0], position.off[0]]
    found: dict[tuple[int, ...], tuple[int, ...]] = {}
    best = [0, 0]
    for rolls in [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]:
        _search(board, rolls, 0, 24, 0, [], found, best, set())
    return [Play(position, key, path) for key, path in found.items()]


def baseline(items: list[tuple[Position, tuple[int, int]]], rounds: int) -> float:
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        for position, dice in items:
            plain_search(position, dice)
        rates.append(len(items) / (time.perf_counter() - start))
    return max(rates)


GNUBG_SCRIPT = r"""
import json, os, time
import gnubg
for cmd in ("set player 0 human", "set player 1 human", "set automatic roll off",
            "set automatic move off", "set display off", "new session",
            "set evaluation chequerplay evaluation plies 0"):
    gnubg.command(cmd)
rows = [json.loads(l) for l in open(os.environ["BENCH_INPUT"])]
start = time.perf_counter()
for board, dice in rows:
    gnubg.command("set board " + gnubg.positionid((tuple(board[0]), tuple(board[1]))))
    gnubg.command("set dice %d %d" % tuple(dice))
    try:
        gnubg.hint(1000000)
    except Exception:
        pass
elapsed = time.perf_counter() - start
open(os.environ["BENCH_OUTPUT"], "w").write(json.dumps(len(rows) / elapsed))
"""


def gnubg_rate(lines: list[dict]) -> float | None:
    """gnubg's positions per second on the same positions, or None if gnubg is absent."""
    exe = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
    if not exe:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        rows = Path(tmp, "rows.jsonl")
        with rows.open("w") as out:
            for line in lines:
                me, op = [0] * 25, [0] * 25
                for i, n in enumerate(line["points"]):
                    if n > 0:
                        me[i] = n
                    elif n < 0:
                        op[23 - i] = -n
                me[24], op[24] = line["bar"]
                out.write(json.dumps([[op, me], line["dice"]]) + "\n")
        script = Path(tmp, "bench.py")
        script.write_text(GNUBG_SCRIPT)
        result = Path(tmp, "rate.json")
        env = dict(os.environ, BENCH_INPUT=str(rows), BENCH_OUTPUT=str(result))
        subprocess.run(
            [exe, "-t", "-q", "-p", str(script)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=3600,
            check=False,
        )
        if not result.exists():
            return None
        return float(json.loads(result.read_text()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    lines = load_corpus()
    items = [
        (
            Position(tuple(line["points"]), tuple(line["bar"]), tuple(line["off"])),
            (line["dice"][0], line["dice"][1]),
        )
        for line in lines
    ]
    categories: dict[str, int] = {}
    for line in lines:
        categories[line.get("category", "?")] = categories.get(line.get("category", "?"), 0) + 1
    print(f"corpus: {len(items)} positions, mix {dict(sorted(categories.items()))}")
    plays = statistics.mean(len(legal_plays(p, d)) for p, d in items)
    print(f"mean legal plays per position: {plays:.1f}")
    rate = ours(items, args.rounds)
    print(f"gammon legal_plays: {rate:,.0f} positions/s (target 30,000)")
    plain = baseline(items, args.rounds)
    print(f"plain recursive search, same positions: {plain:,.0f} positions/s")
    print(f"ratio legal_plays/plain search: {rate / plain:.2f}")
    other = gnubg_rate(lines)
    if other is None:
        print("gnubg: not installed, no comparison")
    else:
        print(f"gnubg hint at 0 ply, same positions: {other:,.0f} positions/s")
        print(f"ratio ours/gnubg: {rate / other:.2f}")


if __name__ == "__main__":
    main()
