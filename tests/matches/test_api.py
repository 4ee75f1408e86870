"""The matches API, used only through HTTP as a client program would.

Colours are drawn at random when a challenge is accepted, so each test looks up who is
White in the match it got. The dice are scripted (``scripted_dice``) where a scenario
needs particular rolls; every opening roll below is ``6, 1``: White opens with 6-1.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from challenges.models import Challenge
from gammon import match_key_from_id, position_from_id
from matches.models import Game
from tests.matches.api_helpers import (
    act,
    get_game,
    get_match,
    scripted_dice,
    snapshot,
    start_match,
    token_client,
)

pytestmark = pytest.mark.django_db

START_POSITION_ID = "4HPwATDgc/ABMA"


def colour_clients(
    match: dict[str, Any], *users: User
) -> tuple[APIClient, APIClient, dict[str, Any]]:
    """``(white client, black client, match)`` for a match between ``users``."""
    clients = {user.username: token_client(user) for user in users}
    return clients[match["white"]["username"]], clients[match["black"]["username"]], match


@pytest.fixture
def opened(player: User, opponent: User) -> tuple[APIClient, APIClient, dict[str, Any]]:
    """A 5-point match whose first game has White to move after an opening 6-1."""
    with scripted_dice([6, 1]):
        match = start_match(token_client(player), token_client(opponent), length=5)
    return colour_clients(match, player, opponent)


def first_game(match: dict[str, Any]) -> int:
    return match["games"][0]["id"]


# --------------------------------------------------------------------------- complete matches


def test_a_double_is_dropped_then_the_crawford_game_forbids_doubling(
    player: User, opponent: User
) -> None:
    with scripted_dice([6, 1, 6, 1, 3, 1, 4, 2]):
        match = start_match(token_client(player), token_client(opponent), length=2)
        white, black, match = colour_clients(match, player, opponent)
        game_id = first_game(match)

        status, game = act(white, game_id, "move", 1, play="13/7 8/7")
        assert status == 200, game
        assert game["state"] == "rolling"
        assert game["turn"]["color"] == "black"
        black_view = get_game(black, game_id)
        assert black_view["actions"] == ["roll", "double", "offer_resign", "resign", "offer_draw"]
        assert black_view["position_id"] == position_from_id_of(game)

        status, game = act(black, game_id, "double", game["ply"])
        assert status == 200, game
        assert game["state"] == "doubled"
        key = match_key_from_id(game["match_id"])
        assert key.double_offered and key.on_roll.name == "BLACK" and key.turn.name == "WHITE"
        assert get_game(white, game_id)["actions"] == ["take", "drop", "resign", "offer_draw"]

        status, game = act(white, game_id, "drop", game["ply"])
        assert status == 200, game
        assert (game["state"], game["winner"], game["termination"], game["points"]) == (
            "finished",
            "black",
            "drop",
            1,
        )
        assert game["actions"] == [] and game["turn"] is None
        assert [e["kind"] for e in game["events"]] == ["drop", "win"]  # what the drop added
        record = get_game(white, game_id)["events"]
        assert [e["kind"] for e in record] == ["opening", "move", "double", "drop", "win"]

        # Game 2 is the Crawford game: Black is one point away.
        crawford_id = game["next_game"]
        game = get_game(white, crawford_id)
        assert game["crawford"] is True
        assert game["score"] == {"white": 0, "black": 1}
        assert match_key_from_id(game["match_id"]).crawford
        assert game["actions"] == ["move", "offer_resign", "resign", "offer_draw"]
        before = snapshot()
        status, body = act(white, crawford_id, "double", game["ply"])
        assert (status, body["code"]) == (400, "crawford")
        assert snapshot() == before

        status, game = act(white, crawford_id, "move", game["ply"], play="13/7 8/7")
        assert status == 200, game
        # Nobody may double, so the server rolled for Black at once.
        assert game["state"] == "moving" and game["dice"] == [3, 1]
        assert "double" not in get_game(black, crawford_id)["actions"]
        status, body = act(black, crawford_id, "double", game["ply"])
        assert (status, body["code"]) == (400, "crawford")

        # White, on turn again, gives up a single game: it is the match, and all on offer.
        status, game = act(black, crawford_id, "move", game["ply"], play="24/23 13/10")
        assert status == 200, game
        game = get_game(white, crawford_id)
        offers = game["resign_offers"]
        assert offers == [{"level": "single", "points": 1, "ends_match": True}]
        status, game = act(white, crawford_id, "offer-resign", game["ply"], level="single")
        assert status == 200, game
        status, game = act(black, crawford_id, "accept-resign", game["ply"])
        assert status == 200, game
        assert (game["winner"], game["termination"], game["points"]) == ("black", "resign", 1)

    match = get_match(white, match["id"])
    assert (match["status"], match["result"]) == ("finished", "black")
    assert match["score"]["black"] >= 2
    assert [g["number"] for g in match["games"]] == [1, 2]


def position_from_id_of(game: dict[str, Any]) -> str:
    """The Position ID the API gave, checked to decode to the board it shows."""
    on_roll = game["turn"]["color"]
    position = position_from_id(game["position_id"])
    board = game["board"] if on_roll == "white" else mirror_board(game["board"])
    assert list(position.points) == board["points"]
    return game["position_id"]


def mirror_board(board: dict[str, Any]) -> dict[str, Any]:
    return {
        "points": [-n for n in reversed(board["points"])],
        "bar": board["bar"][::-1],
        "off": board["off"][::-1],
    }


def test_a_double_is_taken_and_the_taker_owns_the_cube(player: User, opponent: User) -> None:
    with scripted_dice([6, 1, 3, 1]):
        match = start_match(token_client(player), token_client(opponent), length=3)
        white, black, match = colour_clients(match, player, opponent)
        game_id = first_game(match)
        _, game = act(white, game_id, "move", 1, play="13/7 8/7")
        _, game = act(black, game_id, "double", game["ply"])
        status, game = act(white, game_id, "take", game["ply"])
    assert status == 200, game
    assert game["cube"] == {"value": 2, "owner": "white"}
    # After the take Black rolls at once (the script's 3-1).
    assert game["state"] == "moving" and game["dice"] == [3, 1]
    assert game["turn"] == {"color": "black", "username": match["black"]["username"]}
    key = match_key_from_id(game["match_id"])
    assert (key.cube_value, key.cube_owner.name) == (2, "WHITE")
    assert [e["kind"] for e in game["events"]] == ["take", "roll"]  # what the take added
    assert game["events"][0]["value"] == 2

    status, game = act(black, game_id, "move", game["ply"], play="8/5 6/5")
    assert status == 200, game
    # White owns the cube, so White may redouble; Black may not double at all.
    assert get_game(white, game_id)["actions"][:2] == ["roll", "double"]
    assert "double" not in get_game(black, game_id)["actions"]
    status, body = act(black, game_id, "double", game["ply"])
    assert (status, body["code"]) == (403, "not_your_turn")

    status, game = act(black, game_id, "resign", game["ply"], scope="match")
    assert status == 200, game
    assert (game["winner"], game["termination"]) == ("white", "resign")
    match = get_match(black, match["id"])
    assert (match["status"], match["result"], match["termination"]) == (
        "finished",
        "white",
        "resign",
    )
    assert match["score"] == {"white": 3, "black": 0}


def test_a_declined_draw_goes_on_and_an_accepted_one_ends_the_match(opened) -> None:
    white, black, match = opened
    game_id = first_game(match)

    status, game = act(black, game_id, "offer-draw", 1)
    assert status == 200, game
    assert game["draw_offered_by"] == "black"
    assert get_game(white, game_id)["actions"] == [
        "move",
        "offer_resign",
        "resign",
        "accept_draw",
        "decline_draw",
    ]
    assert get_game(black, game_id)["actions"] == ["resign"]
    status, body = act(black, game_id, "accept-draw", game["ply"])
    assert (status, body["code"]) == (400, "no_draw_offer")

    status, game = act(white, game_id, "decline-draw", game["ply"])
    assert status == 200, game
    assert game["draw_offered_by"] is None and game["state"] == "moving"
    assert [e["kind"] for e in game["events"]] == ["draw_decline"]
    record = get_game(white, game_id)["events"]
    assert [e["kind"] for e in record][-2:] == ["draw_offer", "draw_decline"]

    status, game = act(white, game_id, "offer-draw", game["ply"])
    assert status == 200, game
    status, game = act(black, game_id, "accept-draw", game["ply"])
    assert status == 200, game
    assert (game["state"], game["winner"], game["termination"]) == ("finished", None, "draw")
    match = get_match(token_client(None), match["id"])
    assert (match["status"], match["result"]) == ("finished", "draw")


def test_a_game_resignation_scores_the_game_and_the_match_goes_on(
    player: User, opponent: User
) -> None:
    """The site's first rule, kept as the match option ``resignation: immediate``."""
    with scripted_dice([6, 1]):
        match = start_match(
            token_client(player), token_client(opponent), length=5, resignation="immediate"
        )
    white, black, match = colour_clients(match, player, opponent)
    assert get_match(white, match["id"])["resignation"] == "immediate"
    with scripted_dice([5, 2]):
        status, game = act(black, first_game(match), "resign", 1, scope="game")
    assert status == 200, game
    assert (game["winner"], game["termination"]) == ("white", "resign")
    assert game["points"] in (1, 2, 3)
    match = get_match(white, match["id"])
    assert match["status"] == "playing"
    assert match["score"]["white"] == game["points"]
    assert [g["id"] for g in match["games"]][-1] == game["next_game"]
    nxt = get_game(white, game["next_game"])
    assert nxt["score"] == {"white": game["points"], "black": 0}
    assert nxt["position_id"] == START_POSITION_ID


