"""GNU Backgammon Position IDs and Match IDs, in both directions, bit for bit.

These short strings are how backgammon players paste positions into forums and
analysis tools, so the service shows them and accepts them.

**Position ID.** gnubg keeps a board as ``anBoard[2][25]``: per side, the
checkers on points 1-24 counted from that side, then the bar. ``anBoard[1]``
is the player on roll and ``anBoard[0]`` the opponent, and the key encodes
``anBoard[0]`` (the opponent) *first*. Each of the 50 slots is written as one
``1`` bit per checker followed by a ``0``; bits fill each byte from the least
significant end; the 10 bytes are written in standard base64 without padding,
14 characters. (Checked against gnubg 1.07 itself, see the tests.)

>>> position_id(Position.start())
'4HPwATDgc/ABMA'
>>> position_from_id('4HPwATDgc/ABMA') == Position.start()
True

**Match ID.** 9 bytes, 12 base64 characters, bits from the least significant
end: cube log2 (4), cube owner (2: player 0 or 1, 3 when centred), player on
roll (1), Crawford game (1), game state (3), player to act (1), double offered
(1), resignation offered (2), dice (3 + 3, higher first), match length (15,
0 for money), scores of player 0 and player 1 (15 each), and bit 66 set when
the Jacoby rule is *off*. White is gnubg's player 0.

>>> key = match_key_from_id('cAngAAAAAAAE')
>>> key.match_length, key.on_roll, key.dice, key.jacoby
(7, <Color.BLACK: 1>, (0, 0), False)
>>> match_id(key)
'cAngAAAAAAAE'
"""

from __future__ import annotations

import base64
import binascii
import enum
import re
from dataclasses import dataclass

from gammon.errors import InvalidIdError
from gammon.position import Color, Position

__all__ = [
    "GameState",
    "MatchKey",
    "position_id",
    "position_from_id",
    "match_id",
    "match_key_from_id",
    "MAX_SCORE",
]

#: gnubg refuses Match IDs with a longer match (its ``MAXSCORE``).
MAX_SCORE = 64

_POSITION_ID = re.compile(r"[A-Za-z0-9+/]{14}")
_MATCH_ID = re.compile(r"[A-Za-z0-9+/]{12}")


# Position ID ------------------------------------------------------------


def _gnubg_board(position: Position) -> tuple[list[int], list[int]]:
    """``(anBoard[0], anBoard[1])``: opponent, then the player on roll."""
    mover = [max(n, 0) for n in position.points] + [position.bar[0]]
    opponent = [max(-n, 0) for n in reversed(position.points)] + [position.bar[1]]
    return opponent, mover


def position_id(position: Position) -> str:
    """The gnubg Position ID of ``position``, seen from its player on roll.

    Borne-off checkers are not encoded, so at most 15 checkers a side fit.

    >>> position_id(Position.from_sides({1: 14, 25: 1}, {6: 15}))
    '4P8PAAD/PwAAQA'
    """
    key = 0
    bit = 0
    for side in _gnubg_board(position):
        if sum(side) > 15:
            raise InvalidIdError("a Position ID holds at most 15 checkers a side")
        for count in side:
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:14]


def position_from_id(pid: str, turn: Color = Color.WHITE, *, checkers: int = 15) -> Position:
    """The position a gnubg Position ID describes, with ``turn`` on roll.

    The ID says nothing about colours, so the caller says who is on roll.
    ``checkers`` (15, or 3 for Hypergammon) gives the borne-off counts. Only
    IDs that gnubg itself could print are accepted: no unused bits set, at
    most ``checkers`` a side, no point held by both sides, and not both sides
    on the bar against closed boards.

    >>> position_from_id('4P8PAAD/PwAAQA').checkers_of(Color.WHITE)
    {1: 14, 25: 1}
    >>> position_from_id('4HPwATDgc/AB')
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidIdError: a Position ID is 14 base64 characters: '4HPwATDgc/AB'
    """
    if not isinstance(pid, str) or not _POSITION_ID.fullmatch(pid):
        raise InvalidIdError(f"a Position ID is 14 base64 characters: {pid!r}")
    try:
        key = int.from_bytes(base64.b64decode(pid + "=="), "little")
    except binascii.Error as error:  # pragma: no cover - the pattern already checked
        raise InvalidIdError(f"not base64: {pid!r}") from error
    sides: list[list[int]] = [[0] * 25, [0] * 25]
    side = slot = 0
    for bit in range(80):
        if key >> bit & 1:
            sides[side][slot] += 1
        else:
            slot += 1
            if slot == 25:
                side, slot = side + 1, 0
                if side == 2:
                    break
    else:
        raise InvalidIdError(f"Position ID {pid!r} has too many checkers")
    opponent, mover = sides
    if sum(opponent) > checkers or sum(mover) > checkers:
        raise InvalidIdError(f"Position ID {pid!r} has more than {checkers} checkers a side")
    if any(mover[i] and opponent[23 - i] for i in range(24)):
        raise InvalidIdError(f"Position ID {pid!r} puts both sides on one point")
    if (
        mover[24]
        and opponent[24]
        and all(n >= 2 for n in mover[:6])
        and all(n >= 2 for n in opponent[:6])
    ):
        raise InvalidIdError(f"Position ID {pid!r} has both sides on the bar, shut out")
    points = tuple(mover[i] - opponent[23 - i] for i in range(24))
    position = Position(
        points,
        (mover[24], opponent[24]),
        (checkers - sum(mover), checkers - sum(opponent)),
        turn,
    )
    if position_id(position) != pid:
        raise InvalidIdError(f"Position ID {pid!r} has stray bits set")
    return position


