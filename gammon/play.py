"""Plays and their notation: :class:`Step`, :class:`Play`, :func:`legal_plays`,
and standard backgammon notation read leniently and written as GNU Backgammon
writes it.

A ``Play`` and its canonical text live here together, as python-chess keeps
``Move`` beside ``uci()``. Reading text is built on move generation
(:func:`gammon.moves.generate`): the text is turned into the checkers it moves,
and the one legal play that moves them is the answer. The rules therefore live
in one place; this module only explains, when nothing matches, which rule the
text breaks. Imports go one way: ``play`` -> ``moves`` -> ``position``.

The one word for an empty play is ``pass``; localising it is the web layer's job.

>>> from gammon import Color  # a repr names the colour on roll
>>> start = Position.start()
>>> play = Play.from_text(start, (6, 5), "24/13")
>>> play == Play.from_steps(start, [Step(24, 18), Step(18, 13)])
True
>>> eval(repr(play)) == play
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import (
    AmbiguousPlayError,
    BearOffHigherError,
    BlockedPointError,
    IllegalPlayError,
    InvalidNotationError,
    MustEnterError,
    MustMoveError,
    MustPassError,
    MustPlayLargerDieError,
    MustUseBothDiceError,
    NoSuchCheckerError,
    NotAllHomeError,
    WrongDiceError,
)
from .moves import BAR, OFF, generate, played
from .position import Position

__all__ = [
    "PASS",
    "Step",
    "Play",
    "legal_plays",
    "format_steps",
    "format_point",
    "parse_play",
    "played_from",
]

#: The canonical text of the empty play (a turn with no legal move).
PASS = "pass"


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die: ``source`` 25 is the bar, ``dest`` 0 is off.

    >>> Step(25, 22, True)
    Step(25, 22, True)
    """

    source: int
    dest: int
    hit: bool = False

    def __repr__(self) -> str:
        return f"Step({self.source}, {self.dest}, {self.hit})"


