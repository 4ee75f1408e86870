"""The dice, counted from the record by the beat rather than by the move that threw them.

The dice page need not be exact to the second, and bumping the roll counters inside every
move cost the move three statements on the site's hottest rows (the 21 roll counters). So
the move only records its ``roll`` and ``opening`` events, and :func:`stats_count_dice`
(``stats.tasks.clock_count_dice``, every minute) adds the events recorded since its
:class:`~stats.models.Cursor` to the counters, in batches of :data:`BATCH` events, each
batch in one transaction with the cursor's move. The figures are fresh to the cursor's
``counted_until``, which the dice page shows.

What a batch adds is the recount's own arithmetic (:func:`dice_expected`), over the
batch's events; ``recount_stats`` runs it over every event up to the cursor. Counting a
record in pieces and counting it whole must give the same counters, and the tests check
it after every test that played (``tests/conftest.py`` counts, then recounts).

An event's id is given when its row is inserted, not when its transaction commits, so an
event may become visible after one with a higher id. A batch therefore stops before the
first event younger than :data:`SETTLE`: a transaction still open after that long (a move
takes milliseconds) would leave its rolls behind the cursor, never counted.
``recount_stats`` would report them, and ``--repair`` would count them.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, Max, QuerySet

from matches.models import GameEvent

from .models import Cursor, PlayerStats
from .services import bump, counted, player_stats_rows, roll_key

#: The cursor's name.
DICE = "dice"
#: How old an event must be before the count may pass it (see the module's docstring).
SETTLE = timedelta(minutes=1)
#: Events (of every kind) read per batch, each batch its own transaction.
BATCH = 20_000

CounterKey = tuple[int | None, str]
_DICE_KINDS = (GameEvent.Kind.ROLL, GameEvent.Kind.OPENING)


def dice_expected(events: QuerySet[GameEvent]) -> dict[CounterKey, int]:
    """The dice counters that ``events`` add up to: each ``roll`` as one of the 21 rolls,
    for the site and for its thrower, and each opening roll as two single dice, one per
    side (a chouette's board counts for the site only: :func:`~stats.services.counted`).
    Four grouped queries, whatever the number of events."""
    expected: dict[CounterKey, int] = defaultdict(int)
    rolls = events.filter(kind=GameEvent.Kind.ROLL)
    for die1, die2, n in rolls.values_list("die1", "die2").annotate(n=Count("id")).order_by():
        expected[(None, roll_key(die1, die2))] += n
    players_rolls = (
        counted(rolls, "game__match")
        .values_list("game__match__white_id", "game__match__black_id", "color", "die1", "die2")
        .annotate(n=Count("id"))
        .order_by()
    )
    for white_id, black_id, color, die1, die2, n in players_rolls:
        expected[(white_id if color == 0 else black_id, roll_key(die1, die2))] += n
    openings = events.filter(kind=GameEvent.Kind.OPENING)
    for white_die, black_die, n in (
        openings.values_list("die1", "die2").annotate(n=Count("id")).order_by()
    ):
        expected[(None, f"opening:{white_die}")] += n
        expected[(None, f"opening:{black_die}")] += n
    players_openings = (
        counted(openings, "game__match")
        .values_list("game__match__white_id", "game__match__black_id", "die1", "die2")
        .annotate(n=Count("id"))
        .order_by()
    )
    for white_id, black_id, white_die, black_die, n in players_openings:
        expected[(white_id, f"opening:{white_die}")] += n
        expected[(black_id, f"opening:{black_die}")] += n
    return dict(expected)


def dice_cursor(*, lock: bool = False) -> Cursor:
    """The dice's cursor (made at zero if it is missing: a database just flushed); with
    ``lock``, locked until the transaction ends, so one count runs at a time and a
    recount reads counters and cursor that go together."""
    rows = Cursor.objects.select_for_update() if lock else Cursor.objects
    return rows.get_or_create(name=DICE)[0]


def stats_count_dice(
    *, now: datetime, settle: timedelta | None = SETTLE, batch: int = BATCH
) -> int:
    """Count the rolls recorded since the cursor, up to those younger than ``settle``
    (None: every event committed, for the tests and the bench, where nothing else is
    writing), a batch at a time; the number of rolls counted (an opening roll is one)."""
    total = 0
    while True:
        rolls, more = _count_batch(now, settle, batch)
        total += rolls
        if not more:
            return total


@transaction.atomic
def _count_batch(now: datetime, settle: timedelta | None, batch: int) -> tuple[int, bool]:
    """One batch: its rolls added to the counters, its throwers marked active, the cursor
    moved past it. Returns the rolls counted and whether events remain."""
    cursor = dice_cursor(lock=True)
    until = now if settle is None else now - settle
    after = GameEvent.objects.filter(pk__gt=cursor.event_id)
    first_young = None
    if settle is not None:
        young = after.filter(created_at__gt=until).order_by("pk")
        first_young = young.values_list("pk", flat=True).first()
    if first_young is not None:
        after = after.filter(pk__lt=first_young)
    ids = list(after.order_by("pk").values_list("pk", "created_at")[:batch])
    more = len(ids) == batch
    if not ids:
        if first_young is None and (cursor.counted_until is None or until > cursor.counted_until):
            cursor.counted_until = until
            cursor.save(update_fields=["counted_until"])
        return 0, False
    last_id, last_at = ids[-1]
    events = GameEvent.objects.filter(pk__gt=cursor.event_id, pk__lte=last_id)
    counts = dice_expected(events)
    bump((player_id, key, n) for (player_id, key), n in counts.items())
    _mark_throwers_active(events)
    cursor.event_id = last_id
    cursor.counted_until = last_at if more or first_young is not None else until
    cursor.save(update_fields=["event_id", "counted_until"])
    site = [(key, n) for (player_id, key), n in counts.items() if player_id is None]
    rolls = sum(n for key, n in site if key.startswith("roll:"))
    openings = sum(n for key, n in site if key.startswith("opening:")) // 2
    return rolls + openings, more


def _mark_throwers_active(events: QuerySet[GameEvent]) -> None:
    """Each player the dice of ``events`` were thrown for took part in play then (the
    site page's active players): their ``last_active_at`` is moved up to their latest
    roll, never back (a game that ended since may have set a later time)."""
    latest: dict[int, datetime] = {}
    thrown = (
        events.filter(kind__in=_DICE_KINDS)
        .values_list("kind", "color", "game__match__white_id", "game__match__black_id")
        .annotate(at=Max("created_at"))
        .order_by()
    )
    for kind, color, white_id, black_id, at in thrown:
        players: list[int]
        if kind == GameEvent.Kind.OPENING:
            players = [white_id, black_id]
        else:
            players = [white_id if color == 0 else black_id]
        for player_id in players:
            if player_id not in latest or at > latest[player_id]:
                latest[player_id] = at
    if not latest:
        return
    rows = player_stats_rows(latest, lock=True)
    changed = [
        row
        for player_id, row in sorted(rows.items())
        if row.last_active_at is None or row.last_active_at < latest[player_id]
    ]
    for row in changed:
        row.last_active_at = latest[row.player_id]
    PlayerStats.objects.bulk_update(changed, ["last_active_at"], batch_size=500)


def dice_counted_until() -> datetime | None:
    """When the dice figures are fresh to (None: never counted)."""
    return Cursor.objects.filter(name=DICE).values_list("counted_until", flat=True).first()
