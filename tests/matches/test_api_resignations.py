"""Offers to resign through the API, as a client program would make and answer them.

The game says what is open (``actions``: ``offer_resign``, ``accept_resign``,
``decline_resign``; ``resign_offers``), what waits (``resign_offer``, ``awaiting``'s
``accept_resign``, gnubg's Match ID with the offer in it), and every refusal is a
``{code, detail}`` that changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from gammon import match_key_from_id
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


@pytest.fixture
def opened(player: User, opponent: User) -> tuple[APIClient, APIClient, int]:
    """A 5-point match, resigned by offer (the default): White to move after 6-1."""
    with scripted_dice([6, 1]):
        match = start_match(token_client(player), token_client(opponent), length=5)
    clients = {user.username: token_client(user) for user in (player, opponent)}
    white, black = clients[match["white"]["username"]], clients[match["black"]["username"]]
    assert get_match(white, match["id"])["resignation"] == "offer"
    return white, black, match["games"][0]["id"]


def offers(*levels: tuple[str, int]) -> list[dict[str, Any]]:
    return [{"level": level, "points": points, "ends_match": False} for level, points in levels]


def test_an_offer_declined_then_a_bigger_one_accepted(opened) -> None:
    white, black, game_id = opened
    game = get_game(white, game_id)
    assert game["resign_offers"] == offers(("single", 1), ("gammon", 2), ("backgammon", 3))
    assert get_game(black, game_id)["resign_offers"] == []  # not their turn

    status, game = act(white, game_id, "offer-resign", game["ply"], level="gammon")
    assert status == 200, game
    assert (game["state"], game["turn"]["color"], game["dice"]) == ("resigning", "black", [6, 1])
    assert game["resign_offer"] == {
        "by": "white",
        "level": "gammon",
        "points": 2,
        "ends_match": False,
    }
    assert [e["kind"] for e in game["events"]] == ["resign_offer"]
    assert (game["events"][0]["color"], game["events"][0]["value"]) == ("white", 2)
    key = match_key_from_id(game["match_id"])
    assert (key.resigned, key.on_roll.name, key.turn.name) == (2, "WHITE", "BLACK")
    seen = get_game(black, game_id)
    assert seen["actions"] == ["accept_resign", "decline_resign", "resign", "offer_draw"]
    assert seen["awaiting"][0]["decision"] == "accept_resign"
    assert seen["awaiting"][0]["color"] == "black"

    status, game = act(black, game_id, "decline-resign", game["ply"])
    assert status == 200, game
    assert (game["state"], game["turn"]["color"], game["resign_offer"]) == ("moving", "white", None)
    game = get_game(white, game_id)
    assert game["resign_offers"] == offers(("backgammon", 3))
    assert "move" in game["actions"] and game["plays"]
    before = snapshot()
    status, body = act(white, game_id, "offer-resign", game["ply"], level="gammon")
    assert (status, body["code"]) == (409, "resign_declined")
    assert snapshot() == before

    status, game = act(white, game_id, "offer-resign", game["ply"], level="backgammon")
    assert status == 200, game
    with scripted_dice([5, 2]):
        status, game = act(black, game_id, "accept-resign", game["ply"])
    assert status == 200, game
    assert (game["winner"], game["termination"], game["points"]) == ("black", "resign", 3)
    assert [e["kind"] for e in game["events"]] == ["resign_accept", "win"]
    assert get_game(white, game_id)["resign_offer"] is None


def test_refusals_say_why_and_change_nothing(opened) -> None:
    white, black, game_id = opened
    ply = get_game(white, game_id)["ply"]
    before = snapshot()
    for client, action, body, expected in (
        (white, "resign", {"scope": "game"}, (409, "resign_by_offer")),
        (black, "offer-resign", {"level": "single"}, (403, "not_your_turn")),
        (white, "offer-resign", {"level": "triple"}, (400, "invalid")),
        (white, "offer-resign", {}, (400, "invalid")),
        (white, "accept-resign", {}, (400, "no_resign_offer")),
        (black, "decline-resign", {}, (400, "no_resign_offer")),
        (white, "offer-resign", {"level": "single", "ply": ply - 1}, (409, "stale")),
    ):
        fields = dict(body)
        status, answer = act(client, game_id, action, fields.pop("ply", ply), **fields)
        assert (status, answer["code"]) == expected, (action, answer)
        assert answer["detail"]
    assert snapshot() == before
    anonymous = act(token_client(None), game_id, "offer-resign", ply, level="single")
    assert anonymous[0] == 401


def test_the_api_speaks_the_players_language(opened, player: User, opponent: User) -> None:
    white, black, game_id = opened
    for user in (player, opponent):
        user.language = "es"
        user.save(update_fields=["language"])
    ply = get_game(white, game_id)["ply"]
    response = white.post(
        f"/api/games/{game_id}/resign",
        {"ply": ply, "scope": "game"},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["detail"].startswith("En este match")
