"""Pages and API answers that show a secret say ``Cache-Control: private, no-store``
(issue 25): the profile with the API token, the game page of a signed-in viewer (the
players' chat, a chouette team's chat and suggestions in its panel), the chouette's page,
and every API answer. No cache, a shared proxy's or the browser's, keeps them; a
visitor's view of a public page stays cacheable.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import User
from challenges import services as challenge_services
from chouettes import chat as chouette_chat
from gammon import FixedDice
from matches import chat, record
from matches.models import Game
from tests.chouettes.helpers import seat_table, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(player: User, opponent: User, monkeypatch: pytest.MonkeyPatch) -> Game:
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1)]))
    now = timezone.now()
    challenge = challenge_services.challenge_create(challenger=player, opponent=opponent, now=now)
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
    assert match.current_game is not None
    return match.current_game


def no_store(response: object) -> bool:
    directives = {d.strip() for d in response["Cache-Control"].split(",")}  # type: ignore[index]
    return {"private", "no-store"} <= directives


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_profile_showing_the_token_is_not_stored(player_client: Client, player: User) -> None:
    token = Token.objects.create(user=player)
    response = player_client.get(reverse("profile"))
    assert token.key in response.content.decode()
    assert no_store(response)


def test_the_game_page_with_the_players_chat_is_not_stored(game: Game, player: User) -> None:
    chat.game_message_post(game_id=game.pk, author=player, text="psst", now=timezone.now())
    response = client_of(player).get(reverse("game_detail", args=[game.pk]))
    assert "psst" in response.content.decode()
    assert no_store(response)


def test_a_visitors_game_page_stays_cacheable(game: Game, client: Client) -> None:
    response = client.get(reverse("game_detail", args=[game.pk]))
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


def test_the_chouette_pages_with_the_teams_chat_are_not_stored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 3, 1)  # ann in the box, bob captain, cy in line
    chouette_chat.message_post(
        chouette_id=table.chouette.pk,
        author=table.users["cy"],
        text="take it",
        team=True,
        now=table.tick(),
    )
    member = client_of(table.users["bob"])
    for path in (f"/chouettes/{table.chouette.pk}/", f"/games/{table.board.pk}/"):
        response = member.get(path)
        assert "take it" in response.content.decode(), path
        assert no_store(response), path
    api = member.get(reverse("api_chouette_messages", args=[table.chouette.pk]))
    assert "take it" in api.content.decode()
    assert no_store(api)
    assert no_store(member.get(reverse("api_chouette", args=[table.chouette.pk])))


def test_the_apis_answers_are_not_stored(game: Game, player: User) -> None:
    token = Token.objects.create(user=player)
    api = Client(headers={"authorization": f"Token {token.key}"})
    for path in (reverse("api_me"), reverse("api_game_messages", args=[game.pk])):
        response = api.get(path)
        assert response.status_code == 200, path
        assert no_store(response), path
