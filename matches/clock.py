"""Time control over all games: the expiry sweep, vacations, and a game's clock.

- :func:`games_expire_overdue` (every minute, from ``matches.tasks``) picks overdue
  games with ``SELECT … FOR UPDATE SKIP LOCKED`` in batches (the partial index
  ``game_active_deadline`` keeps the cost proportional to the overdue games), so two
  concurrent runs never act twice, and ends them through
  :func:`matches.endings.games_time_out_batch` (money sessions:
  :func:`matches.endings.game_time_out_locked`), which re-check the deadline under
  the lock. Both apply the one definition of a time-out (``endings._time_out``).
- :func:`vacation_take` and :func:`vacation_cancel` (the player's pages), and
  :func:`vacation_change` and :func:`vacation_delete` (a moderator, in the admin), move
  the deadlines of the games where the player is on turn (:func:`reschedule`).
"""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from typing import TypedDict
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import InvalidAction

from . import timecontrol
from .endings import game_time_out_locked, games_time_out_batch, live_time_left
from .models import Game, Match, Vacation
from .signals import vacations_changed

log = logging.getLogger(__name__)

EXPIRY_BATCH = 500
#: How far ahead a vacation may end: the allowance counts the next year's days too, and
#: dates at the end of the calendar must never reach the clock's arithmetic.
VACATION_AHEAD = timedelta(days=730)


# --------------------------------------------------------------------------- expiry


def overdue_games(now: datetime) -> QuerySet[Game]:
    """Live games whose player on turn has run out of time (uses the partial index)."""
    return Game.objects.exclude(state=Game.State.FINISHED).filter(deadline_at__lte=now)


def games_expire_overdue(*, now: datetime, batch: int = EXPIRY_BATCH) -> int:
    """End every overdue game on time. Returns how many this run ended.

    Each batch is one transaction. One query claims up to ``batch`` games with their
    matches and the matches' players (``FOR UPDATE OF`` game and match ``SKIP LOCKED``:
    another run, or a player acting on the match, keeps its rows and this run takes
    others; nothing waits, so nothing deadlocks). The match-play games, the common case,
    are then ended together by :func:`~matches.endings.games_time_out_batch` (plain ORM
    bulk writes, a constant number of statements per batch) in a savepoint. The rest
    (money sessions, whose next game starts at once) go one by one through
    :func:`~matches.endings.game_time_out_locked`, each in its own savepoint; so do all
    the batch's games if the batch write fails, so that a failure rolls back one game only.
    """
    ended = 0
    skip: set[int] = set()
    while True:
        with transaction.atomic():
            games = _claim(now, skip, batch)
            if not games:
                return ended
            try:
                with transaction.atomic():  # a failure rolls back the batch's savepoint
                    done = {game.pk for game in games_time_out_batch(games=games, now=now)}
            except Exception:
                log.exception("could not expire a batch of %s games; one by one", len(games))
                done = set()
                games = _claim(now, skip, batch, pks=[game.pk for game in games])
            ended += len(done)
            for game in games:
                if game.pk in done:
                    continue
                try:
                    with transaction.atomic():  # a failure rolls back this game's savepoint
                        one = game_time_out_locked(game=game, now=now)
                except Exception:
                    log.exception("could not expire game %s", game.pk)
                    one = None
                if one is None:
                    skip.add(game.pk)
                else:
                    ended += 1


def _claim(now: datetime, skip: set[int], batch: int, pks: list[int] | None = None) -> list[Game]:
    """Lock and read up to ``batch`` overdue games with their matches and players (or,
    with ``pks``, re-read those games, already locked by this transaction)."""
    picked = (
        overdue_games(now)
        .exclude(pk__in=skip)
        .select_related("match", "match__white", "match__black")
        .order_by("deadline_at", "pk")
    )
    if pks is not None:
        picked = picked.filter(pk__in=pks)
    # SQLite has no row locks (Django leaves the clause out there): one writer at a time.
    picked = picked.select_for_update(skip_locked=True, of=("self", "match"))
    return list(picked[:batch])


