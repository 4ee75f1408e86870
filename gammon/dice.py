"""Dice, behind a tiny interface so that tests can script every throw.

Play uses :class:`SystemDice`, which draws from the operating system's
generator (:class:`secrets.SystemRandom`): a correspondence server must not
hand out rolls that someone could predict from earlier ones. Tests use
:class:`FixedDice`, which replays a script and fails loudly when it runs out,
so a test never silently falls back to chance.

>>> dice = FixedDice([3, 1, 6, 6])
>>> dice.roll()
(3, 1)
>>> dice.roll_one()
6
>>> dice.remaining
1
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from gammon.errors import DiceExhaustedError, InvalidDieError
from gammon.position import Color

__all__ = [
    "Roll",
    "Dice",
    "SystemDice",
    "FixedDice",
    "opening_roll",
]


class Roll(tuple[int, int]):
    """Two dice as a value: the higher first, so ``Roll(3, 6) == Roll(6, 3) == (6, 3)``.

    A ``Roll`` is a tuple, so it goes wherever the engine takes dice
    (:func:`~gammon.play.legal_plays`, :meth:`~gammon.play.Play.from_text`).
    ``str`` gives the usual short form, which :meth:`parse` reads back.

    >>> roll = Roll(3, 6)
    >>> roll, str(roll), roll.high, roll.low, roll.is_double
    (Roll(6, 3), '63', 6, 3, False)
    >>> Roll.parse("5-5").dice
    (5, 5, 5, 5)
    >>> Roll(7, 1)
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidDieError: a die shows 1 to 6, not 7
    """

    __slots__ = ()

    def __new__(cls, first: int, second: int) -> Roll:
        for die in (first, second):
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
                raise InvalidDieError(f"a die shows 1 to 6, not {die!r}")
        return super().__new__(cls, (max(first, second), min(first, second)))

    def __getnewargs__(self) -> tuple[int, int]:
        return (self[0], self[1])

    @classmethod
    def parse(cls, text: str) -> Roll:
        """``"63"``, ``"6-3"``, ``"6 3"`` or ``"3,6"``: two digits from 1 to 6."""
        digits = [c for c in text.strip() if c not in " -,/"]
        if len(digits) != 2 or not all(c in "123456" for c in digits):
            raise InvalidDieError(f"a roll is two dice from 1 to 6, such as 63, not {text!r}")
        return cls(int(digits[0]), int(digits[1]))

    @property
    def high(self) -> int:
        return self[0]

    @property
    def low(self) -> int:
        return self[1]

    @property
    def is_double(self) -> bool:
        return self[0] == self[1]

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice to play: four of one number for a double, else the two."""
        return (self[0],) * 4 if self.is_double else (self[0], self[1])

    def __str__(self) -> str:
        return f"{self[0]}{self[1]}"

    def __repr__(self) -> str:
        return f"Roll({self[0]}, {self[1]})"


@runtime_checkable
class Dice(Protocol):
    """Anything that can throw dice: two at a time, or one for the opening roll."""

    def roll(self) -> tuple[int, int]:
        """Throw both dice, in the order they landed."""
        ...

    def roll_one(self) -> int:
        """Throw a single die (each side throws one for the opening roll)."""
        ...


class SystemDice:
    """Fair dice from the operating system's random source; the default for play.

    >>> dice = SystemDice()
    >>> 1 <= dice.roll_one() <= 6
    True
    >>> all(1 <= d <= 6 for d in dice.roll())
    True
    """

    __slots__ = ("_random",)

    def __init__(self) -> None:
        self._random = secrets.SystemRandom()

    def roll(self) -> tuple[int, int]:
        return self.roll_one(), self.roll_one()

    def roll_one(self) -> int:
        return self._random.randint(1, 6)

    def __repr__(self) -> str:
        return "SystemDice()"


class FixedDice:
    """Scripted dice for tests: each die comes from ``sequence`` in order.

    The script may mix single dice and pairs; pairs are simply read as two
    dice, so ``[(3, 1), 6]`` and ``[3, 1, 6]`` are the same script.

    >>> dice = FixedDice([(5, 2)])
    >>> dice.roll()
    (5, 2)
    >>> dice.roll_one()
    Traceback (most recent call last):
    ...
    gammon.errors.DiceExhaustedError: scripted dice exhausted after 2 dice
    >>> FixedDice([7])
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidDieError: a die shows 1 to 6, not 7
    """

    __slots__ = ("_script", "_used")

    def __init__(self, sequence: Iterable[int | tuple[int, int]]) -> None:
        script: deque[int] = deque()
        for item in sequence:
            for die in item if isinstance(item, tuple) else (item,):
                if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
                    raise InvalidDieError(f"a die shows 1 to 6, not {die!r}")
                script.append(die)
        self._script = script
        self._used = 0

    @property
    def remaining(self) -> int:
        """How many single dice are left in the script."""
        return len(self._script)

    def roll(self) -> tuple[int, int]:
        if len(self._script) < 2:
            raise DiceExhaustedError(
                f"scripted dice exhausted after {self._used} dice "
                f"(a roll needs 2, {len(self._script)} left)"
            )
        return self.roll_one(), self.roll_one()

    def roll_one(self) -> int:
        if not self._script:
            raise DiceExhaustedError(f"scripted dice exhausted after {self._used} dice")
        self._used += 1
        return self._script.popleft()

    def __repr__(self) -> str:
        return f"FixedDice({list(self._script)!r})"


class SeededDice:
    """Reproducible dice for the demo and tests (never for play: they are predictable)."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def roll(self) -> tuple[int, int]:
        return self.roll_one(), self.roll_one()

    def roll_one(self) -> int:
        return self._random.randint(1, 6)


def opening_roll(dice: Dice | None = None) -> tuple[Color, tuple[int, int], int]:
    """Throw for the opening move: each side throws one die, ties throw again.

    White throws first, then Black. Returns ``(first, (white_die, black_die),
    ties)``: the side with the higher die moves first and plays both dice, which
    are returned *as thrown*, White's die first, not sorted by size or by
    winner (a record can then say who threw what). ``ties`` counts the equal
    throws before the decisive one; money sessions with automatic doubles turn
    the cube on them.

    >>> opening_roll(FixedDice([2, 5]))
    (<Color.BLACK: 1>, (2, 5), 0)
    >>> opening_roll(FixedDice([3, 3, 4, 4, 6, 1]))
    (<Color.WHITE: 0>, (6, 1), 2)
    """
    dice = SystemDice() if dice is None else dice
    ties = 0
    while True:
        white, black = dice.roll_one(), dice.roll_one()
        if white != black:
            first = Color.WHITE if white > black else Color.BLACK
            return first, (white, black), ties
        ties += 1
