"""Chouette: one player in the box against a team led by a captain, as pure values.

A chouette is played on one board: the box against the captain, who moves the
team's checkers. What sets it apart lives here: who sits where (:class:`Places`,
from the opening dice or the order players joined), how the places rotate after
a game (:func:`rotate`) or when a player leaves (:func:`leave`), the cube side of
one game (:class:`ChouetteGame`: each member's own stake, the team's unanimous
double, the box's double that each member takes or drops alone), and the
settlement of each member with the box (:func:`settle_game`,
:func:`session_points`). The cube itself (limit, ownership, automatic doubles,
the Jacoby rule, what a drop, a resignation or a time-out scores) is the money
session's, from :mod:`gammon.match`: every member's stake is a :class:`Cube`,
scored by a :class:`MatchState` of its own. The player type is anything
hashable: the service uses user ids.

A game in which the box doubles, one member drops and the team wins a gammon:

>>> places = Places("ann", "bob", ("cy",))
>>> game = ChouetteGame.start(places)
>>> game = game.box_double("ann").answer("bob", take=True).answer("cy", take=False)
>>> game.captain, game.stake("bob"), game.stake("cy"), game.active_players
('bob', 2, 1, ('bob',))
>>> result = settle_game(game, game.team_side, Termination.GAMMON)
>>> result.points
{'ann': -3, 'bob': 4, 'cy': -1}
>>> rotate(places, team_won=result.team_won, captain=game.captain)
Places(box='bob', captain='cy', line=('ann',))

The cases the rules leave open, as decided here:

- **The opening dice.** Everyone throws one die, in the order given; each group
  of tied players throws again among themselves (the higher group first) until
  no two in it tie, as often as needed. Every throw is returned, round by round.
- **Whose result rotates.** That of the captain at the end of the game: after a
  captain drops the box's double, the next taker in line captains the rest of
  the game, and it is that captain who goes into the box (team won) or to the
  end of the line (team lost). Everyone ahead of that captain in line dropped
  (the captain who began, and any who would have followed before the taker):
  they gave up their turn as captain and go to the end of the line too, in line
  order, ahead of the player who leaves the box (team won) or of the last
  captain (team lost). Members behind the last captain keep their places,
  dropped or not.
- **Every member drops.** The game ends and the team has lost; the captain at
  the end is the one who captained when the double came.
- **A drawn game** (or one that settles nothing) leaves the places as they were.
- **A player leaves between games.** Their points stand and the line closes up
  behind them; a captain who leaves is replaced by the first in line; when the
  box leaves, the captain goes into the box and the first in line becomes
  captain. Fewer than 3 players left cannot go on: :class:`ChouetteTooFewError`.
- **The team's vote.** Any member still in the game may propose the double, which
  counts as their agreement; the first refusal closes the vote (the double is
  not offered), and at the deadline a vote not yet unanimous is refused. A
  member alone in the game (the others dropped) doubles on their own say.
- **The box's double.** The answers are resolved together once every member has
  answered, or at the deadline, when a missing answer is a drop: a dropper pays
  the stake they had before the double, the takers own their cubes at the
  doubled stake.
- **A game ended on the board while a vote or a double waits** (a moderator's
  award, a resignation) is settled at the stakes as they stand; the pending
  decision is void.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from gammon.dice import Dice, SystemDice
from gammon.errors import (
    ChouetteAnsweredError,
    ChouetteDroppedError,
    ChouetteError,
    ChouetteGameOverError,
    ChouetteOutOfTurnError,
    ChouettePlayersError,
    ChouetteStageError,
    ChouetteTooFewError,
    MatchOptionError,
    NotChouetteMemberError,
    RulesError,
)
from gammon.match import DEFAULT_CUBE_LIMIT, Cube, MatchState, Outcome, Termination
from gammon.position import Color, Position

__all__ = [
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "Places",
    "Placing",
    "places_from_dice",
    "places_from_order",
    "rotate",
    "leave",
    "ChouetteOptions",
    "Stage",
    "Member",
    "ChouetteGame",
    "MemberSettlement",
    "GameSettlement",
    "settle_game",
    "session_points",
]

#: A chouette has three to eight players: the box and a team of two to seven.
MIN_PLAYERS = 3
MAX_PLAYERS = 8

P = TypeVar("P", bound=Hashable)


def _check_players(players: Sequence[P]) -> None:
    if len(set(players)) != len(players):
        raise ChouettePlayersError("a player can sit only once in a chouette")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ChouettePlayersError(
            f"a chouette has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}"
        )


# Places ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Places(Generic[P]):
    """Who sits where: the box, the team's captain, and the line behind the captain.

    >>> places = Places(1, 2, (3, 4))
    >>> places.team, places.players
    ((2, 3, 4), (1, 2, 3, 4))
    >>> Places(1, 2, (1,))
    Traceback (most recent call last):
    ...
    gammon.errors.ChouettePlayersError: a player can sit only once in a chouette
    """

    box: P
    captain: P
    line: tuple[P, ...] = ()

    def __post_init__(self) -> None:
        _check_players(self.players)

    @property
    def team(self) -> tuple[P, ...]:
        """The team in line order, the captain first."""
        return (self.captain, *self.line)

    @property
    def players(self) -> tuple[P, ...]:
        """Everyone: the box, then the team in line order."""
        return (self.box, self.captain, *self.line)


def _places(order: Sequence[P]) -> Places[P]:
    return Places(order[0], order[1], tuple(order[2:]))


#: One round of opening throws: each player of the round with the die they threw.
Round = tuple[tuple[P, int], ...]


@dataclass(frozen=True, slots=True)
class Placing(Generic[P]):
    """The first game's places and the throws that decided them (none when by joining order)."""

    places: Places[P]
    rounds: tuple[Round[P], ...] = ()


