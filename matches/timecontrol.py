"""The correspondence clock: days per move, a time bank, and vacations.

A player on turn has ``days_per_move`` for this turn plus whatever is left of their
bank (``Match.bank_white`` / ``bank_black``). The bank is used only once the move
time has run out. ``Game.deadline_at`` is the moment the player on turn loses on
time: the turn start plus move time plus bank, with every vacation of that player
that falls inside pushed out (their clock stops while they are away).

When the player acts, what is left of their clock is what is left of their bank,
capped by the bank: ``bank = min(bank, time left)``. So moving within the move time
keeps the bank whole, and moving late takes the overrun out of it.

Everything takes ``now``; nothing reads the wall clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from gammon import Color

if TYPE_CHECKING:
    from accounts.models import User

ZERO = timedelta(0)
Interval = tuple[datetime, datetime]


def extend(start: datetime, budget: timedelta, away: Iterable[Interval]) -> datetime:
    """The moment ``budget`` of clock time has run from ``start``, skipping ``away``.

    >>> from datetime import timezone as tz
    >>> t0 = datetime(2025, 1, 1, tzinfo=tz.utc)
    >>> extend(t0, timedelta(days=3), [(t0 + timedelta(days=1), t0 + timedelta(days=2))]).day
    5
    """
    t = start
    remaining = budget
    for a, b in sorted(away):
        if b <= t:
            continue
        if a >= t + remaining:
            break
        if a > t:
            remaining -= a - t
        t = b
    return t + remaining


def running_time(start: datetime, end: datetime, away: Iterable[Interval]) -> timedelta:
    """How much clock time runs from ``start`` to ``end`` (zero if ``end`` is past)."""
    if end <= start:
        return ZERO
    total = end - start
    for a, b in away:
        lo, hi = max(a, start), min(b, end)
        if hi > lo:
            total -= hi - lo
    return max(total, ZERO)


def vacation_instants(start: date, end: date, zone: str) -> Interval:
    """Midnight before ``start`` to midnight after ``end``, in ``zone``."""
    tz = ZoneInfo(zone)
    return (
        datetime.combine(start, time(), tzinfo=tz),
        datetime.combine(end + timedelta(days=1), time(), tzinfo=tz),
    )


def away_intervals(user_id: int, now: datetime) -> list[Interval]:
    """The vacations of ``user_id`` that have not ended by ``now``, oldest first."""
    from .models import Vacation

    rows = Vacation.objects.filter(user_id=user_id, ends_at__gt=now).order_by("starts_at")
    return [(v.starts_at, v.ends_at) for v in rows.only("starts_at", "ends_at")]


#: The attribute :func:`note_vacation_ahead` sets on a loaded user (not a column).
_VACATION_AHEAD = "vacation_ahead"


def note_vacation_ahead(user: User, ahead: bool) -> None:
    """Remember on this loaded ``user`` whether they have a vacation ending after now, as
    read in this transaction (``matches.record.lock`` reads it with the locked game, for
    both players, in the same query), so that :func:`away_intervals_of` can skip its
    query for a player with none. A fresh instance of the user knows nothing of it."""
    setattr(user, _VACATION_AHEAD, ahead)


def away_intervals_of(user: User, now: datetime) -> list[Interval]:
    """:func:`away_intervals` for a loaded user. No query when the caller has noted
    (:func:`note_vacation_ahead`) that the user has no vacation ending after ``now``."""
    if getattr(user, _VACATION_AHEAD, True) is False:
        return []
    return away_intervals(user.pk, now)


def bank_of(match: object, color: Color) -> timedelta:
    value = getattr(match, "bank_white" if color == Color.WHITE else "bank_black")
    return value or ZERO


def set_bank(match: object, color: Color, value: timedelta) -> str:
    field = "bank_white" if color == Color.WHITE else "bank_black"
    setattr(match, field, value)
    return field


def deadline_for(
    *, days_per_move: int, bank: timedelta, now: datetime, away: Sequence[Interval]
) -> datetime:
    """The time-out moment of a turn that starts ``now``."""
    return extend(now, timedelta(days=days_per_move) + bank, away)


def bank_after_turn(
    *, bank: timedelta, deadline_at: datetime, now: datetime, away: Sequence[Interval]
) -> timedelta:
    """What is left of the bank when the player on turn acts at ``now``."""
    return min(bank, running_time(now, deadline_at, away))


def move_deadline(
    *, bank: timedelta, deadline_at: datetime, now: datetime, away: Sequence[Interval]
) -> datetime | None:
    """When the move time of the current turn runs out; None once the bank is running."""
    left = running_time(now, deadline_at, away)
    if left <= bank:
        return None
    return extend(now, left - bank, away)


# --------------------------------------------------------------------------- live clocks

#: The live clocks offered (delay, reserve, in seconds): seed 004's 11 s a turn and a
#: 90 s reserve first. ``settings.LIVE_CLOCK_PRESETS`` may replace them (a test's short clock).
LIVE_PRESETS: tuple[tuple[int, int], ...] = ((11, 90), (8, 60), (12, 180), (15, 300))
#: The default live clock: seed 004's.
LIVE_DEFAULT = LIVE_PRESETS[0]


def live_presets() -> tuple[tuple[int, int], ...]:
    """The live clocks offered on the forms: ``settings.LIVE_CLOCK_PRESETS`` or ours."""
    from django.conf import settings

    presets = getattr(settings, "LIVE_CLOCK_PRESETS", None) or LIVE_PRESETS
    return tuple((int(delay), int(reserve)) for delay, reserve in presets)


def live_flag_at(*, turn_started_at: datetime, delay: int, reserve: timedelta) -> datetime:
    """When a live clock falls: the delay runs first from the turn's start, then the
    reserve. After it the opponent may claim the win; until then nothing can.

    >>> from datetime import timezone as tz
    >>> t0 = datetime(2025, 1, 1, tzinfo=tz.utc)
    >>> (live_flag_at(turn_started_at=t0, delay=11, reserve=timedelta(seconds=90)) - t0).seconds
    101
    """
    return turn_started_at + timedelta(seconds=delay) + reserve


def live_reserve_after(
    *, turn_started_at: datetime, delay: int, reserve: timedelta, now: datetime
) -> timedelta:
    """What is left of the reserve when the player acts at ``now``: a turn within the
    delay costs nothing, a longer one comes off the reserve, which stops at zero (play
    goes on if nobody claims; the next turns have the delay alone).

    >>> from datetime import timezone as tz
    >>> t0 = datetime(2025, 1, 1, tzinfo=tz.utc)
    >>> r = timedelta(seconds=90)
    >>> live_reserve_after(turn_started_at=t0, delay=11, reserve=r, now=t0 + timedelta(seconds=5))
    datetime.timedelta(seconds=90)
    >>> live_reserve_after(turn_started_at=t0, delay=11, reserve=r, now=t0 + timedelta(seconds=21))
    datetime.timedelta(seconds=80)
    >>> live_reserve_after(turn_started_at=t0, delay=11, reserve=r, now=t0 + timedelta(hours=1))
    datetime.timedelta(0)
    """
    flag = live_flag_at(turn_started_at=turn_started_at, delay=delay, reserve=reserve)
    return min(reserve, max(ZERO, flag - now))
