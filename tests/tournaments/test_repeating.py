"""Repeating tournaments set up on the site: a director's tournament with "repeat every
N days" is the first edition of a schedule, the beat opens the next editions with the
same options, and its director or a moderator stops it (no other director). The admin's
schedule form checks the options as the site's form does."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.test.utils import override_settings

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction
from tests.factories import UserFactory
from tournaments import creation, directing, schedules
from tournaments.admin import ScheduleForm
from tournaments.models import Schedule, Tournament

from .helpers import NOW, form_data, moderator, staff_moderator

pytestmark = pytest.mark.django_db

START = NOW + timedelta(days=3)


def director_two() -> User:
    """Another director than the tournament's creator (not staff: no moderator)."""
    user = UserFactory(username="director2")
    user.user_permissions.add(Permission.objects.get(codename="manage_tournament"))
    return User.objects.get(pk=user.pk)  # permissions are cached per instance


def weekly(creator: Any = None, **options: Any) -> Tournament:
    """The weekly 5-point knock-out "Monday cup", unless ``options`` say otherwise."""
    defaults = {"name": "Monday cup", "format": "knockout", "repeat_days": 7, "length": 5}
    return creation.tournament_create(
        creator=creator or moderator(),
        now=NOW,
        starts_at=START,
        days_per_move=2,
        max_players=16,
        **{**defaults, **options},
    )


def test_a_repeating_tournament_opens_its_next_editions_by_itself_until_stopped() -> None:
    first = weekly()
    schedule = first.schedule
    assert schedule is not None and schedule.active
    assert first.name == f"Monday cup {START:%Y-%m-%d}"
    assert (schedule.every_days, schedule.registration_days) == (7, 3)
    assert schedule.next_start_at == START + timedelta(days=7)

    # Nothing before the next edition's registration opens (3 days before its start).
    assert schedules.schedules_run(now=START + timedelta(days=3, hours=23)) == 0
    opens = START + timedelta(days=4)
    assert schedule.next_opens_at == opens
    assert schedules.schedules_run(now=opens) == 1
    assert schedules.schedules_run(now=opens) == 0  # the beat twice: one edition
    second = schedule.editions.exclude(pk=first.pk).get()
    assert second.name == f"Monday cup {START + timedelta(days=7):%Y-%m-%d}"
    assert second.status == Tournament.Status.REGISTERING
    assert (second.registration_opens_at, second.starts_at) == (opens, START + timedelta(days=7))
    assert (second.format, second.length, second.days_per_move, second.max_players) == (
        "knockout",
        5,
        2,
        16,
    )

    stopped = directing.schedule_stop(tournament_id=second.pk, user=staff_moderator())
    assert not stopped.active
    assert schedules.schedules_run(now=opens + timedelta(days=30)) == 0
    assert schedule.editions.count() == 2
    with pytest.raises(Conflict):
        directing.schedule_stop(tournament_id=first.pk, user=first.created_by)


def test_a_director_stops_their_own_repeating_tournament_and_no_one_elses() -> None:
    cup, other = weekly(), director_two()
    with pytest.raises(Forbidden):
        directing.schedule_stop(tournament_id=cup.pk, user=other)
    assert Schedule.objects.get().active
    page = client_for(other).get(cup.get_absolute_url()).content.decode()
    assert "every 7 days" in page and "Stop repeating" not in page
    assert not directing.schedule_stop(tournament_id=cup.pk, user=cup.created_by).active


def test_only_directors_set_up_or_stop_a_repeating_tournament() -> None:
    player = UserFactory()
    with override_settings(TOURNAMENTS_BY_PLAYERS=True):
        with pytest.raises(Forbidden):
            weekly(creator=player)
        assert not Tournament.objects.exists() and not Schedule.objects.exists()
        once = weekly(creator=player, repeat_days=0)  # a player's own, once
        assert once.schedule is None and once.name == "Monday cup"
    cup = weekly()
    with pytest.raises(Forbidden):
        directing.schedule_stop(tournament_id=cup.pk, user=player)
    assert Schedule.objects.get().active