def places_from_order(players: Sequence[P]) -> Placing[P]:
    """Places in the order players joined: the first in the box, the second captain.

    >>> places_from_order(["ann", "bob", "cy", "di"]).places
    Places(box='ann', captain='bob', line=('cy', 'di'))
    """
    _check_players(players)
    return Placing(_places(players))


def places_from_dice(players: Sequence[P], dice: Dice | None = None) -> Placing[P]:
    """Places from one die each: the highest in the box, the next captain, the rest in line.

    Players throw in the order given; tied players throw again among themselves
    only, the higher tie first, as often as it takes. ``rounds`` holds every
    round of throws in the order they were made, for the record.

    >>> from gammon.dice import FixedDice
    >>> placing = places_from_dice(["ann", "bob", "cy", "di"], FixedDice([3, 6, 3, 1, 5, 2]))
    >>> placing.places
    Places(box='bob', captain='ann', line=('cy', 'di'))
    >>> placing.rounds
    ((('ann', 3), ('bob', 6), ('cy', 3), ('di', 1)), (('ann', 5), ('cy', 2)))
    """
    _check_players(players)
    dice = SystemDice() if dice is None else dice
    rounds: list[Round[P]] = []
    return Placing(_places(_rank(tuple(players), dice, rounds)), tuple(rounds))


def _rank(group: tuple[P, ...], dice: Dice, rounds: list[Round[P]]) -> list[P]:
    """``group`` ordered by their throws, ties broken by throwing again among the tied."""
    while True:
        throws = tuple((player, dice.roll_one()) for player in group)
        rounds.append(throws)
        values = sorted({die for _, die in throws}, reverse=True)
        if len(values) > 1:
            break
    order: list[P] = []
    for value in values:
        tied = tuple(player for player, die in throws if die == value)
        order += tied if len(tied) == 1 else _rank(tied, dice, rounds)
    return order


