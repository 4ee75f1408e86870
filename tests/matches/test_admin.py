"""A superuser's change or removal of a vacation in the admin moves the deadlines of the
games where that player is on turn, as the player's own vacation pages do; a change the
rules refuse is the form's error (a 400), not a 500. (That both are audited:
tests/moderation/test_admin.py.)

The admin takes the real moment (``timezone.now()``), so these tests book the vacations
days ahead of it; no test sleeps."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from backgammon.errors import InvalidAction
from matches import clock
from matches.models import Game, Vacation
from tests.factories import UserFactory
from tests.matches.clock_helpers import start_game, white_opens

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


@pytest.fixture
def superuser_client(db: None) -> Client:
    client = Client()
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def away(opponent: User) -> User:
    """bob, in Madrid: his vacations run from Madrid's midnight to midnight."""
    opponent.time_zone = "Europe/Madrid"
    opponent.save(update_fields=["time_zone"])
    return opponent


def today_of(user: User, now: datetime) -> date:
    return now.astimezone(ZoneInfo(user.time_zone)).date()


def madrid_midnight(day: date) -> datetime:
    return datetime.combine(day, datetime.min.time(), tzinfo=ZoneInfo("Europe/Madrid"))


@pytest.fixture
def on_turn(monkeypatch: pytest.MonkeyPatch, player: User, away: User) -> Game:
    """A game where bob is on turn with ten days to move (alice has opened)."""
    now = timezone.now()
    game = start_game(monkeypatch, player, away, now=now, days_per_move=10)
    game = white_opens(monkeypatch, game, player, now)
    assert game.match.black == away and game.turn == 1
    return game


def deadline(game: Game) -> datetime:
    game.refresh_from_db()
    assert game.deadline_at is not None
    return game.deadline_at


