"""Legal plays: every way the player on roll may use a roll.

The generator follows GNU Backgammon's own search (``GenerateMovesSub`` in
gnubg's ``eval.c``): the same order of dice, the same order of points, and the
first step sequence found for a position is the one kept. That is what makes
our canonical notation equal to gnubg's, character for character, even where
several step sequences reach the same position.

Internally a board is a list of 26 ints seen from the player on roll:
``b[1..24]`` are the points (positive mine, negative theirs), ``b[25]`` is my
bar and ``b[0]`` the opponent's bar. Steps are applied and undone in place, and
an intermediate position already searched with the same dice left is never
searched again, so doubles cost little more than other rolls.

This module only generates: :mod:`gammon.play` holds ``Play``, ``Step``, the
notation and ``legal_plays``, and imports this one (never the other way).
"""

from __future__ import annotations

from collections.abc import Sequence

from .position import Position

__all__ = ["BAR", "OFF", "Generated", "generate", "played"]

#: Where a step starts from the bar, and where it ends when bearing off.
BAR = 25
OFF = 0

#: One play as found: the board key it reaches (``None``: not built yet, see
#: :func:`played`) and its steps as flat ``(source, dest, hit)`` triples.
Generated = tuple[tuple[int, ...] | None, tuple[int, ...]]


def generate(position: Position, dice: Sequence[int]) -> list[Generated]:
    """Every legal play for ``dice`` as raw steps; no legal play gives ``[]``.

    Plays reaching the same position appear once. :func:`gammon.play.legal_plays`
    wraps each into a :class:`~gammon.play.Play`; this module knows nothing of
    plays or notation, so the arrows go one way (``play`` -> ``moves`` -> ``position``).

    >>> len(generate(Position.start(), (3, 1)))
    16
    >>> len(generate(Position.start(), (6, 6)))
    11
    """
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be two numbers from 1 to 6, not {dice!r}")
    d1, d2 = dice[0], dice[1]
    points = position.points
    board = [position.bar[1], *points, position.bar[0], position.off[0]]
    if d1 != d2 and board[25]:
        return list(_from_bar(board, d1, d2).items())
    if d1 != d2:
        outside = 0
        for n in points[6:]:
            if n > 0:
                outside += n
        if outside >= 2:
            found = _two_checkers(board, d1, d2)
            return list(found.items())
    if d1 == d2:
        return _doubles(board, d1)
    found = {}
    best = [0, 0]
    _search(board, (d1, d2), 0, 24, 0, [], found, best, set())
    _search(board, (d2, d1), 0, 24, 0, [], found, best, set())
    return list(found.items())


_Found = dict[tuple[int, ...], tuple[int, ...]]


def _two_checkers(b: list[int], a: int, c: int) -> _Found:
    """Two different dice, nothing on the bar, and no bear-off possible this turn.

    Then the two steps are independent except when one checker takes both, so
    plays are pairs of single steps plus one checker moving ``a + c``; no
    search is needed.
    """
    sources = [p for p in range(1, 25) if b[p] > 0]
    with_a = [p for p in sources if p > a and b[p - a] >= -1]
    with_c = [p for p in sources if p > c and b[p - c] >= -1]
    found: _Found = {}
    for x in with_a:
        xd = x - a
        xhit = b[xd] == -1
        for y in with_c:
            if x == y and b[x] < 2:
                continue
            r = b[:]
            r[x] -= 1
            if xhit:
                r[xd] = 1
                r[0] += 1
            else:
                r[xd] += 1
            yd = y - c
            r[y] -= 1
            yhit = r[yd] == -1
            if yhit:
                r[yd] = 1
                r[0] += 1
            else:
                r[yd] += 1
            key = tuple(r)
            if key not in found:
                found[key] = (x, xd, xhit, y, yd, yhit)
    for first, second, moves in ((a, c, with_a), (c, a, with_c)):
        for x in moves:
            mid = x - first
            dest = mid - second
            if dest < 1 or b[dest] < -1:
                continue
            r = b[:]
            r[x] -= 1
            midhit = b[mid] == -1
            if midhit:
                r[mid] = 0
                r[0] += 1
            desthit = b[dest] == -1
            if desthit:
                r[dest] = 1
                r[0] += 1
            else:
                r[dest] += 1
            key = tuple(r)
            if key not in found:
                found[key] = (x, mid, midhit, mid, dest, desthit)
    if found:
        return found
    larger, smaller = ((a, with_a), (c, with_c)) if a > c else ((c, with_c), (a, with_a))
    die, singles = larger if larger[1] else smaller
    for x in singles:
        xd = x - die
        r = b[:]
        r[x] -= 1
        xhit = b[xd] == -1
        if xhit:
            r[xd] = 1
            r[0] += 1
        else:
            r[xd] += 1
        found[tuple(r)] = (x, xd, xhit)
    return found


