"""Two submissions of the same turn at the same moment, on real PostgreSQL.

The service locks the game row (``select_for_update``) and checks the ply the player saw,
so exactly one of two simultaneous identical moves wins and the other is refused as
stale; the record gains exactly one move row. SQLite cannot show this (it locks the
whole file), hence the ``postgres`` marker.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from backgammon.errors import Conflict
from challenges import services as challenge_services
from gammon import FixedDice
from matches import record, turns
from matches.models import Game, GameEvent
from tests.matches.api_helpers import token_client

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _live_game(player: Any, opponent: Any) -> tuple[Game, Any]:
    """A game with White to play an opening 6-1 (and dice for whatever follows)."""
    record.dice = FixedDice([6, 1, 3, 1, 3, 1])
    now = timezone.now()
    challenge = challenge_services.challenge_create(challenger=player, opponent=opponent, now=now)
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
    game = match.current_game
    assert game is not None and game.state == Game.State.MOVING and game.turn == 0
    return game, match.white


def _run_together(*targets: Any) -> list[Any]:
    """Start the targets at the same instant; each runs on its own DB connection."""
    barrier = threading.Barrier(len(targets))
    results: list[Any] = [None] * len(targets)

    def runner(index: int) -> None:
        try:
            barrier.wait()
            results[index] = targets[index]()
        except Exception as error:  # the outcome under test, kept for the assertions
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(len(targets))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
        assert not thread.is_alive(), "a thread did not finish"
    return results


@pytest.fixture(autouse=True)
def _restore_dice() -> Any:
    previous = record.dice
    yield
    record.dice = previous


@pytest.mark.parametrize("attempt", range(3))
def test_the_same_move_twice_at_once_is_played_once(player, opponent, attempt: int) -> None:
    game, white = _live_game(player, opponent)
    ply = game.ply

    def move() -> Game:
        return turns.game_play_move(
            game_id=game.pk,
            player=white,
            play_text="13/7 8/7",
            expected_ply=ply,
            now=timezone.now(),
        )

    results = _run_together(move, move)
    winners = [r for r in results if isinstance(r, Game)]
    losers = [r for r in results if isinstance(r, Conflict)]
    assert len(winners) == 1 and len(losers) == 1, results
    assert losers[0].code == "stale"
    assert GameEvent.objects.filter(game=game, kind=GameEvent.Kind.MOVE).count() == 1
    assert GameEvent.objects.filter(game=game).count() == Game.objects.get(pk=game.pk).ply


def test_two_api_submissions_at_once_get_one_200_and_one_409(player, opponent) -> None:
    game, white = _live_game(player, opponent)
    ply = game.ply
    clients: list[APIClient] = [token_client(white), token_client(white)]

    def post(client: APIClient) -> Any:
        return lambda: client.post(
            f"/api/games/{game.pk}/move", {"ply": ply, "play": "13/7 8/7"}, format="json"
        )

    responses = _run_together(post(clients[0]), post(clients[1]))
    assert sorted(r.status_code for r in responses) == [200, 409], responses
    conflict = next(r for r in responses if r.status_code == 409)
    assert conflict.json()["code"] == "stale"
    assert GameEvent.objects.filter(game=game, kind=GameEvent.Kind.MOVE).count() == 1
