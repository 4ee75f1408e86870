"""Writes: counter increments and rating updates.

Every function here runs inside the caller's transaction (the one that ended the
game, or the beat's count of the dice: :mod:`stats.dice`), so the counters commit or
roll back with what they count.
Increments are ``UPDATE … SET count = count + n`` on counters read and locked in key
order (:func:`bump`), so none is lost and concurrent bumps cannot deadlock; a counter's
first use creates it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import TypeVar

from django.db import transaction
from django.db.models import Case, F, Model, Q, QuerySet, Value, When

from gammon import Termination
from matches.models import Game, Match

from .maths import fibs_rating_change
from .models import Counter, PlayerStats, RatingHistory

COLORS = ("white", "black")
GAME_RESULTS = ("white", "black", "draw")
#: Game ends counted in the statistics; ``cancelled`` games are not.
GAME_TERMINATIONS: tuple[str, ...] = tuple(
    t.value for t in Termination if t is not Termination.CANCELLED
)

# --------------------------------------------------------------------------- what counts

#: The flag of a match that never counts in the players' statistics: a chouette's board.
#: Its games count in the chouette's own points; its dice count for the site but for no
#: player (the board's Black changes hands when its captain drops the box's double, so
#: who threw a roll is not the board's to say). :func:`counts` reads the flag on a match,
#: :func:`counted` filters the recount's querysets by it: the receivers and the recount
#: agree because both ask this one field.
_NOT_COUNTED = "chouette"


def counts(match: Match) -> bool:
    """Whether ``match``'s games and result go into the counters and ratings."""
    return not getattr(match, _NOT_COUNTED)


_Rows = TypeVar("_Rows", bound=Model)


def counted(rows: QuerySet[_Rows], match: str = "") -> QuerySet[_Rows]:
    """``rows`` (matches, or rows reaching a match through the lookup ``match``) without
    those of a match that does not count (:func:`counts`)."""
    lookup = f"{match}__{_NOT_COUNTED}" if match else _NOT_COUNTED
    return rows.exclude(**{lookup: True})


@transaction.atomic(savepoint=False)  # the caller's transaction, or one of its own
def bump(rows: Iterable[tuple[int | None, str, int]]) -> None:
    """Add each ``(player_id, key, delta)`` to its counter, creating missing ones.

    Two statements whatever the number of rows (the expiry sweep bumps hundreds at once):
    the counters are read and locked in key order (site before players, then by player
    and key; ``SELECT … FOR UPDATE ORDER BY``), so transactions that bump overlapping
    counters lock them in the same order and cannot deadlock on them; then one
    ``UPDATE … SET count = count + delta`` (a ``CASE`` when the deltas differ). A
    counter's first use creates it at zero first (``bulk_create(ignore_conflicts=True)``,
    which waits for a concurrent creation of the same key) and reads it again.
    """
    totals: dict[tuple[int | None, str], int] = defaultdict(int)
    for player_id, key, delta in rows:
        totals[(player_id, key)] += delta
    if not totals:
        return
    ids = _counters_locked(list(totals))
    deltas = {ids[key]: delta for key, delta in totals.items()}
    if len(set(deltas.values())) == 1:
        change: Value | Case = Value(next(iter(deltas.values())))
    else:
        change = Case(*(When(pk=pk, then=Value(d)) for pk, d in deltas.items()), default=0)
    Counter.objects.filter(pk__in=deltas).update(count=F("count") + change)


def _counters_locked(keys: list[tuple[int | None, str]]) -> dict[tuple[int | None, str], int]:
    """The ids of the counters ``keys`` (``(player_id, key)``), locked, created if missing."""
    wanted = Q()
    for player_id, key in keys:
        wanted |= Q(player_id=player_id, key=key)
    counters = (
        Counter.objects.select_for_update()
        .filter(wanted)
        .order_by(F("player_id").asc(nulls_first=True), "key")
    )

    def read() -> dict[tuple[int | None, str], int]:
        return {(pid, key): pk for pk, pid, key in counters.values_list("pk", "player_id", "key")}

    found = read()
    if len(found) < len(keys):
        Counter.objects.bulk_create(
            [Counter(player_id=pid, key=key) for pid, key in keys if (pid, key) not in found],
            ignore_conflicts=True,
        )
        found = read()
    return found


def counter_add(*, key: str, player_id: int | None = None, amount: int = 1) -> None:
    """Add ``amount`` to one counter, creating it at zero on first use."""
    bump([(player_id, key, amount)])


def counters_add(keys: Iterable[tuple[int | None, str]], *, amount: int = 1) -> None:
    """Add ``amount`` (one) to each ``(player_id, key)`` (see :func:`bump` for the order)."""
    bump((player_id, key, amount) for player_id, key in keys)


