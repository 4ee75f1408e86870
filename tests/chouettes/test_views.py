"""The chouette pages: the list, the form, the session page and the game page's panel.

The table is tests/chouettes/helpers.py's: ann creates, bob and cy join, the places come
from the joining order (ann in the box, bob captain, cy next in line) and the dice are
scripted. Each form works through its page; each refusal shows the service's message
with its 4xx and changes nothing; the team's chat and suggestions never reach the box,
and a spectator reads no chat.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from chouettes import seating
from chouettes.models import Chouette, Decision, Message, Seat, Suggestion
from matches.models import Game
from tests.factories import UserFactory

from .helpers import Table, box_doubles, seat_table, start

pytestmark = pytest.mark.django_db


def client_of(table: Table, name: str) -> Client:
    client = Client()
    client.force_login(table.users[name])
    return client


def game_page(table: Table, name: str | None) -> str:
    client = Client() if name is None else client_of(table, name)
    response = client.get(f"/games/{table.board.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def playing(monkeypatch: pytest.MonkeyPatch, players: int = 3) -> Table:
    """Game 1 with bob (the captain) on roll after one move each."""
    table = seat_table(monkeypatch, players)
    start(table, 1, 3)  # the captain (Black) wins the opening roll with 3-1
    table.move("bob", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("ann")
    table.move("ann", "24/13")
    return table


def cube(table: Table, name: str, action: str, **extra: Any) -> Any:
    data = {"action": action, "ply": table.board.ply, **extra}
    return client_of(table, name).post(f"/chouettes/{table.chouette.pk}/cube", data)


def state(table: Table) -> tuple[object, ...]:
    board = table.board
    return (
        board.ply,
        board.state,
        board.held,
        board.cube_value,
        Decision.objects.count(),
        Message.objects.count(),
        Suggestion.objects.count(),
        list(Seat.objects.order_by("pk").values_list("status", "points", "leaving")),
        list(Chouette.objects.order_by("pk").values_list("status", "places")),
    )


# --------------------------------------------------------------------------- the list and the form


def test_the_list_shows_open_chouettes_to_everyone_and_mine_to_me(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3)
    anonymous = Client().get("/chouettes/")
    assert anonymous.status_code == 200
    assert f"Chouette #{table.chouette.pk}" in anonymous.content.decode()
    mine = client_of(table, "bob").get("/chouettes/").content.decode()
    assert 'id="chouettes-mine"' in mine and "3 of 8 players" in mine
    assert reverse("chouette_list") in Client().get("/").content.decode()  # the nav's link


def test_the_form_creates_a_chouette_with_its_options_and_invitations() -> None:
    ann, bob, cy = (UserFactory(username=n) for n in ("ann", "bob", "cy"))
    client = Client()
    client.force_login(ann)
    assert client.get("/chouettes/new").status_code == 200
    response = client.post(
        "/chouettes/new",
        {
            "max_players": "4",
            "days_per_move": "2",
            "time_bank_days": "5",
            "cube_limit": "16",
            "jacoby": "on",
            "places_from_dice": "order",
            "open_to_all": "invited",
            "invite": "BOB, cy",
        },
    )
    chouette = Chouette.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/chouettes/{chouette.pk}/"
    assert (chouette.max_players, chouette.days_per_move, chouette.time_bank_days) == (4, 2, 5)
    assert (chouette.cube_limit, chouette.jacoby, chouette.automatic_doubles) == (16, True, False)
    assert (chouette.places_from_dice, chouette.open_to_all) == (False, False)
    invited = chouette.seats.filter(status=Seat.Status.INVITED).values_list("player", flat=True)
    assert set(invited) == {bob.pk, cy.pk}


def test_an_unknown_name_to_invite_is_a_form_error_and_nothing_is_created() -> None:
    ann = UserFactory(username="ann")
    UserFactory(username="bob")
    client = Client()
    client.force_login(ann)
    data = {"max_players": "8", "days_per_move": "3", "time_bank_days": "0", "cube_limit": "64"}
    response = client.post(
        "/chouettes/new",
        {**data, "places_from_dice": "dice", "open_to_all": "anyone", "invite": "bob nobody"},
    )
    assert response.status_code == 400
    assert "There is no player called nobody." in response.content.decode()
    assert not Chouette.objects.exists()
    own = client.post(
        "/chouettes/new",
        {**data, "places_from_dice": "dice", "open_to_all": "anyone", "invite": "ann"},
    )
    assert own.status_code == 400
    assert "You are in your own chouette already." in own.content.decode()
    assert not Chouette.objects.exists()


# --------------------------------------------------------------------------- the session page


def test_players_join_and_the_creator_starts_on_the_session_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 2)  # ann and bob
    cy = UserFactory(username="cy")
    table.users["cy"], table.names[cy.pk] = cy, "cy"
    url = f"/chouettes/{table.chouette.pk}/"
    page = client_of(table, "cy").get(url).content.decode()
    assert 'id="chouette-join"' in page and 'id="chouette-start"' not in page

    early = client_of(table, "ann").post(url + "start")
    assert early.status_code == 400
    assert "A chouette starts with at least 3 players seated." in early.content.decode()
    assert Chouette.objects.get().status == Chouette.Status.OPEN

    assert client_of(table, "cy").post(url + "join").status_code == 302
    refused = client_of(table, "bob").post(url + "start")
    assert refused.status_code == 403
    assert "Only the chouette&#x27;s creator starts it." in refused.content.decode()
    assert Chouette.objects.get().status == Chouette.Status.OPEN

    table.roll(1, 3)
    assert client_of(table, "ann").post(url + "start").status_code == 302
    page = client_of(table, "cy").get(url).content.decode()
    assert Chouette.objects.get().status == Chouette.Status.PLAYING
    assert 'id="line-ann"' in page and "In the box" in page and "Captain" in page
    assert "Bob to move" in page  # the captain won the opening roll
    link = client_of(table, "cy").get(url + "games/1/")
    assert link.status_code == 302 and link["Location"] == f"/games/{table.board.pk}/"


def test_the_opening_dice_are_shown_when_they_gave_the_places(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3, places_from_dice=True)
    start(table, 6, 4, 2, 1, 3)  # ann 6, bob 4, cy 2; then the board's opening 1-3
    page = Client().get(f"/chouettes/{table.chouette.pk}/").content.decode()
    assert 'id="opening-rounds"' in page and "Ann 6, Bob 4, Cy 2" in page


def test_the_creator_invites_and_a_bad_name_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 2)
    UserFactory(username="di")
    url = f"/chouettes/{table.chouette.pk}/invite"
    bad = client_of(table, "ann").post(url, {"invite": "di nobody"})
    assert bad.status_code == 400
    assert "There is no player called nobody." in bad.content.decode()
    assert not Seat.objects.filter(status=Seat.Status.INVITED).exists()
    not_creator = client_of(table, "bob").post(url, {"invite": "di"})
    assert not_creator.status_code == 403
    assert not Seat.objects.filter(status=Seat.Status.INVITED).exists()
    assert client_of(table, "ann").post(url, {"invite": "di"}).status_code == 302
    assert Seat.objects.filter(status=Seat.Status.INVITED, player__username="di").exists()


def test_leaving_before_the_start_and_between_games(monkeypatch: pytest.MonkeyPatch) -> None:
    table = seat_table(monkeypatch, 4)
    url = f"/chouettes/{table.chouette.pk}/leave"
    assert client_of(table, "di").post(url).status_code == 302
    assert Seat.objects.get(player__username="di").status == Seat.Status.LEFT
    again = client_of(table, "di").post(url)
    assert (
        again.status_code == 403
        and "You are not playing in this chouette." in again.content.decode()
    )
    table.users["ed"] = UserFactory(username="ed")
    seating.chouette_join(chouette_id=table.chouette.pk, user=table.users["ed"], now=table.now)
    start(table, 1, 3)
    assert client_of(table, "cy").post(url).status_code == 302
    assert Seat.objects.get(player__username="cy").leaving == Seat.Status.LEFT
    page = client_of(table, "cy").get(f"/chouettes/{table.chouette.pk}/").content.decode()
    assert "You leave the chouette when this game ends." in page


# --------------------------------------------------------------------------- the game page


def test_a_chouette_board_hides_the_plain_cube_draw_and_chat_controls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = playing(monkeypatch)
    captain = game_page(table, "bob")
    assert 'value="double"' not in captain and "offer_draw" not in captain
    assert 'value="roll"' in captain  # the board's own roll stays
    assert 'id="messages"' not in captain and "resign_match" not in captain
    assert 'id="chouette"' in captain and 'id="chouette-propose"' in captain
    refused = client_of(table, "bob").post(
        f"/games/{table.board.pk}/", {"action": "double", "ply": table.board.ply}
    )
    assert refused.status_code == 409
    assert "go through the chouette&#x27;s buttons" in refused.content.decode()


def test_a_team_double_proposed_agreed_and_taken_through_the_panel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = playing(monkeypatch)
    response = cube(table, "bob", "propose")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{table.board.pk}/#chouette"
    member = game_page(table, "cy")
    assert 'id="chouette-vote-yes"' in member
    assert "Your vote on the team&#x27;s double is awaited" in member
    captain = game_page(table, "bob")
    assert 'value="roll"' not in captain  # the board is held
    assert "Cy to vote on the team&#x27;s double" in captain
    assert "Your team votes on doubling the box: waiting for Cy." in captain
    assert "The board waits for the team&#x27;s decision" in game_page(table, None)

    assert cube(table, "cy", "vote_yes", confirm="on").status_code == 302
    board = table.board
    assert (board.state, board.turn, board.held) == (Game.State.DOUBLED, 0, False)
    box = game_page(table, "ann")
    assert 'id="chouette-box-take"' in box and 'value="take"' not in box
    table.roll((6, 5))
    assert cube(table, "ann", "box_take", confirm="on").status_code == 302
    assert table.stakes() == {"bob": 2, "cy": 2}
    record = game_page(table, None)
    for said in ("Bob proposed the team&#x27;s double", "Cy agreed", "Ann (the box) took"):
        assert said in record
    assert "Bob captained from the start." in record


def live_stamp(page: str) -> tuple[str, str]:
    """The open page's poll: the address it asks and the answer it was drawn at."""
    found = re.search(r'id="live-game" hidden data-url="([^"]+)" data-ply="([^"]+)"', page)
    assert found, "no live-game poll on the page"
    return found.group(1), found.group(2)


