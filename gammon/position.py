"""Immutable backgammon positions, seen from the side of the player on roll.

Two points of view exist, and each type says which it is in:

- :class:`Position` is always **the mover's view**: ``points[i]`` is point
  ``i + 1`` counted by the player on roll (``turn``), whose checkers are
  positive. Move generation then never asks "which way does this colour
  move?": the player on roll always moves from 24 towards 1 and bears off past
  1. :meth:`Position.mirror` hands the board to the other side, which is how a
  turn passes.
- :class:`BoardView` is a board **from one named side** with no one on roll:
  what a record stores (the site keeps every board from White's side) and what
  a page draws for its viewer. :meth:`Position.from_white_view` and
  :meth:`Position.to_white_view` cross between the stored board and the
  engine's; :meth:`Position.view` gives any side's view for drawing.

>>> stored = Position.start(turn=Color.BLACK).to_white_view()
>>> stored.points[23], stored.points[0]       # White's 24 point, and Black's
(2, -2)
>>> Position.from_white_view(stored, turn=Color.BLACK) == Position.start(turn=Color.BLACK)
True
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["Color", "Variant", "Position", "BoardView", "CHECKERS"]


class Color(enum.IntEnum):
    """The two sides. White opens the numbering in records, as gnubg's player 0."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Color:
        return Color(1 - self)


class Variant(enum.Enum):
    """Starting layouts; Hypergammon also changes how many checkers a side has."""

    STANDARD = "standard"
    NACKGAMMON = "nackgammon"
    HYPERGAMMON = "hypergammon"

    @property
    def checkers(self) -> int:
        return CHECKERS[self]


CHECKERS: dict[Variant, int] = {
    Variant.STANDARD: 15,
    Variant.NACKGAMMON: 15,
    Variant.HYPERGAMMON: 3,
}

# Point -> checkers, for one side, seen from that side.
_LAYOUTS: dict[Variant, dict[int, int]] = {
    Variant.STANDARD: {24: 2, 13: 5, 8: 3, 6: 5},
    Variant.NACKGAMMON: {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
    Variant.HYPERGAMMON: {24: 1, 23: 1, 22: 1},
}


class BoardView(NamedTuple):
    """A board seen from one side, with no one on roll: for storing and for drawing.

    ``points[i]`` is that side's point ``i + 1`` (positive: that side's checkers,
    negative: the other's); ``bar`` and ``off`` are ``(that side, the other)``.
    Which side it is seen from is the caller's to know: the site stores boards
    from White's side (:meth:`Position.to_white_view`).

    >>> view = Position.start().view(Color.BLACK)
    >>> view.pip_count(), BoardView.from_dict(view.to_dict()) == view
    ((167, 167), True)
    """

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)

    @classmethod
    def from_dict(cls, data: Mapping[str, Sequence[int]]) -> BoardView:
        """From ``{"points": [24 ints], "bar": [a, b], "off": [a, b]}``, as records store it."""
        bar, off = data["bar"], data["off"]
        return cls(tuple(data["points"]), (bar[0], bar[1]), (off[0], off[1]))

    def to_dict(self) -> dict[str, list[int]]:
        return {"points": list(self.points), "bar": list(self.bar), "off": list(self.off)}

    def pip_count(self) -> tuple[int, int]:
        """Pips to bear off, for ``(the side it is seen from, the other)``."""
        return Position(self.points, self.bar, self.off).pip_count()


