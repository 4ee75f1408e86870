"""A player's challenges are limited: open ones (``LIMIT_OPEN_CHALLENGES``), open ones to
one player (``LIMIT_TO_ONE_PLAYER``) and those sent an hour (``LIMIT_INVITATIONS_PER_HOUR``).

Fifty challenges to one player sent them fifty e-mails. Each refusal is a 429 that
changes nothing, says why in the player's language, and when a time is known
(the first open challenge to lapse, the rate's window) says it as ``Retry-After``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from backgammon.errors import LimitReached
from challenges import services
from challenges.models import Challenge
from notifications.models import Notification
from tests.factories import UserFactory
from tests.matches.api_helpers import token_client
from tests.stats.helpers import match_resign, match_start

pytestmark = pytest.mark.django_db

FORM = {"variant": "standard", "length": "5", "days_per_move": "3", "time_bank_days": "0",
        "cube_limit": "64"}  # fmt: skip


def challenge(challenger: User, opponent: User | None, **options: object) -> Challenge:
    return services.challenge_create(
        challenger=challenger, opponent=opponent, now=timezone.now(), **options
    )


def refusal(challenger: User, opponent: User | None) -> LimitReached:
    with pytest.raises(LimitReached) as caught:
        challenge(challenger, opponent)
    return caught.value


def test_open_challenges_are_limited_and_the_refusal_says_when_the_first_lapses(
    settings: Settings, player: User
) -> None:
    settings.LIMIT_OPEN_CHALLENGES = 3
    now = timezone.now()
    services.challenge_create(challenger=player, now=now, validity=timedelta(hours=2))
    challenge(player, None)
    challenge(player, UserFactory())
    error = refusal(player, None)
    assert (error.status, error.code) == (429, "too_many_open_challenges")
    assert error.retry_after is not None and 7000 <= error.retry_after <= 7200  # the 2-hour one
    assert "You have 3 open challenges" in str(error) and "2 hours" in str(error)
    assert Challenge.objects.count() == 3


def test_a_challenge_answered_or_lapsed_frees_its_place(settings: Settings, player: User) -> None:
    settings.LIMIT_OPEN_CHALLENGES = 2
    first = challenge(player, None)
    challenge(player, None)
    refusal(player, None)
    services.challenge_withdraw(challenge_id=first.pk, user=player, now=timezone.now())
    challenge(player, None)
    Challenge.objects.filter(challenger=player).update(expires_at=timezone.now())
    challenge(player, None)  # the others lapsed: open no more, even before the sweep


def test_open_challenges_to_one_player_are_limited(
    settings: Settings, player: User, opponent: User, outsider: User
) -> None:
    settings.LIMIT_TO_ONE_PLAYER = 2
    challenge(player, opponent)
    challenge(player, opponent, length=3)
    notices = Notification.objects.count()
    error = refusal(player, opponent)
    assert error.code == "too_many_challenges_to_player"
    assert "You have 2 open challenges to Bob" in str(error)
    assert Notification.objects.count() == notices  # bob is told nothing more
    challenge(player, outsider)  # another player may still be challenged
    challenge(player, None)


def test_the_challenges_sent_an_hour_are_limited_whatever_becomes_of_them(
    settings: Settings, player: User, opponent: User
) -> None:
    """Sent and withdrawn at once, challenges still e-mailed their player each time."""
    settings.LIMIT_INVITATIONS_PER_HOUR = 3
    for _ in range(3):
        sent = challenge(player, opponent)
        services.challenge_withdraw(challenge_id=sent.pk, user=player, now=timezone.now())
    error = refusal(player, opponent)
    assert error.code == "too_many_invitations"
    assert error.retry_after is not None and 1 <= error.retry_after <= 3600
    assert Challenge.objects.filter(status="open").count() == 0


def test_a_rematch_counts_as_a_challenge(settings: Settings, player: User, opponent: User) -> None:
    settings.LIMIT_TO_ONE_PLAYER = 1
    finished = match_resign(match_start(player, opponent, length=3), opponent)
    challenge(player, opponent, length=7)  # another match than the rematch
    with pytest.raises(LimitReached):
        services.challenge_rematch(match_id=finished.pk, user=player, now=timezone.now())


def test_the_form_answers_429_in_the_players_language_with_retry_after(
    settings: Settings, player: User, player_client: Client
) -> None:
    settings.LIMIT_OPEN_CHALLENGES = 1
    player.language = "es"
    player.save(update_fields=["language"])
    assert player_client.post(reverse("challenge_new"), {**FORM, "opponent": ""}).status_code == 302
    response = player_client.post(reverse("challenge_new"), {**FORM, "opponent": ""})
    assert response.status_code == 429
    assert "Tienes 1 desafíos abiertos, el máximo" in response.content.decode()
    assert 13 * 86400 < int(response["Retry-After"]) <= 14 * 86400  # the first lapses then
    assert Challenge.objects.count() == 1


def test_the_api_answers_429_with_code_detail_and_retry_after(
    settings: Settings, player: User, opponent: User
) -> None:
    settings.LIMIT_TO_ONE_PLAYER = 1
    player.language = "es"
    player.save(update_fields=["language"])
    client = token_client(player)
    body = {"opponent": "bob"}
    assert client.post("/api/challenges/", body, format="json").status_code == 201
    response = client.post("/api/challenges/", body, format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "too_many_challenges_to_player"
    assert response.json()["detail"].startswith("Tienes 1 desafíos abiertos a Bob")
    assert int(response["Retry-After"]) > 13 * 86400
    assert Challenge.objects.count() == 1