def player_stats_rows(player_ids: Iterable[int], *, lock: bool = False) -> dict[int, PlayerStats]:
    """The players' stats rows by player id, created with the starting rating on first use.

    One query when the rows exist (a second, ``INSERT … ON CONFLICT DO NOTHING``, and a
    re-read when some do not). Locked rows are locked in id order (``ORDER BY``).
    """
    ids = sorted(set(player_ids))

    def read() -> dict[int, PlayerStats]:
        rows = PlayerStats.objects.filter(player_id__in=ids).order_by("player_id")
        return {row.player_id: row for row in (rows.select_for_update() if lock else rows)}

    found = read()
    if len(found) < len(ids):
        PlayerStats.objects.bulk_create(
            [PlayerStats(player_id=pid) for pid in ids if pid not in found],
            ignore_conflicts=True,
        )
        found = read()
    return found


def player_stats_row(player_id: int, *, lock: bool = False) -> PlayerStats:
    """The player's stats row, created with the starting rating on first use."""
    return player_stats_rows([player_id], lock=lock)[player_id]


def players_mark_active(*, player_ids: Iterable[int], now: datetime) -> None:
    """Record that the players took part in play at ``now`` (for "active players").

    One upsert (``bulk_create(update_conflicts=True)``) in player id order: a new row gets
    the model's starting rating and experience, an existing one ``last_active_at``.
    """
    ids = sorted(set(player_ids))
    PlayerStats.objects.bulk_create(
        [PlayerStats(player_id=pid, last_active_at=now) for pid in ids],
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["last_active_at"],
    )


# --------------------------------------------------------------------------- results


def game_result(game: Game) -> str | None:
    """``white``, ``black`` or ``draw``; None for a game that does not count (cancelled)."""
    if game.termination not in GAME_TERMINATIONS:
        return None
    if game.winner is None:
        return "draw"
    return COLORS[game.winner]


def game_counter_keys(
    *, variant: str, white_id: int, black_id: int, result: str, termination: str
) -> list[tuple[int | None, str]]:
    """Every counter one finished game adds to: the site's and both players'."""
    keys: list[tuple[int | None, str]] = [
        (None, f"game:{variant}:{result}"),
        (None, f"game:{variant}:end:{termination}"),
    ]
    for player_id, color in ((white_id, "white"), (black_id, "black")):
        keys.append((player_id, f"game:{variant}:{color}:{_outcome(color, result)}"))
    if result != "draw" and termination in ("gammon", "backgammon"):
        winner, loser = (white_id, black_id) if result == "white" else (black_id, white_id)
        keys += [(winner, f"{termination}:won"), (loser, f"{termination}:lost")]
    return keys


def match_counter_keys(
    *, variant: str, white_id: int, black_id: int, result: str
) -> list[tuple[int | None, str]]:
    """Every counter one finished match adds to."""
    keys: list[tuple[int | None, str]] = [(None, f"match:{variant}:{result}")]
    for player_id, color in ((white_id, "white"), (black_id, "black")):
        keys.append((player_id, f"match:{variant}:{color}:{_outcome(color, result)}"))
    return keys


def _outcome(color: str, result: str) -> str:
    if result == "draw":
        return "drawn"
    return "won" if result == color else "lost"


def stats_game_finished(*, game: Game, now: datetime) -> None:
    """Count a finished game: its result and end for the site, and each player's record."""
    result = game_result(game)
    match = game.match
    if result is None or not counts(match):
        return
    counters_add(
        game_counter_keys(
            variant=match.variant,
            white_id=match.white_id,
            black_id=match.black_id,
            result=result,
            termination=game.termination,
        )
    )
    players_mark_active(player_ids=(match.white_id, match.black_id), now=now)


def stats_match_cancelled(*, match: Match, now: datetime) -> None:
    """A moderator cancelled ``match`` as if never played: take back its counted games.

    Its games that had finished before were counted as they ended; the game that was
    in play ends ``cancelled`` and was never counted, nor is the match. The dice thrown
    stay counted: they were thrown. Ratings never saw the match.
    """
    if not counts(match):
        return
    games = Game.objects.filter(match=match, state=Game.State.FINISHED).order_by("number")
    rows: list[tuple[int | None, str, int]] = []
    for game in games:
        result = game_result(game)
        if result is None:
            continue
        keys = game_counter_keys(
            variant=match.variant,
            white_id=match.white_id,
            black_id=match.black_id,
            result=result,
            termination=game.termination,
        )
        rows += [(player_id, key, -1) for player_id, key in keys]
    bump(rows)


def stats_match_finished(*, match: Match, now: datetime) -> None:
    """Count a finished match and, when it is rated, update both ratings."""
    if match.result not in GAME_RESULTS or not counts(match):
        return
    counters_add(
        match_counter_keys(
            variant=match.variant,
            white_id=match.white_id,
            black_id=match.black_id,
            result=match.result,
        )
    )
    ratings_apply(match=match, now=now)


