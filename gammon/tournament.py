"""Tournament pairings as pure values: knock-out brackets, round-robin groups, Swiss rounds.

The service persists brackets, groups and rounds and calls these functions; nothing
here knows about matches being played, only who meets whom and who is ranked where.
The player type is anything hashable (the service uses user ids). Players come in
rating order, best first, wherever a seed is needed; that order is also the last,
deterministic tiebreak of every ranking. Every function returns new values and
raises a :class:`~gammon.errors.TournamentError` subclass on data that cannot be.

A 5-player knock-out: the three top seeds have byes, 4 and 5 play, and 2 v 3 of the
second round can start at once; 1 waits for the winner of 4 v 5:

>>> bracket = knockout_seeding(["ann", "bob", "cy", "di", "ed"])
>>> [(m.slot.round, m.top, m.bottom) for m in bracket.ready({})]
[(1, 'di', 'ed'), (2, 'bob', 'cy')]
>>> [(m.slot.round, m.top, m.bottom) for m in bracket.ready({Slot(1, 1): "ed"})]
[(2, 'ann', 'ed'), (2, 'bob', 'cy')]

A Swiss first round pairs the top half against the bottom half, colours alternating:

>>> standings = swiss_standings([1, 2, 3, 4], [])
>>> swiss_pair(standings, []).pairings
(Pairing(white=1, black=3), Pairing(white=4, black=2))

The cases the rules leave open, as decided here:

- **Knock-out.** The bracket is the next power of two; seeds meet in the standard
  order (1 v 16, 8 v 9, ...), so 1 and 2 can meet only in the final; seeds past the
  field are byes, so the byes fall to the top seeds, never two in one match. The
  top of each match is the winner of the feeding match with the even index (in the
  first round, the better seed). A match is ready as soon as both its players are
  known: nobody waits for the rest of the round.
- **Round-robin.** Everyone plays everyone at once; each player is white in half
  their matches, or one more or one fewer. Groups are filled by snake seeding.
  The ranking: match wins, then head-to-head (wins against the players level on
  match wins, counted once among all of them, not again among those still
  level), then points difference over the group's matches, then the seed.
- **Swiss.** See :func:`swiss_pair` for exactly what a pairing guarantees (no
  repeats, the bye, colours, then as many players as possible paired within their
  score group, from the top), and :func:`swiss_standings` for the tiebreaks. A bye
  scores as a win.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from gammon.errors import (
    BracketError,
    TournamentPlayersError,
    TournamentResultError,
)
from gammon.matching import first_matching, pair_brackets

__all__ = [
    "Pairing",
    "MatchResult",
    "Slot",
    "BracketMatch",
    "Bracket",
    "seeding_order",
    "knockout_seeding",
    "round_robin_pairs",
    "split_groups",
    "GroupStanding",
    "rank_group",
    "SwissRound",
    "SwissStanding",
    "swiss_standings",
    "swiss_pair",
]

P = TypeVar("P", bound=Hashable)


def _check_players(players: Sequence[P], minimum: int = 2) -> None:
    if len(set(players)) != len(players):
        raise TournamentPlayersError("a player can enter a tournament only once")
    if len(players) < minimum:
        raise TournamentPlayersError(f"this needs at least {minimum} players, not {len(players)}")


@dataclass(frozen=True, slots=True)
class Pairing(Generic[P]):
    """Two players to meet, and which of them plays white.

    >>> Pairing("ann", "ann")
    Traceback (most recent call last):
    ...
    gammon.errors.TournamentPlayersError: a player cannot be paired with themselves
    """

    white: P
    black: P

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise TournamentPlayersError("a player cannot be paired with themselves")

    @property
    def players(self) -> tuple[P, P]:
        return (self.white, self.black)


@dataclass(frozen=True, slots=True)
class MatchResult(Generic[P]):
    """One finished tournament match: who won, and the points each scored in it.

    A forfeit or a time-out is a result like any other; the service decides its points.

    >>> MatchResult("ann", "bob", 5, 3).loser
    'bob'
    >>> MatchResult("ann", "bob", -1, 3)
    Traceback (most recent call last):
    ...
    gammon.errors.TournamentResultError: match points cannot be negative
    """

    winner: P
    loser: P
    winner_points: int = 0
    loser_points: int = 0

    def __post_init__(self) -> None:
        if self.winner == self.loser:
            raise TournamentResultError("a player cannot beat themselves")
        if self.winner_points < 0 or self.loser_points < 0:
            raise TournamentResultError("match points cannot be negative")


# Knock-out ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Slot:
    """One match of a bracket: ``round`` from 1 (the first) and ``index`` from 0 (the top).

    Its winner goes to match ``index // 2`` of the next round, on the top side when
    ``index`` is even (:attr:`side` 0) and the bottom side when odd (1).

    >>> Slot(1, 3).side, Slot(0, 0)
    Traceback (most recent call last):
    ...
    gammon.errors.BracketError: no bracket has a match at round 0, index 0
    """

    round: int
    index: int

    def __post_init__(self) -> None:
        if self.round < 1 or self.index < 0:
            raise BracketError(f"no bracket has a match at round {self.round}, index {self.index}")

    @property
    def side(self) -> Literal[0, 1]:
        """Which side of the next match the winner takes: 0 the top, 1 the bottom."""
        return 0 if self.index % 2 == 0 else 1


@dataclass(frozen=True, slots=True)
class BracketMatch(Generic[P]):
    """A match of the bracket whose two players are known and whose winner is not."""

    slot: Slot
    top: P
    bottom: P


def seeding_order(size: int) -> tuple[int, ...]:
    """Seed numbers (1 the best) in bracket order, top to bottom, for a power of two.

    Each first-round match pairs seed ``s`` with ``size + 1 - s``, and the bracket
    is built by halves so that the best two seeds can meet only in the final, the
    best four only in the semi-finals, and so on.

    >>> seeding_order(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    >>> seeding_order(6)
    Traceback (most recent call last):
    ...
    gammon.errors.TournamentPlayersError: a bracket holds a power of two, 2 or more, not 6
    """
    if size < 2 or size & (size - 1):
        raise TournamentPlayersError(f"a bracket holds a power of two, 2 or more, not {size}")
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, mirror - seed)]
    return tuple(order)


#: The players of a match as far as known: top and bottom (``None``: a bye or not yet known).
Sides = tuple[P | None, P | None]
#: A match's top, bottom and winner as far as known.
_Known = tuple[P | None, P | None, P | None]


@dataclass(frozen=True, slots=True)
class Bracket(Generic[P]):
    """A single-elimination bracket of ``seeds`` (best first), its byes and its slots.

    The bracket is ``size`` places wide, the next power of two, over ``rounds``
    rounds; round ``r`` has ``size >> r`` matches. The winners so far are given as
    a mapping of :class:`Slot` to player; the service stores them and asks what is
    ready. A first-round match against a bye is no match: its player goes on at
    once, and it needs no winner (one given must be that player).

    >>> bracket = knockout_seeding(list("ABCDEF"))
    >>> bracket.size, bracket.rounds, bracket.entrants
    (8, 3, ('A', None, 'D', 'E', 'B', None, 'C', 'F'))
    >>> bracket.players(Slot(2, 0), {}), bracket.next_slot(Slot(2, 1)), bracket.seed("D")
    (('A', None), Slot(round=3, index=0), 4)
    >>> bracket.ready({Slot(1, 1): "Z"})
    Traceback (most recent call last):
    ...
    gammon.errors.BracketError: 'Z' did not play in round 1, match 1 ('D' v 'E')
    """

    seeds: tuple[P, ...]

    def __post_init__(self) -> None:
        _check_players(self.seeds)

    @property
    def size(self) -> int:
        return 1 << (len(self.seeds) - 1).bit_length()

    @property
    def rounds(self) -> int:
        return self.size.bit_length() - 1

    @property
    def entrants(self) -> tuple[P | None, ...]:
        """The first round's places, top to bottom: each seed, or ``None`` for a bye."""
        n = len(self.seeds)
        return tuple(self.seeds[s - 1] if s <= n else None for s in seeding_order(self.size))

    def seed(self, player: P) -> int:
        """The player's seed, 1 the best."""
        if player not in self.seeds:
            raise BracketError(f"{player!r} is not in this bracket")
        return self.seeds.index(player) + 1

    def slots(self, round: int | None = None) -> tuple[Slot, ...]:
        """Every match of ``round``, or of the whole bracket round by round, top to bottom."""
        rounds = range(1, self.rounds + 1) if round is None else (round,)
        if round is not None and not 1 <= round <= self.rounds:
            raise BracketError(f"this bracket has rounds 1 to {self.rounds}, not {round}")
        return tuple(Slot(r, i) for r in rounds for i in range(self.size >> r))

    @property
    def final(self) -> Slot:
        return Slot(self.rounds, 0)

    def next_slot(self, slot: Slot) -> Slot | None:
        """The match the winner of ``slot`` goes to, on :attr:`Slot.side`; none after the final."""
        self._check_slot(slot)
        return None if slot.round == self.rounds else Slot(slot.round + 1, slot.index // 2)

    def is_bye(self, slot: Slot) -> bool:
        """Whether ``slot`` is a first-round place against a bye (always the bottom one)."""
        self._check_slot(slot)
        return slot.round == 1 and self.entrants[2 * slot.index + 1] is None

    def players(self, slot: Slot, winners: Mapping[Slot, P]) -> Sides[P]:
        """Who plays ``slot`` as far as ``winners`` tell: top and bottom, ``None`` if not known."""
        self._check_slot(slot)
        return self._resolve(winners)[slot][:2]

    def ready(self, winners: Mapping[Slot, P]) -> tuple[BracketMatch[P], ...]:
        """Every match that can be played now: both players known, no winner yet.

        In slot order. The service creates those it has not created yet, so
        asking twice, or after several matches finish at once, pairs nobody twice.
        """
        return tuple(
            BracketMatch(slot, top, bottom)
            for slot, (top, bottom, winner) in self._resolve(winners).items()
            if top is not None and bottom is not None and winner is None
        )

    def champion(self, winners: Mapping[Slot, P]) -> P | None:
        """The winner of the final, once known."""
        return self._resolve(winners)[self.final][2]

    def _check_slot(self, slot: Slot) -> None:
        if slot.round > self.rounds or slot.index >= self.size >> slot.round:
            raise BracketError(
                f"this bracket has no match at round {slot.round}, index {slot.index}"
            )

    def _resolve(self, winners: Mapping[Slot, P]) -> dict[Slot, _Known[P]]:
        """Every slot's top, bottom and winner, checking each given winner on the way."""
        for slot in winners:
            self._check_slot(slot)
        entrants = self.entrants
        resolved: dict[Slot, _Known[P]] = {}
        for slot in self.slots():
            if slot.round == 1:
                top, bottom = entrants[2 * slot.index], entrants[2 * slot.index + 1]
            else:
                top = resolved[Slot(slot.round - 1, 2 * slot.index)][2]
                bottom = resolved[Slot(slot.round - 1, 2 * slot.index + 1)][2]
            winner = winners.get(slot)
            if slot.round == 1 and bottom is None:  # a bye: its player goes on at once
                if winner is not None and winner != top:
                    raise BracketError(f"{top!r} has a bye in round 1, match {slot.index}")
                winner = top
            elif winner is not None and (top is None or bottom is None):
                raise BracketError(
                    f"round {slot.round}, match {slot.index} has no winner: "
                    "its players are not both known"
                )
            elif winner is not None and winner not in (top, bottom):
                raise BracketError(
                    f"{winner!r} did not play in round {slot.round}, match {slot.index} "
                    f"({top!r} v {bottom!r})"
                )
            resolved[slot] = (top, bottom, winner)
        return resolved


def knockout_seeding(players_by_rating: Sequence[P]) -> Bracket[P]:
    """The bracket for any field of two or more, best-rated first: byes to the top seeds.

    >>> [(m.top, m.bottom) for m in knockout_seeding([1, 2, 3, 4]).ready({})]
    [(1, 4), (2, 3)]
    >>> knockout_seeding([1])
    Traceback (most recent call last):
    ...
    gammon.errors.TournamentPlayersError: this needs at least 2 players, not 1
    """
    return Bracket(tuple(players_by_rating))


# Round-robin ----------------------------------------------------------------------


def round_robin_pairs(players: Sequence[P]) -> tuple[Pairing[P], ...]:
    """Every pair of ``players`` once, each player white in as many as black or one apart.

    Seated round a circle, each player is white against the next ``(n - 1) // 2``
    players clockwise; with an even number, the ``n / 2`` players of the first half
    are also white against the one sitting opposite. In the players' order.

    >>> [pairing.players for pairing in round_robin_pairs(["ann", "bob", "cy"])]
    [('ann', 'bob'), ('cy', 'ann'), ('bob', 'cy')]
    """
    _check_players(players)
    n = len(players)
    pairs: list[Pairing[P]] = []
    for i in range(n):
        for j in range(i + 1, n):
            i_white = 2 * (j - i) <= n  # j sits less than half way round after i, or opposite
            a, b = (players[i], players[j]) if i_white else (players[j], players[i])
            pairs.append(Pairing(a, b))
    return tuple(pairs)


def split_groups(
    players_by_rating: Sequence[P], *, group_size: int | None = None, groups: int | None = None
) -> tuple[tuple[P, ...], ...]:
    """Snake-seeded groups: seeds 1..k one to each group, the next k back the other way, ...

    Give either ``groups`` (how many) or ``group_size`` (the most in one group:
    as few groups as that allows). Group sizes differ by one at most; each group
    lists its players in seed order. No group may have fewer than two.

    >>> split_groups(range(1, 9), groups=3)
    ((1, 6, 7), (2, 5, 8), (3, 4))
    >>> split_groups(range(1, 6), group_size=4)
    ((1, 4, 5), (2, 3))
    >>> split_groups(range(1, 4), group_size=2)
    Traceback (most recent call last):
    ...
    gammon.errors.TournamentPlayersError: 3 players cannot make 2 groups of two or more
    """
    players = tuple(players_by_rating)
    _check_players(players)
    if (group_size is None) == (groups is None):
        raise TypeError("split_groups takes one of group_size and groups")
    if group_size is not None:
        if group_size < 2:
            raise TournamentPlayersError(f"a group holds two players or more, not {group_size}")
        count = -(-len(players) // group_size)
    else:
        assert groups is not None
        count = groups
    if count < 1 or len(players) < 2 * count:
        raise TournamentPlayersError(
            f"{len(players)} players cannot make {count} groups of two or more"
        )
    filled: list[list[P]] = [[] for _ in range(count)]
    for k, player in enumerate(players):
        row, column = divmod(k, count)
        filled[column if row % 2 == 0 else count - 1 - column].append(player)
    return tuple(tuple(group) for group in filled)


@dataclass(frozen=True, slots=True)
class GroupStanding(Generic[P]):
    """One player's line in a round-robin group's table."""

    player: P
    rank: int
    played: int
    wins: int
    head_to_head: int
    points_for: int
    points_against: int

    @property
    def losses(self) -> int:
        return self.played - self.wins

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against


def rank_group(
    players_by_seed: Sequence[P], results: Iterable[MatchResult[P]]
) -> tuple[GroupStanding[P], ...]:
    """The group's table, best first: by match wins, head-to-head, points difference, seed.

    ``head_to_head`` is a player's wins against the players level with them on
    match wins. The group's players come in seed order: players with no result yet
    are ranked too, and the seed breaks the ties nothing else does. A pair may meet
    only once.

    >>> table = rank_group("ABC", [MatchResult("A", "B", 5, 2), MatchResult("B", "C", 5, 4),
    ...                            MatchResult("C", "A", 5, 1)])
    >>> [(row.player, row.wins, row.head_to_head, row.points_difference) for row in table]
    [('C', 1, 1, 3), ('A', 1, 1, -1), ('B', 1, 1, -2)]
    """
    players = tuple(players_by_seed)
    _check_players(players)
    seed = {player: k for k, player in enumerate(players)}
    wins = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    points_for = dict.fromkeys(players, 0)
    points_against = dict.fromkeys(players, 0)
    beaten: dict[P, list[P]] = {player: [] for player in players}
    met: set[frozenset[P]] = set()
    for result in results:
        for player in (result.winner, result.loser):
            if player not in seed:
                raise TournamentResultError(f"{player!r} is not in this group")
        pair = frozenset((result.winner, result.loser))
        if pair in met:
            raise TournamentResultError(
                f"{result.winner!r} and {result.loser!r} meet only once in a group"
            )
        met.add(pair)
        wins[result.winner] += 1
        beaten[result.winner].append(result.loser)
        for player, won, lost in (
            (result.winner, result.winner_points, result.loser_points),
            (result.loser, result.loser_points, result.winner_points),
        ):
            played[player] += 1
            points_for[player] += won
            points_against[player] += lost
    head_to_head = {p: sum(1 for q in beaten[p] if wins[q] == wins[p]) for p in players}
    order = sorted(
        players,
        key=lambda p: (-wins[p], -head_to_head[p], points_against[p] - points_for[p], seed[p]),
    )
    return tuple(
        GroupStanding(
            player=p,
            rank=rank,
            played=played[p],
            wins=wins[p],
            head_to_head=head_to_head[p],
            points_for=points_for[p],
            points_against=points_against[p],
        )
        for rank, p in enumerate(order, start=1)
    )


# Swiss ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SwissRound(Generic[P]):
    """One round of a Swiss: its pairings (board order) and the player with the bye, if any.

    What :func:`swiss_pair` returns; the rounds played so far are its ``history``.

    >>> SwissRound((Pairing(1, 2),), bye=2)
    Traceback (most recent call last):
    ...
    gammon.errors.TournamentResultError: 2 is in this round twice
    """

    pairings: tuple[Pairing[P], ...]
    bye: P | None = None

    def __post_init__(self) -> None:
        seen: set[P] = set()
        for player in self.players:
            if player in seen:
                raise TournamentResultError(f"{player!r} is in this round twice")
            seen.add(player)

    @property
    def players(self) -> tuple[P, ...]:
        """Everyone in the round, the bye last."""
        paired = tuple(p for pairing in self.pairings for p in pairing.players)
        return paired if self.bye is None else (*paired, self.bye)


@dataclass(frozen=True, slots=True)
class SwissStanding(Generic[P]):
    """One player's line in a Swiss table: the score (wins and byes) and its tiebreaks."""

    player: P
    rank: int
    score: int
    wins: int
    losses: int
    byes: int
    buchholz: int
    sonneborn_berger: int


def swiss_standings(
    players_by_rating: Sequence[P], results: Iterable[MatchResult[P]], byes: Iterable[P] = ()
) -> tuple[SwissStanding[P], ...]:
    """The Swiss table, best first: by score, then Buchholz, then Sonneborn-Berger, then seed.

    The score is match wins plus byes (a bye scores a win). Buchholz is the sum of
    the scores of the opponents a player met (a bye adds nothing); Sonneborn-Berger
    the sum of the scores of the opponents they beat. Backgammon matches are never
    drawn, so these are whole numbers. List every player who entered, in rating
    order, even those who withdrew: their scores count in their opponents' tiebreaks.

    >>> table = swiss_standings("ABCD", [MatchResult("A", "C"), MatchResult("D", "B"),
    ...                                  MatchResult("A", "D"), MatchResult("B", "C")])
    >>> [(row.player, row.score, row.buchholz, row.sonneborn_berger) for row in table]
    [('A', 2, 1, 1), ('D', 1, 3, 1), ('B', 1, 1, 0), ('C', 0, 3, 0)]
    """
    players = tuple(players_by_rating)
    _check_players(players, minimum=1)
    seed = {player: k for k, player in enumerate(players)}
    wins = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    bye_count = dict.fromkeys(players, 0)
    opponents: dict[P, list[P]] = {player: [] for player in players}
    beaten: dict[P, list[P]] = {player: [] for player in players}
    for result in results:
        for player in (result.winner, result.loser):
            if player not in seed:
                raise TournamentResultError(f"{player!r} is not in this tournament")
        wins[result.winner] += 1
        losses[result.loser] += 1
        opponents[result.winner].append(result.loser)
        opponents[result.loser].append(result.winner)
        beaten[result.winner].append(result.loser)
    for player in byes:
        if player not in seed:
            raise TournamentResultError(f"{player!r} is not in this tournament")
        bye_count[player] += 1
    score = {p: wins[p] + bye_count[p] for p in players}
    buchholz = {p: sum(score[q] for q in opponents[p]) for p in players}
    berger = {p: sum(score[q] for q in beaten[p]) for p in players}
    order = sorted(players, key=lambda p: (-score[p], -buchholz[p], -berger[p], seed[p]))
    return tuple(
        SwissStanding(
            player=p,
            rank=rank,
            score=score[p],
            wins=wins[p],
            losses=losses[p],
            byes=bye_count[p],
            buchholz=buchholz[p],
            sonneborn_berger=berger[p],
        )
        for rank, p in enumerate(order, start=1)
    )


#: Colours in a Swiss player's history: white and black.
_WHITE, _BLACK = 1, -1


def swiss_pair(
    standings: Sequence[SwissStanding[P]], history: Sequence[SwissRound[P]]
) -> SwissRound[P]:
    """The next Swiss round for the players of ``standings``, in their order: a simplified Dutch.

    ``standings`` are those still playing, best first (from :func:`swiss_standings`,
    leaving out any who withdrew; sorted by score, ties kept in the order given);
    ``history`` the rounds played so far, for who met whom, the colours and the byes.
    What a pairing guarantees, in this order:

    1. **No repeats, everyone paired.** Nobody meets an opponent twice, and
       everyone but the bye is paired. If no such pairing exists at all,
       :class:`~gammon.errors.NoPairingError`. Nothing is found by trial and
       error: a perfect-matching search (Edmonds' blossoms) keeps a pairing of
       everyone still to pair, and every choice below is made only if the rest
       can still be paired, so no choice is ever undone.
    2. **The bye** (an odd number of players) goes to a player with the fewest
       byes so far (nobody has a second bye while someone without one could sit
       out); among them, to the lowest ranked whose absence leaves a pairing
       that keeps rule 3, or failing that any pairing.
    3. **Colours.** A player must have black after a colour difference of +2 or
       more (whites minus blacks) or two whites running, and white the other way
       round. If the round can be paired without two players who must have the
       same colour meeting, it is: then nobody within ±2 goes past it and nobody
       has a colour three times running. Only when every pairing left puts two
       such players together (a small field, late on) does one of them not get
       their due.
    4. **Score groups.** Players level on score form a score group; a group with
       the players floating into it from above is a *bracket*, and the brackets
       are paired from the top. Given the pairs made above it, each bracket
       floats down as few of its players as the round allows (as many as
       possible are paired within it); then, of the sets of that size, one with
       as few as possible of those who floated into it (nobody passes a group
       they could be paired in); then the lowest ranked. Each set is tried in
       that order by one matching search of the whole round: kept if the others
       can pair within the bracket and the floaters with the players below, so
       this is exact, not a guess. (No look further down: a bracket is not paired
       worse to help one below it, as in FIDE's Dutch rules.)
    5. **Dutch order,** within a bracket, for those staying in it: the floaters
       in, best first, each with the best-ranked player of the group they may
       meet. Then the rest of the group is halved: each player of the top half in
       turn takes the first player of the bottom half still free that they may
       meet (1 v n/2+1, 2 v n/2+2, ... when nothing is barred), trying first
       those not due the same colour as they are (both by a must or by a colour
       difference), then the top half's lower players. Those still free pair
       among themselves in order. "May meet" means: not met before, rule 3 kept,
       and the rest of the round still pairable as rule 4 decided.
    6. **Colour allocation.** Each gets the colour due (a must, then the colour
       that evens their difference, then the one they did not have last); when
       both are due the same, the stronger claim wins, then the larger colour
       difference, then the higher ranked. With no history either way (the
       first round), the higher ranked has white on odd boards (1, 3, ...) and
       black on even ones. Boards are in the order of their higher-ranked player.

    Rules 1 to 4 are checked against every possible pairing of fields up to 12
    (``tests/gammon/swiss_oracle.py``). Not done, of the full FIDE Dutch rules:
    the float history (nobody floats two rounds running), the finer order of
    exchanges between the halves, and the colour rule that looks back for the
    last round the two had different colours. It costs one matching search per
    bracket (more only when its first choice of floaters cannot be completed)
    and one per player paired, each linear in the pairs allowed when, as
    usual, a perfect matching is one step away (:mod:`gammon.matching`).

    >>> table = swiss_standings([1, 2, 3, 4, 5], [MatchResult(1, 3), MatchResult(4, 2)], byes=[5])
    >>> round_2 = swiss_pair(table, [SwissRound((Pairing(1, 3), Pairing(4, 2)), bye=5)])
    >>> round_2.pairings, round_2.bye
    ((Pairing(white=4, black=1), Pairing(white=2, black=5)), 3)
    """
    players = [row.player for row in sorted(standings, key=lambda row: -row.score)]
    _check_players(players)
    index = {player: k for k, player in enumerate(players)}
    n = len(players)
    score = [row.score for row in sorted(standings, key=lambda row: -row.score)]
    played: list[set[int]] = [set() for _ in range(n)]
    colours: list[list[int]] = [[] for _ in range(n)]
    byes = [0] * n
    for past in history:
        for pairing in past.pairings:
            white, black = index.get(pairing.white), index.get(pairing.black)
            if white is not None:
                colours[white].append(_WHITE)
            if black is not None:
                colours[black].append(_BLACK)
            if white is not None and black is not None:
                played[white].add(black)
                played[black].add(white)
        if past.bye is not None and past.bye in index:
            byes[index[past.bye]] += 1
    due = [_due(seq) for seq in colours]
    must_white = {v for v in range(n) if due[v][1] == 3 and due[v][0] == _WHITE}
    must_black = {v for v in range(n) if due[v][1] == 3 and due[v][0] == _BLACK}
    strict = [
        played[v] | (must_white if v in must_white else must_black if v in must_black else set())
        for v in range(n)
    ]

    matching, bye = first_matching(n, byes, (strict, played))

    def clash(p: int, q: int) -> bool:
        return due[p][0] == due[q][0] != 0 and min(due[p][1], due[q][1]) >= 2

    pairs = pair_brackets(score, clash, matching.barred, matching)
    pairs.sort(key=min)
    pairings: list[Pairing[P]] = []
    for board, (x, y) in enumerate(pairs):
        white, black = _allocate(x, y, board, due, colours)
        pairings.append(Pairing(players[white], players[black]))
    return SwissRound(tuple(pairings), None if bye is None else players[bye])


def _due(history: Sequence[int]) -> tuple[int, int]:
    """The colour a player is due and how strongly: 3 must, 2 to even the difference,
    1 to alternate, 0 no history (colour 0)."""
    if not history:
        return 0, 0
    difference = sum(history)
    if difference >= 2 or history[-2:] == [_WHITE, _WHITE]:
        return _BLACK, 3
    if difference <= -2 or history[-2:] == [_BLACK, _BLACK]:
        return _WHITE, 3
    if difference:
        return -difference, 2
    return -history[-1], 1


def _allocate(
    x: int, y: int, board: int, due: Sequence[tuple[int, int]], colours: Sequence[Sequence[int]]
) -> tuple[int, int]:
    """White and black of the pair ``x`` (the higher ranked) and ``y``."""
    (cx, sx), (cy, sy) = due[x], due[y]
    if cx == cy == 0:
        return (y, x) if board % 2 else (x, y)
    if cx != cy:
        colour_x = cx if cx else -cy
    else:
        y_wins = (sy, abs(sum(colours[y]))) > (sx, abs(sum(colours[x])))
        colour_x = -cx if y_wins else cx
    return (x, y) if colour_x == _WHITE else (y, x)