# --------------------------------------------------------------------------- reading


def test_anyone_may_look_at_a_game_but_only_players_get_actions(opened, outsider: User) -> None:
    white, black, match = opened
    game_id = first_game(match)
    for client in (token_client(outsider), token_client(None)):
        game = get_game(client, game_id)
        assert game["actions"] == [] and game["plays"] == []
        assert game["viewer_color"] is None and game["viewer_board"] is None
        assert game["position_id"] == START_POSITION_ID
        assert get_match(client, match["id"])["id"] == match["id"]

    game = get_game(white, game_id)
    assert game["viewer_color"] == "white"
    assert game["actions"] == ["move", "offer_resign", "resign", "offer_draw"]
    notations = {p["notation"] for p in game["plays"]}
    assert {"13/7 8/7", "13/6", "24/18 8/7"} <= notations
    play = next(p for p in game["plays"] if p["notation"] == "13/7 8/7")
    assert sorted(play["steps"]) == [[8, 7, False], [13, 7, False]]
    assert game["pips"] == {"white": 167, "black": 167}
    assert game["board"]["side"] == "white" and game["viewer_board"] == game["board"]
    assert game["deadline"] is not None and game["dice"] == [6, 1]

    game = get_game(black, game_id)
    assert game["viewer_color"] == "black" and game["plays"] == []
    assert game["actions"] == ["resign", "offer_draw"]
    # Black's own view is the same start layout, from Black's side.
    assert game["viewer_board"]["side"] == "black"
    assert game["viewer_board"]["points"] == game["board"]["points"]

    # After White's move the two sides differ.
    _, game = act(white, game_id, "move", 1, play="13/7 8/7")
    board, mine = game["board"], get_game(black, game_id)["viewer_board"]
    assert mine["points"] == mirror_board(board)["points"]
    assert board["points"][6] == 2 and mine["points"][17] == -2