def stats_games_timed_out(*, games: list[Game], matches: list[Match], now: datetime) -> None:
    """Count a batch of games that each ended its match on time (the expiry sweep):
    what :func:`stats_game_finished` and :func:`stats_match_finished` do for each, in a
    constant number of statements. The counter deltas of the whole batch go in one
    :func:`bump`, the players' activity in one upsert, and the ratings through
    :func:`ratings_apply_many`, in the batch's order."""
    rows: list[tuple[int | None, str, int]] = []
    active: list[int] = []
    for game in games:
        result = game_result(game)
        match = game.match
        if result is None or not counts(match):
            continue
        keys = game_counter_keys(
            variant=match.variant,
            white_id=match.white_id,
            black_id=match.black_id,
            result=result,
            termination=game.termination,
        )
        rows += [(player_id, key, 1) for player_id, key in keys]
        active += [match.white_id, match.black_id]
    finished = [m for m in matches if m.result in GAME_RESULTS and counts(m)]
    for match in finished:
        keys = match_counter_keys(
            variant=match.variant,
            white_id=match.white_id,
            black_id=match.black_id,
            result=match.result,
        )
        rows += [(player_id, key, 1) for player_id, key in keys]
    bump(rows)
    players_mark_active(player_ids=active, now=now)
    ratings_apply_many(matches=finished, now=now)


# --------------------------------------------------------------------------- ratings


def is_rated(match: Match) -> bool:
    """Rated matches: the challenge said so, and it is a match, not a money session.

    Money sessions (length 0) have no length for the FIBS formula (its changes scale
    with the square root of the length) and can be left at any time; as on FIBS
    ("unlimited matches do not affect ratings"), they never count.
    """
    return match.rated and not match.is_money and counts(match)


@transaction.atomic(savepoint=False)
def ratings_apply(*, match: Match, now: datetime) -> None:
    """Apply the FIBS rating change of a finished, rated match to both players.

    A rated draw counts towards each player's number of rated matches (the
    leaderboard's threshold) but changes neither rating nor experience. Both rows
    are read and locked in one query, in id order, so two matches finishing at once
    between overlapping players cannot deadlock and each sees the other's result;
    both are written in one ``UPDATE`` and the history in one ``INSERT``.
    """
    ratings_apply_many(matches=[match], now=now)


RATING_FIELDS = ["rating", "best_rating", "experience", "rated_matches"]


@transaction.atomic(savepoint=False)
def ratings_apply_many(*, matches: Iterable[Match], now: datetime) -> None:
    """:func:`ratings_apply` for several finished matches, applied one after the other in
    the given order (a player in two of them sees the first's change in the second).

    Every player's row is read and locked in one query (id order), the rows changed are
    written in one ``UPDATE`` and the history in one ``INSERT``, whatever the number of
    matches.
    """
    rated = [m for m in matches if is_rated(m) and m.result in GAME_RESULTS]
    if not rated:
        return
    rows = player_stats_rows([pid for m in rated for pid in (m.white_id, m.black_id)], lock=True)
    changed: dict[int, PlayerStats] = {}
    history: list[RatingHistory] = []
    for match in rated:
        history += _rate(match, rows, now)
        changed[match.white_id] = rows[match.white_id]
        changed[match.black_id] = rows[match.black_id]
    fields = ["rated_matches"] if all(m.result == "draw" for m in rated) else RATING_FIELDS
    PlayerStats.objects.bulk_update([changed[pid] for pid in sorted(changed)], fields)
    RatingHistory.objects.bulk_create(history)


def _rate(match: Match, rows: dict[int, PlayerStats], now: datetime) -> list[RatingHistory]:
    """Change both players' ``rows`` in memory for ``match``; the history rows it adds."""
    if match.result == "draw":
        for pid in (match.white_id, match.black_id):
            rows[pid].rated_matches += 1
        return []
    winner_id, loser_id = (
        (match.white_id, match.black_id)
        if match.result == "white"
        else (match.black_id, match.white_id)
    )
    winner, loser = rows[winner_id], rows[loser_id]
    change = fibs_rating_change(
        winner_rating=winner.rating,
        loser_rating=loser.rating,
        winner_experience=winner.experience,
        loser_experience=loser.experience,
        length=match.length,
    )
    history = []
    for row, delta in ((winner, change.gain), (loser, -change.loss)):
        row.rating += delta
        row.best_rating = max(row.best_rating, row.rating)
        row.experience += match.length
        row.rated_matches += 1
        history.append(
            RatingHistory(
                player_id=row.player_id,
                match=match,
                rating=row.rating,
                experience=row.experience,
                change=delta,
                at=now,
            )
        )
    return history


# --------------------------------------------------------------------------- dice


def roll_key(die1: int, die2: int) -> str:
    """``roll:31`` for 3-1 and 1-3 alike: the 21 distinct rolls."""
    high, low = max(die1, die2), min(die1, die2)
    return f"roll:{high}{low}"