class Play:
    """A complete use of a roll: its steps and the position it reaches.

    ``position`` is the board after the steps, still seen from the player who
    moved (the turn has not passed yet); :meth:`next_position` passes it.
    Two plays are equal when they start from the same board and reach the same
    one. The position and the steps are built only when asked for: a caller
    that looks at a few of forty plays pays for those few.

    >>> plays = legal_plays(Position.start(), (3, 1))
    >>> "8/5 6/5" in [str(p) for p in plays]
    True
    >>> plays[0].position.pip_count()
    (163, 167)
    """

    __slots__ = ("origin", "_key", "_path", "_position", "_text")

    def __init__(
        self, origin: Position, key: tuple[int, ...] | None, path: tuple[int, ...]
    ) -> None:
        """Internal: the move generator's raw result. Build plays with :meth:`from_steps`,
        :meth:`from_text`, :meth:`passing` or :func:`legal_plays`."""
        self.origin = origin
        self._key = key
        self._path = path
        self._position: Position | None = None
        self._text: str | None = None

    @classmethod
    def passing(cls, origin: Position) -> Play:
        """The empty play of a turn with no legal move.

        >>> str(Play.passing(Position.start()))
        'pass'
        """
        return cls(origin, (), ())

    @classmethod
    def from_steps(cls, origin: Position, steps: Iterable[Step]) -> Play:
        """The play that makes ``steps`` from ``origin``, in order (the mover's view).

        Each step must move a checker of the player on roll forward onto a point
        the opponent does not hold; whether it hits is read off the board, so a
        step's ``hit`` flag need not be given. This checks the board, not the
        dice: whether the play is legal for a roll is :func:`legal_plays`'s
        question (or use :meth:`from_text`, which answers it).

        >>> start = Position.start()
        >>> str(Play.from_steps(start, [Step(8, 5), Step(6, 5)]))
        '8/5 6/5'
        >>> Play.from_steps(start, [Step(12, 10)])
        Traceback (most recent call last):
        ...
        gammon.errors.NoSuchCheckerError: You have no checker on point 12 to move.
        """
        board = [origin.bar[1], *origin.points, origin.bar[0], origin.off[0]]
        path: list[int] = []
        for step in steps:
            source, dest = step.source, step.dest
            if not (1 <= source <= BAR and OFF <= dest < source):
                raise InvalidNotationError(
                    f"A step goes forward from a point (or the bar) to a lower one, not {step!r}.",
                    token=f"{source}/{dest}",
                )
            if board[source] <= 0:
                if source == BAR:
                    raise NoSuchCheckerError("You have no checker on the bar.", point=source)
                raise NoSuchCheckerError(
                    f"You have no checker on point {source} to move.", point=source
                )
            hit = dest != OFF and board[dest] == -1
            if dest != OFF and board[dest] < -1:
                raise BlockedPointError(
                    f"Point {dest} is blocked: your opponent holds it.", point=dest
                )
            board[source] -= 1
            if dest == OFF:
                board[26] += 1
            elif hit:
                board[dest] = 1
                board[0] += 1
            else:
                board[dest] += 1
            path += (source, dest, hit)
        return cls(origin, tuple(board) if path else (), tuple(path))

    @classmethod
    def from_text(cls, origin: Position, dice: Sequence[int], text: str) -> Play:
        """The one legal play that ``text`` describes for ``dice``: :func:`parse_play`.

        >>> str(Play.from_text(Position.start(), (3, 1), "6/5 8/5"))
        '8/5 6/5'
        """
        return parse_play(origin, dice, text)

    def text(self) -> str:
        """The canonical notation, exactly as gnubg writes it (also ``str(play)``)."""
        return str(self)

    @property
    def steps(self) -> tuple[Step, ...]:
        path = self._path
        return tuple(Step(path[i], path[i + 1], bool(path[i + 2])) for i in range(0, len(path), 3))

    @property
    def position(self) -> Position:
        if self._position is None:
            key = self._key
            if key is None:
                key = self._key = played(self.origin, self._path)
            if not key:
                self._position = self.origin
            else:
                origin = self.origin
                self._position = Position._unchecked(
                    key[1:25], (key[25], key[0]), (key[26], origin.off[1]), origin.turn
                )
        return self._position

    @property
    def is_pass(self) -> bool:
        return not self._path

    @property
    def hits(self) -> int:
        return sum(self._path[2::3])

    def next_position(self) -> Position:
        """The position after this play, with the opponent on roll."""
        return self.position.mirror()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.position == other.position and self.origin == other.origin

    def __hash__(self) -> int:
        return hash((self.position, self.origin))

    def __str__(self) -> str:
        if self._text is None:
            self._text = format_steps(self.origin, self.steps)
        return self._text

    def __repr__(self) -> str:
        """Code that builds this play again: ``eval(repr(play)) == play``."""
        if self.is_pass:
            return f"Play.passing({self.origin!r})"
        steps = ", ".join(repr(step) for step in self.steps)
        return f"Play.from_steps({self.origin!r}, [{steps}])"


def legal_plays(position: Position, dice: Sequence[int]) -> list[Play]:
    """Every legal play for ``dice``; a position with no legal play gives ``[]``.

    Plays reaching the same position appear once.

    >>> len(legal_plays(Position.start(), (3, 1)))
    16
    >>> len(legal_plays(Position.start(), (6, 6)))
    11
    """
    return [Play(position, key, path) for key, path in generate(position, dice)]


