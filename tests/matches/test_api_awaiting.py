"""A game says whose answer it waits for, and to what (``awaiting``).

``turn`` names the player on turn; a draw offer is answered out of turn, so a bot that
followed ``turn`` alone never answered one. ``selectors.game_awaiting`` is the one place
that says it; the API shows it, and a bot that follows it answers everything.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from gammon import Color
from matches import endings, selectors
from matches.models import Game
from matches.selectors import Decision
from tests.matches.api_helpers import (
    SeededDice,
    act,
    get_game,
    get_match,
    scripted_dice,
    start_match,
    token_client,
)

pytestmark = pytest.mark.django_db

#: The actions that answer each decision.
ANSWERS = {
    "roll": {"roll"},
    "move": {"move"},
    "take_or_drop": {"take", "drop"},
    "accept_resign": {"accept_resign", "decline_resign"},
    "accept_draw": {"accept_draw", "decline_draw"},
}


def clients_of(*users: User) -> dict[str, APIClient]:
    return {user.username: token_client(user) for user in users}


@pytest.fixture
def opened(player: User, opponent: User) -> tuple[dict[str, APIClient], dict[str, Any]]:
    """A 5-point match whose first game has White to move after an opening 6-1."""
    with scripted_dice([6, 1]):
        match = start_match(token_client(player), token_client(opponent), length=5)
    return clients_of(player, opponent), match


def test_a_draw_offer_waits_for_the_opponent_while_turn_stays_with_the_offerer(opened) -> None:
    clients, match = opened
    white, black = match["white"]["username"], match["black"]["username"]
    game_id = match["games"][0]["id"]
    game = get_game(APIClient(), game_id)
    assert game["awaiting"] == [
        {"player": white, "color": "white", "decision": "move", "send_to": None}
    ]

    status, game = act(clients[white], game_id, "offer_draw", game["ply"])
    assert status == 200
    assert game["turn"]["username"] == white  # why `turn` alone was not enough
    assert game["awaiting"] == [
        {"player": white, "color": "white", "decision": "move", "send_to": None},
        {"player": black, "color": "black", "decision": "accept_draw", "send_to": None},
    ]
    # A spectator sees it too; the answerer is offered exactly the answers.
    assert get_game(APIClient(), game_id)["awaiting"] == game["awaiting"]
    mine = get_game(clients[black], game_id)
    assert {"accept_draw", "decline_draw"} <= set(mine["actions"])

    status, game = act(clients[black], game_id, "decline_draw", game["ply"])
    assert status == 200
    assert game["awaiting"] == [
        {"player": white, "color": "white", "decision": "move", "send_to": None}
    ]


def test_a_double_waits_for_the_taker_and_a_finished_game_for_nobody(opened) -> None:
    clients, match = opened
    white, black = match["white"]["username"], match["black"]["username"]
    game_id = match["games"][0]["id"]
    with scripted_dice([3, 1]):
        _, game = act(clients[white], game_id, "move", 1, play="13/7 8/7")
    assert game["awaiting"] == [
        {"player": black, "color": "black", "decision": "roll", "send_to": None}
    ]
    _, game = act(clients[black], game_id, "double", game["ply"])
    assert game["awaiting"] == [
        {"player": white, "color": "white", "decision": "take_or_drop", "send_to": None}
    ]
    _, game = act(clients[white], game_id, "drop", game["ply"])
    assert game["state"] == "finished" and game["awaiting"] == []


def test_game_awaiting_is_pure_and_typed(opened, django_assert_num_queries) -> None:
    _clients, match = opened
    game = Game.objects.select_related("match", "match__white", "match__black").get(
        pk=match["games"][0]["id"]
    )
    endings.match_offer_draw(
        game_id=game.pk, player=game.match.white, expected_ply=None, now=game.updated_at
    )
    game = Game.objects.select_related("match", "match__white", "match__black").get(pk=game.pk)
    with django_assert_num_queries(0):
        waiting = selectors.game_awaiting(game)
    assert [(w.player, w.color, w.decision) for w in waiting] == [
        (game.match.white, Color.WHITE, Decision.MOVE),
        (game.match.black, Color.BLACK, Decision.ACCEPT_DRAW),
    ]


def test_the_schema_documents_awaiting() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()["components"]["schemas"]
    assert "awaiting" in schema["Game"]["required"]
    assert schema["Game"]["properties"]["awaiting"]["items"] == {
        "$ref": "#/components/schemas/Awaiting"
    }
    # ``vote`` is a chouette member's, sent to its ``send_to`` (tests/chouettes/test_api_board.py)
    assert set(schema["DecisionEnum"]["enum"]) == set(ANSWERS) | {"vote"}
    assert "ignore" in schema["Awaiting"]["description"]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_bot_that_follows_awaiting_answers_every_draw_offer(
    player: User, opponent: User, seed: int
) -> None:
    """Both bots offer draws, and to resign, now and then; each answers whatever
    `awaiting` names it for, and is offered exactly the actions that answer it. The match
    ends, every offer answered."""
    rng = random.Random(seed)
    with scripted_dice(SeededDice(seed)):
        match = start_match(token_client(player), token_client(opponent), length=1)
        clients = clients_of(player, opponent)
        spectator = APIClient()
        game = get_game(spectator, match["games"][0]["id"])
        offers = answers = resigns = resign_answers = 0
        for _ in range(3000):
            if game["state"] == "finished":
                if game["next_game"] is None:
                    break
                game = get_game(spectator, game["next_game"])
                continue
            waiting = game["awaiting"]
            assert waiting, game
            entry = waiting[-1]  # a draw offer first: play waits for nobody meanwhile
            assert all(w["send_to"] is None for w in waiting)  # all answered on the game
            client = clients[entry["player"]]
            mine = get_game(client, game["id"])
            assert mine["viewer_color"] == entry["color"]
            assert ANSWERS[entry["decision"]] <= set(mine["actions"]), (entry, mine["actions"])
            on_turn = {w["player"] for w in waiting if w["decision"] != "accept_draw"}
            assert on_turn == {game["turn"]["username"]}
            decision = entry["decision"]
            if decision == "accept_draw":
                action, body = ("accept_draw" if rng.random() < 0.1 else "decline_draw"), {}
                answers += 1
            elif decision == "accept_resign":
                action, body = ("accept_resign" if rng.random() < 0.3 else "decline_resign"), {}
                resign_answers += 1
            elif "offer_draw" in mine["actions"] and rng.random() < 0.05:
                action, body = "offer_draw", {}
                offers += 1
            elif "offer_resign" in mine["actions"] and rng.random() < 0.05:
                action, body = "offer_resign", {"level": mine["resign_offers"][0]["level"]}
                resigns += 1
            elif decision == "move":
                action, body = "move", {"play": rng.choice(mine["plays"])["notation"]}
            elif decision == "take_or_drop":
                action, body = rng.choice(["take", "drop"]), {}
            else:
                doubles = "double" in mine["actions"] and rng.random() < 0.1
                action, body = ("double" if doubles else "roll"), {}
            status, game = act(client, mine["id"], action, mine["ply"], **body)
            assert status == 200, (action, body, game)
        else:
            raise AssertionError("the match did not end")
    assert get_match(spectator, match["id"])["status"] == "finished"
    assert offers >= 1 and answers == offers
    assert resigns >= 1 and resign_answers == resigns
