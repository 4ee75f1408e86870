"""Recount every counter from the games, matches and events tables, and compare.

The counters are kept by the signal receivers (the dice by the beat, :mod:`stats.dice`);
this is the independent check that they agree with the record. It groups the finished
games and matches (and the roll events up to the dice's cursor) in the database and
feeds each group through the same key functions the receivers use, so a key is spelt in
one place. Which matches count at all (not a
chouette's board) is said once too: :func:`~stats.services.counted` filters here by the
field the receivers' :func:`~stats.services.counts` reads.

Run ``--repair`` while no game is finishing: a game that ends between the recount's
reads and its writes would be counted by its receiver and then overwritten.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Max, Sum

from matches.models import Game, GameEvent, Match

from .dice import dice_cursor, dice_expected
from .maths import INITIAL_RATING
from .models import Counter, PlayerStats, RatingHistory
from .services import (
    GAME_RESULTS,
    GAME_TERMINATIONS,
    counted,
    game_counter_keys,
    match_counter_keys,
)

CounterKey = tuple[int | None, str]


@dataclass(frozen=True)
class Difference:
    """One value that disagrees: where, what the recount found, and what is stored."""

    player_id: int | None
    key: str
    counted: float
    stored: float

    def __str__(self) -> str:
        scope = "site" if self.player_id is None else f"player {self.player_id}"
        return f"{scope} {self.key}: counted {self.counted}, stored {self.stored}"


def counters_expected() -> dict[CounterKey, int]:
    """Every counter's value, recounted from the record (the dice up to the dice's
    cursor: :mod:`stats.dice`)."""
    expected: dict[CounterKey, int] = defaultdict(int)
    games = (
        counted(Game.objects.all(), "match")
        .filter(state=Game.State.FINISHED, termination__in=GAME_TERMINATIONS)
        .exclude(match__result=Match.Result.CANCELLED)  # cancelled as if never played
        .values_list(
            "match__variant", "match__white_id", "match__black_id", "winner", "termination"
        )
        .annotate(n=Count("id"))
        .order_by()
    )
    for variant, white_id, black_id, winner, termination, n in games:
        result = "draw" if winner is None else ("white", "black")[winner]
        keys = game_counter_keys(
            variant=variant,
            white_id=white_id,
            black_id=black_id,
            result=result,
            termination=termination,
        )
        for key in keys:
            expected[key] += n
    matches = (
        counted(Match.objects.filter(status=Match.Status.FINISHED, result__in=GAME_RESULTS))
        .values_list("variant", "white_id", "black_id", "result")
        .annotate(n=Count("id"))
        .order_by()
    )
    for variant, white_id, black_id, result, n in matches:
        for key in match_counter_keys(
            variant=variant, white_id=white_id, black_id=black_id, result=result
        ):
            expected[key] += n
    # The dice as far as the beat has counted them (its cursor): the rolls after it are
    # not in the counters yet.
    recorded = GameEvent.objects.filter(pk__lte=dice_cursor().event_id)
    for key, n in dice_expected(recorded).items():
        expected[key] += n
    return dict(expected)


def _counter_differences() -> list[Difference]:
    expected = counters_expected()
    stored: dict[CounterKey, int] = {  # player_id is None for the site-wide counters
        (player_id, key): count
        for player_id, key, count in Counter.objects.values_list("player_id", "key", "count")
    }
    return [
        Difference(
            player_id, key, expected.get((player_id, key), 0), stored.get((player_id, key), 0)
        )
        for player_id, key in sorted(set(expected) | set(stored), key=lambda k: (k[0] or 0, k[1]))
        if expected.get((player_id, key), 0) != stored.get((player_id, key), 0)
    ]


def ratings_expected() -> dict[int, dict[str, float]]:
    """Rated-match counts and experience (order-independent) and each player's rating.

    Experience and the number of rated matches follow from the matches table alone. A
    rating depends on the order in which matches ended, so it is checked against the
    rating history instead: the current rating must be the last entry's, and the best
    rating the highest entry (or the starting rating).
    """
    values: dict[int, dict[str, float]] = defaultdict(
        lambda: {
            "rated_matches": 0,
            "experience": 0,
            "rating": INITIAL_RATING,
            "best_rating": INITIAL_RATING,
        }
    )
    rated = counted(
        Match.objects.filter(
            status=Match.Status.FINISHED, rated=True, result__in=GAME_RESULTS, length__gt=0
        )
    )
    for side in ("white_id", "black_id"):
        for player_id, n in rated.values_list(side).annotate(n=Count("id")).order_by():
            values[player_id]["rated_matches"] += n
        decided = rated.exclude(result=Match.Result.DRAW)
        for player_id, total in decided.values_list(side).annotate(n=Sum("length")).order_by():
            values[player_id]["experience"] += total or 0
    if RatingHistory.objects.exists():
        best = dict(
            RatingHistory.objects.values_list("player_id").annotate(m=Max("rating")).order_by()
        )
        for row in _latest_history():
            values[row.player_id]["rating"] = row.rating
            values[row.player_id]["best_rating"] = max(INITIAL_RATING, best[row.player_id])
    return dict(values)


def _latest_history() -> list[RatingHistory]:
    """The newest history row of each player (portable: no DISTINCT ON outside PostgreSQL)."""
    newest: dict[int, RatingHistory] = {}
    for row in RatingHistory.objects.order_by("player_id", "pk").iterator():
        newest[row.player_id] = row
    return list(newest.values())


_RATING_FIELDS = ("rated_matches", "experience", "rating", "best_rating")


def _rating_differences() -> list[Difference]:
    expected = ratings_expected()
    stored = {row.player_id: row for row in PlayerStats.objects.all()}
    differences = []
    for player_id in sorted(set(expected) | set(stored)):
        want = expected.get(player_id)
        row = stored.get(player_id)
        for name in _RATING_FIELDS:
            counted = want[name] if want else (INITIAL_RATING if "rating" in name else 0)
            have = getattr(row, name) if row else (INITIAL_RATING if "rating" in name else 0)
            if abs(float(counted) - float(have)) > 1e-9:
                differences.append(Difference(player_id, f"stats.{name}", counted, have))
    return differences


@transaction.atomic
def stats_differences() -> list[Difference]:
    """Every counter and rating field that disagrees with a recount from the record.

    The dice's cursor is locked meanwhile, so the beat's count of the dice waits: the
    dice counters and the cursor they are recounted to are read as they go together."""
    dice_cursor(lock=True)
    return _counter_differences() + _rating_differences()


@transaction.atomic
def stats_repair() -> list[Difference]:
    """Set every disagreeing value to the recount; returns what was changed.

    Written in bulk (one statement per batch, not per row): a repair after a restore
    may touch every player's counters. The dice's cursor stays locked until the end.
    """
    differences = stats_differences()
    counters = [d for d in differences if not d.key.startswith("stats.")]
    existing = {
        (row.player_id, row.key): row
        for row in Counter.objects.filter(key__in={d.key for d in counters})
    }
    changed, missing = [], []
    for diff in counters:
        row = existing.get((diff.player_id, diff.key))
        if row is None:
            missing.append(Counter(player_id=diff.player_id, key=diff.key, count=int(diff.counted)))
        else:
            row.count = int(diff.counted)
            changed.append(row)
    Counter.objects.bulk_update(changed, ["count"], batch_size=1000)
    Counter.objects.bulk_create(missing, batch_size=1000)

    fields: dict[int, dict[str, float]] = defaultdict(dict)
    for diff in differences:
        if diff.key.startswith("stats."):
            fields[diff.player_id or 0][diff.key.removeprefix("stats.")] = diff.counted
    rows = {row.player_id: row for row in PlayerStats.objects.filter(player_id__in=fields)}
    new_ids = {pid for pid in fields if pid not in rows}
    new_rows = [PlayerStats(player_id=pid) for pid in new_ids]
    rows.update({row.player_id: row for row in new_rows})
    for player_id, values in fields.items():
        for name, value in values.items():
            setattr(rows[player_id], name, value)
    PlayerStats.objects.bulk_create(new_rows, batch_size=1000)
    PlayerStats.objects.bulk_update(
        [rows[pid] for pid in fields if pid not in new_ids], _RATING_FIELDS, batch_size=1000
    )
    return differences


__all__ = ["Difference", "counters_expected", "stats_differences", "stats_repair"]
