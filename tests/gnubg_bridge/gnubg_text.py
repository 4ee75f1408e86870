"""gnubg's own record of an analysed game, read from its text export (``export match
text``): each decision's marks and figures as gnubg prints them, the oracle the site's
analysis is held to per decision.

gnubg writes one file per game, and in it one section per record of the game: a play
(``* alice moves 13/8 6/3``, ``* bob cannot move``), a double, a take (``accepts``) or a
drop (``rejects``), each with its alerts and its analysis:

- ``Alert: very bad move ( -0.147)``: the play's mark and the equity it lost;
- ``Alert: unlucky roll! ( -0.306)`` and ``Rolled 65 (-0.306):``: the roll's luck;
- ``Alert: wrong pass (-0.563)!`` then `` [very bad]``: a cube decision's error and its
  mark (``missed double`` on a play's record, for the cube decision before its roll); a
  mark without an error is ``Alert: double decision marked bad``;
- ``Cubeful equities:`` (no double, double/pass, double/take, from the doubler's side)
  and the plays listed (``*`` before the play made), with their equities.

The text is gnubg's C exporter's (``text.c``, ``format.c``), not its Python record the
bridge reads, so the two are independent accounts of one analysis.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: A record's first line, and the action of gnubg's record it stands for.
_HEAD = re.compile(r"^\* \S+ (moves .*|cannot move|doubles|accepts|rejects)$", re.M)
_ACTIONS = {"doubles": "double", "accepts": "take", "rejects": "drop"}
_NUMBER = r"([-+]\d+\.\d+)"
_SKILL = r"(very bad|bad|doubtful)"
_PLAY_ALERT = re.compile(rf"^Alert: {_SKILL} move \(\s*{_NUMBER}\)$", re.M)
_LUCK_ALERT = re.compile(r"^Alert: (very lucky|lucky|unlucky|very unlucky) roll!", re.M)
_CUBE_ALERT = re.compile(
    rf"^Alert: (missed double|wrong double|wrong take|wrong pass) \({_NUMBER}\)!\n"
    rf"(?: \[{_SKILL}\]$)?",
    re.M,
)
_CUBE_MARKED = re.compile(rf"^Alert: (?:double|take) decision marked {_SKILL}$", re.M)
_CUBE_OPTION = re.compile(rf"^\d\. (No double|Double, pass|Double, take)\s+{_NUMBER}", re.M)
_ROLLED = re.compile(rf"^Rolled \d\d \({_NUMBER}\):$", re.M)
_LISTED = re.compile(
    rf"^([* ])\s*(\d+\.|\?\?)\s+Cube\w+ \d+-ply\s+(.+?)\s+Eq\.: {_NUMBER}(?: \({_NUMBER}\))?$",
    re.M,
)


@dataclass(frozen=True)
class Listed:
    """One play gnubg lists: its rank (``None`` for the play made, listed last when it
    ranks below those shown), notation and equity; ``made`` for the one played."""

    rank: int | None
    play: str
    equity: float
    made: bool


@dataclass
class TextRecord:
    """What gnubg's text says of one record: ``action`` is ``"move"``, ``"double"``,
    ``"take"`` or ``"drop"``; marks are ``""`` when gnubg gives none; losses are positive
    (gnubg prints them negated), ``None`` when gnubg prints no alert."""

    action: str
    play_mark: str = ""
    play_loss: float | None = None
    luck_mark: str = ""
    luck: float | None = None
    cube_mark: str = ""
    cube_alert: str = ""
    cube_loss: float | None = None
    #: "No double", "Double, pass", "Double, take": from the doubler's side.
    cube: dict[str, float] = field(default_factory=dict)
    plays: list[Listed] = field(default_factory=list)


def parse_game(text: str) -> list[TextRecord]:
    """Each record's section of one game's text export, in the order played."""
    heads = list(_HEAD.finditer(text))
    records = []
    for number, head in enumerate(heads):
        end = heads[number + 1].start() if number + 1 < len(heads) else len(text)
        body = text[head.end() : end]
        verb = head.group(1)
        record = TextRecord(action=_ACTIONS.get(verb, "move"))
        if found := _PLAY_ALERT.search(body):
            record.play_mark, record.play_loss = found.group(1), -float(found.group(2))
        if found := _LUCK_ALERT.search(body):
            record.luck_mark = found.group(1)
        if found := _ROLLED.search(body):
            record.luck = float(found.group(1))
        if found := _CUBE_ALERT.search(body):
            record.cube_alert = found.group(1)
            record.cube_loss = abs(float(found.group(2)))
            record.cube_mark = found.group(3) or ""
        elif found := _CUBE_MARKED.search(body):
            record.cube_mark = found.group(1)
        record.cube = {option: float(value) for option, value in _CUBE_OPTION.findall(body)}
        record.plays = [
            Listed(
                rank=int(rank[:-1]) if rank != "??" else None,
                play=play,
                equity=float(equity),
                made=star == "*",
            )
            for star, rank, play, equity, _ in _LISTED.findall(body)
        ]
        records.append(record)
    return records
