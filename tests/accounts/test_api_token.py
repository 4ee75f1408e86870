import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_a_player_can_create_a_token_and_use_it(player_client: Client, player: User) -> None:
    response = player_client.post(reverse("profile_token_create"), follow=True)
    token = Token.objects.get(user=player)
    assert token.key in response.content.decode()

    api = Client()
    response = api.get(reverse("api_me"), headers={"authorization": f"Token {token.key}"})
    assert response.status_code == 200
    assert response.json()["username"] == "alice"
    assert response.json()["stay_after_move"] is False  # the game-page preferences too


def test_creating_again_replaces_the_old_token(player_client: Client, player: User) -> None:
    player_client.post(reverse("profile_token_create"))
    old = Token.objects.get(user=player).key
    player_client.post(reverse("profile_token_create"))
    new = Token.objects.get(user=player).key
    assert new != old
    response = Client().get(reverse("api_me"), headers={"authorization": f"Token {old}"})
    assert response.status_code == 401


def test_a_player_can_revoke_their_token(player_client: Client, player: User) -> None:
    player_client.post(reverse("profile_token_create"))
    key = Token.objects.get(user=player).key
    player_client.post(reverse("profile_token_revoke"))
    assert not Token.objects.filter(user=player).exists()
    response = Client().get(reverse("api_me"), headers={"authorization": f"Token {key}"})
    assert response.status_code == 401


def test_revoking_only_touches_your_own_token(
    player_client: Client, player: User, outsider: User
) -> None:
    Token.objects.create(user=outsider)
    player_client.post(reverse("profile_token_revoke"))
    assert Token.objects.filter(user=outsider).exists()


def test_token_pages_only_accept_post(player_client: Client) -> None:
    assert player_client.get(reverse("profile_token_create")).status_code == 405
    assert player_client.get(reverse("profile_token_revoke")).status_code == 405


def test_the_api_refuses_anonymous_callers(client: Client) -> None:
    assert client.get(reverse("api_me")).status_code in {401, 403}


def test_the_api_schema_and_docs_are_served(client: Client) -> None:
    schema = client.get(reverse("api_schema"))
    assert schema.status_code == 200
    assert b"/api/me/" in schema.content
    assert client.get(reverse("api_docs")).status_code == 200
