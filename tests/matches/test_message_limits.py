"""A player sends at most ``LIMIT_MESSAGES_PER_MINUTE`` chat messages a minute (the games'
and the chouettes' together): past it a 429 in their language, with ``Retry-After``, on
the game page and in the API, and nothing stored or told."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from backgammon.errors import LimitReached
from matches import chat
from matches.models import Game, GameMessage
from notifications.models import Notification
from tests.matches.api_helpers import token_client
from tests.matches.clock_helpers import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(monkeypatch: pytest.MonkeyPatch, player: User, opponent: User) -> Game:
    return start_game(monkeypatch, player, opponent)


def post(game: Game, author: User, text: str = "hi") -> GameMessage:
    return chat.game_message_post(game_id=game.pk, author=author, text=text, now=timezone.now())


def test_messages_past_the_rate_are_refused_and_nothing_is_told(
    settings: Settings, game: Game, player: User, opponent: User
) -> None:
    settings.LIMIT_MESSAGES_PER_MINUTE = 2
    post(game, player)
    post(game, player)
    told = Notification.objects.count()
    with pytest.raises(LimitReached) as caught:
        post(game, player)
    assert (caught.value.status, caught.value.code) == (429, "too_many_messages")
    assert GameMessage.objects.count() == 2 and Notification.objects.count() == told
    post(game, opponent, "the other player may still answer")


def test_a_refused_message_spends_nothing(settings: Settings, game: Game, player: User) -> None:
    settings.LIMIT_MESSAGES_PER_MINUTE = 1
    with pytest.raises(Exception, match="Write a message first"):
        post(game, player, "   ")
    post(game, player)


def test_the_game_page_answers_429_with_retry_after_in_the_players_language(
    settings: Settings, game: Game, player: User, player_client: Client
) -> None:
    settings.LIMIT_MESSAGES_PER_MINUTE = 1
    player.language = "es"
    player.save(update_fields=["language"])
    url = reverse("game_message_post", args=[game.pk])
    assert player_client.post(url, {"text": "hola"}).status_code == 302
    response = player_client.post(url, {"text": "hola otra vez"})
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert "Has enviado tantos mensajes como puede enviar un jugador" in response.content.decode()
    assert list(GameMessage.objects.values_list("text", flat=True)) == ["hola"]


def test_the_api_answers_429_with_code_detail_and_retry_after(
    settings: Settings, game: Game, player: User
) -> None:
    settings.LIMIT_MESSAGES_PER_MINUTE = 1
    client = token_client(player)
    url = f"/api/games/{game.pk}/messages"
    assert client.post(url, {"text": "hi"}, format="json").status_code == 201
    response = client.post(url, {"text": "hi again"}, format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "too_many_messages"
    assert response.json()["detail"].startswith("You have sent as many messages")
    assert 1 <= int(response["Retry-After"]) <= 60
    assert GameMessage.objects.count() == 1
