"""Creating a tournament: who may, the options no tournament can be played with, and a
moderator's repeating tournament (its first edition and its schedule)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Forbidden, InvalidAction

from .models import Format, Invitation, Schedule, Tournament

#: Who may create a tournament: moderators with this permission, and players too when
#: ``settings.TOURNAMENTS_BY_PLAYERS`` is on. Only moderators set up repeating ones.
MANAGE_PERMISSION = "tournaments.manage_tournament"

#: The longest gap between two editions of a repeating tournament.
MAX_REPEAT_DAYS = 365

#: What a schedule's editions take from it (besides the format).
SCHEDULED_OPTIONS = (
    "description",
    "length",
    "variant",
    "days_per_move",
    "time_bank_days",
    "rated",
    "min_players",
    "max_players",
    "rating_min",
    "rating_max",
    "invitation_only",
    "rounds",
    "group_size",
    "knockout_after",
)


def may_create(user: User) -> bool:
    return bool(
        user.is_authenticated
        and (user.has_perm(MANAGE_PERMISSION) or getattr(settings, "TOURNAMENTS_BY_PLAYERS", False))
    )


#: The options :func:`check_options` checks, by name.
CHECKED_OPTIONS = (
    "format",
    "length",
    "min_players",
    "max_players",
    "rounds",
    "group_size",
    "knockout_after",
    "rating_min",
    "rating_max",
)


def check_options(
    *,
    format: str,
    length: int,
    min_players: int,
    max_players: int,
    rounds: int,
    group_size: int,
    knockout_after: bool,
    rating_min: float | None,
    rating_max: float | None,
) -> None:
    """Refuse options no tournament can be played with (a 400 that says which)."""
    if format not in Format.values:
        raise InvalidAction(_("Choose knock-out, round-robin or Swiss."), code="format")
    if not (1 <= length <= 21 and length % 2 == 1):
        raise InvalidAction(_("Matches are to an odd number of points, 1 to 21."), code="length")
    if not 2 <= min_players <= max_players <= 4096:
        raise InvalidAction(
            _("Set at least 2 players, and a maximum no lower than the minimum."),
            code="players",
        )
    if format == Format.SWISS and not 1 <= rounds <= 20:
        raise InvalidAction(_("A Swiss has 1 to 20 rounds."), code="rounds")
    if format == Format.SWISS and min_players <= rounds:
        raise InvalidAction(
            _("A Swiss needs more players than rounds, so nobody meets twice."), code="rounds"
        )
    if format == Format.ROUND_ROBIN and group_size and (group_size < 2 or not knockout_after):
        raise InvalidAction(
            _("Groups have at least 2 players, and their winners then play a knock-out."),
            code="groups",
        )
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise InvalidAction(_("The lowest rating is above the highest."), code="rating_limits")


@transaction.atomic
def tournament_create(
    *,
    creator: User,
    now: datetime,
    name: str,
    format: str,
    starts_at: datetime,
    registration_opens_at: datetime | None = None,
    invite: Sequence[User] = (),
    schedule: Schedule | None = None,
    repeat_days: int = 0,
    **options: object,
) -> Tournament:
    """A new tournament, open for registration from ``registration_opens_at`` (now by
    default) until it starts at ``starts_at``.

    ``repeat_days``: a moderator's repeating tournament. This is its first edition, and
    a :class:`~tournaments.models.Schedule` with the same options opens the next one
    ``repeat_days`` later, with the same registration time before its start, and so on
    until its director or a moderator stops it
    (:func:`~tournaments.directing.schedule_stop`). Each edition's name ends with
    its start date."""
    if not may_create(creator):
        raise Forbidden(_("Only the moderators create tournaments."))
    name = name.strip()
    if not name:
        raise InvalidAction(_("Give the tournament a name."), code="name")
    opens = now if registration_opens_at is None else registration_opens_at
    if not opens < starts_at or starts_at <= now:
        raise InvalidAction(
            _("The tournament starts in the future, after its registration opens."),
            code="dates",
        )
    if repeat_days:
        _check_repeat(creator, repeat_days, bool(options.get("invitation_only")))
    tournament = Tournament(
        name=f"{name} {starts_at:%Y-%m-%d}" if repeat_days else name,
        format=format,
        created_by=creator,
        schedule=schedule,
        registration_opens_at=opens,
        starts_at=starts_at,
        created_at=now,
        **options,
    )
    check_options(**{option: getattr(tournament, option) for option in CHECKED_OPTIONS})
    if repeat_days:
        tournament.schedule = Schedule.objects.create(
            name=name,
            format=tournament.format,
            created_by=creator,
            every_days=repeat_days,
            registration_days=max(1, math.ceil((starts_at - opens) / timedelta(days=1))),
            next_start_at=starts_at + timedelta(days=repeat_days),
            **{option: getattr(tournament, option) for option in SCHEDULED_OPTIONS},
        )
    tournament.save()
    Invitation.objects.bulk_create(
        [Invitation(tournament=tournament, player=p) for p in invite], ignore_conflicts=True
    )
    return tournament


def _check_repeat(creator: User, repeat_days: int, invitation_only: bool) -> None:
    if not creator.has_perm(MANAGE_PERMISSION):
        raise Forbidden(_("Only the moderators set up repeating tournaments."), code="repeat")
    check_repeat(repeat_days=repeat_days, invitation_only=invitation_only)


def check_repeat(*, repeat_days: int, invitation_only: bool) -> None:
    """Refuse a repeat no schedule can run (a 400 that says why); the admin's schedule
    form asks it too."""
    if not 1 <= repeat_days <= MAX_REPEAT_DAYS:
        raise InvalidAction(
            _("A tournament repeats every 1 to %(days)s days."), code="repeat", days=MAX_REPEAT_DAYS
        )
    if invitation_only:
        raise InvalidAction(
            _("A repeating tournament is open to all: its editions have no invitations."),
            code="repeat",
        )