# --------------------------------------------------------------------------- vacations


def _local_today(user: User, now: datetime) -> date:
    return now.astimezone(ZoneInfo(user.time_zone or "UTC")).date()


def vacation_days_used(user: User, year: int, *, exclude: int | None = None) -> int:
    """Days of vacation ``user`` has in calendar ``year``."""
    first, last = date(year, 1, 1), date(year, 12, 31)
    used = 0
    rows = Vacation.objects.filter(user=user, start__lte=last, end__gte=first)
    if exclude is not None:
        rows = rows.exclude(pk=exclude)
    for v in rows:
        used += (min(v.end, last) - max(v.start, first)).days + 1
    return used


def reschedule(user: User, now: datetime, before: list[timecontrol.Interval]) -> None:
    """Recompute the deadlines of games where ``user`` is on turn, after their vacations
    changed from ``before`` to what is stored now. The clock time left is kept."""
    after = timecontrol.away_intervals(user.pk, now)
    games = (
        Game.objects.exclude(state=Game.State.FINISHED)
        .filter(
            Q(match__white=user, turn=0) | Q(match__black=user, turn=1),
            match__status=Match.Status.PLAYING,
            deadline_at__gt=now,
        )
        .select_for_update(of=("self",))
    )
    for game in games:
        assert game.deadline_at is not None  # deadline_at__gt above
        game.deadline_at = moved_deadline(game.deadline_at, now, before, after)
        game.save(update_fields=["deadline_at"])
    vacations_changed.send(sender=Vacation, user=user, before=before, now=now)


def moved_deadline(
    deadline_at: datetime,
    now: datetime,
    before: list[timecontrol.Interval],
    after: list[timecontrol.Interval],
) -> datetime:
    """A deadline after the player's away intervals changed from ``before`` to ``after``:
    the clock time they had left is kept."""
    left = timecontrol.running_time(now, deadline_at, before)
    return timecontrol.extend(now, left, after)


def _vacation_check(
    *, user: User, start: date, end: date, now: datetime, vacation: Vacation | None = None
) -> None:
    """The rules of a vacation's dates, for a new one or (``vacation``) a change to one.

    A new vacation starts today or later (the user's today). A change keeps what the
    clocks already lived through: a vacation that is over stays as it was, one that has
    begun keeps its first day, and a day that changes is not in the past. Both end at
    most ``VACATION_AHEAD`` ahead, overlap no other vacation of the player and fit the
    yearly allowance (``user.vacation_days_per_year`` per calendar year).
    """
    today = _local_today(user, now)
    if end < start:
        raise InvalidAction(_("The vacation must end on or after its first day."), code="order")
    if vacation is not None and vacation.ends_at <= now:
        raise InvalidAction(_("This vacation is over: it can no longer change."), code="over")
    if vacation is not None and start != vacation.start and vacation.starts_at <= now:
        raise InvalidAction(
            _("This vacation has begun: its first day cannot change."), code="started"
        )
    if (vacation is None or start != vacation.start) and start < today:
        raise InvalidAction(_("A vacation cannot start in the past."), code="past")
    if vacation is not None and end != vacation.end and end < today:
        raise InvalidAction(_("A vacation cannot end in the past."), code="past_end")
    if end > today + VACATION_AHEAD:
        raise InvalidAction(
            _("A vacation can be booked at most two years ahead."), code="too_far_ahead"
        )
    others = Vacation.objects.filter(user=user, start__lte=end, end__gte=start)
    exclude = None
    if vacation is not None:
        exclude = vacation.pk
        others = others.exclude(pk=exclude)
    if others.exists():
        raise InvalidAction(_("This vacation overlaps another one."), code="overlap")
    for year in range(start.year, end.year + 1):
        first, last = max(start, date(year, 1, 1)), min(end, date(year, 12, 31))
        wanted = (last - first).days + 1
        used = vacation_days_used(user, year, exclude=exclude)
        if used + wanted > user.vacation_days_per_year:
            raise InvalidAction(
                _("Only %(left)s vacation days are left for %(year)s."),
                code="allowance",
                left=max(user.vacation_days_per_year - used, 0),
                year=year,
            )


