"""A suspended player is refused at the web, the API (session and token) and the log-in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import User
from moderation import players
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def suspend(moderator: User, player: User):  # type: ignore[no-untyped-def]
    def do(days: int | None = 7, user: User = player) -> None:
        players.user_suspend(
            moderator=moderator,
            user=user,
            reason="Abusive messages.",
            now=timezone.now(),
            duration=None if days is None else timedelta(days=days),
        )

    return do


def test_the_web_session_ends_with_the_reason_and_the_end(player_client: Client, suspend) -> None:  # type: ignore[no-untyped-def]
    assert player_client.get(reverse("dashboard")).status_code == 200
    suspend(days=7)
    response = player_client.get(reverse("dashboard"))
    assert response.status_code == 403
    text = response.content.decode()
    assert "Abusive messages." in text and "suspended until" in text
    # The session is over: the next request is a visitor's.
    response = player_client.get(reverse("dashboard"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


def test_a_permanent_suspension_says_so_in_the_players_language(
    player: User, player_client: Client, suspend
) -> None:  # type: ignore[no-untyped-def]
    player.language = "es"
    player.save()
    suspend(days=None)
    response = player_client.get(reverse("dashboard"))
    assert response.status_code == 403
    assert "permanentemente" in response.content.decode()


def test_a_suspended_player_cannot_act_in_a_game(
    player: User, player_client: Client, suspend, new_match
) -> None:  # type: ignore[no-untyped-def]
    match = new_match()
    game = match.current_game
    suspend()
    response = player_client.post(
        reverse("game_detail", args=[game.pk]),
        {"action": "resign", "ply": game.ply, "confirm": "on"},
    )
    assert response.status_code == 403
    game.refresh_from_db()
    assert not game.is_finished


def test_the_api_session_is_refused(player_client: Client, suspend) -> None:  # type: ignore[no-untyped-def]
    assert player_client.get(reverse("api_me")).status_code == 200
    suspend()
    response = player_client.get(reverse("api_me"))
    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "suspended" and "Abusive messages." in body["detail"]


def test_the_api_token_is_refused(player: User, suspend) -> None:  # type: ignore[no-untyped-def]
    token = Token.objects.create(user=player)
    api = Client()
    headers = {"authorization": f"Token {token.key}"}
    assert api.get(reverse("api_me"), headers=headers).status_code == 200
    suspend()
    response = api.get(reverse("api_me"), headers=headers)
    assert response.status_code == 401
    assert "Abusive messages." in response.json()["detail"]
    assert "suspended until" in response.json()["detail"]


def test_the_login_is_refused_with_the_reason(player: User, suspend) -> None:  # type: ignore[no-untyped-def]
    suspend()
    client = Client()
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 403
    assert "Abusive messages." in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("dashboard")).status_code == 302


def test_an_expired_or_lifted_suspension_lets_them_in(
    moderator: User, player: User, suspend
) -> None:  # type: ignore[no-untyped-def]
    suspend()
    players.user_lift_suspension(
        moderator=moderator, user=player, reason="Appeal.", now=timezone.now()
    )
    client = Client()
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("dashboard")


def test_the_token_user_and_suspension_are_read_in_one_query(player: User, suspend) -> None:  # type: ignore[no-untyped-def]
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.exceptions import AuthenticationFailed

    from moderation.authentication import TokenAuthentication
    from moderation.models import Suspension

    token = Token.objects.create(user=player)
    auth = TokenAuthentication()
    with CaptureQueriesContext(connection) as queries:
        user, found = auth.authenticate_credentials(token.key)
    assert len(queries) == 1
    assert (user.pk, user.username, user.language) == (player.pk, "alice", player.language)
    assert (found.key, found.user_id, found.created) == (token.key, player.pk, token.created)

    with pytest.raises(AuthenticationFailed, match="Invalid token"):
        auth.authenticate_credentials(token.key[:-1] + ("0" if token.key[-1] != "0" else "1"))

    # Suspensions that are not in force (ended, lifted, not begun) let the token in.
    now = timezone.now()
    suspend()
    suspension = Suspension.objects.get(user=player)
    for change in (
        {"ends_at": now - timedelta(minutes=1)},
        {"lifted_at": now},
        {"starts_at": now + timedelta(hours=1), "ends_at": now + timedelta(days=2)},
    ):
        Suspension.objects.filter(pk=suspension.pk).update(
            starts_at=now - timedelta(days=1), ends_at=now + timedelta(days=1), lifted_at=None
        )
        Suspension.objects.filter(pk=suspension.pk).update(**change)
        assert auth.authenticate_credentials(token.key)[0].pk == player.pk, change
    Suspension.objects.filter(pk=suspension.pk).update(
        starts_at=now - timedelta(days=1), ends_at=None, lifted_at=None
    )
    with pytest.raises(AuthenticationFailed, match="permanently"):
        auth.authenticate_credentials(token.key)

    User.objects.filter(pk=player.pk).update(is_active=False)
    with pytest.raises(AuthenticationFailed, match="inactive"):
        auth.authenticate_credentials(token.key)
