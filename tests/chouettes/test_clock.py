"""The chouette's clocks: each member's own deadline for a vote or an answer (a missing
vote refuses, a missing answer drops), the time bank, vacations, and the board's time-out."""

from __future__ import annotations

from datetime import timedelta

import pytest

from chouettes import decisions, tasks
from chouettes.models import Decision, Seat
from gammon import chouette as rules
from matches import clock
from matches.models import Game

from .helpers import Table, box_doubles, seat_table, start

pytestmark = pytest.mark.django_db


def deadline(table: Table, name: str) -> object:
    return Seat.objects.get(player=table.users[name]).deadline_at


def test_a_member_silent_past_their_deadline_drops_and_the_rest_play_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3, days_per_move=2)
    box_doubles(table)
    doubled_at = table.now
    assert deadline(table, "bob") == deadline(table, "cy") == doubled_at + timedelta(days=2)
    table.act("team_answer", "cy", take=True)
    assert deadline(table, "cy") is None

    assert decisions.decisions_expire(now=doubled_at + timedelta(days=2, seconds=-1)) == 0
    table.roll((2, 1))
    assert tasks.clock_expire_decisions((doubled_at + timedelta(days=2)).isoformat()) == 1

    late = Decision.objects.get(player=table.users["bob"], kind=Decision.Kind.ANSWER)
    assert (late.yes, late.timed_out) == (False, True)
    side = table.side()
    assert (side.captain, side.stake(table.users["cy"].pk)) == (table.users["cy"].pk, 2)
    board = table.board
    assert (board.match.black.username, board.held, board.state) == ("cy", False, "moving")
    assert not Seat.objects.filter(deadline_at__isnull=False).exists()


def test_a_vote_not_given_in_time_refuses_and_the_captain_plays_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 4, days_per_move=1)
    start(table, 1, 3)
    table.move("bob", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("ann")
    table.move("ann", "24/13")
    table.act("team_propose_double", "bob")
    table.act("team_vote", "cy", agree=True)
    proposed = table.now
    expired = proposed + timedelta(days=1, minutes=1)
    assert decisions.decisions_expire(now=expired) == 1
    assert table.side().stage is rules.Stage.PLAYING
    board = table.board
    assert (board.state, board.turn, board.held) == (Game.State.ROLLING, 1, False)
    assert board.deadline_at == expired + timedelta(days=1)  # a fresh turn for the captain
    refused = Decision.objects.get(player=table.users["di"])
    assert (refused.kind, refused.yes, refused.timed_out) == (Decision.Kind.VOTE, False, True)


def test_the_bank_pays_for_a_late_answer_and_a_vacation_moves_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3, days_per_move=1, time_bank_days=2)
    box_doubles(table)
    doubled_at = table.now
    assert deadline(table, "cy") == doubled_at + timedelta(days=3)  # a day and the bank

    away = (doubled_at + timedelta(days=1)).date(), (doubled_at + timedelta(days=2)).date()
    clock.vacation_take(user=table.users["cy"], start=away[0], end=away[1], now=doubled_at)
    moved = deadline(table, "cy")
    assert moved is not None and moved > doubled_at + timedelta(days=4)
    assert deadline(table, "bob") == doubled_at + timedelta(days=3)

    table.now = doubled_at + timedelta(days=1, hours=11, minutes=50)  # act() adds 10 minutes
    table.roll((2, 1))
    table.act("team_answer", "bob", take=True)
    assert Seat.objects.get(player=table.users["bob"]).bank == timedelta(days=1, hours=12)


def test_a_captain_who_times_out_loses_the_game_for_the_team_as_a_gammon(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3, days_per_move=1)
    start(table, 3, 1)
    table.move("ann", "8/5 6/5")
    board = table.board
    assert board.deadline_at is not None
    table.roll(4, 2)  # the next game's opening
    assert clock.games_expire_overdue(now=board.deadline_at) == 1
    assert table.points() == {"ann": 4, "bob": -2, "cy": -2}
    assert table.places() == ("ann", "cy", ("bob",))
