"""A chouette game exported as a money-session .mat file and read by GNU Backgammon.

The file is the board's (the box against the captain); the chouette, the line, each
member's stake, who dropped the box's double and the change of captain are in the
header's comment lines, which gnubg keeps as the match's comment, silently.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from chouettes.export import game_header
from matches import endings
from matches.models import Game
from tests.matches.gnubg_mat import gnubg_import, without_date

from .helpers import Table, seat_table, start

pytestmark = pytest.mark.django_db


def box_double_one_drop(monkeypatch: pytest.MonkeyPatch) -> Table:
    """Four players (ann the box, bob captain, cy, di): the box doubles, bob drops and
    cy captains; cy and di take, and cy resigns after the box's next play."""
    table = seat_table(monkeypatch, 4)
    start(table, 3, 1)  # the box opens
    table.move("ann", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("bob")
    table.move("bob", "24/13")
    table.act("box_double", "ann")
    table.act("team_answer", "bob", take=False)
    table.act("team_answer", "di", take=True)
    table.roll((2, 1))
    table.act("team_answer", "cy", take=True)
    table.move("ann", "13/11 6/5")
    table.roll((4, 2))  # the next game's opening
    board = table.board
    endings.game_resign(
        game_id=board.pk, player=table.users["cy"], expected_ply=board.ply, now=table.tick()
    )
    return table


def test_the_header_names_the_box_the_captains_each_stake_and_the_drop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = box_double_one_drop(monkeypatch)
    game = table.chouette.games.get(number=1)
    assert game.match.games.get().state == Game.State.FINISHED
    points = table.points()
    header = game_header(game)
    number = table.chouette.pk
    assert header.event == f"Chouette {number}, game 1"
    assert header.comments[1:] == (
        "Box: ann",
        "Captain: bob",
        "Captain change: bob dropped; cy captained the rest of the game",
        "Line: bob, cy, di",
        "bob: stake 1, dropped the box's double to 2, -1 point",
        f"cy: stake 2, took the box's double to 2, {points['cy']:+d} points",
        f"di: stake 2, took the box's double to 2, {points['di']:+d} points",
        f"ann (box): {points['ann']:+d} points",
    )
    assert points["ann"] == -(points["bob"] + points["cy"] + points["di"]) > 0


@pytest.mark.gnubg
def test_gnubg_imports_the_game_with_no_warning_and_keeps_the_comments(
    monkeypatch: pytest.MonkeyPatch, client: Client, gnubg: str, tmp_path: Path
) -> None:
    table = box_double_one_drop(monkeypatch)
    number = table.chouette.pk
    response = client.get(f"/chouettes/{number}/games/1/export.mat?header=gnubg")
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="chouette-{number}-game-1.mat"'
    )
    text = response.content.decode()
    assert f'; [Event "Chouette {number}, game 1"]' in text
    assert "; bob: stake 1, dropped the box's double to 2, -1 point\n" in text
    assert "; Captain change: bob dropped; cy captained the rest of the game\n" in text
    assert " 0 point match" in text and " ann : 0" in text and "cy : 0" in text

    result = gnubg_import(gnubg, text, tmp_path, jacoby=table.chouette.jacoby)

    assert result.messages == []
    assert len(result.games) == 1
    assert result.games[0]["info"]["winner"] == "X"  # gnubg's player 0: the box, White
    # gnubg's own export writes the same file back: the comments were kept as they are.
    assert without_date(result.reexport) == without_date(text)


def test_the_page_and_the_api_give_the_same_file(
    monkeypatch: pytest.MonkeyPatch, client: Client
) -> None:
    table = box_double_one_drop(monkeypatch)
    number = table.chouette.pk
    page = client.get(f"/chouettes/{number}/games/1/export.mat")
    api = client.get(f"/api/chouettes/{number}/games/1/export.mat")
    assert page.status_code == api.status_code == 200
    assert api.content == page.content
    assert b'; [Player 1 "ann"]' in page.content  # the XG header unless asked otherwise


def test_an_unknown_game_is_not_found(monkeypatch: pytest.MonkeyPatch, client: Client) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 3, 1)
    number = table.chouette.pk
    assert client.get(f"/chouettes/{number}/games/2/export.mat").status_code == 404
    api = client.get(f"/api/chouettes/{number}/games/2/export.mat")
    assert api.status_code == 404 and api.json()["code"] == "not_found"
    bad = client.get(f"/api/chouettes/{number}/games/1/export.mat?header=nope")
    assert bad.status_code == 400