# Match ID ---------------------------------------------------------------


class GameState(enum.IntEnum):
    """gnubg's ``gamestate``: where the current game is."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


#: (field, first bit, width) of the Match ID, as in gnubg's matchid.c.
_LAYOUT = (
    ("cube_log", 0, 4),
    ("cube_owner", 4, 2),
    ("on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resigned", 13, 2),
    ("die_high", 15, 3),
    ("die_low", 18, 3),
    ("match_length", 21, 15),
    ("score_0", 36, 15),
    ("score_1", 51, 15),
    ("no_jacoby", 66, 1),
)
_CENTRED = 3


@dataclass(frozen=True, slots=True)
class MatchKey:
    """Everything a gnubg Match ID holds, with gnubg's player 0 as White.

    ``on_roll`` is whose turn it is (gnubg's ``fMove``); ``turn`` is who must
    act now (``fTurn``), the opponent while a double or resignation is
    offered. ``resigned`` is 0, or 1/2/3 for a single/gammon/backgammon
    resignation on offer. ``dice`` are ``(0, 0)`` before the roll; gnubg writes
    the higher die first, so they are stored that way. ``match_length`` 0 is
    money play.

    >>> MatchKey(dice=(2, 5)).dice
    (5, 2)
    >>> MatchKey(cube_value=3)
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidIdError: the cube shows a power of two up to 32768, not 3
    """

    cube_value: int = 1
    cube_owner: Color | None = None
    on_roll: Color = Color.WHITE
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: Color = Color.WHITE
    double_offered: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        value = self.cube_value
        if value < 1 or value & (value - 1) or value > 1 << 15:
            raise InvalidIdError(f"the cube shows a power of two up to 32768, not {value}")
        if not 0 <= self.resigned <= 3:
            raise InvalidIdError(f"resignation level is 0 to 3, not {self.resigned}")
        if len(self.dice) != 2 or not all(0 <= d <= 6 for d in self.dice):
            raise InvalidIdError(f"dice show 0 (not rolled) to 6, not {self.dice}")
        if (self.dice[0] == 0) != (self.dice[1] == 0):
            raise InvalidIdError(f"both dice are rolled or neither: {self.dice}")
        if not 0 <= self.match_length <= MAX_SCORE:
            raise InvalidIdError(f"match length is 0 to {MAX_SCORE}, not {self.match_length}")
        limit = self.match_length if self.match_length else (1 << 15) - 1
        if len(self.score) != 2 or not all(0 <= s <= limit for s in self.score):
            raise InvalidIdError(f"scores are 0 to {limit}, not {self.score}")
        if self.crawford and not self.match_length:
            raise InvalidIdError("money play has no Crawford game")
        if self.dice[0] < self.dice[1]:
            object.__setattr__(self, "dice", (self.dice[1], self.dice[0]))


def match_id(key: MatchKey) -> str:
    """The gnubg Match ID of ``key``.

    >>> match_id(MatchKey(on_roll=Color.BLACK, turn=Color.BLACK, match_length=7))
    'cAngAAAAAAAE'
    """
    fields = {
        "cube_log": key.cube_value.bit_length() - 1,
        "cube_owner": _CENTRED if key.cube_owner is None else int(key.cube_owner),
        "on_roll": int(key.on_roll),
        "crawford": int(key.crawford),
        "game_state": int(key.game_state),
        "turn": int(key.turn),
        "double_offered": int(key.double_offered),
        "resigned": key.resigned,
        "die_high": key.dice[0],
        "die_low": key.dice[1],
        "match_length": key.match_length,
        "score_0": key.score[0],
        "score_1": key.score[1],
        "no_jacoby": int(not key.jacoby),
    }
    bits = 0
    for name, start, _width in _LAYOUT:
        bits |= fields[name] << start
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


def match_key_from_id(mid: str) -> MatchKey:
    """The :class:`MatchKey` a gnubg Match ID describes.

    Only IDs gnubg could print are accepted: every field in range and the
    five unused bits clear.

    >>> match_key_from_id('cAkAAAAAAAAA').jacoby
    True
    >>> match_key_from_id('cAkAAAAAAAA')
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidIdError: a Match ID is 12 base64 characters: 'cAkAAAAAAAA'
    """
    if not isinstance(mid, str) or not _MATCH_ID.fullmatch(mid):
        raise InvalidIdError(f"a Match ID is 12 base64 characters: {mid!r}")
    bits = int.from_bytes(base64.b64decode(mid), "little")
    if bits >> 67:
        raise InvalidIdError(f"Match ID {mid!r} has stray bits set")
    f = {name: bits >> start & ((1 << width) - 1) for name, start, width in _LAYOUT}
    if f["cube_owner"] == 2:
        raise InvalidIdError(f"Match ID {mid!r} has no cube owner 2")
    if f["game_state"] > GameState.DROPPED:
        raise InvalidIdError(f"Match ID {mid!r} has an unknown game state {f['game_state']}")
    if f["die_high"] < f["die_low"]:
        raise InvalidIdError(f"Match ID {mid!r} has the lower die first")
    return MatchKey(
        cube_value=1 << f["cube_log"],
        cube_owner=None if f["cube_owner"] == _CENTRED else Color(f["cube_owner"]),
        on_roll=Color(f["on_roll"]),
        crawford=bool(f["crawford"]),
        game_state=GameState(f["game_state"]),
        turn=Color(f["turn"]),
        double_offered=bool(f["double_offered"]),
        resigned=f["resigned"],
        dice=(f["die_high"], f["die_low"]),
        match_length=f["match_length"],
        score=(f["score_0"], f["score_1"]),
        jacoby=not f["no_jacoby"],
    )