def format_point(point: int) -> str:
    """``25`` is the bar and ``0`` is off, as gnubg writes them."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def format_steps(origin: Position, steps: Sequence[Step]) -> str:
    """The canonical text of ``steps`` played from ``origin``, exactly as gnubg prints it.

    This follows gnubg's ``FormatMove``: steps sorted by source point, the
    steps of one checker joined (keeping a point where it hit), identical
    checker paths counted with ``(n)``, and ``*`` after a hit.

    >>> start = Position.start()
    >>> format_steps(start, [Step(8, 5), Step(6, 5)])
    '8/5 6/5'
    >>> format_steps(start, [Step(24, 18), Step(13, 7), Step(24, 18), Step(13, 7)])
    '24/18(2) 13/7(2)'
    >>> format_steps(start, [])
    'pass'
    """
    if not steps:
        return PASS

    def had_opponent(point: int) -> bool:
        return 1 <= point <= 24 and origin.points[point - 1] < 0

    rows = sorted(([s.source, s.dest] for s in steps), key=lambda r: (-r[0], -r[1]))
    alive = [True] * len(rows)
    for i in range(len(rows)):
        for j in range(i, len(rows)):
            if alive[i] and alive[j] and rows[i][-1] == rows[j][0]:
                if had_opponent(rows[i][-1]):
                    rows[i].append(rows[j][-1])
                else:
                    rows[i][-1] = rows[j][-1]
                alive[j] = False
    paths = [row for row, keep in zip(rows, alive, strict=True) if keep]
    counted: list[tuple[list[int], int]] = []
    for path in paths:
        for index, (other, count) in enumerate(counted):
            if other == path:
                counted[index] = (other, count + 1)
                break
        else:
            counted.append((path, 1))

    hit_marked: set[int] = set()
    parts = []
    for path, count in counted:
        text = format_point(path[0])
        for point in path[1:-1]:
            text += f"/{format_point(point)}*"
            hit_marked.add(point)
        dest = path[-1]
        text += f"/{format_point(dest)}"
        if dest and had_opponent(dest) and dest not in hit_marked:
            text += "*"
            hit_marked.add(dest)
        if count > 1:
            text += f"({count})"
        parts.append(text)
    return " ".join(parts)


_POINT = r"(?:bar|b|off|o|\d{1,2})"
_TOKEN = re.compile(rf"^({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?$")


def _read_point(text: str) -> int:
    if text in ("bar", "b"):
        return BAR
    if text in ("off", "o"):
        return OFF
    return int(text)


def _read_paths(text: str) -> list[list[int]]:
    """``"13/7*/1 6/off(2)"`` -> one list of points per checker moved."""
    cleaned = text.strip().lower().replace(",", " ")
    cleaned = re.sub(r"\s*/\s*", "/", cleaned)
    cleaned = re.sub(r"\s+\(", "(", cleaned)
    if not cleaned:
        raise InvalidNotationError("Write a play, such as 24/18 13/11, or pass.")
    paths: list[list[int]] = []
    for token in cleaned.split():
        match = _TOKEN.match(token)
        if not match:
            raise InvalidNotationError(f"'{token}' is not a move.", token=token)
        points = [_read_point(p.rstrip("*")) for p in match.group(1).split("/")]
        count = int(match.group(2) or 1)
        if count < 1 or count > 4:
            raise InvalidNotationError(f"'{token}' is not a move.", token=token)
        if not 1 <= points[0] <= 25 or any(not 0 <= p <= 24 for p in points[1:]):
            raise InvalidNotationError(f"'{token}' names a point that does not exist.", token=token)
        if any(p == OFF for p in points[1:-1]):
            raise InvalidNotationError(f"'{token}' continues after bearing off.", token=token)
        if any(a <= b for a, b in zip(points, points[1:], strict=False)):
            raise InvalidNotationError(f"'{token}' moves a checker backwards.", token=token)
        paths.extend([points] * count)
    if len(paths) > 4 or sum(len(p) - 1 for p in paths) > 4 * 2:
        raise InvalidNotationError("A play moves at most four checkers.")
    return paths


def _my_board(position: Position) -> list[int]:
    """Mine only: index 0 = borne off, 1..24 = points, 25 = bar."""
    return [position.off[0], *(max(n, 0) for n in position.points), position.bar[0]]


def _net_movement(steps: Sequence[Step]) -> list[int]:
    """How many of the mover's checkers each place gains or loses: index 0 = borne off,
    1..24 = points, 25 = bar (the steps' own numbering)."""
    net = [0] * 26
    for step in steps:
        net[step.source] -= 1
        net[step.dest] += 1
    return net


def parse_play(position: Position, dice: Sequence[int], text: str) -> Play:
    """The one legal play that ``text`` describes, or an error naming the rule it breaks.

    Accepts ``bar``/``b``/``25``, ``off``/``0``, optional ``*``, ``(n)``, commas,
    and the moves in any order. A checker passing over a point without naming
    it does not hit there; naming the point (``24/18*/13``) does.

    >>> start = Position.start()
    >>> str(parse_play(start, (3, 1), "6/5, 8/5"))
    '8/5 6/5'
    >>> parse_play(start, (6, 5), "24/18 13/11")
    Traceback (most recent call last):
    ...
    gammon.errors.WrongDiceError: You moved 2 pips, but no die or sum of dice is 2.
    """
    plays = legal_plays(position, dice)
    if text.strip().lower() == PASS:
        if plays:
            raise MustMoveError("You have a legal play, so you cannot pass.")
        return Play.passing(position)
    paths = _read_paths(text)

    for point in sorted({p for path in paths for p in path[1:]}, reverse=True):
        if point != OFF and position.points[point - 1] <= -2:
            raise BlockedPointError(
                f"Point {point} is blocked: your opponent holds it.", point=point
            )
    # The plays that leave the mover's checkers where the text puts them. A play's
    # board is its net movement added to this one, so comparing net movements (from
    # the steps) says the same as comparing boards, without building each play's board.
    wanted = [0] * 26
    for path in paths:
        wanted[path[0]] -= 1
        wanted[path[-1]] += 1
    named = {p for path in paths for p in path[1:]}
    named_hits = {p for p in named if 1 <= p <= 24 and position.points[p - 1] == -1}

    candidates = [p for p in plays if _net_movement(p.steps) == wanted]
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        exact = [p for p in candidates if {s.dest for s in p.steps if s.hit} == named_hits]
        if len(exact) == 1:
            return exact[0]
        raise AmbiguousPlayError(
            "That text fits more than one play: name the point where you hit, e.g. 13/7*/1."
        )
    raise _explain(position, dice, paths, plays, wanted)


def played_from(position: Position, text: str) -> Position:
    """The position a play was made from: ``position`` is the one it reached (the mover's
    view, before the turn passes) and ``text`` its canonical text (:func:`format_steps`).

    Each checker's path is walked back, and each checker hit (a point marked ``*``) is
    put back from the bar on its point. With the position before, :func:`parse_play`
    gives the play's steps without replaying the game that led there. Raises
    ``ValueError`` for a text that cannot have reached ``position``.

    >>> start = Position.start()
    >>> play = parse_play(start, (6, 4), "24/18 13/9")
    >>> hit = parse_play(play.position.mirror(), (6, 1), "13/7* 7/6")
    >>> str(hit)
    '13/7*/6'
    >>> played_from(hit.position, str(hit)) == play.position.mirror()
    True
    """
    if text.strip().lower() == PASS:
        return position
    points = list(position.points)
    bar = list(position.bar)
    off = list(position.off)
    hits: set[int] = set()
    for token in text.split():
        match = _TOKEN.match(token.lower())
        if not match:
            raise ValueError(f"{token!r} is not a move")
        named = match.group(1).split("/")
        path = [_read_point(p.rstrip("*")) for p in named]
        hits.update(point for name, point in zip(named, path, strict=True) if name.endswith("*"))
        count = int(match.group(2) or 1)
        source, dest = path[0], path[-1]
        if dest == OFF:
            off[0] -= count
        else:
            points[dest - 1] -= count
        if source == BAR:
            bar[0] += count
        else:
            points[source - 1] += count
    for point in hits:
        if not 1 <= point <= 24 or points[point - 1] != 0:
            raise ValueError(f"no checker can have been hit on point {point}")
        points[point - 1] = -1
        bar[1] -= 1
    if min(points) < -15 or any(n < 0 for n in (*bar, *off)):
        raise ValueError(f"{text!r} cannot have reached this position")
    return Position(tuple(points), (bar[0], bar[1]), (off[0], off[1]), position.turn)


def _explain(
    position: Position,
    dice: Sequence[int],
    paths: list[list[int]],
    plays: list[Play],
    movement: list[int],
) -> IllegalPlayError:
    """Why no legal play moves the checkers that ``paths`` move (their net ``movement``):
    the first rule broken."""
    d1, d2 = dice[0], dice[1]
    mine = _my_board(position)
    wanted = [have + change for have, change in zip(mine, movement, strict=True)]

    for point in range(1, 26):
        if wanted[point] < 0:
            if point == BAR:
                return NoSuchCheckerError("You have no checker on the bar.", point=point)
            return NoSuchCheckerError(f"You have no checker on point {point} to move.", point=point)

    most = max((len(p.steps) for p in plays), default=0)
    if not most:
        return MustPassError("No legal play is possible with these dice: this turn is a pass.")
    if mine[BAR] and sum(1 for path in paths if path[0] == BAR) < min(mine[BAR], most):
        return MustEnterError("You must enter your checkers from the bar first.")

    dice_left = [d1, d2] if d1 != d2 else [d1] * 4
    blocked = {p for p in range(1, 25) if position.points[p - 1] <= -2}
    used = 0
    for path in paths:
        for source, dest in zip(path, path[1:], strict=False):
            if dest != OFF and dest in blocked:
                return BlockedPointError(
                    f"Point {dest} is blocked: your opponent holds it.", point=dest
                )
            distance = source - dest
            steps = _dice_for(distance, dice_left, bearing_off=dest == OFF)
            if steps is None:
                return WrongDiceError(
                    f"You moved {distance} pips, but no die or sum of dice is {distance}.",
                    pips=distance,
                )
            if dest != OFF and len(steps) > 1 and _all_routes_blocked(source, steps, blocked):
                return BlockedPointError(
                    f"There is no open point on the way from {format_point(source)} to {dest}.",
                    point=dest,
                )
            for die in steps:
                dice_left.remove(die)
            used += len(steps)

    if any(path[-1] == OFF for path in paths):
        outside = [p for p in range(7, 26) if wanted[p] > 0]
        if outside:
            return NotAllHomeError(
                "You can bear off only when all your checkers are in your home board."
            )
        return BearOffHigherError(
            "A die larger than the point bears off only from your highest point."
        )

    if used < most:
        if most == 1 and d1 != d2:
            return MustPlayLargerDieError("Only one die can be played: you must play the larger.")
        return MustUseBothDiceError(
            "You must use both dice." if d1 != d2 else f"You must play {most} moves.",
            required=most,
        )
    if d1 != d2 and most == 1:
        return MustPlayLargerDieError("Only one die can be played: you must play the larger.")
    return IllegalPlayError("That is not a legal play with these dice.")


def _dice_for(distance: int, dice_left: list[int], *, bearing_off: bool) -> list[int] | None:
    """Dice (from those left) that make ``distance``: one die, or several of one double."""
    if not dice_left:
        return None
    if len(set(dice_left)) == 1 or len(dice_left) > 2:
        die = dice_left[0]
        for count in range(1, len(dice_left) + 1):
            if die * count == distance or (bearing_off and die * count > distance):
                return [die] * count
        return None
    for die in sorted(dice_left):
        if die == distance or (bearing_off and die > distance):
            return [die]
    if sum(dice_left) == distance or (bearing_off and sum(dice_left) > distance):
        return sorted(dice_left, reverse=True)
    return None


def _all_routes_blocked(source: int, steps: list[int], blocked: set[int]) -> bool:
    """Whether every order of ``steps`` stops on a blocked point on the way."""
    orders = {tuple(steps), tuple(reversed(steps))}
    for order in orders:
        point = source
        for die in order[:-1]:
            point -= die
            if point in blocked:
                break
        else:
            return False
    return True