def test_an_open_board_page_learns_of_a_vote_that_leaves_the_board_at_its_ply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = playing(monkeypatch, players=4)
    assert cube(table, "bob", "propose").status_code == 302
    url, drawn = live_stamp(game_page(table, "ann"))
    assert Client().get(url).json() == {"ply": drawn}  # nothing new yet
    ply = table.board.ply
    assert cube(table, "cy", "vote_yes", confirm="on").status_code == 302
    assert table.board.ply == ply and table.board.held  # di's vote is still awaited
    # The box's page, drawn before cy's vote, sees that it is behind and reloads.
    answer = Client().get(url)
    assert answer["Cache-Control"] == "no-store"
    assert answer.json()["ply"] != drawn
    assert live_stamp(game_page(table, "ann")) == (url, answer.json()["ply"])
    assert Client().get(url.replace("/games/1/", "/games/9/")).status_code == 404


def test_a_stale_or_wrong_decision_shows_its_message_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = playing(monkeypatch)
    before = state(table)
    stale = cube(table, "bob", "propose", ply=table.board.ply - 1)
    assert stale.status_code == 409
    assert "The game has changed since you loaded it." in stale.content.decode()
    box = cube(table, "ann", "box_double")
    assert box.status_code == 400
    assert "The box may double only before its roll." in box.content.decode()
    outsider = UserFactory(username="zed")
    client = Client()
    client.force_login(outsider)
    stranger = client.post(
        f"/chouettes/{table.chouette.pk}/cube", {"action": "propose", "ply": table.board.ply}
    )
    assert stranger.status_code == 403
    assert "You are not playing in this chouette." in stranger.content.decode()
    nonsense = cube(table, "bob", "explode")
    assert nonsense.status_code == 400
    assert state(table) == before