@transaction.atomic
def vacation_take(*, user: User, start: date, end: date, now: datetime) -> Vacation:
    """Take vacation from ``start`` to ``end`` (inclusive, the user's dates).

    It may start today or later and end at most two years ahead (``VACATION_AHEAD``;
    9999-12-31 overflowed the clock), must not overlap another vacation, and must fit the
    yearly allowance (``user.vacation_days_per_year`` per calendar year). The user's
    clocks stop for its length in every game.
    """
    User.objects.select_for_update().filter(pk=user.pk).first()  # one change at a time
    _vacation_check(user=user, start=start, end=end, now=now)
    before = timecontrol.away_intervals(user.pk, now)
    starts_at, ends_at = timecontrol.vacation_instants(start, end, user.time_zone or "UTC")
    vacation = Vacation.objects.create(
        user=user, start=start, end=end, starts_at=starts_at, ends_at=ends_at, created_at=now
    )
    reschedule(user, now, before)
    return vacation


@transaction.atomic
def vacation_cancel(*, user: User, vacation_id: int, now: datetime) -> None:
    """Cancel a vacation, or end a running one today: the clocks run again from ``now``."""
    vacation = Vacation.objects.select_for_update().filter(pk=vacation_id, user=user).first()
    if vacation is None or vacation.ends_at <= now:
        raise InvalidAction(_("There is no such vacation to cancel."), code="no_vacation")
    before = timecontrol.away_intervals(user.pk, now)
    if vacation.starts_at >= now:
        vacation.delete()
    else:
        today = _local_today(user, now)
        vacation.end = max(today, vacation.start)
        vacation.ends_at = now
        vacation.save(update_fields=["end", "ends_at"])
    reschedule(user, now, before)


def _vacation_locked(vacation_id: int) -> tuple[Vacation, User]:
    """The vacation and its player, the player's row locked (one change at a time, as
    :func:`vacation_take` does) and the vacation read after the lock."""
    user_id = Vacation.objects.filter(pk=vacation_id).values_list("user_id", flat=True).first()
    user = None if user_id is None else User.objects.select_for_update().filter(pk=user_id).first()
    vacation = Vacation.objects.select_for_update().filter(pk=vacation_id).first()
    if user is None or vacation is None or vacation.user_id != user.pk:
        raise InvalidAction(_("There is no such vacation."), code="no_vacation")
    return vacation, user


@transaction.atomic
def vacation_change_check(*, vacation_id: int, start: date, end: date, now: datetime) -> None:
    """Raise the :class:`InvalidAction` that :func:`vacation_change` would raise.

    It locks the player's row for the rest of the caller's transaction: the admin's form
    checks first (to show the refusal on the form) and saves later in the same
    transaction, and nothing can change the answer in between.
    """
    vacation, user = _vacation_locked(vacation_id)
    _vacation_check(user=user, start=start, end=end, now=now, vacation=vacation)