def rotate(places: Places[P], *, team_won: bool | None, captain: P | None = None) -> Places[P]:
    """The places for the next game, after a game the team won or lost.

    ``captain`` is the captain at the end of the game (:attr:`ChouetteGame.captain`),
    by default the one who began it; the members ahead of them in line dropped
    and were deposed. Team lost: the next member captains, the deposed go to the
    end of the line, the box stays. Team won: the captain goes into the box, the
    next member captains, the deposed and then the old box go to the end of the
    line. ``team_won=None`` (a draw) changes nothing.

    >>> places = Places("box", "cap", ("m1", "m2"))
    >>> rotate(places, team_won=False)
    Places(box='box', captain='m1', line=('m2', 'cap'))
    >>> rotate(places, team_won=True)
    Places(box='cap', captain='m1', line=('m2', 'box'))
    >>> rotate(places, team_won=True, captain="m1")     # the captain dropped; m1 took over
    Places(box='m1', captain='m2', line=('cap', 'box'))
    """
    if team_won is None:
        return places
    end = places.captain if captain is None else captain
    team = places.team
    if end not in team:
        raise NotChouetteMemberError(f"{end!r} is not on the team")
    at = team.index(end)
    deposed, behind = team[:at], team[at + 1 :]
    if team_won:
        return _places((end, *behind, *deposed, places.box))
    return _places((places.box, *behind, *deposed, end))


def leave(places: Places[P], player: P) -> Places[P]:
    """The places once ``player`` leaves between games: the line closes up behind them.

    When the box leaves, the captain goes into the box. Fewer than three players
    left cannot go on.

    >>> places = Places("box", "cap", ("m1", "m2"))
    >>> leave(places, "cap")
    Places(box='box', captain='m1', line=('m2',))
    >>> leave(places, "box")
    Places(box='cap', captain='m1', line=('m2',))
    >>> leave(Places("box", "cap", ("m1",)), "m1")
    Traceback (most recent call last):
    ...
    gammon.errors.ChouetteTooFewError: a chouette cannot go on with fewer than 3 players
    """
    if player not in places.players:
        raise NotChouetteMemberError(f"{player!r} is not in this chouette")
    if len(places.players) - 1 < MIN_PLAYERS:
        raise ChouetteTooFewError(f"a chouette cannot go on with fewer than {MIN_PLAYERS} players")
    return _places(tuple(p for p in places.players if p != player))


# Options -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChouetteOptions:
    """The options set when a chouette is created; the cube ones are a money session's.

    >>> ChouetteOptions(max_players=9)
    Traceback (most recent call last):
    ...
    gammon.errors.MatchOptionError: a chouette has 3 to 8 players, not 9
    >>> ChouetteOptions(automatic_doubles=True).money().with_opening_ties(1).cube
    Cube(value=2, owner=None, limit=64)
    """

    max_players: int = MAX_PLAYERS
    cube_limit: int | None = DEFAULT_CUBE_LIMIT
    automatic_doubles: bool = False
    max_automatic_doubles: int = 1
    jacoby: bool = False
    places_from_dice: bool = True

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.max_players <= MAX_PLAYERS:
            raise MatchOptionError(
                f"a chouette has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.max_players}"
            )
        self.money()  # the cube options are checked where the money session checks them

    def money(self, cube: Cube | None = None) -> MatchState:
        """The money session whose cube rules a member's stake follows (a fresh cube by default)."""
        return MatchState(
            cube=Cube(limit=self.cube_limit) if cube is None else cube,
            jacoby=self.jacoby,
            automatic_doubles=self.automatic_doubles,
            max_automatic_doubles=self.max_automatic_doubles,
        )

    def first_places(self, players: Sequence[P], dice: Dice | None = None) -> Placing[P]:
        """The first game's places, by the opening dice or by joining order as chosen.

        >>> ChouetteOptions(max_players=3).first_places([1, 2, 3, 4])
        Traceback (most recent call last):
        ...
        gammon.errors.ChouettePlayersError: this chouette takes at most 3 players, not 4
        """
        if len(players) > self.max_players:
            raise ChouettePlayersError(
                f"this chouette takes at most {self.max_players} players, not {len(players)}"
            )
        if self.places_from_dice:
            return places_from_dice(players, dice)
        return places_from_order(players)


