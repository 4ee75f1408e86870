"""Repeating tournaments: the beat opens each schedule's next edition when its
registration is due (a director or a moderator stops one: :mod:`tournaments.directing`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction

from .creation import SCHEDULED_OPTIONS
from .models import Schedule, Tournament


def schedules_run(*, now: datetime) -> int:
    """Open the next edition of every active schedule whose registration is due; the beat
    runs this. Each schedule in its own transaction; the number of editions created."""
    due = Schedule.objects.filter(active=True).values_list("pk", flat=True)
    return sum(_schedule_run(pk, now) for pk in list(due))


@transaction.atomic
def _schedule_run(schedule_id: int, now: datetime) -> int:
    schedule = Schedule.objects.select_for_update().get(pk=schedule_id)
    made = 0
    while schedule.next_opens_at <= now:
        start = schedule.next_start_at
        if start > now:
            options = {option: getattr(schedule, option) for option in SCHEDULED_OPTIONS}
            Tournament.objects.create(
                name=f"{schedule.name} {start:%Y-%m-%d}",
                format=schedule.format,
                created_by=schedule.created_by,
                schedule=schedule,
                registration_opens_at=now,
                starts_at=start,
                created_at=now,
                **options,
            )
            made += 1
        schedule.next_start_at = start + timedelta(days=schedule.every_days)
    schedule.save(update_fields=["next_start_at"])
    return made
