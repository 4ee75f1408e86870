"""Pairing players who may meet, exactly: a perfect-matching search (Edmonds' blossoms),
and a Swiss round's score brackets paired on it, for :func:`gammon.tournament.swiss_pair`.

Players are the numbers ``0 .. n-1``, best ranked first; ``barred[v]`` holds those ``v``
may not meet. Every choice below is made only if the search says the rest of the round
can still be paired, so nothing is found by trial and error and no choice is undone.

>>> barred = [{1}, {0}, set(), set()]  # 0 and 1 have met
>>> matching = Matching(4, barred)
>>> matching.maximise(), matching.take(0, 1), matching.take(0, 2)
(0, False, True)
>>> pair_brackets([1, 1, 0, 0], lambda p, q: False, barred, matching)
[(1, 3)]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence

from gammon.errors import NoPairingError

__all__ = ["Matching", "first_matching", "pair_brackets"]

#: Where a player stands while a bracket is paired: in it and staying, floating down out
#: of it, below it, or in it and not decided yet. Who may meet whom then (on top of
#: ``barred``).
_STAY, _OUT, _BELOW, _EITHER = 0, 1, 2, 3
_ZONES_MEET = {
    (_STAY, _STAY),
    (_OUT, _BELOW),
    (_BELOW, _BELOW),
    (_EITHER, _STAY),
    (_EITHER, _EITHER),
    (_EITHER, _BELOW),
}
_ZONES_MEET |= {(b, a) for a, b in _ZONES_MEET}
_MEET = [[(a, b) in _ZONES_MEET for b in range(4)] for a in range(4)]


class Matching:
    """A maximum matching of the players still to pair (``alive``), kept as pairs are taken.

    ``barred[v]`` are the players ``v`` may not meet; ``zone`` (optional), a bracket's
    split of the players (:data:`_STAY`, :data:`_OUT`, :data:`_BELOW`), bars more: those
    staying meet only each other, those floating out only those below. Edmonds' blossom
    search finds an augmenting path, so "can the rest still be paired?" is answered exactly.
    """

    def __init__(
        self,
        n: int,
        barred: Sequence[set[int]],
        alive: Iterable[int] | None = None,
        zone: Sequence[int] | None = None,
    ) -> None:
        self.n = n
        self.barred = barred
        self.alive: set[int] = set(range(n)) if alive is None else set(alive)
        self.zone = zone
        self.mate = [-1] * n
        #: Each player's allowed opponents among ``alive``, as far as asked (until it changes).
        self._near: dict[int, list[int]] = {}
        self._order: list[int] = []

    def _allowed(self, v: int, u: int) -> bool:
        if u == v or u in self.barred[v]:
            return False
        return self.zone is None or _MEET[self.zone[v]][self.zone[u]]

    def _neighbours(self, v: int) -> list[int]:
        near = self._near.get(v)
        if near is None:
            if not self._order:
                self._order = sorted(self.alive)
            near = self._near[v] = [u for u in self._order if self._allowed(v, u)]
        return near

    def _set_alive(self, players: Iterable[int], alive: bool) -> None:
        if alive:
            self.alive.update(players)
        else:
            self.alive.difference_update(players)
        self._near.clear()
        self._order = []

    def maximise(self, seed: Sequence[int] = (), *, perfect: bool = False) -> int:
        """Make the matching maximum, starting from the pairs of ``seed`` (a mate list)
        that are still allowed; return how many players it leaves unmatched. With
        ``perfect``, stop at the first player left unmatched (and return 1): the
        question was only whether everyone can be."""
        mate, alive = self.mate, sorted(self.alive)
        for v in alive:
            u = seed[v] if seed else -1
            if mate[v] == -1 and u > v and u in self.alive and self._allowed(v, u):
                mate[v], mate[u] = u, v
        for v in alive:
            if mate[v] == -1:
                for u in self._neighbours(v):
                    if mate[u] == -1:
                        mate[v], mate[u] = u, v
                        break
        for v in alive:
            if mate[v] == -1 and not self._augment(v) and perfect:
                return 1
        return sum(1 for v in self.alive if mate[v] == -1)

    def take(self, p: int, q: int) -> bool:
        """Pair ``p`` with ``q`` if the rest can still be perfectly matched; else change nothing."""
        if not self._allowed(p, q):
            return False
        mate = self.mate
        if mate[p] == q:
            self._set_alive((p, q), False)
            return True
        a, b = mate[p], mate[q]
        self._set_alive((p, q), False)
        mate[a] = mate[b] = -1
        if self._allowed(a, b):
            mate[a], mate[b] = b, a
            return True
        if self._augment(a):
            return True
        self._set_alive((p, q), True)
        mate[p], mate[a], mate[q], mate[b] = a, p, b, q
        return False

    def drop(self, c: int) -> bool:
        """Leave ``c`` out (the bye) if the rest can still be perfectly matched; else no change."""
        mate = self.mate
        self._set_alive((c,), False)
        a = mate[c]
        if a == -1:
            return True
        mate[a] = mate[c] = -1
        if self._augment(a):
            return True
        self._set_alive((c,), True)
        mate[a], mate[c] = c, a
        return False

    def _augment(self, root: int) -> bool:
        """Grow the matching by an augmenting path from the unmatched ``root``, if one exists."""
        mate, alive = self.mate, self.alive
        parent = [-1] * self.n
        base = list(range(self.n))
        used = [False] * self.n
        used[root] = True
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            seen = [False] * self.n
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark(v: int, stem: int, child: int, blossom: list[bool]) -> None:
            while base[v] != stem:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in self._neighbours(v):
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    stem = lca(v, to)
                    blossom = [False] * self.n
                    mark(v, stem, to, blossom)
                    mark(to, stem, v, blossom)
                    for u in alive:
                        if blossom[base[u]]:
                            base[u] = stem
                            if not used[u]:
                                used[u] = True
                                queue.append(u)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        while to != -1:
                            back = parent[to]
                            onward = mate[back]
                            mate[to], mate[back] = back, to
                            to = onward
                        return True
                    used[mate[to]] = True
                    queue.append(mate[to])
        return False


def first_matching(
    n: int, byes: Sequence[int], graphs: Sequence[Sequence[set[int]]]
) -> tuple[Matching, int | None]:
    """A perfect matching of everyone but the bye, in the first graph of ``graphs`` that has one.

    ``graphs`` give each player's barred opponents, strictest first. With an odd
    number, the bye is chosen first: the fewest byes, then the strictest graph, then
    the lowest ranked.
    """
    matchings: list[Matching | None] = []
    for barred in graphs:
        matching = Matching(n, barred)
        free = matching.maximise()
        matchings.append(matching if free == n % 2 else None)
    if n % 2 == 0:
        for found in matchings:
            if found is not None:
                return found, None
        raise NoPairingError("every pairing of this round repeats a pairing of an earlier one")
    for fewest in sorted(set(byes)):
        for found in matchings:
            if found is None:
                continue
            for candidate in reversed(range(n)):
                if byes[candidate] == fewest and found.drop(candidate):
                    return found, candidate
    raise NoPairingError("every pairing of this round repeats a pairing of an earlier one")


def pair_brackets(
    score: Sequence[int],
    clash: Callable[[int, int], bool],
    barred: Sequence[set[int]],
    matching: Matching,
) -> list[tuple[int, int]]:
    """The pairs of the players ``matching`` holds (a perfect matching of them), score
    group by score group from the top.

    A group with the players floating into it from above is a bracket. First, who floats
    down out of it: the fewest players possible, then the fewest of those who floated
    into it, then the lowest ranked (:func:`_floating_out`). Then the bracket is paired
    within itself: the floaters in, best first, each with the best-ranked player they
    may meet (of the group, then of the floaters); the rest of the group halved, each of
    the top half in turn taking the first of the bottom half still free that they may
    meet, those not clashing in colour (``clash``) first, then the top half's lower
    players; whoever is still free pairs in order. "May meet": not barred, and the rest
    of the round still pairable with this bracket's floaters out, the others within it.
    """
    n = matching.n
    unpaired = set(matching.alive)
    seed = list(matching.mate)
    pairs: list[tuple[int, int]] = []
    groups: dict[int, list[int]] = {}
    for v in sorted(unpaired):
        groups.setdefault(score[v], []).append(v)
    incoming: list[int] = []
    for group in groups.values():
        bracket = [*incoming, *group]
        inside = _floating_out(n, bracket, set(incoming), unpaired, barred, seed)
        staying = [v for v in bracket if v not in inside.out]
        pairs += _pair_bracket(
            [v for v in incoming if v not in inside.out],
            [v for v in group if v not in inside.out],
            clash,
            inside.matching,
        )
        unpaired.difference_update(staying)
        seed = list(inside.matching.mate)
        incoming = sorted(inside.out)
    return pairs


class _Bracket:
    """A bracket's players floating down (``out``), and a matching of the round's
    players still to pair in which the others pair within the bracket."""

    def __init__(self, out: set[int], matching: Matching) -> None:
        self.out = out
        self.matching = matching


def _floating_out(
    n: int,
    bracket: Sequence[int],
    incoming: set[int],
    unpaired: set[int],
    barred: Sequence[set[int]],
    seed: Sequence[int],
) -> _Bracket:
    """Who floats down out of ``bracket``: the fewest players such that the others can
    pair within it and the floaters with those below; of those sets, the one with the
    fewest players who floated into it; then the lowest ranked, those who floated in
    first (each set compared from its lowest player up).

    A depth-first search over the bracket's players, lowest first, each floating or
    staying. A branch is followed only while a matching search says the round can still
    be paired with those decided so far floating or staying (the undecided may do
    either), and no more players than wanted must float: the first set it completes is
    the one wanted, and whole branches of sets that cannot work are never tried."""
    search = _FloatSearch(n, bracket, incoming, unpaired, barred, seed)
    floaters = sorted(incoming, reverse=True)
    least = search.least_floating(set())
    for size in range(least, min(len(bracket), len(search.below)) + 1, 2):
        for passing in range(min(size, len(floaters)) + 1):
            found = search.first(size, passing)
            if found is not None:
                return found
    raise NoPairingError("no pairing found")  # pragma: no cover - the round is pairable


class _FloatSearch:
    """The search of :func:`_floating_out` for one bracket."""

    def __init__(
        self,
        n: int,
        bracket: Sequence[int],
        incoming: set[int],
        unpaired: set[int],
        barred: Sequence[set[int]],
        seed: Sequence[int],
    ) -> None:
        self.n, self.barred, self.seed = n, barred, seed
        self.bracket, self.incoming, self.unpaired = set(bracket), incoming, unpaired
        self.below = unpaired - self.bracket
        lowest_first = sorted(bracket, reverse=True)
        self.order = [v for v in lowest_first if v in incoming]
        self.order += [v for v in lowest_first if v not in incoming]

    def _zone(self, out: set[int], stay: set[int] | None) -> list[int]:
        """``out`` float down, ``stay`` stay in the bracket, and the bracket's other
        players may do either (``None``: all stay)."""
        zone = [_BELOW] * self.n
        for v in self.bracket:
            zone[v] = _OUT if v in out else _STAY if stay is None or v in stay else _EITHER
        return zone

    def _matching(self, out: set[int], stay: set[int] | None) -> Matching:
        """The round's players still to pair, with :meth:`_zone`'s bars."""
        return Matching(self.n, self.barred, self.unpaired, self._zone(out, stay))

    def least_floating(self, out: set[int]) -> int:
        """At least how many of the bracket float down with ``out`` among them: ``out``,
        and more by as many as the rest of the bracket's best pairing within it leaves
        over, and as many as the players below, meeting ``out``, leave over (each must
        meet one more floater)."""
        inside = Matching(self.n, self.barred, self.bracket - out)
        if out:
            return len(out) + inside.maximise(self.seed)
        lower = Matching(self.n, self.barred, self.below | out, self._zone(out, set()))
        return len(out) + max(inside.maximise(self.seed), lower.maximise(self.seed))

    def first(self, size: int, passing: int) -> _Bracket | None:
        """The first set of ``size`` floating down, ``passing`` of them floaters in, that
        completes a pairing of the round, in the search's order; none if there is none."""
        out: set[int] = set()
        stay: set[int] = set()
        order = self.order
        kinds = [v in self.incoming for v in order]
        left_in = [sum(kinds[k:]) for k in range(len(order) + 1)]

        def promising() -> bool:
            return (
                self.least_floating(out) <= size
                and self._matching(out, stay).maximise(self.seed, perfect=True) == 0
            )

        def visit(k: int) -> _Bracket | None:
            floating_in = sum(1 for v in out if v in self.incoming)
            need_in, need_down = passing - floating_in, size - passing - (len(out) - floating_in)
            if need_in == need_down == 0:
                matching = self._matching(out, None)
                done = matching.maximise(self.seed, perfect=True) == 0
                return _Bracket(set(out), matching) if done else None
            if k == len(order):
                return None
            v, is_in = order[k], kinds[k]
            if need_in if is_in else need_down:
                out.add(v)
                if promising():
                    found = visit(k + 1)
                    if found is not None:
                        return found
                out.discard(v)
            left = left_in[k + 1] if is_in else (len(order) - k - 1) - left_in[k + 1]
            if left >= (need_in if is_in else need_down):
                stay.add(v)
                if promising():
                    found = visit(k + 1)
                    if found is not None:
                        return found
                stay.discard(v)
            return None

        return visit(0)


def _pair_bracket(
    incoming: Sequence[int],
    group: Sequence[int],
    clash: Callable[[int, int], bool],
    matching: Matching,
) -> list[tuple[int, int]]:
    """Pair the players of a bracket who stay in it (``matching`` keeps them within it)."""
    pairs: list[tuple[int, int]] = []
    free = {*incoming, *group}

    def pick(p: int, candidates: Iterable[int]) -> None:
        for q in candidates:
            if q in free and q != p and matching.take(p, q):
                free.difference_update((p, q))
                pairs.append((p, q))
                return

    for f in incoming:
        if f in free:
            pick(f, [*group, *incoming])
    residents = [v for v in group if v in free]
    half = len(residents) // 2
    top, bottom = residents[:half], residents[half:]
    for k, p in enumerate(top):
        if p in free:
            facing = sorted((q for q in bottom if q in free), key=lambda q: clash(p, q))
            pick(p, [*facing, *top[k + 1 :]])
    left = [v for v in residents if v in free]
    for k, p in enumerate(left):
        if p in free:
            pick(p, left[k + 1 :])
    if free:  # pragma: no cover - the matching keeps a pairing of them within the bracket
        raise NoPairingError("no pairing found")
    return pairs
