import re

import pytest
from django.contrib.auth.base_user import AbstractBaseUser
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from accounts.models import User
from tests.factories import PASSWORD, UserFactory

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


# --------------------------------------------------------------------------- what revokes it

NEW_PASSWORD = "a brand new secret 42"


def _api_status(key: str) -> int:
    return Client().get(reverse("api_me"), headers={"authorization": f"Token {key}"}).status_code


def test_a_password_change_revokes_the_token_and_says_so(
    player_client: Client, player: User
) -> None:
    key = Token.objects.create(user=player).key
    elsewhere = Client()
    elsewhere.force_login(player)
    response = player_client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        follow=True,
    )
    assert "Your API token was revoked with your old password" in response.content.decode()
    assert _api_status(key) == 401  # at once: the token is read on every request
    # The page that changed it stays signed in; every other session ends (Django's hash).
    assert player_client.get(reverse("profile")).status_code == 200
    assert elsewhere.get(reverse("profile")).status_code == 302


def test_a_password_reset_revokes_the_token(client: Client, player: User) -> None:
    key = Token.objects.create(user=player).key
    client.post(reverse("account_reset_password"), {"email": player.email})
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", mail.outbox[0].body)
    assert link is not None, mail.outbox[0].body
    form_url = client.get(link.group(1))["Location"]
    response = client.post(
        form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}, follow=True
    )
    assert "Your API token was revoked with your old password" in response.content.decode()
    assert not Token.objects.filter(user=player).exists()
    assert _api_status(key) == 401


def test_a_password_change_without_a_token_says_nothing_of_one(
    player_client: Client,
) -> None:
    response = player_client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        follow=True,
    )
    shown = [str(message) for message in response.context["messages"]]
    assert shown and not any("API token" in message for message in shown)


def test_a_plain_log_out_leaves_the_token_working_and_says_so(
    player_client: Client, player: User
) -> None:
    key = Token.objects.create(user=player).key
    page = player_client.get(reverse("account_logout")).content.decode()
    assert "a program using your API token keeps playing" in page
    assert reverse("logout_everywhere") in page
    player_client.post(reverse("account_logout"))
    assert player_client.get(reverse("profile")).status_code == 302
    assert _api_status(key) == 200


def test_logging_out_everywhere_ends_every_session_and_revokes_the_token(
    player_client: Client, player: User
) -> None:
    key = Token.objects.create(user=player).key
    elsewhere = Client()
    elsewhere.force_login(player)
    response = player_client.post(reverse("logout_everywhere"), follow=True)
    assert "You are logged out everywhere, and your API token was revoked." in (
        response.content.decode()
    )
    assert _api_status(key) == 401
    assert player_client.get(reverse("profile")).status_code == 302
    assert elsewhere.get(reverse("profile")).status_code == 302
    # The password is unchanged: the player signs in again with it, and stays in.
    again = Client()
    again.post(reverse("account_login"), {"login": player.username, "password": PASSWORD})
    assert again.get(reverse("profile")).status_code == 200


def test_logging_out_everywhere_is_a_post(player_client: Client) -> None:
    assert player_client.get(reverse("logout_everywhere")).status_code == 405


def test_the_session_hash_is_djangos_until_the_player_logs_out_everywhere(player: User) -> None:
    """No session ended when the epoch came in: at 0 the hash is Django's own."""
    assert player.get_session_auth_hash() == AbstractBaseUser.get_session_auth_hash(player)
    player.session_epoch = 1
    assert player.get_session_auth_hash() != AbstractBaseUser.get_session_auth_hash(player)


def test_a_password_set_by_a_superuser_in_the_admin_revokes_the_token(player: User) -> None:
    key = Token.objects.create(user=player).key
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    admin = Client()
    admin.force_login(root)
    response = admin.post(
        reverse("admin:auth_user_password_change", args=[player.pk]),
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)
    assert not Token.objects.filter(user=player).exists()
    assert _api_status(key) == 401