def _doubles(b: list[int], d: int) -> list[tuple[tuple[int, ...] | None, tuple[int, ...]]]:
    """Doubles: up to four steps of ``d``, checkers taken in non-increasing source order.

    Taking sources in that order reaches every result once, so no intermediate
    board needs remembering. Whether a step lands on an open point never
    changes during the turn (my own checkers never block me), so the points a
    checker may step from are found once, before the search.
    """
    found: _Found = {}
    path: list[int] = []
    best = [0]
    left = 4
    if b[BAR]:
        entry = BAR - d
        if b[entry] < -1:
            return []
        while b[BAR] and left:
            hit = b[entry] == -1
            if hit:
                b[entry] = 1
                b[0] += 1
            else:
                b[entry] += 1
            b[BAR] -= 1
            path += (BAR, entry, hit)
            left -= 1
        if b[BAR] or not left:
            return [(tuple(b), tuple(path))]
    # Steps needed to bring every checker home; past three, no checker can bear off.
    homecoming = sum(b[p] * -(-(p - 6) // d) for p in range(7, 25) if b[p] > 0)
    can_bear_off = homecoming < 4
    sources = [p for p in range(24, 0, -1) if (can_bear_off if p <= d else b[p - d] >= -1)]
    unique = not can_bear_off
    if unique and left == 4:
        paths = _four_steps(b, d, sources)
        if paths:
            return [(None, path) for path in paths]
    plain: list[tuple[int, ...]] = []

    def search(start: int, left: int) -> None:
        moved = False
        highest = -1
        for index in range(start, len(sources)):
            point = sources[index]
            if b[point] <= 0:
                continue
            dest = point - d
            if dest < 1:
                if highest < 0:
                    highest = next(p for p in range(24, 0, -1) if b[p] > 0)
                if highest > 6 or (dest < 0 and point != highest):
                    continue
                dest = OFF
                target = 0
            else:
                target = b[dest]
            moved = True
            b[point] -= 1
            if dest == OFF:
                b[26] += 1
            elif target == -1:
                b[dest] = 1
                b[0] += 1
            else:
                b[dest] += 1
            path.extend((point, dest, target == -1))
            if left > 1:
                search(index, left - 1)
            elif unique:
                # Four steps in source order, no bear-off: each such list of steps
                # reaches a different board, so the board is built only if asked for.
                if best[0] < 12:
                    found.clear()
                    best[0] = 12
                plain.append(tuple(path))
            else:
                if best[0] < 12:
                    found.clear()
                    best[0] = 12
                key = tuple(b)
                if key not in found:
                    found[key] = tuple(path)
            del path[-3:]
            b[point] += 1
            if dest == OFF:
                b[26] -= 1
            elif target == -1:
                b[dest] = -1
                b[0] -= 1
            else:
                b[dest] -= 1
        if not moved:
            _keep(b, path, found, best)

    search(0, left)
    if plain:
        return [(None, path) for path in plain]
    return list(found.items())


def _four_steps(b: list[int], d: int, sources: list[int]) -> list[tuple[int, ...]]:
    """Every four-step play of a double when no checker can bear off: four nested loops.

    Sources are taken in non-increasing order, so each list of steps is new and
    reaches a board of its own; the boards themselves are built only when asked
    for (``Play.position``). An empty list means no play uses all four steps,
    and the general search then finds the longest ones.
    """
    plays: list[tuple[int, ...]] = []
    count = len(sources)
    for i1 in range(count):
        p1 = sources[i1]
        if b[p1] <= 0:
            continue
        q1 = p1 - d
        h1 = b[q1] == -1
        b[p1] -= 1
        b[q1] = 1 if h1 else b[q1] + 1
        for i2 in range(i1, count):
            p2 = sources[i2]
            if b[p2] <= 0:
                continue
            q2 = p2 - d
            h2 = b[q2] == -1
            b[p2] -= 1
            b[q2] = 1 if h2 else b[q2] + 1
            for i3 in range(i2, count):
                p3 = sources[i3]
                if b[p3] <= 0:
                    continue
                q3 = p3 - d
                h3 = b[q3] == -1
                b[p3] -= 1
                b[q3] = 1 if h3 else b[q3] + 1
                for i4 in range(i3, count):
                    p4 = sources[i4]
                    if b[p4] > 0:
                        q4 = p4 - d
                        plays.append((p1, q1, h1, p2, q2, h2, p3, q3, h3, p4, q4, b[q4] == -1))
                b[p3] += 1
                b[q3] = -1 if h3 else b[q3] - 1
            b[p2] += 1
            b[q2] = -1 if h2 else b[q2] - 1
        b[p1] += 1
        b[q1] = -1 if h1 else b[q1] - 1
    return plays


def played(origin: Position, path: tuple[int, ...]) -> tuple[int, ...]:
    """The board key that ``path`` (source, dest, hit triples) reaches from ``origin``."""
    b = [origin.bar[1], *origin.points, origin.bar[0], origin.off[0]]
    for i in range(0, len(path), 3):
        source, dest = path[i], path[i + 1]
        b[source] -= 1
        if dest == OFF:
            b[26] += 1
        elif b[dest] == -1:
            b[dest] = 1
            b[0] += 1
        else:
            b[dest] += 1
    return tuple(b)


def _keep(b: list[int], path: list[int], found: _Found, best: list[int]) -> None:
    """Keep the play if it uses as many steps as the best so far (more: start afresh)."""
    steps = len(path)
    if not steps or steps < best[0]:
        return
    if steps > best[0]:
        found.clear()
        best[0] = steps
    key = tuple(b)
    if key not in found:
        found[key] = tuple(path)


def _from_bar(b: list[int], a: int, c: int) -> _Found:
    """Two different dice with a checker on the bar: enter first, one die per checker.

    An entered checker stands on 19 to 24, outside home, so no bear-off can
    arise and the second die is a plain single step.
    """
    found: _Found = {}
    if b[BAR] >= 2:
        for x, y in ((a, c), (c, a)):
            qx, qy = BAR - x, BAR - y
            if b[qx] >= -1 and b[qy] >= -1:
                hx, hy = b[qx] == -1, b[qy] == -1
                r = b[:]
                r[BAR] -= 2
                r[0] += hx + hy
                r[qx] = 1 if hx else r[qx] + 1
                r[qy] = 1 if hy else r[qy] + 1
                return {tuple(r): (BAR, qx, hx, BAR, qy, hy)}
    singles: dict[int, _Found] = {a: {}, c: {}}
    for x, y in ((a, c), (c, a)):
        qx = BAR - x
        if b[qx] < -1:
            continue
        hx = b[qx] == -1
        r = b[:]
        r[BAR] -= 1
        if hx:
            r[qx] = 1
            r[0] += 1
        else:
            r[qx] += 1
        singles[x][tuple(r)] = (BAR, qx, hx)
        if b[BAR] >= 2:
            continue
        for p in range(24, y, -1):
            if r[p] <= 0 or r[p - y] < -1:
                continue
            q = p - y
            s = r[:]
            s[p] -= 1
            hy = s[q] == -1
            if hy:
                s[q] = 1
                s[0] += 1
            else:
                s[q] += 1
            key = tuple(s)
            if key not in found:
                found[key] = (BAR, qx, hx, p, q, hy)
    if found:
        return found
    return singles[max(a, c)] or singles[min(a, c)]


def _save(board: list[int], path: list[int], pips: int, found: _Found, best: list[int]) -> None:
    moves = len(path)
    if moves < best[0] or pips < best[1]:
        return
    if moves > best[0] or pips > best[1]:
        found.clear()
        best[0] = moves
        best[1] = pips
    key = tuple(board)
    if key not in found:
        found[key] = tuple(path)


def _search(
    board: list[int],
    rolls: tuple[int, ...],
    depth: int,
    top: int,
    pips: int,
    path: list[int],
    found: _Found,
    best: list[int],
    seen: set[tuple[object, ...]],
) -> bool:
    """gnubg's search (``GenerateMovesSub``): try every step for ``rolls[depth]``.

    Returns True when no step was possible, so that the caller saves the play
    made so far. Only plays with the most dice and then the most pips are kept,
    which is the "use both dice" and "play the larger die" rules at once.
    ``top`` is the highest point a step may start from: for doubles checkers
    move in non-increasing order of source point, which still reaches every
    position. An intermediate board already searched with the same dice left
    is skipped: whatever it leads to is already found.
    """
    if depth == len(rolls):
        return True
    die = rolls[depth]
    pips += die
    depth += 1
    if board[BAR] > 0:
        dest = BAR - die
        target = board[dest]
        if target < -1:
            return True
        board[BAR] -= 1
        if target == -1:
            board[dest] = 1
            board[0] += 1
        else:
            board[dest] += 1
        path += (BAR, dest, target == -1)
        if _search(board, rolls, depth, 24, pips, path, found, best, seen):
            _save(board, path, pips, found, best)
        del path[-3:]
        board[BAR] += 1
        if target == -1:
            board[dest] = -1
            board[0] -= 1
        else:
            board[dest] -= 1
        return False
    used = False
    doubles = len(rolls) == 4
    last = depth == len(rolls)
    highest = -1  # found only when a bear-off is tried
    for point in [p for p in range(top, 0, -1) if board[p] > 0]:
        dest = point - die
        if dest >= 1:
            target = board[dest]
            if target < -1:
                continue
        else:
            if highest < 0:
                highest = next(p for p in range(24, 0, -1) if board[p] > 0)
            if highest > 6 or (dest < 0 and point != highest):
                continue
            dest = OFF
            target = 0
        used = True
        board[point] -= 1
        if dest == OFF:
            board[26] += 1
        elif target == -1:
            board[dest] = 1
            board[0] += 1
        else:
            board[dest] += 1
        path += (point, dest, target == -1)
        if last:
            # The last die: nothing below to search; save the play (see _save).
            moves = len(path)
            if pips >= best[1] and moves >= best[0]:
                if moves > best[0] or pips > best[1]:
                    found.clear()
                    best[0] = moves
                    best[1] = pips
                key = tuple(board)
                if key not in found:
                    found[key] = tuple(path)
        else:
            next_top = point if doubles else 24
            memo = (tuple(board), depth, next_top, rolls)
            if memo not in seen:
                seen.add(memo)
                if _search(board, rolls, depth, next_top, pips, path, found, best, seen):
                    _save(board, path, pips, found, best)
        del path[-3:]
        board[point] += 1
        if dest == OFF:
            board[26] -= 1
        elif target == -1:
            board[dest] = -1
            board[0] -= 1
        else:
            board[dest] -= 1
    return not used
