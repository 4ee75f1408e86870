"""A brute-force oracle for a Swiss round: every pairing of the field, judged by the
criteria :func:`gammon.tournament.swiss_pair` promises, in their order (lexicographic:
each compared only among the pairings tied on all before it).

1. **No repeats.** Only pairings of everyone but one bye (none with an even field) in
   which nobody meets an earlier opponent are candidates.
2. **The bye's fewest byes.** The bye goes to a player with the fewest byes so far.
3. **Colour musts.** If some candidate left has no pair of two players who must have the
   same colour (a colour difference of 2 or more, or two of that colour running), only
   those candidates stay.
4. **The lowest bye.** The bye goes to the lowest-ranked player some candidate left gives it.
5. **Score brackets, from the top.** The players, in the order of the standings, form
   score groups; a group with the players floating into it from above is a *bracket*. A
   pair belongs to the bracket of its lower-scored player. For each bracket in turn,
   given the pairs the round made in the brackets above it:

   a. the most of the bracket's players are paired within it (the fewest float down);
   b. then, the most of those floating into it are paired within it (the fewest float
      on, two groups or more).

The oracle computes, for each criterion, the best value any candidate reaches, and the
value of the pairing under test; :func:`check` says which criterion the pairing misses.
Colour allocation is checked on its own (:func:`colour_faults`): a player who must have
a colour has it, unless their opponent must have the same one.

Exhaustive: fields up to 12 (10,395 pairings of twelve).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from gammon.tournament import SwissRound, SwissStanding

Pair = frozenset[int]
P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class Field:
    """A round to pair, as numbers: 0 the best ranked, in the standings' order."""

    players: tuple[object, ...]
    score: tuple[int, ...]
    met: frozenset[Pair]
    byes: tuple[int, ...]
    #: +1 must have white, -1 must have black, 0 neither.
    must: tuple[int, ...]

    @property
    def n(self) -> int:
        return len(self.players)


def field_of(standings: Sequence[SwissStanding[P]], history: Sequence[SwissRound[P]]) -> Field:
    rows = sorted(standings, key=lambda row: -row.score)  # stable: the order given breaks ties
    players = tuple(row.player for row in rows)
    index = {p: k for k, p in enumerate(players)}
    colours: list[list[int]] = [[] for _ in players]
    met: set[Pair] = set()
    byes = [0] * len(players)
    for past in history:
        for pairing in past.pairings:
            white, black = index.get(pairing.white), index.get(pairing.black)
            if white is not None:
                colours[white].append(1)
            if black is not None:
                colours[black].append(-1)
            if white is not None and black is not None:
                met.add(frozenset((white, black)))
        if past.bye is not None and past.bye in index:
            byes[index[past.bye]] += 1
    must = []
    for seq in colours:
        difference = sum(seq)
        if seq and (difference >= 2 or seq[-2:] == [1, 1]):
            must.append(-1)
        elif seq and (difference <= -2 or seq[-2:] == [-1, -1]):
            must.append(1)
        else:
            must.append(0)
    return Field(
        players, tuple(row.score for row in rows), frozenset(met), tuple(byes), tuple(must)
    )


def matchings(people: Sequence[int], met: frozenset[Pair]) -> Iterator[tuple[Pair, ...]]:
    """Every pairing of ``people`` (an even number) with no pair in ``met``."""
    if not people:
        yield ()
        return
    first, rest = people[0], people[1:]
    for k, other in enumerate(rest):
        pair = frozenset((first, other))
        if pair not in met:
            for more in matchings([*rest[:k], *rest[k + 1 :]], met):
                yield (pair, *more)


@dataclass(frozen=True)
class Candidate:
    bye: int | None
    pairs: frozenset[Pair]


