"""The vacation page, the away notice opponents see, and the turn notice of a new game."""

from __future__ import annotations

from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.html import escape

from accounts.models import User
from matches import clock, endings
from matches.models import Vacation
from notifications.models import Notification
from tests.matches.clock_helpers import NOW, start_game, white_opens

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def local_today(user: User) -> date:
    return timezone.now().astimezone(ZoneInfo(user.time_zone or "UTC")).date()


# --------------------------------------------------------------------------- the page


def test_the_page_needs_a_login() -> None:
    response = Client().get(reverse("vacations"))
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_the_page_shows_the_allowance_and_is_linked_from_the_profile(player: User) -> None:
    player.vacation_days_per_year = 20
    player.save()
    today = local_today(player)
    Vacation.objects.create(
        user=player,
        start=today + 2 * DAY,
        end=today + 4 * DAY,
        starts_at=timezone.now() + 2 * DAY,
        ends_at=timezone.now() + 5 * DAY,
        created_at=timezone.now(),
    )
    client = client_for(player)
    response = client.get(reverse("vacations"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Take a vacation" in page
    assert response.context["allowance"] == 20
    if (today + 4 * DAY).year == today.year:
        assert response.context["used"] == 3
        assert response.context["left"] == 17
    assert len(response.context["vacations"]) == 1
    assert "Cancel this vacation" in page
    assert reverse("vacations") in client.get(reverse("profile")).content.decode()


def test_taking_and_cancelling_a_vacation_through_the_form(player: User) -> None:
    client = client_for(player)
    today = local_today(player)
    start, end = today + 3 * DAY, today + 5 * DAY
    response = client.post(reverse("vacations"), {"start": start, "end": end})
    assert response.status_code == 302
    vacation = Vacation.objects.get(user=player)
    assert (vacation.start, vacation.end) == (start, end)
    page = client.get(reverse("vacations")).content.decode()
    assert "is booked" in page
    assert f"vacation-{vacation.pk}" in page

    response = client.post(reverse("vacation_cancel", args=[vacation.pk]))
    assert response.status_code == 302
    assert not Vacation.objects.filter(user=player).exists()


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("9999-12-31", "9999-12-31"),  # the end of the calendar: an OverflowError (500)
        ("today", "9999-12-30"),  # also a query per year up to 9999
        ("today", "+731"),
    ],
)
def test_a_vacation_too_far_ahead_is_refused_in_the_players_language(
    player: User, start: str, end: str
) -> None:
    player.language = "ca"
    player.save(update_fields=["language"])
    today = local_today(player)

    def day(value: str) -> str:
        if value == "today":
            return today.isoformat()
        if value.startswith("+"):
            return (today + int(value) * DAY).isoformat()
        return value

    response = client_for(player).post(reverse("vacations"), {"start": day(start), "end": day(end)})
    assert response.status_code == 400
    message = "Les vacances es poden reservar amb dos anys d'antelació com a màxim."
    assert escape(message) in response.content.decode()
    assert not Vacation.objects.exists()


def test_a_vacation_two_years_ahead_is_still_taken(player: User) -> None:
    today = local_today(player)
    start, end = today + 720 * DAY, today + 730 * DAY
    response = client_for(player).post(reverse("vacations"), {"start": start, "end": end})
    assert response.status_code == 302
    assert Vacation.objects.get(user=player).end == end


def test_a_running_vacation_can_be_ended_now(player: User) -> None:
    today = local_today(player)
    vacation = clock.vacation_take(user=player, start=today, end=today + DAY, now=timezone.now())
    client = client_for(player)
    assert "End it now" in client.get(reverse("vacations")).content.decode()
    assert client.post(reverse("vacation_cancel", args=[vacation.pk])).status_code == 302
    vacation.refresh_from_db()
    assert vacation.ends_at <= timezone.now()


