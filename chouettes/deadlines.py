"""A member's own clock, off the board.

While a vote or the members' answers hold the board (its clock stopped), each member
awaited has a deadline of their own (:attr:`~chouettes.models.Seat.deadline_at`), from
their days per move, bank and vacations. An answer charges the overrun to their bank;
silence past it is a decision (:func:`chouettes.decisions.decisions_expire`); a change
of their vacations moves it as it moves a board's.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from accounts.models import User
from gammon import chouette as rules
from matches import clock, timecontrol

from .models import Chouette, ChouetteGame, Seat
from .signals import decision_awaited


def await_members(
    chouette: Chouette,
    game: ChouetteGame,
    after: rules.ChouetteGame[int],
    kind: str,
    now: datetime,
) -> None:
    """Give each member whose answer is awaited their deadline, and tell them."""
    seats = list(chouette.seats.filter(player__in=after.awaiting).select_related("player"))
    for seat in seats:
        seat.deadline_at = timecontrol.deadline_for(
            days_per_move=chouette.days_per_move,
            bank=seat.bank or timedelta(0),
            now=now,
            away=timecontrol.away_intervals_of(seat.player, now),
        )
    Seat.objects.bulk_update(seats, ["deadline_at"])
    decision_awaited.send(
        sender=ChouetteGame, game=game, kind=kind, players=[s.player for s in seats], now=now
    )


def charge(chouette: Chouette, seat: Seat, now: datetime) -> None:
    """The member has answered: an overrun of their days per move comes off their bank."""
    if seat.deadline_at is not None and seat.bank:
        seat.bank = timecontrol.bank_after_turn(
            bank=seat.bank,
            deadline_at=seat.deadline_at,
            now=now,
            away=timecontrol.away_intervals_of(seat.player, now),
        )
    seat.deadline_at = None
    seat.save(update_fields=["bank", "deadline_at"])


def clear(chouette: Chouette) -> None:
    """No member is awaited any more: the decision is made, or the game is over."""
    chouette.seats.filter(deadline_at__isnull=False).update(deadline_at=None)


def deadlines_reschedule(user: User, before: list[timecontrol.Interval], now: datetime) -> None:
    """``user``'s vacations changed: their votes and answers awaited keep the time left."""
    after = timecontrol.away_intervals(user.pk, now)
    seats = Seat.objects.filter(player=user, deadline_at__gt=now).select_for_update()
    for seat in seats:
        assert seat.deadline_at is not None  # deadline_at__gt above
        seat.deadline_at = clock.moved_deadline(seat.deadline_at, now, before, after)
        seat.save(update_fields=["deadline_at"])


def spend_bank(seat: Seat) -> None:
    """The member was silent past their deadline: their whole bank is spent."""
    seat.bank = timedelta(0) if seat.bank is not None else None
    seat.deadline_at = None
    seat.save(update_fields=["bank", "deadline_at"])
