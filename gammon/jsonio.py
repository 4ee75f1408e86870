"""The JSON-lines interface used to check the engine from outside (``manage.py legalplays``).

One request per line, one answer per line, in order; a bad line is answered
with an error and the next line is read, so one mistake in a long batch costs
one answer, not the batch.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from .play import legal_plays
from .position import Position

__all__ = ["position_from_json", "position_to_json", "answer", "answer_lines"]


def position_from_json(data: dict[str, Any]) -> Position:
    """A position from ``{"points": [24 ints], "bar": [mine, theirs], "off": [mine, theirs]}``.

    Each side must have the same number of checkers: 15, or 3 for Hypergammon.

    >>> p = position_from_json({"points": [-2] + [0] * 22 + [2], "bar": [0, 0], "off": [13, 13]})
    >>> p.pip_count()
    (48, 48)
    """
    points = data.get("points")
    bar = data.get("bar", [0, 0])
    off = data.get("off", [0, 0])
    if not isinstance(points, list) or len(points) != 24:
        raise ValueError("points must be a list of 24 integers")
    for name, value in (("bar", bar), ("off", off)):
        if not isinstance(value, list) or len(value) != 2:
            raise ValueError(f"{name} must be a list of two integers")
    numbers = [*points, *bar, *off]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        raise ValueError("points, bar and off must hold integers")
    position = Position(tuple(points), (bar[0], bar[1]), (off[0], off[1]))
    mine = sum(n for n in points if n > 0) + bar[0] + off[0]
    position.validate(mine if mine in (3, 15) else 15)
    return position


def position_to_json(position: Position) -> dict[str, list[int]]:
    return {
        "points": list(position.points),
        "bar": list(position.bar),
        "off": list(position.off),
    }


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The answer to one request: every legal play with its notation and result."""
    position = position_from_json(request)
    dice = request.get("dice")
    if not isinstance(dice, list) or len(dice) != 2:
        raise ValueError("dice must be a list of two integers from 1 to 6")
    plays = legal_plays(position, (dice[0], dice[1]))
    return {
        "id": request.get("id"),
        "plays": [
            {"notation": str(play), "result": position_to_json(play.position)} for play in plays
        ],
    }


def answer_lines(lines: Iterable[str]) -> Iterator[str]:
    """Answer each line of JSON; blank lines are skipped, bad ones answered with an error."""
    for line in lines:
        if not line.strip():
            continue
        request_id: Any = None
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("each line must be a JSON object")
            request_id = request.get("id")
            result = answer(request)
        except (ValueError, TypeError) as error:
            yield json.dumps({"id": request_id, "error": str(error)})
        else:
            yield json.dumps(result)