def test_a_box_double_taken_by_one_and_dropped_by_the_captain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 3, 1)  # the box (White) opens
    table.move("ann", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("bob")
    table.move("bob", "24/13")
    assert 'id="chouette-box-double"' in game_page(table, "ann")
    assert cube(table, "ann", "box_double").status_code == 302
    assert 'id="chouette-take"' in game_page(table, "bob")
    assert cube(table, "bob", "drop", confirm="on").status_code == 302
    table.roll((2, 1))
    assert cube(table, "cy", "take", confirm="on").status_code == 302
    assert table.board.match.black.username == "cy"
    page = game_page(table, "cy")
    assert "Bob dropped" in page and "Cy took" in page and "Ann (the box) doubled" in page
    assert "Cy captained from ply" in page and "when Bob dropped." in page


def test_team_mates_suggest_plays_the_captain_sees_them_and_the_box_never(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = playing(monkeypatch)
    table.roll((3, 1))
    table.roll_board("bob")
    url = f"/chouettes/{table.chouette.pk}/suggest"
    before = state(table)
    illegal = client_of(table, "cy").post(url, {"play": "24/1", "ply": table.board.ply})
    assert illegal.status_code == 400 and state(table) == before
    assert (
        client_of(table, "cy").post(url, {"play": "8/5 6/5", "ply": table.board.ply}).status_code
        == 302
    )
    assert Suggestion.objects.get().play == "8/5 6/5"
    assert "8/5 6/5</code>" in game_page(table, "bob")
    member = game_page(table, "cy")
    assert 'id="suggest-form"' in member
    svg = member[member.index("<svg") : member.index("</svg>")]
    assert svg.index("Ann (White)") < svg.index("Bob (Black)")  # the team's side, below
    box = game_page(table, "ann")
    assert "8/5 6/5</code>" not in box and 'id="chouette-suggestions"' not in box
    spectator = Client().get(f"/games/{table.board.pk}/").content.decode()
    assert "8/5 6/5</code>" not in spectator and 'id="chouette-lineup"' in spectator
    captain = client_of(table, "bob").post(url, {"play": "8/5 6/5", "ply": table.board.ply})
    assert captain.status_code == 403
    assert "Only the captain&#x27;s team mates suggest plays." in captain.content.decode()


def test_the_team_chat_is_the_teams_and_the_table_chat_the_players(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = playing(monkeypatch)
    url = f"/chouettes/{table.chouette.pk}/messages"
    team = client_of(table, "cy").post(url, {"text": "Double now", "team": "on", "back": "game"})
    assert team.status_code == 302 and team["Location"] == f"/games/{table.board.pk}/#team-chat"
    table_chat = client_of(table, "ann").post(url, {"text": "Good luck all", "back": "session"})
    assert table_chat["Location"] == f"/chouettes/{table.chouette.pk}/#table-chat"

    for name in ("bob", "cy"):
        assert "Double now" in game_page(table, name)
        session = client_of(table, name).get(f"/chouettes/{table.chouette.pk}/").content.decode()
        assert "Double now" in session and "Good luck all" in session
    box_game = game_page(table, "ann")
    box_session = client_of(table, "ann").get(f"/chouettes/{table.chouette.pk}/").content.decode()
    assert "Double now" not in box_game and "Double now" not in box_session
    assert 'id="team-chat"' not in box_game and "Good luck all" in box_game
    for page in (
        game_page(table, None),
        Client().get(f"/chouettes/{table.chouette.pk}/").content.decode(),
    ):
        assert "Double now" not in page and "Good luck all" not in page

    before = state(table)
    refused = client_of(table, "ann").post(url, {"text": "Let me in", "team": "on", "back": "game"})
    assert refused.status_code == 403
    assert "The box has no say in the team&#x27;s talk." in refused.content.decode()
    empty = client_of(table, "cy").post(url, {"text": "", "back": "session"})
    assert empty.status_code == 400 and "Write a message first." in empty.content.decode()
    assert state(table) == before


def test_after_a_game_the_session_page_shows_the_points_and_the_rotation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = playing(monkeypatch)
    table.set_board(white={13: 15}, black={1: 1})
    table.roll((4, 2), 4, 2)  # bob's roll, then the next game's opening
    table.roll_board("bob")
    table.move("bob", "1/off")
    assert table.places() == ("bob", "cy", ("ann",))
    page = Client().get(f"/chouettes/{table.chouette.pk}/").content.decode()
    assert 'id="game-1"' in page and 'id="game-2"' in page
    assert "Ann -4" in page and "Bob +2" in page and "Cy +2" in page
    lineup = page[page.index('id="lineup"') : page.index("</table>", page.index('id="lineup"'))]
    assert lineup.index("line-bob") < lineup.index("line-cy") < lineup.index("line-ann")


def test_the_dashboard_lists_the_decisions_awaited_from_the_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The box doubles: the board is held for the members' answers, so it is in nobody's
    games awaiting; each member who must answer finds it on the dashboard, until they do."""
    table = seat_table(monkeypatch, 3)
    box_doubles(table)
    chouette = table.game.chouette

    def dashboard(name: str) -> str:
        client = Client()
        client.force_login(table.users[name])
        return client.get(reverse("dashboard")).content.decode()

    for member in ("bob", "cy"):
        page = dashboard(member)
        assert "Chouette decisions awaited" in page
        assert f'href="{chouette.get_absolute_url()}"' in page
    assert "Chouette decisions awaited" not in dashboard("ann")  # the box waits, decides nothing
    table.act("team_answer", "cy", take=True)
    assert "Chouette decisions awaited" not in dashboard("cy")
    assert "Chouette decisions awaited" in dashboard("bob")