def test_unknown_games_and_matches_are_404(player: User) -> None:
    client = token_client(player)
    for url in ("/api/games/999999/", "/api/matches/999999/"):
        response = client.get(url)
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
    before = snapshot()
    status, body = act(client, 999999, "roll", 0)
    assert (status, body["code"]) == (404, "not_found")
    assert snapshot() == before


def test_a_player_lists_their_matches(opened, player: User, outsider: User) -> None:
    white, _black, match = opened
    response = token_client(player).get("/api/matches/")
    assert response.status_code == 200
    [listed] = response.json()
    assert listed["id"] == match["id"] and listed["current_game"] == first_game(match)
    assert token_client(outsider).get("/api/matches/").json() == []
    assert token_client(None).get("/api/matches/").status_code == 401


# --------------------------------------------------------------------------- authorization


ACTIONS: dict[str, dict[str, Any]] = {
    "roll": {},
    "move": {"play": "13/7 8/7"},
    "double": {},
    "take": {},
    "drop": {},
    "resign": {"scope": "game"},
    "offer-draw": {},
    "accept-draw": {},
    "decline-draw": {},
}


@pytest.mark.parametrize("action", ACTIONS)
def test_visitors_and_outsiders_cannot_act(opened, outsider: User, action: str) -> None:
    _white, _black, match = opened
    game_id = first_game(match)
    before = snapshot()
    status, body = act(token_client(None), game_id, action, 1, **ACTIONS[action])
    assert status == 401 and body["code"] == "not_authenticated"
    status, body = act(token_client(outsider), game_id, action, 1, **ACTIONS[action])
    assert (status, body["code"]) == (403, "forbidden")
    assert snapshot() == before


