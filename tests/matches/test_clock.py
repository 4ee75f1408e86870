"""Time control: move time and bank, time-outs, expiry, warnings and vacations.

Every test passes ``now``; nothing sleeps.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from accounts.models import User
from backgammon.errors import InvalidAction
from challenges import services as challenge_services
from challenges.models import Challenge
from gammon import Termination
from matches import clock, endings, timecontrol
from matches.models import Game, GameEvent, Match, Vacation
from notifications import reminders
from notifications.models import Notification
from tests import records
from tests.matches.clock_helpers import NOW, start_game, white_opens

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


# --------------------------------------------------------------------------- pure clock


def test_extend_skips_time_away() -> None:
    away = [(NOW + DAY, NOW + 2 * DAY)]
    assert timecontrol.extend(NOW, 3 * DAY, away) == NOW + 4 * DAY
    assert timecontrol.extend(NOW, DAY / 2, away) == NOW + DAY / 2
    assert timecontrol.extend(NOW + DAY * 1.5, DAY, away) == NOW + 3 * DAY


def test_running_time_leaves_out_time_away() -> None:
    away = [(NOW + DAY, NOW + 2 * DAY)]
    assert timecontrol.running_time(NOW, NOW + 3 * DAY, away) == 2 * DAY
    assert timecontrol.running_time(NOW, NOW - DAY, away) == timedelta(0)


def test_a_vacation_runs_from_local_midnight_to_midnight() -> None:
    start, end = timecontrol.vacation_instants(date(2026, 7, 1), date(2026, 7, 2), "Europe/Madrid")
    assert start.isoformat() == "2026-07-01T00:00:00+02:00"
    assert end - start == 2 * DAY


# --------------------------------------------------------------------------- deadlines, bank


def test_the_deadline_is_move_time_plus_bank(monkeypatch, player: User, opponent: User) -> None:
    game = start_game(monkeypatch, player, opponent, days_per_move=3, time_bank_days=2)
    assert game.deadline_at == NOW + 5 * DAY
    game = white_opens(monkeypatch, game, player, NOW + DAY)
    assert game.turn == 1
    assert game.deadline_at == NOW + DAY + 5 * DAY


def test_moving_within_the_move_time_keeps_the_bank(
    monkeypatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent, days_per_move=3, time_bank_days=2)
    game = white_opens(monkeypatch, game, player, NOW + 3 * DAY)
    game.match.refresh_from_db()
    assert game.match.bank_white == 2 * DAY


def test_moving_late_takes_the_overrun_from_the_bank(
    monkeypatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent, days_per_move=3, time_bank_days=2)
    game = white_opens(monkeypatch, game, player, NOW + 4 * DAY + timedelta(hours=6))
    match = Match.objects.get(pk=game.match_id)
    assert match.bank_white == DAY - timedelta(hours=6)
    assert match.bank_black == 2 * DAY
    clock_view = clock.game_clock(game, NOW + 4 * DAY + timedelta(hours=6))
    assert clock_view["bank"] == 2 * DAY
    assert clock_view["move_deadline_at"] == NOW + 7 * DAY + timedelta(hours=6)


# --------------------------------------------------------------------------- time-out


def test_running_out_of_time_loses_the_match(monkeypatch, player: User, opponent: User) -> None:
    game = start_game(monkeypatch, player, opponent, length=5, days_per_move=2)
    game = white_opens(monkeypatch, game, player, NOW)
    assert endings.game_time_out(game_id=game.pk, now=NOW + DAY) is None
    game = endings.game_time_out(game_id=game.pk, now=NOW + 2 * DAY)
    assert game is not None
    assert game.termination == Termination.TIMEOUT
    assert game.winner == 0
    assert list(game.events.values_list("kind", flat=True))[-2:] == [
        GameEvent.Kind.TIMEOUT,
        GameEvent.Kind.WIN,
    ]
    match = Match.objects.get(pk=game.match_id)
    assert (match.status, match.result, match.score_white) == ("finished", "white", 5)
    told = Notification.objects.filter(kind=Notification.Kind.TIME_OUT)
    assert {(n.recipient.username, n.payload["won"]) for n in told} == {
        ("alice", True),
        ("bob", False),
    }


def test_a_money_time_out_loses_the_game_as_a_gammon_at_the_cube(
    monkeypatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent, 3, 1, 4, 2, length=0, cube_limit=None)
    game = white_opens(monkeypatch, game, player, NOW)
    records.game_made_by_hand(game.pk)
    Game.objects.filter(pk=game.pk).update(cube_value=2, cube_owner=1)
    game = endings.game_time_out(game_id=game.pk, now=NOW + 3 * DAY)
    assert game is not None and game.points == 4
    match = Match.objects.get(pk=game.match_id)
    assert match.status == Match.Status.PLAYING
    assert match.score == (4, 0)
    assert match.games.count() == 2


def test_the_sweep_expires_each_overdue_game_once(
    monkeypatch, player: User, opponent: User, outsider: User
) -> None:
    late = start_game(monkeypatch, player, opponent, days_per_move=1)
    on_time = start_game(monkeypatch, player, outsider, days_per_move=5)
    assert clock.games_expire_overdue(now=NOW + 2 * DAY) == 1
    assert clock.games_expire_overdue(now=NOW + 2 * DAY) == 0
    late.refresh_from_db()
    on_time.refresh_from_db()
    assert late.is_finished and late.termination == "timeout"
    assert not on_time.is_finished


def test_open_challenges_expire_after_their_validity(player: User, opponent: User) -> None:
    old = challenge_services.challenge_create(challenger=player, now=NOW - 15 * DAY)
    fresh = challenge_services.challenge_create(challenger=player, opponent=opponent, now=NOW)
    assert challenge_services.challenges_expire(now=NOW) == 1
    assert challenge_services.challenges_expire(now=NOW) == 0
    old.refresh_from_db()
    fresh.refresh_from_db()
    assert (old.status, fresh.status) == (Challenge.Status.EXPIRED, Challenge.Status.OPEN)


# --------------------------------------------------------------------------- warnings


def warnings(user: User) -> list[int]:
    rows = Notification.objects.filter(recipient=user, kind=Notification.Kind.TIMEOUT_WARNING)
    return [n.payload["hours"] for n in rows.order_by("created_at")]


def test_warnings_come_at_the_chosen_hours_once_each(
    monkeypatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent, days_per_move=3)
    game = white_opens(monkeypatch, game, player, NOW)  # Black's deadline: NOW + 3 days
    assert reminders.players_remind(now=NOW + DAY) == 0
    at_23h = NOW + 2 * DAY + timedelta(hours=1)
    assert reminders.players_remind(now=at_23h) == 1
    assert reminders.players_remind(now=at_23h + timedelta(minutes=1)) == 0
    at_1h = NOW + 3 * DAY - timedelta(hours=1)
    assert reminders.players_remind(now=at_1h) == 1
    assert reminders.players_remind(now=at_1h) == 0
    assert warnings(opponent) == [24, 2]
    assert warnings(player) == []


def test_when_several_warnings_are_due_only_the_nearest_is_sent(
    monkeypatch, player: User, opponent: User
) -> None:
    opponent.warning_hours = "48,12"
    opponent.save()
    game = start_game(monkeypatch, player, opponent, days_per_move=3)
    white_opens(monkeypatch, game, player, NOW)
    assert reminders.players_remind(now=NOW + 3 * DAY - timedelta(hours=5)) == 1
    assert reminders.players_remind(now=NOW + 3 * DAY - timedelta(hours=4)) == 0
    assert warnings(opponent) == [12]


# --------------------------------------------------------------------------- vacations


def test_a_vacation_stops_the_clock_in_every_game(
    monkeypatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent, days_per_move=3)
    game = white_opens(monkeypatch, game, player, NOW)
    assert game.deadline_at == NOW + 3 * DAY
    clock.vacation_take(user=opponent, start=date(2026, 3, 4), end=date(2026, 3, 5), now=NOW)
    game.refresh_from_db()
    assert game.deadline_at == NOW + 5 * DAY
    assert clock.games_expire_overdue(now=NOW + 4 * DAY) == 0
    assert clock.away_until(opponent, NOW + 2 * DAY) == date(2026, 3, 5)
    assert clock.game_clock(game, NOW + 2 * DAY)["away_until"] == date(2026, 3, 5)
    assert clock.away_until(opponent, NOW) is None


def test_a_turn_that_starts_before_a_vacation_skips_it(
    monkeypatch, player: User, opponent: User
) -> None:
    clock.vacation_take(user=opponent, start=date(2026, 3, 3), end=date(2026, 3, 3), now=NOW)
    game = start_game(monkeypatch, player, opponent, days_per_move=3)
    game = white_opens(monkeypatch, game, player, NOW)
    assert game.deadline_at == NOW + 4 * DAY


def test_ending_a_vacation_early_restarts_the_clock(
    monkeypatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent, days_per_move=3)
    game = white_opens(monkeypatch, game, player, NOW)
    vacation = clock.vacation_take(
        user=opponent, start=date(2026, 3, 4), end=date(2026, 3, 9), now=NOW
    )
    game.refresh_from_db()
    assert game.deadline_at == NOW + 9 * DAY
    clock.vacation_cancel(user=opponent, vacation_id=vacation.pk, now=NOW + 3 * DAY)
    game.refresh_from_db()
    # 1.5 days ran before the vacation; 1.5 days are left from the return.
    assert game.deadline_at == NOW + 3 * DAY + DAY * 1.5


@pytest.mark.parametrize(
    ("start", "end", "code"),
    [
        (date(2026, 3, 1), date(2026, 3, 3), "past"),
        (date(2026, 3, 5), date(2026, 3, 4), "order"),
        (date(2026, 4, 1), date(2026, 5, 1), "allowance"),
        (date(9999, 12, 31), date(9999, 12, 31), "too_far_ahead"),
        (date(2028, 3, 1), date(2028, 3, 2), "too_far_ahead"),
    ],
)
def test_vacations_are_checked(player: User, start: date, end: date, code: str) -> None:
    with pytest.raises(InvalidAction) as raised:
        clock.vacation_take(user=player, start=start, end=end, now=NOW)
    assert raised.value.code == code


def test_the_allowance_counts_per_calendar_year(player: User) -> None:
    clock.vacation_take(user=player, start=date(2026, 3, 10), end=date(2026, 3, 29), now=NOW)
    with pytest.raises(InvalidAction) as raised:
        clock.vacation_take(user=player, start=date(2026, 6, 1), end=date(2026, 6, 11), now=NOW)
    assert raised.value.code == "allowance"
    assert "10" in str(raised.value)
    with pytest.raises(InvalidAction, match="overlaps"):
        clock.vacation_take(user=player, start=date(2026, 3, 29), end=date(2026, 3, 30), now=NOW)
    clock.vacation_take(user=player, start=date(2026, 12, 25), end=date(2027, 1, 10), now=NOW)
    assert clock.vacation_days_used(player, 2026) == 27
    assert clock.vacation_days_used(player, 2027) == 10
    assert Vacation.objects.filter(user=player).count() == 2


def test_the_api_shows_the_clock_and_that_the_player_is_away(
    monkeypatch, player: User, opponent: User
) -> None:
    from django.utils import timezone

    from matches.api import game_payload

    today = timezone.now().date()
    game = start_game(monkeypatch, player, opponent, now=timezone.now(), time_bank_days=1)
    clock.vacation_take(user=player, start=today, end=today + DAY, now=timezone.now())
    data = game_payload(Game.objects.get(pk=game.pk), opponent)
    assert data["clock"]["away_until"] == today + DAY
    assert data["clock"]["bank_seconds"] == 86400


@pytest.mark.django_db
def test_a_move_honours_a_vacation_however_it_was_stored_and_reads_none_without(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The clock reads ``matches.Vacation`` itself (no marker on the user that a
    ``bulk_create`` would leave unset), and only for a player who has one to come."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import UserFactory

    from .clock_helpers import start_game, white_opens

    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_game(
        monkeypatch, alice, bob, (3, 1), (6, 5), length=3, cube_limit=1, days_per_move=1
    )
    with CaptureQueriesContext(connection) as queries:
        plain = white_opens(monkeypatch, game, alice, NOW)
    reads = [q["sql"] for q in queries.captured_queries]
    assert not [sql for sql in reads if sql.startswith('SELECT "matches_vacation"')]
    assert plain.deadline_at == NOW + timedelta(days=1)

    other = start_game(
        monkeypatch, alice, bob, (3, 1), (6, 5), length=3, cube_limit=1, days_per_move=1
    )
    start, end = NOW.date() + timedelta(days=1), NOW.date() + timedelta(days=2)
    starts_at, ends_at = timecontrol.vacation_instants(start, end, "UTC")
    Vacation.objects.bulk_create(  # no save(), no signal
        [
            Vacation(
                user=bob, start=start, end=end, starts_at=starts_at, ends_at=ends_at, created_at=NOW
            )
        ]
    )
    moved = white_opens(monkeypatch, other, alice, NOW)
    # Bob's day to move runs before and after his two days away.
    assert moved.turn == 1 and moved.deadline_at == NOW + timedelta(days=3)