@pytest.mark.parametrize(
    "options",
    [{"repeat_days": 366}, {"repeat_days": -1}, {"invitation_only": True}],
    ids=["too-far-apart", "negative", "invitation-only"],
)
def test_impossible_repeats_are_refused_and_create_nothing(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidAction) as refused:
        weekly(**options)
    assert refused.value.code == "repeat"
    assert not Tournament.objects.exists() and not Schedule.objects.exists()


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_form_sets_up_a_repeating_tournament_and_its_page_stops_it() -> None:
    director = client_for(moderator())
    created = director.post("/tournaments/new", form_data(repeat_days="7"))
    assert created.status_code == 302, created.content.decode()[:2000]
    cup = Tournament.objects.get()
    assert cup.schedule is not None and cup.schedule.every_days == 7

    page = director.get(cup.get_absolute_url()).content.decode()
    assert "every 7 days" in page and "Stop repeating" in page
    player = client_for(UserFactory())
    seen = player.get(cup.get_absolute_url()).content.decode()
    assert "every 7 days" in seen and "Stop repeating" not in seen

    refused = player.post(f"/tournaments/{cup.pk}/stop-repeating/")
    assert refused.status_code == 403
    assert Schedule.objects.get().active
    stopped = director.post(f"/tournaments/{cup.pk}/stop-repeating/")
    assert stopped.status_code == 302
    assert not Schedule.objects.get().active
    after = director.get(cup.get_absolute_url()).content.decode()
    assert "Stop repeating" not in after
    again = director.post(f"/tournaments/{cup.pk}/stop-repeating/")
    assert again.status_code == 409


def test_a_player_allowed_to_create_tournaments_is_not_offered_the_repeat() -> None:
    with override_settings(TOURNAMENTS_BY_PLAYERS=True):
        player = client_for(UserFactory())
        form = player.get("/tournaments/new").content.decode()
        assert 'name="repeat_days"' not in form
        # A hand-made POST with it: the field is not theirs, so it is ignored.
        created = player.post("/tournaments/new", form_data(repeat_days="7"))
    assert created.status_code == 302
    assert Tournament.objects.get().schedule is None and not Schedule.objects.exists()


def test_the_form_refuses_an_impossible_repeat_with_its_reason() -> None:
    director = client_for(moderator())
    refused = director.post("/tournaments/new", form_data(repeat_days="400"))
    assert refused.status_code == 400
    invited = director.post("/tournaments/new", form_data(repeat_days="7", invitation_only="on"))
    assert invited.status_code == 400
    assert "open to all" in invited.content.decode()
    assert not Tournament.objects.exists() and not Schedule.objects.exists()


def schedule_data(**changes: Any) -> dict[str, Any]:
    return {
        "name": "Sunday Swiss",
        "format": "swiss",
        "length": "5",
        "variant": "standard",
        "days_per_move": "3",
        "time_bank_days": "0",
        "rated": "on",
        "min_players": "8",
        "max_players": "64",
        "rounds": "5",
        "group_size": "0",
        "every_days": "7",
        "registration_days": "3",
        "next_start_at": "2026-07-05 12:00:00",
        "active": "on",
        **changes,
    }


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"length": "4"}, "odd number"),
        ({"min_players": "4"}, "more players than rounds"),
        ({"invitation_only": "on"}, "open to all"),
        ({"every_days": "400"}, "every 1 to 365 days"),
    ],
)
def test_the_admins_schedule_form_checks_the_options_as_the_site_does(
    changes: dict[str, Any], reason: str
) -> None:
    assert ScheduleForm(data=schedule_data()).is_valid()
    form = ScheduleForm(data=schedule_data(**changes))
    assert not form.is_valid()
    assert reason in str(form.non_field_errors())


def test_the_list_shows_what_repeats_and_when_it_next_opens() -> None:
    weekly()
    weekly(creator=director_two(), name="Swiss monthly", format="swiss", rounds=3, repeat_days=28)
    client = Client()
    page = client.get("/tournaments/").content.decode()
    assert "Repeating" in page
    assert "<strong>Monday cup</strong>" in page and "every 7 days" in page
    assert "<strong>Swiss monthly</strong>" in page and "every 28 days" in page
    by_format = client.get("/tournaments/", {"type": "swiss"}).content.decode()
    assert "<strong>Swiss monthly</strong>" in by_format
    assert "<strong>Monday cup</strong>" not in by_format
    Schedule.objects.update(active=False)
    assert "tournaments-repeating" not in client.get("/tournaments/").content.decode()