# One game's cube side ------------------------------------------------------------


class Stage(enum.StrEnum):
    """What the cube side of a chouette game waits for."""

    #: Nothing: the board goes on (the captain or the box may roll or double).
    PLAYING = "playing"
    #: The team votes on doubling the box.
    TEAM_VOTE = "team_vote"
    #: The team has doubled: the box takes or drops.
    BOX_ANSWER = "box_answer"
    #: The box has doubled: each member still in the game takes or drops.
    TEAM_ANSWER = "team_answer"
    #: Ended on the cube: the box dropped, or every member did.
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Member(Generic[P]):
    """A team member's seat in one game: their own cube, and when they dropped out.

    ``cube.value`` is the member's stake; once they drop it is what they paid.
    ``dropped_at`` numbers the box's double they dropped (1 for the first).
    """

    player: P
    cube: Cube
    dropped_at: int | None = None

    @property
    def stake(self) -> int:
        return self.cube.value

    @property
    def dropped(self) -> bool:
        return self.dropped_at is not None


@dataclass(frozen=True, slots=True)
class ChouetteGame(Generic[P]):
    """The cube side of one chouette game: members, stakes, and the decision awaited.

    ``members`` are in line order at the start of the game, the captain first;
    the captain is always the first member still in the game. The box plays
    ``box_side`` on the board, the team the other colour; each member's
    :class:`Cube` is owned in those colours, so the captain's can go on the
    board as it is. ``answers`` holds the pending vote's or double's answers so
    far. Every transition returns a new game, or raises a
    :class:`~gammon.errors.ChouetteError` (or the money cube's
    :class:`~gammon.errors.CannotDoubleError`) and changes nothing.

    >>> game = ChouetteGame.start(Places("ann", "bob", ("cy",)))
    >>> game = game.propose_double("cy")
    >>> game.stage, game.awaiting
    (<Stage.TEAM_VOTE: 'team_vote'>, ('bob',))
    >>> game = game.vote("bob", agree=True).box_take("ann")
    >>> game.stage, game.stake("bob"), game.cube_of("cy")
    (<Stage.PLAYING: 'playing'>, 2, Cube(value=2, owner=<Color.WHITE: 0>, limit=64))
    >>> game.propose_double("bob")
    Traceback (most recent call last):
    ...
    gammon.errors.NotCubeOwnerError: only the cube's owner (WHITE) may redouble
    """

    box: P
    members: tuple[Member[P], ...]
    options: ChouetteOptions = ChouetteOptions()
    box_side: Color = Color.WHITE
    stage: Stage = Stage.PLAYING
    answers: tuple[tuple[P, bool], ...] = ()
    box_doubles: int = 0
    winner: Color | None = None

    def __post_init__(self) -> None:
        _check_players((self.box, *(m.player for m in self.members)))
        if (self.stage is Stage.OVER) != (self.winner is not None):
            raise ChouetteError("a game has a winner exactly when it ended on the cube")

    @classmethod
    def start(
        cls,
        places: Places[P],
        options: ChouetteOptions | None = None,
        *,
        opening_ties: int = 0,
        box_side: Color = Color.WHITE,
    ) -> ChouetteGame[P]:
        """A new game for ``places``: every member at the same fresh stake.

        ``opening_ties`` are the equal throws of the box and the captain's opening
        roll, which turn every member's cube as in a money session.

        >>> options = ChouetteOptions(automatic_doubles=True)
        >>> game = ChouetteGame.start(Places(1, 2, (3,)), options, opening_ties=1)
        >>> game.stake(2), game.stake(3)
        (2, 2)
        """
        options = ChouetteOptions() if options is None else options
        cube = options.money().with_opening_ties(opening_ties).cube
        members = tuple(Member(player, cube) for player in places.team)
        return cls(places.box, members, options, box_side)

    # What the game shows -------------------------------------------------------

    @property
    def team_side(self) -> Color:
        """The colour the captain plays for the team."""
        return self.box_side.other

    @property
    def active(self) -> tuple[Member[P], ...]:
        """The members still in the game, in line order."""
        return tuple(m for m in self.members if not m.dropped)

    @property
    def active_players(self) -> tuple[P, ...]:
        return tuple(m.player for m in self.active)

    @property
    def captain(self) -> P:
        """The captain now, or at the end: the first member in line still in the game.

        When every member dropped, the one who captained when the box doubled.
        """
        if self.active:
            return self.active[0].player
        last = max(m.dropped_at or 0 for m in self.members)
        return next(m.player for m in self.members if m.dropped_at == last)

    @property
    def board_cube(self) -> Cube:
        """The cube on the board, box against captain: the captain's."""
        return self.member(self.captain).cube

    @property
    def awaiting(self) -> tuple[P, ...]:
        """Whose answer the cube side waits for: unanswered members, or the box."""
        if self.stage is Stage.BOX_ANSWER:
            return (self.box,)
        if self.stage in (Stage.TEAM_VOTE, Stage.TEAM_ANSWER):
            answered = {player for player, _ in self.answers}
            return tuple(p for p in self.active_players if p not in answered)
        return ()

    def member(self, player: P) -> Member[P]:
        """The member seat of ``player`` in this game."""
        for m in self.members:
            if m.player == player:
                return m
        raise NotChouetteMemberError(f"{player!r} is not on the team in this game")

    def stake(self, player: P) -> int:
        """What ``player`` plays for (or, having dropped, paid) in this game."""
        return self.member(player).stake

    def cube_of(self, player: P) -> Cube:
        return self.member(player).cube

    def can_team_double(self) -> bool:
        """Whether the team may start a vote now (the board says whether they are on roll)."""
        return self._may_double(self.team_side)

    def can_box_double(self) -> bool:
        """Whether the box may double now (the board says whether the box is on roll)."""
        return self._may_double(self.box_side)

    def _may_double(self, side: Color) -> bool:
        return self.stage is Stage.PLAYING and all(m.cube.can_double(side) for m in self.active)

    # Checks ---------------------------------------------------------------------

    def _check_stage(self, *stages: Stage) -> None:
        if self.stage is Stage.OVER:
            raise ChouetteGameOverError("the game is over")
        if self.stage not in stages:
            raise ChouetteStageError(f"the game waits for {self.stage.value}, not this")

    def _check_box(self, by: P) -> None:
        if by != self.box:
            raise ChouetteOutOfTurnError(f"only the box ({self.box!r}) decides this")

    def _check_active(self, by: P) -> None:
        if by == self.box:
            raise ChouetteOutOfTurnError("the box has no say in the team's decisions")
        if self.member(by).dropped:
            raise ChouetteDroppedError(f"{by!r} dropped and is out of this game")

    def _check_unanswered(self, by: P) -> None:
        if any(player == by for player, _ in self.answers):
            raise ChouetteAnsweredError(f"{by!r} has already answered")

    # The team doubles ---------------------------------------------------------------

    def propose_double(self, by: P) -> ChouetteGame[P]:
        """A member proposes that the team double the box; their own vote is yes."""
        self._check_stage(Stage.PLAYING)
        self._check_active(by)
        for m in self.active:
            m.cube.check_double(self.team_side)
        return replace(self, stage=Stage.TEAM_VOTE, answers=()).vote(by, agree=True)

    def vote(self, by: P, *, agree: bool) -> ChouetteGame[P]:
        """A member's vote: one refusal closes the vote; the last yes sends the double.

        >>> game = ChouetteGame.start(Places(1, 2, (3, 4))).propose_double(2)
        >>> game.vote(3, agree=False).stage
        <Stage.PLAYING: 'playing'>
        >>> game.vote(3, agree=True).vote(4, agree=True).stage
        <Stage.BOX_ANSWER: 'box_answer'>
        """
        self._check_stage(Stage.TEAM_VOTE)
        self._check_active(by)
        self._check_unanswered(by)
        if not agree:
            return replace(self, stage=Stage.PLAYING, answers=())
        answers = (*self.answers, (by, True))
        if len(answers) == len(self.active):
            return replace(self, stage=Stage.BOX_ANSWER, answers=())
        return replace(self, answers=answers)

    def close_vote(self) -> ChouetteGame[P]:
        """The vote's deadline: a member who has not answered refuses, so no double."""
        self._check_stage(Stage.TEAM_VOTE)
        return replace(self, stage=Stage.PLAYING, answers=())

    def box_take(self, by: P) -> ChouetteGame[P]:
        """The box takes the team's double: every member's stake doubles, the box owns."""
        self._check_stage(Stage.BOX_ANSWER)
        self._check_box(by)
        members = tuple(
            m if m.dropped else replace(m, cube=m.cube.doubled(self.team_side))
            for m in self.members
        )
        return replace(self, members=members, stage=Stage.PLAYING)

    def box_drop(self, by: P) -> ChouetteGame[P]:
        """The box drops the team's double: the game is over, each member wins their stake."""
        self._check_stage(Stage.BOX_ANSWER)
        self._check_box(by)
        return replace(self, stage=Stage.OVER, winner=self.team_side)

    # The box doubles ------------------------------------------------------------------

    def box_double(self, by: P) -> ChouetteGame[P]:
        """The box doubles every member still in the game; each answers alone."""
        self._check_stage(Stage.PLAYING)
        self._check_box(by)
        for m in self.active:
            m.cube.check_double(self.box_side)
        return replace(self, stage=Stage.TEAM_ANSWER, answers=())

    def answer(self, by: P, *, take: bool) -> ChouetteGame[P]:
        """A member takes or drops the box's double; the last answer settles them all.

        >>> game = ChouetteGame.start(Places(1, 2, (3,))).box_double(1)
        >>> game = game.answer(2, take=False)
        >>> game.awaiting, game.captain
        ((3,), 2)
        >>> game = game.answer(3, take=True)
        >>> game.captain, game.stake(3), game.stake(2), game.member(2).dropped
        (3, 2, 1, True)
        """
        self._check_stage(Stage.TEAM_ANSWER)
        self._check_active(by)
        self._check_unanswered(by)
        game = replace(self, answers=(*self.answers, (by, take)))
        if len(game.answers) == len(self.active):
            return game._resolve_box_double()
        return game

    def close_answers(self) -> ChouetteGame[P]:
        """The deadline of the box's double: a member who has not answered drops."""
        self._check_stage(Stage.TEAM_ANSWER)
        return self._resolve_box_double()

    def _resolve_box_double(self) -> ChouetteGame[P]:
        takes = {player for player, take in self.answers if take}
        number = self.box_doubles + 1

        def answered(m: Member[P]) -> Member[P]:
            if m.dropped:
                return m
            if m.player in takes:
                return replace(m, cube=m.cube.doubled(self.box_side))
            return replace(m, dropped_at=number)

        members = tuple(answered(m) for m in self.members)
        over = not takes
        return replace(
            self,
            members=members,
            stage=Stage.OVER if over else Stage.PLAYING,
            answers=(),
            box_doubles=number,
            winner=self.box_side if over else None,
        )


