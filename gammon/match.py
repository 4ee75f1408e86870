"""The doubling cube and match scoring, as immutable values.

A game is played inside a :class:`MatchState`: a match to a number of points,
or a money session (length ``0``) that never ends on points. Every operation
returns a new value instead of changing one in place, so the service can store
each state and replay or audit it.

A whole 3-point match in five lines:

>>> m = MatchState(length=3)
>>> m = m.take(Color.WHITE)               # White doubles, Black takes
>>> m.cube
Cube(value=2, owner=<Color.BLACK: 1>, limit=64)
>>> m = m.after_game(m.outcome_for_drop(Color.BLACK))   # Black redoubles, White drops
>>> m.score, m.crawford, m.game_number
((0, 2), True, 2)
>>> m.can_double(Color.WHITE)             # Crawford game: no doubling at all
False
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from gammon.errors import (
    CannotDoubleError,
    CrawfordDoubleError,
    CubeError,
    CubeLimitError,
    DeadCubeError,
    GameNotOverError,
    MatchLengthError,
    MatchOptionError,
    MatchOverError,
    NotCubeOwnerError,
    RulesError,
)
from gammon.position import Color, Position

__all__ = [
    "MAX_MATCH_LENGTH",
    "OFFERED_LENGTHS",
    "DEFAULT_CUBE_LIMIT",
    "Termination",
    "Outcome",
    "Cube",
    "MatchState",
    "RESIGNATION_LEVELS",
    "ResignationOffer",
    "can_lose_backgammon",
    "classify_win",
]

#: Longest match the service plays; ``0`` means a money session.
MAX_MATCH_LENGTH = 25
#: Lengths offered in the "new match" form (odd lengths, as is customary).
OFFERED_LENGTHS: tuple[int, ...] = tuple(range(1, 22, 2))
#: The cube stops here unless a money session sets another limit (or none).
DEFAULT_CUBE_LIMIT = 64


class Termination(enum.StrEnum):
    """How a game, or the match, ended: the one definition (the site stores ``value``).

    A ``StrEnum``, so a member equals its stored text: the web layer's model
    field takes its choices from this enum and compares with it directly.

    >>> Termination.GAMMON == "gammon", Termination("timeout")
    (True, <Termination.TIMEOUT: 'timeout'>)
    """

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    DROP = "drop"
    RESIGN = "resign"
    TIMEOUT = "timeout"
    #: A live clock's reserve ran out and the opponent claimed the win
    #: (:meth:`MatchState.outcome_for_time_claim`): a gammon, or the match.
    TIME_CLAIM = "time_claim"
    #: Both players agreed to end the match without a winner.
    DRAW = "draw"
    #: A moderator awarded the match (or, in a money session, the game) to one player.
    ADJUDICATED = "adjudicated"
    #: Stopped with no result and no score (a moderator's decision, never the rules');
    #: no :class:`Outcome` has it.
    CANCELLED = "cancelled"


#: Cube multiples of the three ways of winning by bearing off.
_MULTIPLIER = {Termination.SINGLE: 1, Termination.GAMMON: 2, Termination.BACKGAMMON: 3}

#: What a resignation offers, by gnubg's numbers (its ``fResigned``): a single game (1),
#: a gammon (2) or a backgammon (3), each worth that many times the cube.
RESIGNATION_LEVELS: dict[int, Termination] = {
    level: termination for termination, level in _MULTIPLIER.items()
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: who won, how, and the points it scores.

    ``winner`` is ``None`` only for a :attr:`Termination.DRAW`.

    >>> Outcome(Color.BLACK, Termination.GAMMON, 4).loser
    <Color.WHITE: 0>
    """

    winner: Color | None
    termination: Termination
    points: int

    def __post_init__(self) -> None:
        if (self.winner is None) != (self.termination is Termination.DRAW):
            raise RulesError("every outcome but a draw has a winner")
        if self.points < 0:
            raise RulesError("an outcome cannot score negative points")

    @property
    def loser(self) -> Color | None:
        return None if self.winner is None else self.winner.other


