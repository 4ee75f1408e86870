"""Registration, the start at its time (or the cancellation short of players), the beat
run twice, schedules, and who may create a tournament."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings

from backgammon.errors import Conflict, Forbidden, InvalidAction
from notifications.models import Notification
from notifications.texts import notification_text
from stats.models import PlayerStats
from tests.factories import UserFactory
from tournaments import creation, registration, schedules, tasks
from tournaments.models import Entry, Schedule, Tournament

from .helpers import NOW, START, moderator, players

pytestmark = pytest.mark.django_db


def cup(**options: object) -> Tournament:
    options.setdefault("format", "knockout")
    return creation.tournament_create(
        creator=moderator(),
        now=NOW,
        name="Cup",
        starts_at=START,
        **options,  # type: ignore[arg-type]
    )


def test_registration_rules() -> None:
    tournament = cup(max_players=2, rating_max=1790, min_players=2)
    ann, bob, cy = players(3)  # ratings 1790, 1780, 1770
    registration.tournament_register(tournament_id=tournament.pk, user=ann, now=NOW)
    with pytest.raises(Conflict):
        registration.tournament_register(tournament_id=tournament.pk, user=ann, now=NOW)
    PlayerStats.objects.filter(player=bob).update(rating=1850)
    with pytest.raises(Forbidden) as limits:
        registration.tournament_register(tournament_id=tournament.pk, user=bob, now=NOW)
    assert limits.value.code == "rating_limits"
    registration.tournament_register(tournament_id=tournament.pk, user=cy, now=NOW)
    zed = UserFactory(username="zed")
    with pytest.raises(Conflict) as full:
        registration.tournament_register(tournament_id=tournament.pk, user=zed, now=NOW)
    assert full.value.code == "full"
    registration.tournament_withdraw(tournament_id=tournament.pk, user=cy, now=NOW)
    assert not Entry.objects.filter(player=cy).exists()
    told = Notification.objects.filter(recipient=ann, kind=Notification.Kind.TOURNEY_REGISTERED)
    assert notification_text(told.get()) == "You are registered for the tournament Cup."


def test_invitation_only_and_the_window() -> None:
    ann, bob = players(2)
    later = NOW + timedelta(days=1)
    tournament = creation.tournament_create(
        creator=moderator(),
        now=NOW,
        name="Invitational",
        format="knockout",
        starts_at=START,
        registration_opens_at=later,
        invitation_only=True,
        invite=[ann],
    )
    with pytest.raises(Conflict) as early:
        registration.tournament_register(tournament_id=tournament.pk, user=ann, now=NOW)
    assert early.value.code == "not_open"
    registration.tournament_register(tournament_id=tournament.pk, user=ann, now=later)
    with pytest.raises(Forbidden):
        registration.tournament_register(tournament_id=tournament.pk, user=bob, now=later)


def test_the_start_cancels_short_of_players_and_the_beat_twice_does_nothing_more() -> None:
    small = cup(min_players=4)
    enough = cup(min_players=2)
    field = players(3)
    for user in field:
        registration.tournament_register(tournament_id=small.pk, user=user, now=NOW)
        registration.tournament_register(tournament_id=enough.pk, user=user, now=NOW)
    assert tasks.clock_tournaments((START - timedelta(minutes=1)).isoformat()) == 0
    assert tasks.clock_tournaments(START.isoformat()) == 2
    assert tasks.clock_tournaments(START.isoformat()) == 0
    small.refresh_from_db()
    enough.refresh_from_db()
    assert (small.status, small.cancel_reason) == (Tournament.Status.CANCELLED, "too_few")
    assert enough.status == Tournament.Status.RUNNING
    # 3 players: seed 1 has a bye, 2 v 3 play
    assert enough.pairings.filter(match__isnull=False).count() == 1
    assert enough.pairings.get(black__isnull=True).winner.player.username == "p01"  # type: ignore[union-attr]
    cancelled = Notification.objects.filter(kind=Notification.Kind.TOURNEY_CANCELLED)
    assert cancelled.count() == 3


def test_who_may_create_and_what_options_are_refused() -> None:
    player = UserFactory(username="someone")
    with pytest.raises(Forbidden):
        creation.tournament_create(
            creator=player, now=NOW, name="Mine", format="knockout", starts_at=START
        )
    with override_settings(TOURNAMENTS_BY_PLAYERS=True):
        creation.tournament_create(
            creator=player, now=NOW, name="Mine", format="knockout", starts_at=START
        )
    for bad in (
        {"length": 4},
        {"length": 23},
        {"format": "ladder"},
        {"format": "swiss", "rounds": 0},
        {"min_players": 8, "max_players": 4},
        {"format": "round_robin", "group_size": 4},
        {"rating_min": 1800, "rating_max": 1700},
    ):
        with pytest.raises(InvalidAction):
            cup(**bad)
    with pytest.raises(InvalidAction):
        creation.tournament_create(
            creator=moderator(), now=NOW, name="Past", format="knockout", starts_at=NOW
        )


def test_a_schedule_opens_each_edition_once() -> None:
    director = moderator()
    schedule = Schedule.objects.create(
        name="Monday 5-pointer",
        format="knockout",
        length=5,
        max_players=16,
        created_by=director,
        every_days=7,
        registration_days=3,
        next_start_at=NOW + timedelta(days=2),
    )
    assert schedules.schedules_run(now=NOW) == 1
    assert schedules.schedules_run(now=NOW) == 0
    edition = schedule.editions.get()
    assert (edition.starts_at, edition.length, edition.max_players) == (
        NOW + timedelta(days=2),
        5,
        16,
    )
    assert schedules.schedules_run(now=NOW + timedelta(days=6)) == 1
    assert schedule.editions.count() == 2