def test_lengthening_a_vacation_in_the_admin_moves_the_deadline(
    on_turn: Game, away: User, superuser_client: Client
) -> None:
    today = today_of(away, timezone.now())
    vacation = clock.vacation_take(
        user=away, start=today + 2 * DAY, end=today + 3 * DAY, now=timezone.now()
    )
    before, old_end = deadline(on_turn), vacation.ends_at
    url = reverse("admin:matches_vacation_change", args=[vacation.pk])
    response = superuser_client.post(
        url, {"start": vacation.start, "end": today + 5 * DAY, "reason": "Asked by mail."}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    vacation.refresh_from_db()
    assert vacation.end == today + 5 * DAY
    assert vacation.ends_at == madrid_midnight(today + 6 * DAY)
    # Two more days away (Madrid's midnights: 48 hours unless the clocks change).
    assert deadline(on_turn) == before + (vacation.ends_at - old_end)
    assert vacation.ends_at - old_end >= 2 * DAY - timedelta(hours=1)


def test_moving_a_vacation_later_in_the_admin_keeps_the_clock_time_left(
    on_turn: Game, away: User, superuser_client: Client
) -> None:
    today = today_of(away, timezone.now())
    vacation = clock.vacation_take(
        user=away, start=today + 2 * DAY, end=today + 3 * DAY, now=timezone.now()
    )
    before = deadline(on_turn)
    length = vacation.ends_at - vacation.starts_at
    url = reverse("admin:matches_vacation_change", args=[vacation.pk])
    response = superuser_client.post(
        url, {"start": today + 4 * DAY, "end": today + 4 * DAY, "reason": "Asked by mail."}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    vacation.refresh_from_db()
    assert vacation.starts_at == madrid_midnight(today + 4 * DAY)
    assert vacation.ends_at == madrid_midnight(today + 5 * DAY)
    # One day away instead of two, still before the deadline: it comes a day sooner.
    assert deadline(on_turn) == before - length + (vacation.ends_at - vacation.starts_at)


def test_deleting_a_vacation_in_the_admin_moves_the_deadline_back(
    on_turn: Game, away: User, superuser_client: Client
) -> None:
    without = deadline(on_turn)
    today = today_of(away, timezone.now())
    vacation = clock.vacation_take(
        user=away, start=today + 2 * DAY, end=today + 4 * DAY, now=timezone.now()
    )
    length = vacation.ends_at - vacation.starts_at
    assert deadline(on_turn) == without + length
    url = reverse("admin:matches_vacation_delete", args=[vacation.pk])
    assert superuser_client.post(url, {"post": "yes"}).status_code == 302
    assert not Vacation.objects.filter(pk=vacation.pk).exists()
    assert deadline(on_turn) == without


def test_deleting_selected_vacations_goes_through_the_service_too(
    on_turn: Game, away: User, superuser_client: Client
) -> None:
    without = deadline(on_turn)
    today = today_of(away, timezone.now())
    for first in (2, 5):
        clock.vacation_take(
            user=away, start=today + first * DAY, end=today + first * DAY, now=timezone.now()
        )
    assert deadline(on_turn) > without
    response = superuser_client.post(
        reverse("admin:matches_vacation_changelist"),
        {
            "action": "delete_selected",
            "_selected_action": list(Vacation.objects.values_list("pk", flat=True)),
            "post": "yes",
        },
    )
    assert response.status_code == 302
    assert not Vacation.objects.exists()
    assert deadline(on_turn) == without


@pytest.mark.parametrize(
    ("start", "end", "text"),
    [
        (2, 8, "overlaps another one"),  # bob is away again from day 8
        (3, 2, "must end on or after its first day"),
        (-1, 3, "cannot start in the past"),
        (2, 800, "at most two years ahead"),
        (9, 60, "vacation days are left"),
    ],
)
def test_a_change_the_rules_refuse_is_the_forms_error(
    on_turn: Game, away: User, superuser_client: Client, start: int, end: int, text: str
) -> None:
    today = today_of(away, timezone.now())
    vacation = clock.vacation_take(
        user=away, start=today + 2 * DAY, end=today + 3 * DAY, now=timezone.now()
    )
    clock.vacation_take(user=away, start=today + 8 * DAY, end=today + 8 * DAY, now=timezone.now())
    before = deadline(on_turn)
    url = reverse("admin:matches_vacation_change", args=[vacation.pk])
    response = superuser_client.post(
        url, {"start": today + start * DAY, "end": today + end * DAY, "reason": "Asked by mail."}
    )
    assert response.status_code == 400
    assert text in response.content.decode()
    vacation.refresh_from_db()
    assert (vacation.start, vacation.end) == (today + 2 * DAY, today + 3 * DAY)
    assert deadline(on_turn) == before


def test_a_vacation_that_has_begun_keeps_its_first_day_and_one_that_is_over_stays(
    on_turn: Game, away: User
) -> None:
    now = timezone.now()
    today = today_of(away, now)
    running = clock.vacation_take(user=away, start=today, end=today + DAY, now=now)
    with pytest.raises(InvalidAction) as refused:
        clock.vacation_change(vacation_id=running.pk, start=today + DAY, end=today + DAY, now=now)
    assert refused.value.code == "started"
    with pytest.raises(InvalidAction) as refused:
        clock.vacation_change(vacation_id=running.pk, start=today, end=today - DAY, now=now)
    assert refused.value.code == "order"
    # Ending it today is allowed: the clocks run again from tomorrow's midnight.
    changed = clock.vacation_change(vacation_id=running.pk, start=today, end=today, now=now)
    assert changed.starts_at == running.starts_at and changed.end == today
    later = changed.ends_at + timedelta(minutes=1)
    with pytest.raises(InvalidAction) as refused:
        clock.vacation_change(vacation_id=running.pk, start=today, end=today + 3 * DAY, now=later)
    assert refused.value.code == "over"
    with pytest.raises(InvalidAction) as refused:
        clock.vacation_change(vacation_id=0, start=today, end=today, now=now)
    assert refused.value.code == "no_vacation"


def test_nobody_edits_a_challenge_or_a_message_by_hand(
    superuser_client: Client, on_turn: Game, player: User
) -> None:
    """A challenge's answer starts a match and a hidden message writes the audit log: both
    are services' work, so the admin shows these rows read-only, even to a superuser."""
    from challenges.models import Challenge
    from matches.models import GameMessage

    challenge = Challenge.objects.get(match=on_turn.match)
    message = GameMessage.objects.create(
        game=on_turn, author=player, text="gl", created_at=timezone.now()
    )
    for obj, field, value in ((challenge, "status", "open"), (message, "hidden", "on")):
        meta = obj._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
        assert superuser_client.get(url).status_code == 200  # shown, read-only
        assert superuser_client.post(url, {field: value}).status_code == 403
    challenge.refresh_from_db()
    message.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED and not message.hidden
