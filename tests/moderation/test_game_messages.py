"""Game messages on the game page, and the report form players use."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from matches import services as match_services
from matches.models import GameMessage, Match
from moderation import services
from moderation.models import Report

pytestmark = pytest.mark.django_db


def test_players_post_and_read_messages_spectators_do_not(
    player_client: Client, opponent: User, outsider: User, new_match: Callable[..., Match]
) -> None:
    game = new_match().current_game
    url = reverse("game_message_post", args=[game.pk])
    response = player_client.post(url, {"text": "Good luck!"})
    assert response.status_code == 302
    assert GameMessage.objects.get().text == "Good luck!"
    page = player_client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Good luck!" in page
    spectator = Client()
    spectator.force_login(outsider)
    assert (
        "Good luck!" not in spectator.get(reverse("game_detail", args=[game.pk])).content.decode()
    )
    spectator.post(url, {"text": "spam"})
    assert GameMessage.objects.count() == 1


def test_a_hidden_message_is_masked_and_others_can_be_reported(
    moderator: User, player: User, opponent: User, player_client: Client,
    new_match: Callable[..., Match],
) -> None:  # fmt: skip
    game = new_match().current_game
    now = timezone.now()
    rude = match_services.game_message_post(game_id=game.pk, author=opponent, text="RUDE", now=now)
    match_services.game_message_post(game_id=game.pk, author=opponent, text="ok then", now=now)
    services.game_message_hide(moderator=moderator, message=rude, reason="x", now=now)
    page = player_client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "RUDE" not in page and "hidden by the moderators" in page and "ok then" in page
    assert reverse("report_new", args=["bob"]) + "?message=" in page


def test_a_player_reports_a_message(
    player_client: Client, opponent: User, new_match: Callable[..., Match]
) -> None:
    game = new_match().current_game
    message = match_services.game_message_post(
        game_id=game.pk, author=opponent, text="You cheat", now=timezone.now()
    )
    url = reverse("report_new", args=["bob"]) + f"?message={message.pk}"
    assert "You cheat" in player_client.get(url).content.decode()
    response = player_client.post(url, {"category": "abuse", "text": "Insulting me."})
    assert response.status_code == 302
    report = Report.objects.get()
    assert (report.message, report.game, report.reported) == (message, game, opponent)
    assert player_client.post(url, {"category": "abuse", "text": "again"}).status_code == 409


def test_a_visitor_must_log_in_to_report(client: Client, opponent: User) -> None:
    response = client.get(reverse("report_new", args=["bob"]))
    assert response.status_code == 302 and "login" in response["Location"]