def candidates(field: Field) -> list[Candidate]:
    """The candidates left after criteria 1 to 4 (empty: no pairing without a repeat)."""
    everyone = list(range(field.n))
    sitters: list[int | None] = list(everyone) if field.n % 2 else [None]
    found = [
        Candidate(bye, frozenset(pairs))
        for bye in sitters
        for pairs in matchings([p for p in everyone if p != bye], field.met)
    ]
    if not found:
        return []
    if field.n % 2:  # 2. the fewest byes
        fewest = min(field.byes[c.bye] for c in found if c.bye is not None)
        found = [c for c in found if c.bye is not None and field.byes[c.bye] == fewest]
    kept = [c for c in found if not clashes(field, c.pairs)]  # 3. colour musts
    found = kept or found
    if field.n % 2:  # 4. the lowest-ranked bye
        lowest = max(c.bye for c in found if c.bye is not None)
        found = [c for c in found if c.bye == lowest]
    return found


def clashes(field: Field, pairs: frozenset[Pair]) -> int:
    """Pairs of two players who must have the same colour."""
    count = 0
    for pair in pairs:
        a, b = sorted(pair)
        if field.must[a] != 0 and field.must[a] == field.must[b]:
            count += 1
    return count


def brackets(field: Field, pairs: frozenset[Pair]) -> list[tuple[frozenset[int], frozenset[Pair]]]:
    """For each score group from the top, as ``pairs`` make them: its bracket (the
    group's players and those floating into it) and the pairs made above it."""
    values = []
    for s in sorted(set(field.score), reverse=True):
        above = frozenset(p for p in pairs if min(field.score[v] for v in p) > s)
        done = {v for p in above for v in p}
        bracket = frozenset(v for v in range(field.n) if field.score[v] >= s and v not in done)
        values.append((bracket, above))
    return values


def within(
    field: Field, pairs: frozenset[Pair], bracket: frozenset[int], s: int
) -> tuple[int, int]:
    """Criterion 5's value of ``pairs`` for ``bracket`` (of score ``s``): its players
    paired within it, then its floaters (those above ``s``) paired within it."""
    inside = [p for p in pairs if p <= bracket]
    return 2 * len(inside), sum(1 for p in inside for v in p if field.score[v] > s)


def check(
    standings: Sequence[SwissStanding[P]],
    history: Sequence[SwissRound[P]],
    result: SwissRound[P],
) -> str | None:
    """The first criterion ``result`` misses (its number and why), or ``None``."""
    field = field_of(standings, history)
    index = {p: k for k, p in enumerate(field.players)}
    pairs = frozenset(frozenset((index[p.white], index[p.black])) for p in result.pairings)
    bye = None if result.bye is None else index[result.bye]
    if pairs & field.met:
        return "1: a repeat"
    if sorted([v for p in pairs for v in p] + ([] if bye is None else [bye])) != list(
        range(field.n)
    ):
        return "1: not everyone once"
    best = candidates(field)
    if not best:
        return "1: a pairing where none exists"
    if bye is not None:
        fewest = min(field.byes[c.bye] for c in best if c.bye is not None)
        if field.byes[bye] != fewest:
            return f"2: the bye has had {field.byes[bye]}, someone could sit out with {fewest}"
    if clashes(field, pairs) and not clashes(field, best[0].pairs):
        return "3: two players who must have the same colour meet, and need not"
    if bye is not None and bye != best[0].bye:
        return f"4: the bye is #{bye}, #{best[0].bye} could have it"
    scores = sorted(set(field.score), reverse=True)
    for s, (bracket, above) in zip(scores, brackets(field, pairs), strict=True):
        mine = within(field, pairs, bracket, s)
        top = max(within(field, c.pairs, bracket, s) for c in best if above <= c.pairs)
        if mine < top:
            what = "5a: players paired within" if mine[0] < top[0] else "5b: floaters paired within"
            return f"{what} the bracket of score {s}: {mine}, could be {top}"
    return None


def colour_faults(
    standings: Sequence[SwissStanding[P]],
    history: Sequence[SwissRound[P]],
    result: SwissRound[P],
) -> list[str]:
    """Players denied a colour they must have by an opponent who need not have it."""
    field = field_of(standings, history)
    index = {p: k for k, p in enumerate(field.players)}
    faults = []
    for pairing in result.pairings:
        white, black = index[pairing.white], index[pairing.black]
        if field.must[white] == -1 and field.must[black] != -1:
            faults.append(f"{pairing.white} must have black")
        if field.must[black] == 1 and field.must[white] != 1:
            faults.append(f"{pairing.black} must have white")
    return faults