@dataclass(frozen=True, slots=True)
class Position:
    """A board with the player on roll to move, in the mover's view.

    ``points[i]`` is point ``i + 1`` counted from the player on roll: a positive
    number is that many of their checkers, a negative one the opponent's.
    ``bar`` and ``off`` are ``(player on roll, opponent)``.

    >>> p = Position.start()
    >>> p.pip_count()
    (167, 167)
    >>> p.mirror().turn
    <Color.BLACK: 1>
    >>> p.mirror().mirror() == p
    True
    """

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    turn: Color = Color.WHITE

    def __post_init__(self) -> None:
        if len(self.points) != 24:
            raise ValueError("a position has 24 points")
        if min(self.bar) < 0 or min(self.off) < 0:
            raise ValueError("bar and borne-off counts cannot be negative")

    @classmethod
    def _unchecked(
        cls, points: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int], turn: Color
    ) -> Position:
        """Build without validation, for the move generator's results (already sound)."""
        position = object.__new__(cls)
        object.__setattr__(position, "points", points)
        object.__setattr__(position, "bar", bar)
        object.__setattr__(position, "off", off)
        object.__setattr__(position, "turn", turn)
        return position

    @classmethod
    def start(cls, variant: Variant = Variant.STANDARD, turn: Color = Color.WHITE) -> Position:
        """The starting position of ``variant`` with ``turn`` on roll."""
        layout = _LAYOUTS[variant]
        points = [0] * 24
        for point, count in layout.items():
            points[point - 1] += count
            points[24 - point] -= count
        return cls(tuple(points), (0, 0), (0, 0), turn)

    @classmethod
    def from_sides(
        cls,
        mine: dict[int, int],
        theirs: dict[int, int],
        *,
        turn: Color = Color.WHITE,
        checkers: int = 15,
    ) -> Position:
        """Build a position from two ``{point: count}`` maps, each from its own side.

        Point 25 is the bar; whatever is missing from ``checkers`` is borne off.

        >>> Position.from_sides({6: 2}, {1: 1}).points[:6]
        (0, 0, 0, 0, 0, 2)
        >>> Position.from_sides({6: 2}, {1: 1}).points[-1]
        -1
        """
        points = [0] * 24
        for point, count in mine.items():
            if 1 <= point <= 24:
                points[point - 1] += count
        for point, count in theirs.items():
            if 1 <= point <= 24:
                points[24 - point] -= count
        bar = (mine.get(25, 0), theirs.get(25, 0))
        off = (checkers - sum(mine.values()), checkers - sum(theirs.values()))
        position = cls(tuple(points), bar, off, turn)
        position.validate(checkers)
        return position

    def __repr__(self) -> str:
        """Code that builds this position again (``eval(repr(p)) == p``), as python-chess does."""
        return (
            f"Position({self.points!r}, bar={self.bar!r}, off={self.off!r}, "
            f"turn=Color.{self.turn.name})"
        )

    def validate(self, checkers: int = 15) -> None:
        """Raise ``ValueError`` unless every checker of each side is accounted for."""
        mine = sum(n for n in self.points if n > 0) + self.bar[0] + self.off[0]
        theirs = -sum(n for n in self.points if n < 0) + self.bar[1] + self.off[1]
        if mine != checkers or theirs != checkers:
            raise ValueError(f"each side must have {checkers} checkers (found {mine} and {theirs})")

    def mirror(self) -> Position:
        """The same board seen from the opponent, who is then on roll."""
        return Position(
            tuple(-n for n in reversed(self.points)),
            (self.bar[1], self.bar[0]),
            (self.off[1], self.off[0]),
            self.turn.other,
        )

    def pip_count(self) -> tuple[int, int]:
        """Pips to bear off, for ``(player on roll, opponent)``."""
        mine = 25 * self.bar[0]
        theirs = 25 * self.bar[1]
        for index, n in enumerate(self.points):
            if n > 0:
                mine += n * (index + 1)
            elif n < 0:
                theirs -= n * (24 - index)
        return mine, theirs

    def checkers_of(self, color: Color) -> dict[int, int]:
        """``{point: count}`` for ``color``, from that side's own numbering (25 = bar)."""
        position = self if color == self.turn else self.mirror()
        result = {i + 1: n for i, n in enumerate(position.points) if n > 0}
        if position.bar[0]:
            result[25] = position.bar[0]
        return result

    @classmethod
    def from_view(cls, view: BoardView, *, side: Color, turn: Color) -> Position:
        """The engine's position (the mover's view) of ``view``, a board from ``side``'s side."""
        position = cls(view.points, view.bar, view.off, side)
        return position if turn == side else position.mirror()

    @classmethod
    def from_white_view(cls, view: BoardView, *, turn: Color) -> Position:
        """The position of a board stored from White's side, with ``turn`` on roll.

        >>> start = Position.start(turn=Color.BLACK)
        >>> Position.from_white_view(start.to_white_view(), turn=Color.BLACK) == start
        True
        """
        return cls.from_view(view, side=Color.WHITE, turn=turn)

    def view(self, side: Color) -> BoardView:
        """This board from ``side``'s side, whoever is on roll: to store it or to draw it."""
        position = self if side == self.turn else self.mirror()
        return BoardView(position.points, position.bar, position.off)

    def to_white_view(self) -> BoardView:
        """This board from White's side, as the site stores it (whoever is on roll)."""
        return self.view(Color.WHITE)

    def borne_off(self, color: Color) -> int:
        return self.off[0] if color == self.turn else self.off[1]
