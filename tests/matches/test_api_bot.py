"""A bot that knows only the API schema plays whole matches.

It reads ``turn``, ``actions``, ``plays``, ``ply`` and ``next_game`` from the game, picks
at random among what it is offered, and posts it back. Nothing else about backgammon is
needed: if the API ever offered an action the services refuse, or missed one, the match
would stall or get a 4xx and the test fails.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from gammon import position_from_id
from matches.models import Game, GameEvent
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

TURN_ACTIONS = ("roll", "double", "move", "take", "drop")


def choose(game: dict[str, Any], rng: random.Random, double_rate: float) -> tuple[str, dict]:
    """A random legal action among those the API offers for the player on turn."""
    offered = [a for a in game["actions"] if a in TURN_ACTIONS]
    assert offered, game["actions"]
    if "move" in offered:
        return "move", {"play": rng.choice(game["plays"])["notation"]}
    if "take" in offered:
        return rng.choice(["take", "take", "drop"]), {}
    if "double" in offered and rng.random() < double_rate:
        return "double", {}
    return "roll", {}


def play_match_through_the_api(
    clients: dict[str, APIClient], match_id: int, rng: random.Random, double_rate: float
) -> tuple[dict[str, Any], int]:
    """Play until the match ends; returns the finished match and the number of actions."""
    spectator = APIClient()
    game = get_game(spectator, get_match(spectator, match_id)["games"][0]["id"])
    actions = 0
    for _ in range(5000):
        if game["state"] == "finished":
            if game["next_game"] is None:
                return get_match(spectator, match_id), actions
            game = get_game(spectator, game["next_game"])
            continue
        client = clients[game["turn"]["username"]]
        mine = get_game(client, game["id"])
        assert mine["viewer_color"] == game["turn"]["color"]
        # The IDs a bot could hand to gnubg describe the board it is shown.
        if mine["position_id"] and game["state"] != "doubled":
            position = position_from_id(mine["position_id"])
            assert list(position.points) == mine["viewer_board"]["points"]
        action, body = choose(mine, rng, double_rate)
        status, game = act(client, mine["id"], action, mine["ply"], **body)
        assert status == 200, (action, body, game)
        assert game["ply"] > mine["ply"]
        actions += 1
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(
    ("seed", "length", "double_rate"),
    [(1, 3, 0.3), (2, 3, 0.1), (3, 1, 0.0), (4, 0, 0.2)],
)
def test_a_bot_plays_a_whole_match_only_through_the_api(
    player: User, opponent: User, seed: int, length: int, double_rate: float
) -> None:
    clients = {user.username: token_client(user) for user in (player, opponent)}
    rng = random.Random(seed)
    with scripted_dice(SeededDice(seed)):
        options: dict[str, Any] = {"length": length}
        if length == 0:
            options["cube_limit"] = 8
        match = start_match(clients["alice"], clients["bob"], **options)
        if length == 0:
            # A money session never ends by itself: play a game, then resign the session.
            match = play_money_games(clients, match["id"], rng, double_rate, games=1)
        else:
            match, actions = play_match_through_the_api(clients, match["id"], rng, double_rate)
            assert actions > 10
    assert match["status"] == "finished"
    assert match["result"] in ("white", "black")
    if length:
        winner = match["result"]
        assert match["score"][winner] >= length
    for game in match["games"]:
        assert game["state"] == "finished"
        stored = Game.objects.get(pk=game["id"])
        assert GameEvent.objects.filter(game=stored).count() == stored.ply


def play_money_games(
    clients: dict[str, APIClient], match_id: int, rng: random.Random, rate: float, games: int
) -> dict[str, Any]:
    spectator = APIClient()
    for _ in range(20000):
        match = get_match(spectator, match_id)
        current = match["games"][-1]
        if len(match["games"]) > games:
            game = get_game(spectator, current["id"])
            client = clients[game["white"]["username"]]
            status, _ = act(client, game["id"], "resign", game["ply"], scope="match")
            assert status == 200
            return get_match(spectator, match_id)
        game = get_game(spectator, current["id"])
        client = clients[game["turn"]["username"]]
        mine = get_game(client, game["id"])
        action, body = choose(mine, rng, rate)
        status, result = act(client, game["id"], action, mine["ply"], **body)
        assert status == 200, (action, body, result)
    raise AssertionError("the session did not advance")
