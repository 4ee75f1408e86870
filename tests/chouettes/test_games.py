"""Whole chouette games through the services: the team's doubles, the box's double with
takes and drops, the captain dropping, a gammon, and the rotation after each game.

The places come from the joining order (ann is the box, bob the captain, then cy, di,
ed in line) and the dice are scripted, so each test reads as a game record.
"""

from __future__ import annotations

import pytest

from backgammon.errors import Conflict
from chouettes.models import Decision, Result
from gammon import chouette as rules
from matches.models import Game
from notifications.models import Notification
from notifications.texts import notification_text, notification_url

from .helpers import box_doubles, seat_table, start

pytestmark = pytest.mark.django_db


def test_a_unanimous_team_double_taken_then_a_team_gammon(monkeypatch: pytest.MonkeyPatch) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 1, 3)  # the captain (Black) wins the opening roll with 3-1
    assert table.places() == ("ann", "bob", ("cy",))
    table.move("bob", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("ann")
    table.move("ann", "24/13")

    table.act("team_propose_double", "bob")
    assert table.side().stage is rules.Stage.TEAM_VOTE
    assert table.board.held and table.board.deadline_at is None
    with pytest.raises(Conflict) as held:
        table.roll_board("bob")
    assert held.value.code == "held"

    table.act("team_vote", "cy", agree=True)
    board = table.board
    assert (board.state, board.turn, board.held) == (Game.State.DOUBLED, 0, False)
    table.roll((6, 5))
    table.act("box_answer", "ann", take=True)
    assert table.stakes() == {"bob": 2, "cy": 2}
    assert table.board.cube_value == 2

    table.set_board(white={13: 15}, black={1: 1})
    table.roll(4, 2)  # the next game's opening
    table.move("bob", "1/off")

    assert table.points() == {"ann": -8, "bob": 4, "cy": 4}
    assert table.places() == ("bob", "cy", ("ann",))
    next_board = table.board
    assert (next_board.match.white.username, next_board.match.black.username) == ("bob", "cy")
    assert list(table.game.chouette.games.values_list("number", flat=True)) == [1, 2]


def test_a_box_double_the_captain_drops_and_the_next_taker_captains(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 4)
    start(table, 3, 1)  # the box (White) opens
    table.move("ann", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("bob")
    table.move("bob", "24/13")

    table.act("box_double", "ann")
    assert table.side().awaiting == tuple(table.users[n].pk for n in ("bob", "cy", "di"))
    assert table.board.held
    table.act("team_answer", "bob", take=False)
    table.act("team_answer", "di", take=False)
    table.roll((2, 1))
    table.act("team_answer", "cy", take=True)

    board = table.board
    assert board.match.black.username == "cy"
    assert (board.state, board.turn, board.cube_value) == (Game.State.MOVING, 0, 2)
    assert table.stakes() == {"bob": 1, "cy": 2, "di": 1}

    table.set_board(white={1: 1}, black={6: 5})
    table.roll(4, 2)
    table.move("ann", "1/off")
    assert table.points() == {"ann": 4, "bob": -1, "cy": -2, "di": -1}
    results = {r.player.username: (r.role, r.stake, r.dropped) for r in Result.objects.all()}
    assert results["cy"] == (Result.Role.CAPTAIN, 2, False)
    assert results["bob"] == (Result.Role.MEMBER, 1, True)
    assert table.places() == ("ann", "di", ("bob", "cy"))


def test_a_refused_team_double_gives_the_captain_his_turn_back_and_a_box_drop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 5)
    start(table, 1, 3)
    table.move("bob", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("ann")
    table.move("ann", "24/13")

    table.act("team_propose_double", "cy")  # any member may propose
    table.act("team_vote", "bob", agree=True)
    table.act("team_vote", "di", agree=False)  # one refusal ends the vote
    board = table.board
    assert (board.state, board.turn, board.held) == (Game.State.ROLLING, 1, False)
    assert board.deadline_at is not None
    assert table.side().stage is rules.Stage.PLAYING
    with pytest.raises(Conflict) as again:
        table.act("team_propose_double", "bob")
    assert again.value.code == "chouette_voted"  # one vote a turn

    table.roll((2, 1), (6, 6))
    table.roll_board("bob")
    table.move("bob", "13/11 6/5")
    table.roll_board("ann")
    table.move("ann", "13/7(2) 8/2(2)")
    table.act("team_propose_double", "bob")
    for name in ("cy", "di", "ed"):
        table.act("team_vote", name, agree=True)
    table.roll(5, 2)  # the next game's opening
    table.act("box_answer", "ann", take=False)

    assert table.points() == {"ann": -4, "bob": 1, "cy": 1, "di": 1, "ed": 1}
    kinds = list(Decision.objects.filter(game__number=1).values_list("kind", "yes"))
    assert kinds[-1] == (Decision.Kind.BOX_ANSWER, False)
    assert table.places() == ("bob", "cy", ("di", "ed", "ann"))  # team won: bob to the box


def test_every_member_dropping_ends_the_game_for_the_box(monkeypatch: pytest.MonkeyPatch) -> None:
    table = seat_table(monkeypatch, 3)
    box_doubles(table)
    table.act("team_answer", "cy", take=False)
    table.roll(2, 5)
    table.act("team_answer", "bob", take=False)
    assert table.points() == {"ann": 2, "bob": -1, "cy": -1}
    first = table.chouette.games.get(number=1)
    assert first.match.games.get().termination == "drop"
    # the team lost with bob its last captain: the next member captains
    assert table.places() == ("ann", "cy", ("bob",))


def test_each_player_is_told_of_the_decisions_awaited_from_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 4, invite=())
    start(table, 3, 1)
    table.move("ann", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("bob")
    table.move("bob", "24/13")
    Notification.objects.all().delete()

    table.act("box_double", "ann")
    told = {(n.recipient.username, n.kind) for n in Notification.objects.all()}
    assert told == {(name, Notification.Kind.CHOUETTE_ANSWER) for name in ("bob", "cy", "di")}
    texts = [notification_text(n) for n in Notification.objects.filter(recipient__username="cy")]
    assert texts == ["Ann, in the box, doubles you to 2: take or drop."]
    assert notification_url(Notification.objects.get(recipient__username="cy")) == (
        f"/games/{table.board.pk}/"
    )


def test_a_team_vote_is_announced_to_the_others_and_the_box_hears_the_double(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 1, 3)
    table.move("bob", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("ann")
    table.move("ann", "24/13")
    Notification.objects.all().delete()
    table.act("team_propose_double", "bob")
    assert [(n.recipient.username, n.kind) for n in Notification.objects.all()] == [
        ("cy", Notification.Kind.CHOUETTE_VOTE)
    ]
    Notification.objects.all().delete()
    table.act("team_vote", "cy", agree=True)
    row = Notification.objects.get()
    assert (row.recipient.username, row.kind) == ("ann", Notification.Kind.DOUBLE_OFFERED)
    assert notification_text(row) == "The team of Bob doubles you to 2: take or drop."