@pytest.mark.parametrize("action", ["roll", "move", "double", "take", "drop"])
def test_the_player_not_on_turn_cannot_act(opened, action: str) -> None:
    _white, black, match = opened
    before = snapshot()
    status, body = act(black, first_game(match), action, 1, **ACTIONS[action])
    assert (status, body["code"]) == (403, "not_your_turn")
    assert snapshot() == before


def test_a_session_signed_in_player_can_act_too(opened, player: User, opponent: User) -> None:
    white_token, _black, match = opened
    white_user = player if match["white"]["username"] == player.username else opponent
    client = APIClient()
    client.force_login(white_user)
    status, game = act(client, first_game(match), "move", 1, play="13/7 8/7")
    assert status == 200, game


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("play", "code"),
    [
        ("13/12 13/7", "blocked_point"),
        ("13/8", "wrong_dice"),
        ("hello", "invalid_notation"),
        ("24/17", "blocked_point"),
        ("pass", "must_move"),
    ],
)
def test_an_illegal_play_is_refused_with_the_rule_and_changes_nothing(
    opened, play: str, code: str
) -> None:
    white, _black, match = opened
    before = snapshot()
    status, body = act(white, first_game(match), "move", 1, play=play)
    assert (status, body["code"]) == (400, code), body
    assert body["detail"]
    assert snapshot() == before


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"play": "13/7 8/7"},
        {"ply": "one", "play": "13/7 8/7"},
        {"ply": -1, "play": "13/7 8/7"},
        {"ply": 1},
        {"ply": 1, "play": ""},
        {"ply": 1, "play": ["13/7", "8/7"]},
        {"ply": 1, "play": "x" * 500},
        {"ply": None, "play": "13/7 8/7"},
    ],
)
def test_a_malformed_move_is_400_with_field_errors(opened, body: dict[str, Any]) -> None:
    white, _black, match = opened
    before = snapshot()
    response = white.post(f"/api/games/{first_game(match)}/move", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and response.json()["fields"]
    assert snapshot() == before


def test_a_body_that_is_not_json_is_400(opened) -> None:
    white, _black, match = opened
    before = snapshot()
    response = white.post(
        f"/api/games/{first_game(match)}/move", "{not json", content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["code"] == "parse_error"
    response = white.post(
        f"/api/games/{first_game(match)}/resign", {"ply": 1, "scope": "all"}, format="json"
    )
    assert response.status_code == 400 and "scope" in response.json()["fields"]
    # Bodies are JSON only: a form would read "0" as false and blur the schema.
    response = white.post(f"/api/games/{first_game(match)}/move", {"ply": 1, "play": "13/7 8/7"})
    assert response.status_code == 415 and response.json()["code"] == "unsupported_media_type"
    assert snapshot() == before


def test_a_stale_ply_is_409_and_a_double_submit_gets_409(opened) -> None:
    white, _black, match = opened
    game_id = first_game(match)
    before = snapshot()
    status, body = act(white, game_id, "move", 0, play="13/7 8/7")
    assert (status, body["code"]) == (409, "stale")
    assert snapshot() == before

    with scripted_dice([3, 1]):
        first = act(white, game_id, "move", 1, play="13/7 8/7")
        after = snapshot()
        second = act(white, game_id, "move", 1, play="13/7 8/7")
    assert first[0] == 200
    assert (second[0], second[1]["code"]) == (409, "stale")
    assert snapshot() == after


def test_acting_in_a_finished_game_is_409(opened) -> None:
    white, black, match = opened
    game_id = first_game(match)
    _, game = act(black, game_id, "resign", 1, scope="match")
    before = snapshot()
    status, body = act(white, game_id, "move", game["ply"], play="13/7 8/7")
    assert (status, body["code"]) == (409, "game_over")
    assert snapshot() == before


# --------------------------------------------------------------------------- language


def test_an_error_is_in_the_players_language(opened, player: User, opponent: User) -> None:
    white, _black, match = opened
    white_user = player if match["white"]["username"] == player.username else opponent
    white_user.language = "es"
    white_user.save(update_fields=["language"])
    status, body = act(white, first_game(match), "move", 1, play="13/12 13/7")
    assert (status, body["code"]) == (400, "blocked_point")
    assert body["detail"] == "El punto 12 está bloqueado: tu rival lo tiene."
    status, body = act(white, first_game(match), "move", 0, play="13/7 8/7")
    assert body["detail"].startswith("La partida ha cambiado")


def test_a_visitor_gets_errors_in_the_browser_language(opened) -> None:
    response = APIClient().get("/api/games/999999/", HTTP_ACCEPT_LANGUAGE="ca")
    assert response.status_code == 404
    assert response.json()["detail"] == "No existeix aquesta partida."
    response = APIClient().get("/api/games/999999/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.json()["detail"] == "No existe esa partida."


# --------------------------------------------------------------------------- challenges


def test_challenges_are_created_listed_and_answered(
    player: User, opponent: User, outsider: User
) -> None:
    alice, bob, charlie = token_client(player), token_client(opponent), token_client(outsider)
    response = alice.post(
        "/api/challenges/", {"opponent": "bob", "length": 7, "days_per_move": 2}, format="json"
    )
    assert response.status_code == 201, response.json()
    direct = response.json()
    assert (direct["challenger"], direct["opponent"], direct["length"]) == ("alice", "bob", 7)
    open_one = alice.post("/api/challenges/", {"length": 1}, format="json").json()
    assert open_one["opponent"] is None

    assert {c["id"] for c in bob.get("/api/challenges/").json()} == {direct["id"], open_one["id"]}
    assert {c["id"] for c in charlie.get("/api/challenges/").json()} == {open_one["id"]}
    assert {c["id"] for c in alice.get("/api/challenges/").json()} == {
        direct["id"],
        open_one["id"],
    }

    before = snapshot()
    response = charlie.post(f"/api/challenges/{direct['id']}/accept")
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    response = charlie.post(f"/api/challenges/{direct['id']}/withdraw")
    assert response.status_code == 403
    response = alice.post(f"/api/challenges/{direct['id']}/accept")
    assert (response.status_code, response.json()["code"]) == (400, "own_challenge")
    assert snapshot() == before

    response = bob.post(f"/api/challenges/{direct['id']}/decline")
    assert response.status_code == 200 and response.json()["status"] == "declined"
    response = bob.post(f"/api/challenges/{direct['id']}/accept")
    assert (response.status_code, response.json()["code"]) == (409, "challenge_closed")
    response = alice.post(f"/api/challenges/{open_one['id']}/withdraw")
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
    response = alice.post("/api/challenges/999999/accept")
    assert response.status_code == 404


def test_a_challenge_is_accepted_and_the_match_starts(player: User, opponent: User) -> None:
    match = start_match(token_client(player), token_client(opponent), length=3)
    assert {match["white"]["username"], match["black"]["username"]} == {"alice", "bob"}
    assert match["status"] == "playing" and len(match["games"]) == 1
    challenge = Challenge.objects.get()
    assert challenge.status == Challenge.Status.ACCEPTED and challenge.match_id == match["id"]
    assert Game.objects.get().match_id == match["id"]


@pytest.mark.parametrize(
    ("body", "field_or_code"),
    [
        ({"length": 30}, "length"),
        ({"days_per_move": 0}, "days_per_move"),
        ({"variant": "chess"}, "variant"),
        ({"cube_limit": 3}, "cube_limit"),
        ({"jacoby": True, "length": 5}, "money_only"),
        ({"opponent": "nobody"}, "opponent"),
        ({"opponent": "alice"}, "self_challenge"),
        ({"length": "long"}, "length"),
    ],
)
def test_a_bad_challenge_is_400(player: User, body: dict[str, Any], field_or_code: str) -> None:
    response = token_client(player).post("/api/challenges/", body, format="json")
    assert response.status_code == 400
    data = response.json()
    assert data["code"] == field_or_code or field_or_code in data.get("fields", {})
    assert not Challenge.objects.exists()


def test_the_schema_describes_every_endpoint() -> None:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for action in ACTIONS:
        operation = paths[f"/api/games/{{id}}/{action}"]["post"]
        assert {"200", "400", "401", "403", "404", "409"} <= set(operation["responses"])
        assert operation["requestBody"]["required"] is True
    assert {"/api/challenges/", "/api/matches/", "/api/matches/{id}/", "/api/games/{id}/"} <= set(
        paths
    )