# Settlement ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MemberSettlement(Generic[P]):
    """One member's account with the box for a game.

    ``outcome`` is scored at the member's own cube, in the board's colours;
    ``points`` is what the box pays the member (negative: what the member pays).
    """

    player: P
    outcome: Outcome
    points: int
    dropped: bool


@dataclass(frozen=True, slots=True)
class GameSettlement(Generic[P]):
    """A game's accounts: each member's with the box, drops included.

    ``winner`` is the colour that won the board (``None`` for a draw).
    """

    box: P
    box_side: Color
    winner: Color | None
    members: tuple[MemberSettlement[P], ...]

    @property
    def team_won(self) -> bool | None:
        """Whether the team won the game (``None`` for a draw), as :func:`rotate` takes it."""
        return None if self.winner is None else self.winner != self.box_side

    @property
    def points(self) -> dict[P, int]:
        """Each player's points for the game, the box's first; they sum to zero."""
        team = {m.player: m.points for m in self.members}
        return {self.box: -sum(team.values()), **team}


def settle_game(
    game: ChouetteGame[P],
    winner: Color | None = None,
    termination: Termination | None = None,
    *,
    position: Position | None = None,
) -> GameSettlement[P]:
    """Settle every member with the box, each at their own stake, as in a money game.

    ``winner`` and ``termination`` say how the board ended (a game ended on the
    cube by a drop, :attr:`Stage.OVER`, needs neither): single, gammon or
    backgammon (the Jacoby rule applied), a resignation (give ``position``: a gammon if
    the resigner bore off none), a time-out (a gammon, as in money play), a
    moderator's award (single), or a draw (nothing). A member who dropped pays
    the box their stake at the drop, whatever the board's end.

    >>> game = ChouetteGame.start(Places("ann", "bob", ("cy", "di")))
    >>> settle_game(game, game.box_side, Termination.BACKGAMMON).points
    {'ann': 9, 'bob': -3, 'cy': -3, 'di': -3}
    >>> settle_game(game, game.team_side, Termination.TIMEOUT).points
    {'ann': -6, 'bob': 2, 'cy': 2, 'di': 2}
    """
    if game.stage is Stage.OVER:
        if (winner is not None and winner != game.winner) or termination not in (
            None,
            Termination.DROP,
        ):
            raise ChouetteStageError("the game ended on the cube, by a drop")
        winner, termination = game.winner, Termination.DROP
    elif termination is None:
        raise ChouetteError("say how the game ended")
    elif termination is Termination.DROP:
        raise ChouetteStageError("a drop ends a chouette game on the cube side, not the board")
    lines = []
    for m in game.members:
        money = game.options.money(m.cube)
        if m.dropped:
            outcome = money.outcome_for_drop(game.box_side)
        else:
            outcome = _score(money, winner, termination, position)
        sign = 0 if outcome.winner is None else 1 if outcome.winner != game.box_side else -1
        lines.append(MemberSettlement(m.player, outcome, sign * outcome.points, m.dropped))
    return GameSettlement(game.box, game.box_side, winner, tuple(lines))


