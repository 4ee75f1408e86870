"""The engine against GNU Backgammon on every line of the oracle corpus, exactly.

``tests/data/oracle.jsonl.gz`` was written by ``tests/data/make_oracle.py`` with
Debian's gnubg: for each position and roll, every legal result and gnubg's own
notation for it. A mismatch prints the position, the dice and the difference.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from gammon import Position, legal_plays
from gammon.jsonio import position_to_json

CORPUS = Path(__file__).resolve().parent.parent / "data" / "oracle.jsonl.gz"


def load() -> list[dict]:
    with gzip.open(CORPUS, "rt") as lines:
        return [json.loads(line) for line in lines if line.strip()]


LINES = load()


def test_the_corpus_covers_every_category() -> None:
    categories = Counter(line["category"] for line in LINES)
    assert len(LINES) >= 5000
    for category in ("opening", "contact", "hit", "bar", "closed", "bearoff", "onedie"):
        assert categories[category] > 0, category
    assert categories["doubles"] > 0 and categories["noplay"] > 0


def key(result: dict) -> tuple:
    return (tuple(result["points"]), tuple(result["bar"]), tuple(result["off"]))


@pytest.mark.parametrize("chunk", range(8))
def test_every_legal_play_and_its_notation_equal_gnubgs(chunk: int) -> None:
    failures = []
    for line in LINES[chunk::8]:
        position = Position(tuple(line["points"]), tuple(line["bar"]), tuple(line["off"]))
        dice = (line["dice"][0], line["dice"][1])
        expected = {key(play["result"]): play["notation"] for play in line["plays"]}
        plays = legal_plays(position, dice)
        got = {key(position_to_json(play.position)): str(play) for play in plays}
        if got != expected or len(plays) != len(expected):
            only_gnubg = {k: v for k, v in expected.items() if got.get(k) != v}
            only_ours = {k: v for k, v in got.items() if expected.get(k) != v}
            failures.append(
                f"{line['id']} {line['category']} dice {dice}\n"
                f"  gnubg only: {sorted(only_gnubg.values())}\n"
                f"  ours only:  {sorted(only_ours.values())}"
            )
    assert not failures, f"{len(failures)} mismatches:\n" + "\n".join(failures[:10])


def test_gnubgs_own_notation_is_read_as_the_same_play() -> None:
    from gammon import parse_play

    for line in LINES[::20]:
        position = Position(tuple(line["points"]), tuple(line["bar"]), tuple(line["off"]))
        dice = (line["dice"][0], line["dice"][1])
        for play in line["plays"]:
            parsed = parse_play(position, dice, play["notation"])
            assert key(position_to_json(parsed.position)) == key(play["result"]), (
                line["id"],
                play["notation"],
            )