def _is_power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube: its value, who owns it (``None`` = centred) and its limit.

    ``limit=None`` lets the cube climb without end (money play only, by choice).

    >>> Cube().can_double(Color.BLACK)
    True
    >>> Cube().doubled(Color.BLACK)
    Cube(value=2, owner=<Color.WHITE: 0>, limit=64)
    >>> Cube(2, Color.WHITE).doubled(Color.BLACK)
    Traceback (most recent call last):
    ...
    gammon.errors.NotCubeOwnerError: only the cube's owner (WHITE) may redouble
    >>> Cube(64, Color.BLACK).check_double(Color.BLACK)
    Traceback (most recent call last):
    ...
    gammon.errors.CubeLimitError: the cube cannot go past 64
    """

    value: int = 1
    owner: Color | None = None
    limit: int | None = DEFAULT_CUBE_LIMIT

    def __post_init__(self) -> None:
        if not _is_power_of_two(self.value):
            raise CubeError(f"a cube shows a power of two, not {self.value}")
        if self.limit is not None:
            if not _is_power_of_two(self.limit):
                raise CubeError(f"a cube limit is a power of two, not {self.limit}")
            if self.value > self.limit:
                raise CubeError(f"cube value {self.value} is past the limit {self.limit}")

    @property
    def centred(self) -> bool:
        return self.owner is None

    def check_double(self, player: Color) -> None:
        """Raise the :class:`CannotDoubleError` that forbids ``player`` to double."""
        if self.owner is not None and self.owner != player:
            raise NotCubeOwnerError(f"only the cube's owner ({self.owner.name}) may redouble")
        if self.limit is not None and self.value * 2 > self.limit:
            raise CubeLimitError(f"the cube cannot go past {self.limit}")

    def can_double(self, player: Color) -> bool:
        """Whether ownership and the limit let ``player`` double."""
        try:
            self.check_double(player)
        except CannotDoubleError:
            return False
        return True

    def doubled(self, by: Color) -> Cube:
        """The cube after ``by`` doubles and the opponent takes (and so owns it)."""
        self.check_double(by)
        return Cube(self.value * 2, by.other, self.limit)

    def auto_doubled(self) -> Cube:
        """The cube turned by an opening tie: doubled value, still centred."""
        if self.owner is not None:
            raise CubeError("automatic doubles happen before anyone owns the cube")
        if self.limit is not None and self.value * 2 > self.limit:
            raise CubeLimitError(f"the cube cannot go past {self.limit}")
        return Cube(self.value * 2, None, self.limit)


def classify_win(position: Position) -> tuple[Color, Termination]:
    """Who won a finished game and whether it was a single game, gammon or backgammon.

    The winner is the side with no checker left on the board or the bar. A
    gammon means the loser bore off none; a backgammon also has a loser's
    checker on the bar or in the winner's home board (the winner's points 1-6,
    which are the loser's 19-24). Either side may be on roll.

    >>> won = Position.from_sides({}, {6: 15}, turn=Color.BLACK)
    >>> classify_win(won)
    (<Color.BLACK: 1>, <Termination.GAMMON: 'gammon'>)
    >>> classify_win(Position.from_sides({}, {24: 1, 6: 14}))
    (<Color.WHITE: 0>, <Termination.BACKGAMMON: 'backgammon'>)
    >>> classify_win(Position.from_sides({}, {6: 14}))
    (<Color.WHITE: 0>, <Termination.SINGLE: 'single'>)
    """
    mine = sum(n for n in position.points if n > 0) + position.bar[0]
    theirs = -sum(n for n in position.points if n < 0) + position.bar[1]
    if mine and theirs:
        raise GameNotOverError("both sides still have checkers to bear off")
    if not mine and not theirs:
        raise GameNotOverError("a finished game has checkers left on one side")
    winner = position.turn if not mine else position.turn.other
    board = position.view(winner)
    if board.off[1] > 0:
        return winner, Termination.SINGLE
    if board.bar[1] > 0 or any(n < 0 for n in board.points[:6]):
        return winner, Termination.BACKGAMMON
    return winner, Termination.GAMMON


def can_lose_backgammon(position: Position, player: Color) -> bool:
    """Whether ``player`` could still lose a backgammon: they have borne off no checker,
    and one of theirs is on the bar or in the opponent's home board, or could be sent
    back there (the opponent still has a checker behind one of theirs).

    >>> can_lose_backgammon(Position.start(), Color.WHITE)
    True
    >>> race = Position.from_sides({6: 15}, {6: 15})
    >>> can_lose_backgammon(race, Color.WHITE), can_lose_backgammon(race, Color.BLACK)
    (False, False)
    >>> can_lose_backgammon(Position.from_sides({6: 14, 20: 1}, {6: 15}), Color.WHITE)
    True
    """
    if position.borne_off(player):
        return False
    mine = position.checkers_of(player)  # from the player's side: 19-24 the opponent's home
    theirs = position.checkers_of(player.other)  # from theirs: 25 their bar
    if max(mine) >= 19:
        return True
    # The opponent's furthest checker, in the player's numbering, behind their furthest.
    return bool(theirs) and 25 - max(theirs) < max(mine)


@dataclass(frozen=True, slots=True)
class ResignationOffer:
    """One resignation a player may offer: ``level`` 1, 2 or 3 (a single game, a gammon
    or a backgammon), the ``points`` it gives away at the cube, and whether those end the
    match (in match play, when they are at least the points the opponent needs)."""

    level: int
    points: int
    ends_match: bool

    @property
    def kind(self) -> Termination:
        return RESIGNATION_LEVELS[self.level]


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where a match stands between (or during) games.

    ``crawford`` says the *current* game is the Crawford game; ``post_crawford``
    that the Crawford game has been played, so doubling is allowed again.
    ``jacoby`` and ``automatic_doubles`` are money options only.
    ``automatic_doubles_this_game`` counts the opening ties already applied.

    >>> MatchState(length=26)
    Traceback (most recent call last):
    ...
    gammon.errors.MatchLengthError: a match is 1 to 25 points long (0 for money), not 26
    >>> MatchState(length=5, jacoby=True)
    Traceback (most recent call last):
    ...
    gammon.errors.MatchOptionError: Jacoby and automatic doubles are money options
    """

    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False
    cube: Cube = field(default_factory=Cube)
    jacoby: bool = False
    automatic_doubles: bool = False
    max_automatic_doubles: int = 1
    automatic_doubles_this_game: int = 0
    game_number: int = 1
    winner: Color | None = None
    drawn: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.length, bool) or not 0 <= self.length <= MAX_MATCH_LENGTH:
            raise MatchLengthError(
                f"a match is 1 to {MAX_MATCH_LENGTH} points long (0 for money), not {self.length}"
            )
        if self.money:
            if self.crawford or self.post_crawford:
                raise MatchOptionError("money play has no Crawford game")
        elif self.jacoby or self.automatic_doubles:
            raise MatchOptionError("Jacoby and automatic doubles are money options")
        if min(self.score) < 0:
            raise MatchOptionError("scores cannot be negative")
        if self.max_automatic_doubles < 0 or self.automatic_doubles_this_game < 0:
            raise MatchOptionError("automatic double counts cannot be negative")
        if self.game_number < 1:
            raise MatchOptionError("games are numbered from 1")
        if self.winner is not None and self.drawn:
            raise MatchOptionError("a drawn match has no winner")

    @property
    def money(self) -> bool:
        """A money session: no length, the score just accumulates."""
        return self.length == 0

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.drawn

    def away(self, player: Color) -> int:
        """Points ``player`` still needs to win the match (0 in money play).

        >>> MatchState(length=7, score=(2, 5)).away(Color.BLACK)
        2
        """
        return 0 if self.money else self.length - self.score[player]

    # Doubling -----------------------------------------------------------

    def check_double(self, player: Color) -> None:
        """Raise the :class:`CannotDoubleError` that stops ``player`` doubling now.

        The service checks that ``player`` is on roll and has not rolled yet;
        this checks everything the match knows: Crawford, a dead cube, cube
        ownership and the cube limit.

        >>> m = MatchState(length=5, score=(3, 0), cube=Cube(2, Color.WHITE))
        >>> m.check_double(Color.WHITE)
        Traceback (most recent call last):
        ...
        gammon.errors.DeadCubeError: WHITE wins the match by winning at the cube's 2
        """
        if self.is_over:
            raise MatchOverError("the match is over")
        if self.crawford:
            raise CrawfordDoubleError("no doubling in the Crawford game")
        if not self.money and self.score[player] + self.cube.value >= self.length:
            raise DeadCubeError(
                f"{player.name} wins the match by winning at the cube's {self.cube.value}"
            )
        self.cube.check_double(player)

    def can_double(self, player: Color) -> bool:
        """Whether ``player`` may offer a double (being on roll before rolling)."""
        try:
            self.check_double(player)
        except (CannotDoubleError, MatchOverError):
            return False
        return True

    def take(self, doubler: Color) -> MatchState:
        """The state after ``doubler`` doubles and the opponent takes."""
        self.check_double(doubler)
        return replace(self, cube=self.cube.doubled(doubler))

    def with_opening_ties(self, ties: int) -> MatchState:
        """Turn the cube for opening-roll ties, if automatic doubles are on.

        At most ``max_automatic_doubles`` per game, and never past the cube
        limit; the cube stays centred.

        >>> m = MatchState(automatic_doubles=True).with_opening_ties(2)
        >>> m.cube
        Cube(value=2, owner=None, limit=64)
        >>> MatchState().with_opening_ties(1).cube.value
        1
        """
        if not self.automatic_doubles:
            return self
        state = self
        for _ in range(ties):
            if state.automatic_doubles_this_game >= self.max_automatic_doubles:
                break
            cube = state.cube
            if cube.owner is not None or (cube.limit is not None and cube.value * 2 > cube.limit):
                break
            state = replace(
                state,
                cube=cube.auto_doubled(),
                automatic_doubles_this_game=state.automatic_doubles_this_game + 1,
            )
        return state

    # Scoring ------------------------------------------------------------

    def _scored(self, winner: Color, termination: Termination, multiplier: int) -> Outcome:
        if self.jacoby and self.cube.centred and multiplier > 1:
            multiplier = 1
        return Outcome(winner, termination, multiplier * self.cube.value)

    def outcome_for_win(self, position: Position) -> Outcome:
        """Score a game won by bearing off, from its final position.

        >>> MatchState(cube=Cube(2, Color.WHITE)).outcome_for_win(
        ...     Position.from_sides({}, {6: 15}))
        Outcome(winner=<Color.WHITE: 0>, termination=<Termination.GAMMON: 'gammon'>, points=4)
        >>> MatchState(jacoby=True).outcome_for_win(Position.from_sides({}, {6: 15})).points
        1
        """
        return self.outcome_for_result(*classify_win(position))

    def outcome_for_result(self, winner: Color, termination: Termination) -> Outcome:
        """Score a game borne off as a single game, gammon or backgammon at the cube.

        For a caller that already knows the kind of win (a chouette settles one
        board at each member's own cube); Jacoby applies as in :meth:`outcome_for_win`.

        >>> MatchState(cube=Cube(4, Color.BLACK)).outcome_for_result(
        ...     Color.BLACK, Termination.BACKGAMMON).points
        12
        >>> MatchState().outcome_for_result(Color.BLACK, Termination.DROP)
        Traceback (most recent call last):
        ...
        gammon.errors.RulesError: a game is borne off as single, gammon or backgammon, not drop
        """
        if termination not in _MULTIPLIER:
            raise RulesError(
                f"a game is borne off as single, gammon or backgammon, not {termination}"
            )
        return self._scored(winner, termination, _MULTIPLIER[termination])

    def outcome_for_drop(self, doubler: Color) -> Outcome:
        """The doubler wins the cube's value before the double, no gammons.

        >>> MatchState(cube=Cube(4, Color.BLACK)).outcome_for_drop(Color.BLACK).points
        4
        """
        return Outcome(doubler, Termination.DROP, self.cube.value)

    def outcome_for_resignation(self, resigner: Color, position: Position) -> Outcome:
        """End the game at once: a gammon if the resigner bore off none, else single.

        Jacoby applies as to any gammon.

        >>> start = Position.start()
        >>> MatchState().outcome_for_resignation(Color.BLACK, start).points
        2
        """
        multiplier = 1 if position.borne_off(resigner) > 0 else 2
        return self._scored(resigner.other, Termination.RESIGN, multiplier)

    def resignation_offers(
        self, resigner: Color, position: Position
    ) -> tuple[ResignationOffer, ...]:
        """The resignations ``resigner`` may offer in ``position``, the smallest first.

        Only those that make sense: a gammon while the resigner has borne off nothing and
        gammons count (not with the Jacoby rule and the cube centred), a backgammon while
        one could still be lost (:func:`can_lose_backgammon`); in match play none beyond
        the first that already ends the match, as every bigger one costs the same.

        >>> [o.points for o in MatchState().resignation_offers(Color.WHITE, Position.start())]
        [1, 2, 3]
        >>> offers = MatchState(length=3, score=(0, 1)).resignation_offers(
        ...     Color.WHITE, Position.start())
        >>> [(o.kind.value, o.points, o.ends_match) for o in offers]
        [('single', 1, False), ('gammon', 2, True)]
        >>> MatchState(jacoby=True).resignation_offers(Color.WHITE, Position.start())
        (ResignationOffer(level=1, points=1, ends_match=False),)
        """
        if self.is_over:
            return ()
        levels = [1]
        gammons_count = not (self.money and self.jacoby and self.cube.centred)
        if gammons_count and not position.borne_off(resigner):
            levels.append(2)
            if can_lose_backgammon(position, resigner):
                levels.append(3)
        offers: list[ResignationOffer] = []
        for level in levels:
            if offers and offers[-1].ends_match:
                break
            points = level * self.cube.value
            ends = not self.money and points >= self.away(resigner.other)
            offers.append(ResignationOffer(level, points, ends))
        return tuple(offers)

    def outcome_for_offer(self, resigner: Color, level: int) -> Outcome:
        """A resignation offered by ``resigner`` and accepted: ``level`` (1, 2 or 3)
        times the cube, as gnubg scores it (the Jacoby rule aside: where it applies,
        :meth:`resignation_offers` offers a single game only).

        >>> MatchState(cube=Cube(2, Color.BLACK)).outcome_for_offer(Color.WHITE, 2)
        Outcome(winner=<Color.BLACK: 1>, termination=<Termination.RESIGN: 'resign'>, points=4)
        """
        if level not in RESIGNATION_LEVELS:
            raise RulesError(f"a resignation offers 1, 2 or 3 times the cube, not {level}")
        return Outcome(resigner.other, Termination.RESIGN, level * self.cube.value)

    def outcome_for_timeout(self, loser: Color) -> Outcome:
        """A player ran out of time.

        In match play the opponent wins the whole match and is awarded the
        points still needed. In a money session only the game is lost, scored as
        a gammon at the current cube value, and the session goes on.

        >>> MatchState(length=7, score=(2, 5)).outcome_for_timeout(Color.BLACK).points
        5
        >>> MatchState(cube=Cube(2, Color.WHITE)).outcome_for_timeout(Color.WHITE).points
        4
        """
        winner = loser.other
        points = 2 * self.cube.value if self.money else self.away(winner)
        return Outcome(winner, Termination.TIMEOUT, points)

    def outcome_for_time_claim(self, loser: Color, *, whole_match: bool = False) -> Outcome:
        """``loser``'s live clock ran out and the opponent claimed the win.

        By seed 004's rule a claimed time-out counts as a gammon at the cube, and in a
        match the next game starts. With ``whole_match`` (a match option, as on most live
        sites) it loses the match instead: the opponent is given the points still needed.

        >>> MatchState(length=7, score=(2, 5)).outcome_for_time_claim(Color.BLACK).points
        2
        >>> MatchState(length=7, score=(2, 5)).outcome_for_time_claim(
        ...     Color.BLACK, whole_match=True).points
        5
        """
        winner = loser.other
        points = self.away(winner) if whole_match and not self.money else 2 * self.cube.value
        return Outcome(winner, Termination.TIME_CLAIM, points)

    def outcome_for_draw(self) -> Outcome:
        """An agreed draw: the match ends with no winner and no points."""
        return Outcome(None, Termination.DRAW, 0)

    def outcome_for_adjudication(self, winner: Color) -> Outcome:
        """A moderator awards the match to ``winner``.

        In match play the winner is given the points still needed, so the match ends
        as if played out; in a money session the game is scored as a single game at
        the cube (the caller ends the session).

        >>> MatchState(length=7, score=(2, 5)).outcome_for_adjudication(Color.WHITE).points
        5
        >>> MatchState(cube=Cube(4, Color.BLACK)).outcome_for_adjudication(Color.BLACK).points
        4
        """
        points = self.cube.value if self.money else self.away(winner)
        return Outcome(winner, Termination.ADJUDICATED, points)

    def after_game(self, outcome: Outcome) -> MatchState:
        """The state after a game ends with ``outcome``: new score, next game set up.

        The next game starts with a fresh centred cube (same limit). It is the
        Crawford game if a player has just reached one point from victory for
        the first time; the game after the Crawford game is post-Crawford.

        >>> m = MatchState(length=5, score=(3, 1))
        >>> m = m.after_game(Outcome(Color.WHITE, Termination.SINGLE, 1))
        >>> m.score, m.crawford, m.game_number
        ((4, 1), True, 2)
        >>> m = m.after_game(Outcome(Color.BLACK, Termination.SINGLE, 1))
        >>> m.crawford, m.post_crawford
        (False, True)
        >>> m = m.after_game(Outcome(Color.BLACK, Termination.GAMMON, 4))
        >>> m.score, m.winner, m.is_over
        ((4, 6), <Color.BLACK: 1>, True)
        """
        if self.is_over:
            raise MatchOverError("the match is over")
        if outcome.winner is None:
            return replace(self, drawn=True, crawford=False)
        score = list(self.score)
        score[outcome.winner] += outcome.points
        new_score = (score[0], score[1])
        winner: Color | None = None
        ends_match = (Termination.TIMEOUT, Termination.ADJUDICATED)
        if outcome.termination in ends_match and not self.money:
            winner = outcome.winner
        elif not self.money and new_score[outcome.winner] >= self.length:
            winner = outcome.winner
        crawford = False
        post_crawford = self.post_crawford or self.crawford
        if not self.money and winner is None and not post_crawford:
            crawford = self.length - 1 in new_score
        return replace(
            self,
            score=new_score,
            crawford=crawford,
            post_crawford=post_crawford,
            cube=Cube(1, None, self.cube.limit),
            automatic_doubles_this_game=0,
            game_number=self.game_number + 1 if winner is None else self.game_number,
            winner=winner,
        )
