"""A player plays at most ``LIMIT_BOT_MATCHES`` matches against the computer at once.

Fifty challenges to the world-class bot in five seconds were all accepted, and cost
fifteen seconds of gnubg. Past the limit the bot refuses, with a 429 in the player's
language, on the challenge form and in the API, and nothing is made; a match finished
or resigned frees its place.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from backgammon.errors import LimitReached
from bots import services
from bots.models import Bot
from challenges import services as challenge_services
from challenges.models import Challenge
from matches.models import Match
from tests.matches.api_helpers import token_client
from tests.stats.helpers import match_resign

pytestmark = pytest.mark.django_db

FORM = {"opponent": "", "variant": "standard", "length": "3", "days_per_move": "3",
        "time_bank_days": "0", "cube_limit": "64"}  # fmt: skip


@pytest.fixture
def expert(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, settings: Settings) -> Bot:
    """The expert bot, with gnubg "installed" (an empty file: no turn is played here)."""
    program = tmp_path / "gnubg"
    program.touch()
    monkeypatch.setenv("GNUBG", str(program))
    settings.LIMIT_BOT_MATCHES = 2
    return {bot.level: bot for bot in services.bots_create()}["expert"]


def against(person: User, bot: Bot) -> Match:
    challenge = challenge_services.challenge_create(
        challenger=person, opponent=bot.user, now=timezone.now(), length=3
    )
    match = Match.objects.get(challenge=challenge)
    assert match.status == Match.Status.PLAYING
    return match


def test_matches_against_the_computer_in_play_are_limited(expert: Bot, player: User) -> None:
    first = against(player, expert)
    against(player, expert)
    with pytest.raises(LimitReached) as caught:
        against(player, expert)
    error = caught.value
    assert (error.status, error.code, error.retry_after) == (429, "too_many_bot_matches", None)
    assert "You are playing 2 matches against the computer" in str(error)
    assert Challenge.objects.count() == Match.objects.count() == 2
    match_resign(first, player)  # a match over frees its place
    against(player, expert)


def test_matches_between_people_do_not_count(expert: Bot, player: User, opponent: User) -> None:
    for _ in range(3):
        challenge = challenge_services.challenge_create(
            challenger=player, opponent=opponent, now=timezone.now()
        )
        challenge_services.challenge_accept(
            challenge_id=challenge.pk, user=opponent, now=timezone.now()
        )
    against(player, expert)
    against(player, expert)


def test_the_challenge_form_answers_429_in_the_players_language(
    expert: Bot, player: User, player_client: Client
) -> None:
    player.language = "es"
    player.save(update_fields=["language"])
    form = {**FORM, "computer": expert.user.username}
    for _ in range(2):
        assert player_client.post(reverse("challenge_new"), form).status_code == 302
    response = player_client.post(reverse("challenge_new"), form)
    assert response.status_code == 429
    assert "Estás jugando 2 partidas contra el ordenador" in response.content.decode()
    assert Match.objects.count() == 2


def test_the_api_answers_429_with_code_and_detail(expert: Bot, player: User) -> None:
    client = token_client(player)
    body = {"opponent": expert.user.username, "length": 3}
    for _ in range(2):
        assert client.post("/api/challenges/", body, format="json").status_code == 201
    response = client.post("/api/challenges/", body, format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "too_many_bot_matches"
    assert Challenge.objects.count() == 2
