"""A chouette creator's invitations are limited, and so is the chouettes' chat.

Fifty chouette invitations to one player sent them fifty e-mails. Limits: invitations
waiting for an answer in the creator's open chouettes (``LIMIT_CHOUETTE_INVITATIONS``),
those to one player (``LIMIT_TO_ONE_PLAYER``), those sent an hour with the challenges
(``LIMIT_INVITATIONS_PER_HOUR``), and asking a player already asked tells them nothing
again. Each refusal is a 429 in the player's language that changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from backgammon.errors import LimitReached
from challenges import services as challenge_services
from chouettes import chat, seating
from chouettes.models import Chouette, Message, Seat
from notifications.models import Notification
from tests.factories import UserFactory
from tests.matches.api_helpers import scripted_dice, token_client

pytestmark = pytest.mark.django_db


def create(creator: User, invite: list[User], **options: Any) -> Chouette:
    return seating.chouette_create(
        creator=creator, invite=invite, now=timezone.now(), open_to_all=False, **options
    )


def invite(chouette: Chouette, creator: User, players: list[User]) -> Chouette:
    return seating.chouette_invite(
        chouette_id=chouette.pk, user=creator, players=players, now=timezone.now()
    )


def invitations() -> int:
    return Notification.objects.filter(kind=Notification.Kind.CHOUETTE_INVITED).count()


def test_invitations_waiting_in_the_creators_open_chouettes_are_limited(
    settings: Settings, player: User
) -> None:
    settings.LIMIT_CHOUETTE_INVITATIONS = 4
    first = create(player, [UserFactory(), UserFactory()])
    second = create(player, [UserFactory()])
    told = invitations()
    with pytest.raises(LimitReached) as caught:
        invite(second, player, [UserFactory(), UserFactory()])
    error = caught.value
    assert (error.status, error.code, error.retry_after) == (
        429,
        "too_many_chouette_invitations",
        None,
    )
    assert Seat.objects.filter(status=Seat.Status.INVITED).count() == 3
    assert invitations() == told
    invite(second, player, [UserFactory()])  # within the limit
    # An answer frees a place: the invited player joins.
    joiner = Seat.objects.filter(chouette=first, status=Seat.Status.INVITED).first()
    assert joiner is not None
    seating.chouette_join(chouette_id=first.pk, user=joiner.player, now=timezone.now())
    invite(second, player, [UserFactory()])


def test_invitations_to_one_player_are_limited_across_chouettes(
    settings: Settings, player: User, opponent: User
) -> None:
    settings.LIMIT_TO_ONE_PLAYER = 2
    create(player, [opponent])
    create(player, [opponent])
    told = invitations()
    with pytest.raises(LimitReached) as caught:
        create(player, [opponent])
    assert caught.value.code == "too_many_invitations_to_player"
    assert str(caught.value).startswith("Bob already has 2 of your chouette invitations")
    assert Chouette.objects.count() == 2 and invitations() == told


def test_asking_a_player_already_asked_tells_them_nothing_again(
    player: User, opponent: User
) -> None:
    chouette = create(player, [opponent])
    told = invitations()
    for _ in range(3):
        invite(chouette, player, [opponent])
    assert invitations() == told


def test_the_invitations_sent_an_hour_are_limited_with_the_challenges(
    settings: Settings, player: User, opponent: User
) -> None:
    settings.LIMIT_INVITATIONS_PER_HOUR = 3
    challenge_services.challenge_create(challenger=player, opponent=opponent, now=timezone.now())
    chouette = create(player, [UserFactory()])
    with pytest.raises(LimitReached) as caught:
        invite(chouette, player, [UserFactory(), UserFactory()])
    assert caught.value.code == "too_many_invitations"
    assert caught.value.retry_after is not None and caught.value.retry_after <= 3600
    assert Seat.objects.filter(status=Seat.Status.INVITED).count() == 1


def test_the_invite_form_answers_429_in_the_players_language(
    settings: Settings, player: User, player_client: Client, opponent: User
) -> None:
    settings.LIMIT_CHOUETTE_INVITATIONS = 1
    player.language = "es"
    player.save(update_fields=["language"])
    chouette = create(player, [opponent])
    UserFactory(username="zed")
    response = player_client.post(reverse("chouette_invite", args=[chouette.pk]), {"invite": "zed"})
    assert response.status_code == 429
    assert "Tus chouettes abiertas pueden tener como mucho 1 invitaciones" in (
        response.content.decode()
    )
    assert not response.has_header("Retry-After")  # no time is known: it waits for answers
    assert not Seat.objects.filter(player__username="zed").exists()


def test_the_api_answers_429_with_code_and_detail(
    settings: Settings, player: User, opponent: User
) -> None:
    settings.LIMIT_TO_ONE_PLAYER = 1
    create(player, [opponent])
    response = token_client(player).post(
        "/api/chouettes/", {"invite": ["bob"], "open_to_all": False}, format="json"
    )
    assert response.status_code == 429
    assert response.json()["code"] == "too_many_invitations_to_player"
    assert Chouette.objects.count() == 1


# --------------------------------------------------------------------------- the chat


@pytest.fixture
def started(player: User, opponent: User, outsider: User) -> Chouette:
    chouette = create(player, [opponent, outsider])
    for user in (opponent, outsider):
        seating.chouette_join(chouette_id=chouette.pk, user=user, now=timezone.now())
    with scripted_dice([1, 3, 6, 5, 6, 5]):
        seating.chouette_start(chouette_id=chouette.pk, user=player, now=timezone.now())
    return chouette


def test_the_chouettes_chat_counts_with_the_games_and_answers_429_with_retry_after(
    settings: Settings, started: Chouette, player: User, player_client: Client
) -> None:
    settings.LIMIT_MESSAGES_PER_MINUTE = 2
    chat.message_post(
        chouette_id=started.pk, author=player, text="hello", team=False, now=timezone.now()
    )
    url = reverse("chouette_message_post", args=[started.pk])
    assert player_client.post(url, {"text": "again"}).status_code == 302
    response = player_client.post(url, {"text": "and again"})
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert Message.objects.count() == 2
    api = token_client(player).post(
        f"/api/chouettes/{started.pk}/messages", {"text": "api"}, format="json"
    )
    assert api.status_code == 429 and api.json()["code"] == "too_many_messages"
    assert 1 <= int(api["Retry-After"]) <= 60
    assert Message.objects.count() == 2
