"""Joining, starting and leaving a chouette, and every refusal of its decisions: each
is a 4xx with a stable code, and the chouette, its board and its record are unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.forms.models import model_to_dict

from backgammon.errors import Conflict, Forbidden, InvalidAction, NotFound, ServiceError
from chouettes import decisions, seating
from chouettes.models import Chouette, Decision, Seat
from gammon import Color
from matches import chat, moderator_actions, turns
from matches.models import GameEvent
from notifications.models import Notification
from tests.factories import UserFactory

from .helpers import NOW, Table, box_doubles, seat_table, start

pytestmark = pytest.mark.django_db


def snapshot(table: Table) -> list[Any]:
    table.chouette.refresh_from_db()
    board = table.board if table.chouette.games.exists() else None
    return [
        model_to_dict(table.chouette),
        sorted(map(str, Seat.objects.values_list("status", "points", "deadline_at", "leaving"))),
        list(Decision.objects.values_list("kind", "player", "yes")),
        None if board is None else model_to_dict(board),
        list(GameEvent.objects.values_list("ply", "kind")),
    ]


@contextmanager
def refused(table: Table, error: type[ServiceError], code: str | None = None) -> Iterator[None]:
    before = snapshot(table)
    with pytest.raises(error) as caught:
        yield
    if code is not None:
        assert caught.value.code == code
    assert snapshot(table) == before


def team_on_roll(table: Table) -> None:
    start(table, 1, 3)
    table.move("bob", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("ann")
    table.move("ann", "24/13")


def test_the_decisions_are_refused_to_whoever_may_not_take_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 4)
    team_on_roll(table)
    outsider = UserFactory(username="zed")
    with refused(table, Forbidden):
        decisions.team_propose_double(
            chouette_id=table.chouette.pk, user=outsider, expected_ply=table.board.ply, now=NOW
        )
    with refused(table, InvalidAction, "chouette_out_of_turn"):
        table.act("team_propose_double", "ann")  # the box has no vote
    with refused(table, InvalidAction, "chouette_stage"):
        table.act("box_double", "ann")  # not the box's roll
    with refused(table, InvalidAction, "chouette_stage"):
        table.act("team_vote", "cy", agree=True)  # no vote open
    with refused(table, Conflict, "stale"):
        table.act("team_propose_double", "bob", expected_ply=table.board.ply - 1)
    with refused(table, Conflict, "chouette"):
        turns.game_double(
            game_id=table.board.pk, player=table.users["bob"], expected_ply=None, now=NOW
        )
    with refused(table, Conflict, "chouette"):
        chat.game_message_post(
            game_id=table.board.pk, author=table.users["bob"], text="hi", now=NOW
        )

    table.act("team_propose_double", "bob")
    with refused(table, InvalidAction, "chouette_answered"):
        table.act("team_vote", "bob", agree=True)
    with refused(table, Conflict, "held"):
        table.roll_board("bob")
    with refused(table, InvalidAction, "chouette_stage"):
        table.act("box_answer", "ann", take=True)  # the team has not doubled yet


def test_a_member_who_dropped_has_no_say_for_the_rest_of_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 4)
    box_doubles(table)
    table.act("team_answer", "bob", take=False)
    with refused(table, InvalidAction, "chouette_answered"):
        table.act("team_answer", "bob", take=True)
    table.act("team_answer", "cy", take=True)
    table.roll((2, 1))
    table.act("team_answer", "di", take=True)
    table.move("ann", "24/22 24/23")
    table.roll((3, 3))
    with refused(table, InvalidAction, "chouette_dropped"):
        table.act("team_propose_double", "bob")
    with pytest.raises(Forbidden):
        table.move("bob", "13/10(2) 6/3(2)")  # bob is no longer at the board
    assert table.board.match.black.username == "cy"


def test_joining_inviting_and_starting(monkeypatch: pytest.MonkeyPatch) -> None:
    ann, bob, cy, di = (UserFactory(username=n) for n in ("ann", "bob", "cy", "di"))
    chouette = seating.chouette_create(
        creator=ann, invite=[bob], open_to_all=False, max_players=3, now=NOW
    )
    assert Notification.objects.get().recipient == bob
    with pytest.raises(Forbidden):
        seating.chouette_join(chouette_id=chouette.pk, user=cy, now=NOW)  # not invited
    seating.chouette_join(chouette_id=chouette.pk, user=bob, now=NOW)
    with pytest.raises(InvalidAction) as too_few:
        seating.chouette_start(chouette_id=chouette.pk, user=ann, now=NOW)
    assert too_few.value.code == "chouette_too_few"
    seating.chouette_invite(chouette_id=chouette.pk, user=ann, players=[cy], now=NOW)
    with pytest.raises(Forbidden):
        seating.chouette_invite(chouette_id=chouette.pk, user=bob, players=[di], now=NOW)
    with pytest.raises(InvalidAction) as full:
        seating.chouette_invite(chouette_id=chouette.pk, user=ann, players=[di], now=NOW)
    assert full.value.code == "chouette_full"
    seating.chouette_join(chouette_id=chouette.pk, user=cy, now=NOW)
    with pytest.raises(Forbidden):
        seating.chouette_start(chouette_id=chouette.pk, user=bob, now=NOW)
    with pytest.raises(InvalidAction):
        seating.chouette_create(creator=ann, invite=[ann], now=NOW)
    with pytest.raises(InvalidAction):
        seating.chouette_create(creator=ann, max_players=9, now=NOW)
    with pytest.raises(NotFound):
        seating.chouette_join(chouette_id=chouette.pk + 100, user=di, now=NOW)


def test_the_first_places_from_the_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    table = seat_table(monkeypatch, 4, places_from_dice=True)
    start(table, 4, 6, 4, 2, 5, 3, 4, 2)  # ann and cy tie on 4 and throw again: 5, 3
    assert table.places() == ("bob", "ann", ("cy", "di"))
    assert table.chouette.opening_rounds[1] == [
        [table.users["ann"].pk, 5],
        [table.users["cy"].pk, 3],
    ]
    assert table.board.match.white.username == "bob"


def test_leaving_between_games_closes_the_line_and_too_few_end_the_chouette(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 4)
    start(table, 3, 1)
    seating.chouette_leave(chouette_id=table.chouette.pk, user=table.users["cy"], now=table.tick())
    assert Seat.objects.get(player=table.users["cy"]).status == Seat.Status.SEATED
    table.roll(2, 5)
    moderator_actions.match_adjudicate(match_id=table.game.match_id, winner=None, now=table.tick())
    # a draw settles nothing and keeps the places; cy has gone and the line closed up
    assert table.points() == {"ann": 0, "bob": 0, "cy": 0, "di": 0}
    assert table.places() == ("ann", "bob", ("di",))
    assert Seat.objects.get(player=table.users["cy"]).status == Seat.Status.LEFT

    seating.player_remove(chouette_id=table.chouette.pk, player=table.users["di"], now=table.tick())
    moderator_actions.match_adjudicate(
        match_id=table.game.match_id, winner=Color.WHITE, now=table.tick()
    )
    assert table.points() == {"ann": 2, "bob": -1, "cy": 0, "di": -1}
    table.chouette.refresh_from_db()
    assert table.chouette.status == Chouette.Status.FINISHED
    assert Seat.objects.get(player=table.users["di"]).status == Seat.Status.REMOVED
    over = Notification.objects.filter(kind=Notification.Kind.CHOUETTE_OVER)
    assert {n.recipient.username for n in over} == {"ann", "bob", "cy", "di"}


def test_a_cancelled_board_settles_nothing_and_the_same_places_play_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 3, 1)
    table.roll(2, 5)
    moderator_actions.match_adjudicate(
        match_id=table.game.match_id, winner=None, cancel=True, now=NOW
    )
    assert table.places() == ("ann", "bob", ("cy",))
    assert table.game.number == 2 and table.points() == {"ann": 0, "bob": 0, "cy": 0}


def test_the_creator_leaving_before_the_start_cancels_it(monkeypatch: pytest.MonkeyPatch) -> None:
    table = seat_table(monkeypatch, 3)
    seating.chouette_leave(chouette_id=table.chouette.pk, user=table.users["bob"], now=NOW)
    assert Seat.objects.get(player=table.users["bob"]).status == Seat.Status.LEFT
    seating.chouette_leave(chouette_id=table.chouette.pk, user=table.users["ann"], now=NOW)
    table.chouette.refresh_from_db()
    assert table.chouette.status == Chouette.Status.CANCELLED
    with pytest.raises(Conflict):
        seating.chouette_join(chouette_id=table.chouette.pk, user=table.users["bob"], now=NOW)
