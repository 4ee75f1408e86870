"""One draw offer per player per turn.

Four hundred offers to a bot, each declined at once, had grown one game to 801 plies
and its page from 0.08 s to 0.38 s. A player whose offer was declined offers again in
their next turn: before it the offer is refused with a 409 in their language (page and
API), nothing is written, and the API's ``actions`` leave ``offer_draw`` out.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from backgammon.errors import Conflict
from bots import services as bot_services
from challenges import services as challenge_services
from matches import endings, selectors
from matches.bots import bot_act
from matches.models import Game, GameEvent
from tests.matches.api_helpers import SeededDice, scripted_dice, snapshot, token_client
from tests.stats.helpers import match_start

pytestmark = pytest.mark.django_db


def offer(game: Game, user: User) -> Game:
    return endings.match_offer_draw(
        game_id=game.pk, player=user, expected_ply=None, now=timezone.now()
    )


def decline(game: Game, user: User) -> Game:
    return endings.match_answer_draw(
        game_id=game.pk, player=user, expected_ply=None, now=timezone.now(), accept=False
    )


def play_until_the_turn_of(game: Game, user: User, rng: random.Random) -> Game:
    """Random actions until ``user``'s turn begins (the turn changes hands to them)."""
    for _ in range(20):
        game.refresh_from_db()
        if game.match.player(game.turn_color) == user:
            return game
        bot_act(game, rng, timezone.now())
    raise AssertionError("the turn never came")


@pytest.fixture
def game(player: User, opponent: User) -> Game:
    with scripted_dice(SeededDice(3)):
        match = match_start(player, opponent, length=5)
    game = match.current_game
    assert game is not None
    return game


def test_a_declined_offer_is_not_made_again_before_the_players_next_turn(
    game: Game, player: User, opponent: User
) -> None:
    rng = random.Random(5)
    with scripted_dice(SeededDice(5)):
        game = play_until_the_turn_of(game, player, rng)
        offer(game, player)
        game = decline(game, opponent)
        actions = selectors.game_actions(game, player)
        assert "resign" in actions
        assert not {"offer_draw", "accept_draw", "decline_draw"} & set(actions)
        before = snapshot()
        with pytest.raises(Conflict) as caught:
            offer(game, player)
        assert (caught.value.status, caught.value.code) == (409, "draw_offered")
        assert snapshot() == before
        # The opponent's own offer is theirs to make, this turn too.
        assert "offer_draw" in selectors.game_actions(game, opponent)
        offer(game, opponent)
        game = decline(game, player)
        # The player moves; once the opponent has moved too, the player's turn begins.
        bot_act(game, rng, timezone.now())
        game.refresh_from_db()
        while game.match.player(game.turn_color) == player:
            game = bot_act(game, rng, timezone.now())
        game = play_until_the_turn_of(game, player, rng)
        assert "offer_draw" in selectors.game_actions(game, player)
        offer(game, player)


def test_an_offer_made_on_the_opponents_turn_may_be_made_again_once_the_players_begins(
    game: Game, player: User, opponent: User
) -> None:
    rng = random.Random(6)
    with scripted_dice(SeededDice(6)):
        game = play_until_the_turn_of(game, opponent, rng)
        offer(game, player)
        game = decline(game, opponent)
        with pytest.raises(Conflict):
            offer(game, player)
        game = play_until_the_turn_of(game, player, rng)
        offer(game, player)


def test_the_page_refuses_a_second_offer_with_409_in_the_players_language(
    game: Game, player: User, opponent: User, player_client: Client
) -> None:
    player.language = "es"
    player.save(update_fields=["language"])
    offer(game, player)
    game = decline(game, opponent)
    page = player_client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'value="offer_draw"' not in page
    plies = GameEvent.objects.filter(game=game).count()
    response = player_client.post(
        reverse("game_detail", args=[game.pk]), {"action": "offer_draw", "ply": game.ply}
    )
    assert response.status_code == 409
    assert "Ya has ofrecido tablas en este turno" in response.content.decode()
    assert GameEvent.objects.filter(game=game).count() == plies


def test_the_api_refuses_a_second_offer_and_does_not_list_it(
    game: Game, player: User, opponent: User
) -> None:
    client = token_client(player)
    response = client.post(f"/api/games/{game.pk}/offer-draw", {"ply": game.ply}, format="json")
    assert response.status_code == 200, response.json()
    game = decline(game, opponent)
    assert client.get(f"/api/games/{game.pk}/").json()["actions"][-1] == "resign"
    response = client.post(f"/api/games/{game.pk}/offer-draw", {"ply": game.ply}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "draw_offered"
    assert response.json()["detail"].startswith("You have offered a draw this turn already")


def test_offers_to_a_bot_no_longer_grow_the_game(
    player: User, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The bot declines each offer at once; the second in a turn is refused."""
    program = tmp_path / "gnubg"
    program.touch()
    monkeypatch.setenv("GNUBG", str(program))  # "installed", for the bot to accept
    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))
    bot = {b.level: b for b in bot_services.bots_create()}["expert"]
    with scripted_dice([6, 1]):  # the challenger is White, and moves first
        challenge = challenge_services.challenge_create(
            challenger=player, opponent=bot.user, now=timezone.now(), length=3
        )
    game = Game.objects.get(match__challenge=challenge)
    assert game.match.player(game.turn_color) == player
    plies = game.ply
    offer(game, player)
    assert bot_services.bot_answer_draw(game_id=game.pk, now=timezone.now())
    for _ in range(5):
        with pytest.raises(Conflict):
            offer(game, player)
    game.refresh_from_db()
    assert game.ply == plies + 2  # the one offer and its decline