def test_errors_are_shown_in_the_players_language_with_status_400(
    player: User, opponent: User
) -> None:
    client = client_for(player)
    today = local_today(player)
    response = client.post(reverse("vacations"), {"start": today - DAY, "end": today})
    assert response.status_code == 400
    assert "A vacation cannot start in the past." in response.content.decode()
    assert not Vacation.objects.exists()

    response = client.post(reverse("vacations"), {"start": "", "end": "not a date"})
    assert response.status_code == 400
    assert 'id="vacation-error"' in response.content.decode()

    player.language = "es"
    player.save()
    response = client.post(reverse("vacations"), {"start": today + 2 * DAY, "end": today + 1 * DAY})
    assert response.status_code == 400
    with translation.override("es"):
        expected = translation.gettext("The vacation must end on or after its first day.")
    assert expected != "The vacation must end on or after its first day."
    assert expected in response.content.decode()

    theirs = clock.vacation_take(
        user=opponent,
        start=local_today(opponent) + DAY,
        end=local_today(opponent) + DAY,
        now=timezone.now(),
    )
    response = client.post(reverse("vacation_cancel", args=[theirs.pk]))
    assert response.status_code == 400
    assert Vacation.objects.filter(pk=theirs.pk).exists()


# --------------------------------------------------------------------------- away notice


def test_opponents_see_that_the_player_on_turn_is_away(
    monkeypatch, player: User, opponent: User
) -> None:
    player.time_zone = "America/New_York"
    player.save()
    opponent.time_zone = "Asia/Tokyo"
    opponent.save()
    now = timezone.now()
    game = start_game(monkeypatch, player, opponent, now=now)
    game = white_opens(monkeypatch, game, player, now)  # Bob is on turn
    today = local_today(opponent)
    vacation = clock.vacation_take(user=opponent, start=today, end=today + DAY, now=now)

    # Alice sees Bob's return in her own zone.
    with timezone.override(ZoneInfo("America/New_York")), translation.override("en"):
        until = formats.date_format(timezone.localtime(vacation.ends_at), "DATETIME_FORMAT")
    with timezone.override(ZoneInfo("Asia/Tokyo")), translation.override("en"):
        bob_until = formats.date_format(timezone.localtime(vacation.ends_at), "DATETIME_FORMAT")
    assert until != bob_until
    client = client_for(player)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f"{opponent.public_name} is on vacation." in page
    assert f"Away until {until}" in page
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert f"Away until {until}" in dashboard

    # Bob is told he is away; nobody sees a notice once he is back.
    assert (
        "You are on vacation."
        in client_for(opponent).get(reverse("game_detail", args=[game.pk])).content.decode()
    )
    clock.vacation_cancel(user=opponent, vacation_id=vacation.pk, now=timezone.now())
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Away until" not in page
    assert "Away until" not in client.get(reverse("dashboard")).content.decode()


def test_no_notice_when_the_player_away_is_not_on_turn(
    monkeypatch, player: User, opponent: User
) -> None:
    now = timezone.now()
    game = start_game(monkeypatch, player, opponent, now=now)  # Alice is on turn
    today = local_today(opponent)
    clock.vacation_take(user=opponent, start=today, end=today, now=now)
    page = client_for(player).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Away until" not in page


# --------------------------------------------------------------------------- new game


def test_the_first_player_of_a_new_game_is_told_it_is_their_turn(
    monkeypatch, player: User, opponent: User
) -> None:
    # Game 1 opens 3-1 for Alice; game 2 opens 2-4, so Bob moves first.
    game = start_game(monkeypatch, player, opponent, 3, 1, 2, 4, resignation="immediate")
    game = white_opens(monkeypatch, game, player, NOW)
    endings.game_resign(game_id=game.pk, player=player, expected_ply=game.ply, now=NOW)
    game.match.refresh_from_db()
    second = game.match.current_game
    assert second is not None and second.number == 2 and second.turn == 1
    turns = Notification.objects.filter(game=second, kind=Notification.Kind.YOUR_TURN)
    assert [(n.recipient_id, n.payload["opponent"]) for n in turns] == [
        (opponent.pk, player.public_name)
    ]
    kinds = list(
        Notification.objects.filter(recipient=opponent)
        .order_by("pk")
        .values_list("kind", flat=True)
    )
    assert kinds[-2:] == [Notification.Kind.GAME_OVER, Notification.Kind.YOUR_TURN]
    assert not Notification.objects.filter(recipient=player, game=second).exists()