@transaction.atomic
def vacation_change(*, vacation_id: int, start: date, end: date, now: datetime) -> Vacation:
    """A moderator's change of a player's vacation (the admin): new first and last days.

    Refused (:class:`InvalidAction`) as ``_vacation_check`` says for a change. A day
    that changes gets its instant again (local midnight, as :func:`vacation_take` stores
    it); the other keeps the stored one (a vacation cut short by :func:`vacation_cancel`
    ends at that moment).
    The deadlines of the games where the player is on turn then move as the player's own
    pages move them (:func:`reschedule`): the clock time left is kept.
    """
    vacation, user = _vacation_locked(vacation_id)
    if (start, end) == (vacation.start, vacation.end):
        return vacation
    _vacation_check(user=user, start=start, end=end, now=now, vacation=vacation)
    before = timecontrol.away_intervals(user.pk, now)
    starts_at, ends_at = timecontrol.vacation_instants(start, end, user.time_zone or "UTC")
    if start != vacation.start:
        vacation.start, vacation.starts_at = start, starts_at
    if end != vacation.end:
        vacation.end, vacation.ends_at = end, ends_at
    vacation.save(update_fields=["start", "starts_at", "end", "ends_at"])
    reschedule(user, now, before)
    return vacation


@transaction.atomic
def vacation_delete(*, vacation_id: int, now: datetime) -> None:
    """A moderator's removal of a player's vacation (the admin). Its days go back to the
    allowance; from ``now`` on the player's clocks run through them (:func:`reschedule`
    keeps the clock time left). Time that already passed stays as it ran."""
    vacation, user = _vacation_locked(vacation_id)
    before = timecontrol.away_intervals(user.pk, now)
    vacation.delete()
    reschedule(user, now, before)


def away_until(user: User, now: datetime) -> date | None:
    """The last day of the vacation ``user`` is on at ``now``, if any."""
    vacation = (
        Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now)
        .order_by("-ends_at")
        .first()
    )
    return vacation.end if vacation else None


class GameClock(TypedDict):
    """The clock of the player on turn (all None once the game is over)."""

    deadline_at: datetime | None
    move_deadline_at: datetime | None
    bank: timedelta | None
    away_until: date | None


def game_clock(game: Game, now: datetime) -> GameClock:
    """What the game page and the API show about the clock of the player on turn."""
    if game.is_finished or game.deadline_at is None:
        return {"deadline_at": None, "move_deadline_at": None, "bank": None, "away_until": None}
    match = game.match
    color = game.turn_color
    away = timecontrol.away_intervals_of(match.player(color), now)
    bank = timecontrol.bank_of(match, color)
    current = [v for v in away if v[0] <= now < v[1]]
    until = None
    if current:
        until = away_until(match.player(color), now)
    return {
        "deadline_at": game.deadline_at,
        "move_deadline_at": timecontrol.move_deadline(
            bank=bank, deadline_at=game.deadline_at, now=now, away=away
        ),
        "bank": bank,
        "away_until": until,
    }


class LiveClock(TypedDict):
    """A live clock (issue 28) as the game page and the API show it: the server decides,
    the page only counts down from these."""

    delay_seconds: int
    reserve_seconds: dict[str, float]
    turn_started_at: datetime
    flag_at: datetime
    time_left_seconds: float
    fallen: bool


def live_clock(game: Game, now: datetime) -> LiveClock | None:
    """The live clock of ``game`` at ``now``; None for a correspondence or finished game.

    ``reserve_seconds`` are the reserves as stored (the player on turn spends theirs once
    the delay has run); ``flag_at`` is when the clock of the player on turn falls, after
    which the opponent may claim the win (``fallen``)."""
    left = live_time_left(game, now)
    match = game.match
    if left is None or match.live_delay is None or game.turn_started_at is None:
        return None
    reserve = timecontrol.bank_of(match, game.turn_color)
    return {
        "delay_seconds": match.live_delay,
        "reserve_seconds": {
            "white": (match.bank_white or timecontrol.ZERO).total_seconds(),
            "black": (match.bank_black or timecontrol.ZERO).total_seconds(),
        },
        "turn_started_at": game.turn_started_at,
        "flag_at": timecontrol.live_flag_at(
            turn_started_at=game.turn_started_at, delay=match.live_delay, reserve=reserve
        ),
        "time_left_seconds": left.total_seconds(),
        "fallen": not left,
    }
