"""Game messages on the game page, and the report form players use."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from matches import chat
from matches.models import GameMessage, Match
from moderation import rulings
from moderation.models import Report
from tests.matches.api_helpers import token_client

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
    rude = chat.game_message_post(game_id=game.pk, author=opponent, text="RUDE", now=now)
    chat.game_message_post(game_id=game.pk, author=opponent, text="ok then", now=now)
    rulings.game_message_hide(moderator=moderator, message=rude, reason="x", now=now)
    page = player_client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "RUDE" not in page and "hidden by the moderators" in page and "ok then" in page
    assert reverse("report_new", args=["bob"]) + "?message=" in page


def test_a_player_reports_a_message(
    player_client: Client, opponent: User, new_match: Callable[..., Match]
) -> None:
    game = new_match().current_game
    message = chat.game_message_post(
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


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_spectator_cannot_read_a_message_through_the_report_form(
    opponent: User, outsider: User, new_match: Callable[..., Match]
) -> None:
    game = new_match().current_game
    message = chat.game_message_post(
        game_id=game.pk, author=opponent, text="Private words", now=timezone.now()
    )
    spectator = _client(outsider)
    url = reverse("report_new", args=["bob"]) + f"?message={message.pk}"
    response = spectator.get(url)
    assert response.status_code == 403
    page = response.content.decode()
    assert "Private words" not in page
    assert "You can only report messages of your own games." in page
    response = spectator.post(url, {"category": "abuse", "text": "x"})
    assert response.status_code == 403 and "Private words" not in response.content.decode()
    assert not Report.objects.exists()


def test_the_refusal_is_in_the_readers_language(
    opponent: User, outsider: User, new_match: Callable[..., Match]
) -> None:
    game = new_match().current_game
    message = chat.game_message_post(
        game_id=game.pk, author=opponent, text="Private words", now=timezone.now()
    )
    outsider.language = "es"
    outsider.save(update_fields=["language"])
    url = reverse("report_new", args=["bob"]) + f"?message={message.pk}"
    response = _client(outsider).get(url)
    assert response.status_code == 403
    assert "Solo puedes denunciar mensajes de tus propias partidas." in response.content.decode()


def test_a_moderator_sees_the_message_they_report(
    moderator: User, opponent: User, new_match: Callable[..., Match]
) -> None:
    game = new_match().current_game
    message = chat.game_message_post(
        game_id=game.pk, author=opponent, text="Private words", now=timezone.now()
    )
    url = reverse("report_new", args=["bob"]) + f"?message={message.pk}"
    response = _client(moderator).get(url)
    assert response.status_code == 200 and "Private words" in response.content.decode()


@pytest.mark.parametrize("value", ["999999", "0", "abc", "²", "99999999999999999999"])
def test_an_unknown_message_is_a_404(player_client: Client, opponent: User, value: str) -> None:
    response = player_client.get(reverse("report_new", args=["bob"]), {"message": value})
    assert response.status_code == 404 and "No such message." in response.content.decode()


def test_a_spectator_cannot_dispute_a_game(
    outsider: User, opponent: User, new_match: Callable[..., Match]
) -> None:
    from moderation.selectors import matches_awaiting_adjudication

    game = new_match().current_game
    url = reverse("report_new", args=["bob"]) + f"?game={game.pk}"
    spectator = _client(outsider)
    assert spectator.get(url).status_code == 200  # games are public: other reports are fine
    response = spectator.post(url, {"category": "dispute", "text": "Bob cheated."})
    assert response.status_code == 403
    assert "Only the players of a game can dispute it." in response.content.decode()
    assert not Report.objects.exists()
    assert not matches_awaiting_adjudication().exists()


def test_a_player_disputes_their_game(
    player_client: Client, opponent: User, new_match: Callable[..., Match]
) -> None:
    from moderation.selectors import matches_awaiting_adjudication

    match = new_match()
    url = reverse("report_new", args=["bob"]) + f"?game={match.current_game.pk}"
    response = player_client.post(url, {"category": "dispute", "text": "Bob cheated."})
    assert response.status_code == 302
    assert list(matches_awaiting_adjudication()) == [match]


def test_a_message_with_a_nul_is_refused_in_the_players_language_and_not_stored(
    player: User, player_client: Client, new_match: Callable[..., Match]
) -> None:
    # On PostgreSQL it reached the INSERT: DataError, a 500.
    player.language = "es"
    player.save(update_fields=["language"])
    game = new_match().current_game
    response = player_client.post(reverse("game_message_post", args=[game.pk]), {"text": "a\x00b"})
    assert response.status_code == 400
    assert "Los caracteres nulos no están permitidos." in response.content.decode()
    assert not GameMessage.objects.exists()


def test_a_refused_message_is_the_game_page_with_the_status_and_the_reason(
    player_client: Client, new_match: Callable[..., Match]
) -> None:
    game = new_match().current_game
    url = reverse("game_message_post", args=[game.pk])
    response = player_client.post(url, {"text": "x" * 501})
    assert response.status_code == 400
    assert "A message is at most 500 characters long." in response.content.decode()
    assert player_client.post(url, {"text": ["one", "two"]}).status_code == 302
    assert GameMessage.objects.get().text == "two"  # a form field takes the last value


def test_a_message_to_a_game_that_does_not_exist_is_a_404_page(player: User) -> None:
    player.language = "ca"
    player.save(update_fields=["language"])
    client = Client()
    client.force_login(player)
    response = client.post(reverse("game_message_post", args=[999_999]), {"text": "hi"})
    assert response.status_code == 404
    assert "No existeix aquesta partida." in response.content.decode()


def test_the_api_refuses_a_nul_in_a_message_too(
    player: User, new_match: Callable[..., Match]
) -> None:
    game = new_match().current_game
    response = token_client(player).post(
        f"/api/games/{game.pk}/messages", {"text": "a\x00b"}, format="json"
    )
    assert response.status_code == 400 and "text" in response.json()["fields"]
    assert not GameMessage.objects.exists()