def _score(
    money: MatchState, winner: Color | None, termination: Termination, position: Position | None
) -> Outcome:
    """One member's outcome, by the money session's rule for ``termination``."""
    if termination is Termination.DRAW:
        if winner is not None:
            raise RulesError("a draw has no winner")
        return money.outcome_for_draw()
    if winner is None:
        raise RulesError(f"a game ended by {termination} has a winner")
    if termination in (Termination.SINGLE, Termination.GAMMON, Termination.BACKGAMMON):
        return money.outcome_for_result(winner, termination)
    if termination is Termination.DROP:
        return money.outcome_for_drop(winner)
    if termination is Termination.TIMEOUT:
        return money.outcome_for_timeout(winner.other)
    if termination is Termination.ADJUDICATED:
        return money.outcome_for_adjudication(winner)
    if termination is Termination.RESIGN:
        if position is None:
            raise RulesError("a resignation is scored from the final position")
        return money.outcome_for_resignation(winner.other, position)
    raise ChouetteError(f"a game ended by {termination} settles nothing")


def session_points(settlements: Iterable[GameSettlement[P]]) -> dict[P, int]:
    """A session's running points per player, who has left or not; they sum to zero.

    >>> game = ChouetteGame.start(Places("ann", "bob", ("cy",)))
    >>> first = settle_game(game, game.team_side, Termination.SINGLE)
    >>> game = ChouetteGame.start(Places("bob", "cy", ("ann",)))
    >>> second = settle_game(game, game.box_side, Termination.GAMMON)
    >>> session_points([first, second])
    {'ann': -4, 'bob': 5, 'cy': -1}
    """
    totals: dict[P, int] = {}
    for settlement in settlements:
        for player, points in settlement.points.items():
            totals[player] = totals.get(player, 0) + points
    return totals
