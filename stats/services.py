"""Writes: counter increments and rating updates.

Every function here runs inside the caller's transaction (the one that ended the
game or threw the dice), so the counters commit or roll back with the game.
Increments are batched upserts (:func:`bump`): ``INSERT … ON CONFLICT … DO UPDATE
SET count = count + EXCLUDED.count``. The database serialises concurrent increments
of one row, so none is lost, and creates a missing row in the same statement
(a concurrent insert of the same key is waited for, then updated), so no savepoint
or retry is needed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction

from gammon import Termination
from matches.bulk import Statement, execute_together, rows_insert, rows_update
from matches.models import Game, Match

from .maths import INITIAL_EXPERIENCE, INITIAL_RATING, fibs_rating_change
from .models import Counter, PlayerStats, RatingHistory

#: Writing ``last_active_at`` at most this often keeps a roll to a cheap no-op update.
ACTIVITY_RESOLUTION = timedelta(hours=1)

COLORS = ("white", "black")
GAME_RESULTS = ("white", "black", "draw")
#: Game ends counted in the statistics; ``cancelled`` games are not.
GAME_TERMINATIONS: tuple[str, ...] = tuple(
    t.value for t in Termination if t is not Termination.CANCELLED
)


def bump(rows: Iterable[tuple[int | None, str, int]]) -> None:
    """Add each ``(player_id, key, delta)`` to its counter, creating missing ones: no savepoint.

    One ``INSERT … ON CONFLICT … DO UPDATE SET count = count + EXCLUDED.count`` for the
    site's counters and one for the players' (each kind has its own partial unique index,
    and a statement names one conflict target), sent together (:func:`execute_together`;
    PostgreSQL, and SQLite 3.24 or later). Deltas of the same key are summed first, and
    the rows go in key order (site before players, then by player and key): transactions
    that bump overlapping counters lock them in the same order and cannot deadlock on
    them. The upsert takes the row lock of a counter that exists and, for one that does
    not, waits on a concurrent insert of the same key and then updates it, so no count is
    lost and no unique-violation error is raised.
    """
    execute_together(bump_statements(rows))


def bump_statements(rows: Iterable[tuple[int | None, str, int]]) -> list[Statement]:
    """The upserts of :func:`bump`, for a caller that sends them with other writes."""
    totals: dict[tuple[int | None, str], int] = defaultdict(int)
    for player_id, key, delta in rows:
        totals[(player_id, key)] += delta
    site = sorted((key, delta) for (player_id, key), delta in totals.items() if player_id is None)
    players = sorted(
        (player_id, key, delta)
        for (player_id, key), delta in totals.items()
        if player_id is not None
    )
    table = connection.ops.quote_name(Counter._meta.db_table)
    update = f"DO UPDATE SET count = {table}.count + EXCLUDED.count"
    statements: list[Statement] = []
    if site:
        statements.append(
            (
                f"INSERT INTO {table} (player_id, key, count) VALUES "  # noqa: S608
                + ", ".join(["(NULL, %s, %s)"] * len(site))
                + f" ON CONFLICT (key) WHERE player_id IS NULL {update}",
                [value for row in site for value in row],
            )
        )
    if players:
        statements.append(
            (
                f"INSERT INTO {table} (player_id, key, count) VALUES "  # noqa: S608
                + ", ".join(["(%s, %s, %s)"] * len(players))
                + f" ON CONFLICT (player_id, key) WHERE player_id IS NOT NULL {update}",
                [value for row in players for value in row],
            )
        )
    return statements


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

    One statement: ``INSERT … ON CONFLICT (player_id) DO UPDATE`` of ``last_active_at``
    when it is older than :data:`ACTIVITY_RESOLUTION` (or unset), in player id order.
    A new row gets the model's starting rating and experience.
    """
    execute_together(activity_statements(player_ids=player_ids, now=now))


def activity_statements(*, player_ids: Iterable[int], now: datetime) -> list[Statement]:
    """The upsert of :func:`players_mark_active` (none without players)."""
    ids = sorted(set(player_ids))
    if not ids:
        return []
    table = connection.ops.quote_name(PlayerStats._meta.db_table)
    columns = "player_id, rating, best_rating, experience, rated_matches, last_active_at"
    at = connection.ops.adapt_datetimefield_value(now)
    recent = connection.ops.adapt_datetimefield_value(now - ACTIVITY_RESOLUTION)
    values: list[object] = []
    for pid in ids:
        values += [pid, INITIAL_RATING, INITIAL_RATING, INITIAL_EXPERIENCE, 0, at]
    return [
        (
            f"INSERT INTO {table} ({columns}) VALUES "  # noqa: S608
            + ", ".join(["(%s, %s, %s, %s, %s, %s)"] * len(ids))
            + " ON CONFLICT (player_id) DO UPDATE SET last_active_at = EXCLUDED.last_active_at"
            + f" WHERE {table}.last_active_at IS NULL OR {table}.last_active_at < %s",
            [*values, recent],
        )
    ]


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
    if result is None:
        return
    match = game.match
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
    if match.result not in GAME_RESULTS:
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
        if result is None:
            continue
        match = game.match
        keys = game_counter_keys(
            variant=match.variant,
            white_id=match.white_id,
            black_id=match.black_id,
            result=result,
            termination=game.termination,
        )
        rows += [(player_id, key, 1) for player_id, key in keys]
        active += [match.white_id, match.black_id]
    finished = [m for m in matches if m.result in GAME_RESULTS]
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
    return match.rated and not match.is_money


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
    rows_update(PlayerStats, [changed[pid] for pid in sorted(changed)], fields)
    if history:
        rows_insert(RatingHistory, history)


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


def stats_dice_rolled(
    *,
    game: Game,
    die1: int,
    die2: int,
    opening: bool,
    color: int,
    now: datetime,
    write: Callable[[str, list[Any], Callable[[list[Any]], list[Any]]], None] | None = None,
) -> None:
    """Count a throw of the dice for the site and for the player it was thrown for.

    A turn's roll counts as one of the 21 rolls. The opening roll is two single dice,
    one per side, rerolled on a tie: counted as a roll it would show no doubles, so
    each of its dice counts only as a die face, for the site and for its thrower.
    This runs on every move: the counters and the thrower's activity go to ``write``
    (``Game.defer``: with the game's next save, see ``matches.signals.dice_rolled``) when
    the sender gives it, the rolls of one action gathered into one upsert each; else in
    one statement now (:func:`execute_together`).
    """
    match = game.match
    if opening:
        keys = [
            (None, f"opening:{die1}"),
            (None, f"opening:{die2}"),
            (match.white_id, f"opening:{die1}"),
            (match.black_id, f"opening:{die2}"),
        ]
        active = [match.white_id, match.black_id]
    else:
        player_id = match.white_id if color == 0 else match.black_id
        key = roll_key(die1, die2)
        keys = [(None, key), (player_id, key)]
        active = [player_id]
    counts = [(player_id, key, 1) for player_id, key in keys]
    if write is None:
        execute_together(bump_statements(counts) + activity_statements(player_ids=active, now=now))
        return
    write("stats.counters", counts, lambda rows: [(*s, None) for s in bump_statements(rows)])
    write(
        "stats.activity",
        active,
        lambda ids: [(*s, None) for s in activity_statements(player_ids=ids, now=now)],
    )
