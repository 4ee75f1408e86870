"""The game chat through the API: ``GET``/``POST /api/games/<id>/messages``.

Only the two players read and write it, as on the game page; a refused request changes
nothing (no message, no notification). Alice is White, Bob Black, charlie watches.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from matches import chat, endings
from matches.models import Game, GameMessage
from notifications.models import Notification
from tests.matches.api_helpers import snapshot, token_client
from tests.matches.clock_helpers import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(monkeypatch: pytest.MonkeyPatch, player: User, opponent: User) -> Game:
    return start_game(monkeypatch, player, opponent)


def url(game_id: int | str) -> str:
    return f"/api/games/{game_id}/messages"


def post(client: APIClient, game_id: int | str, body: Any) -> tuple[int, Any]:
    response = client.post(url(game_id), body, format="json")
    return response.status_code, response.json()


def test_the_players_post_and_read_the_chat(game: Game, player: User, opponent: User) -> None:
    alice, bob = token_client(player), token_client(opponent)
    status, body = post(alice, game.pk, {"text": "  Good luck!  "})
    assert status == 201, body
    assert body["text"] == "Good luck!" and body["hidden"] is False
    assert body["author"] == {"username": "alice", "display_name": "Alice", "is_bot": False}
    assert post(bob, game.pk, {"text": "You too."})[0] == 201

    for client in (alice, bob):
        response = client.get(url(game.pk))
        assert response.status_code == 200
        assert [(m["author"]["username"], m["text"]) for m in response.json()] == [
            ("alice", "Good luck!"),
            ("bob", "You too."),
        ]
    assert list(GameMessage.objects.values_list("text", flat=True)) == ["Good luck!", "You too."]


def test_a_session_signed_in_player_can_chat_too(game: Game, player: User) -> None:
    client = APIClient()
    client.force_login(player)
    assert post(client, game.pk, {"text": "hi"})[0] == 201
    assert client.get(url(game.pk)).json()[0]["text"] == "hi"


def test_spectators_are_refused_as_on_the_website_and_nothing_changes(
    game: Game, opponent: User, outsider: User
) -> None:
    chat.game_message_post(game_id=game.pk, author=opponent, text="secret", now=timezone.now())
    charlie = token_client(outsider)
    before = snapshot()
    response = charlie.get(url(game.pk))
    assert response.status_code == 403
    assert response.json() == {"code": "forbidden", "detail": "You are not playing in this game."}
    assert "secret" not in response.content.decode()
    status, body = post(charlie, game.pk, {"text": "spam"})
    assert (status, body["code"]) == (403, "forbidden")
    assert snapshot() == before


def test_visitors_must_authenticate_and_nothing_changes(game: Game, opponent: User) -> None:
    chat.game_message_post(game_id=game.pk, author=opponent, text="secret", now=timezone.now())
    visitor = token_client(None)
    before = snapshot()
    response = visitor.get(url(game.pk))
    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")
    assert "secret" not in response.content.decode()
    status, body = post(visitor, game.pk, {"text": "spam"})
    assert (status, body["code"]) == (401, "not_authenticated")
    assert snapshot() == before


@pytest.mark.parametrize("game_id", ["999999", "abc", "0"])
def test_an_unknown_game_is_404(player: User, game_id: str) -> None:
    client = token_client(player)
    response = client.get(url(game_id))
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    before = snapshot()
    status, body = post(client, game_id, {"text": "hello"})
    assert (status, body["code"]) == (404, "not_found")
    assert snapshot() == before


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"text": ""}, "invalid", "text"),
        ({"text": "x" * (GameMessage.MAX_LENGTH + 1)}, "invalid", "text"),
        ({"text": " " + "x" * GameMessage.MAX_LENGTH}, "invalid", "text"),
        ({"text": 12}, "invalid", "text"),
        ({"text": None}, "invalid", "text"),
        ({}, "invalid", "text"),
        (["hello"], "invalid", "non_field_errors"),
        ({"text": "   \n "}, "invalid", "text"),  # the schema says so too
        ({"text": "hi\x00"}, "invalid", "text"),
    ],
)
def test_an_empty_or_too_long_message_is_400_and_changes_nothing(
    game: Game, player: User, body: Any, code: str, field: str | None
) -> None:
    before = snapshot()
    status, answer = post(token_client(player), game.pk, body)
    assert (status, answer["code"]) == (400, code), answer
    assert answer["detail"]
    if field is not None:
        assert field in answer["fields"]
    assert snapshot() == before


def test_a_message_of_the_maximum_length_is_taken(game: Game, player: User) -> None:
    text = "x" * GameMessage.MAX_LENGTH
    status, body = post(token_client(player), game.pk, {"text": text})
    assert status == 201 and body["text"] == text


def test_a_body_that_is_not_json_is_refused(game: Game, player: User) -> None:
    before = snapshot()
    response = token_client(player).post(url(game.pk), {"text": "hello"})  # a form
    assert (response.status_code, response.json()["code"]) == (415, "unsupported_media_type")
    assert snapshot() == before


def test_a_hidden_message_keeps_its_place_without_its_text(
    game: Game, player: User, opponent: User, outsider: User
) -> None:
    now = timezone.now()
    rude = chat.game_message_post(game_id=game.pk, author=opponent, text="RUDE", now=now)
    chat.game_message_post(game_id=game.pk, author=opponent, text="sorry", now=now)
    chat.game_message_hide(message_id=rude.pk, moderator=outsider, now=now)
    for user in (player, opponent):
        response = token_client(user).get(url(game.pk))
        assert "RUDE" not in response.content.decode()
        assert [(m["hidden"], m["text"]) for m in response.json()] == [
            (True, None),
            (False, "sorry"),
        ]


def test_the_error_is_in_the_players_language(game: Game, player: User) -> None:
    player.language = "es"
    player.save(update_fields=["language"])
    status, body = post(token_client(player), game.pk, {"text": "  "})
    assert (status, body["fields"]["text"]) == (400, ["Escribe primero un mensaje."])


def test_a_message_is_allowed_after_the_game_ends(game: Game, player: User, opponent: User) -> None:
    endings.game_resign(
        game_id=game.pk, player=opponent, expected_ply=None, now=timezone.now(), whole_match=True
    )
    assert post(token_client(opponent), game.pk, {"text": "Well played."})[0] == 201


def test_a_post_notifies_the_opponent(game: Game, player: User, opponent: User) -> None:
    status, _ = post(token_client(player), game.pk, {"text": "hello"})
    assert status == 201
    [row] = Notification.objects.filter(kind=Notification.Kind.MESSAGE_RECEIVED)
    assert (row.recipient, row.game_id, row.payload) == (opponent, game.pk, {"opponent": "Alice"})


def test_reading_the_chat_costs_the_same_for_any_length(
    game: Game, player: User, opponent: User, django_assert_max_num_queries: Any
) -> None:
    now = timezone.now()
    for i in range(20):
        author = player if i % 2 else opponent
        chat.game_message_post(game_id=game.pk, author=author, text=f"m{i}", now=now)
    client = token_client(player)
    # token + user, game, messages, mark read; and the reader's activity, once a minute
    with django_assert_max_num_queries(5):
        assert len(client.get(url(game.pk)).json()) == 20


def test_the_schema_describes_the_chat() -> None:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json")
    operations = response.json()["paths"]["/api/games/{id}/messages"]
    assert {"200", "401", "403", "404"} <= set(operations["get"]["responses"])
    assert {"201", "400", "401", "403", "404"} <= set(operations["post"]["responses"])
    assert operations["post"]["requestBody"]["required"] is True
