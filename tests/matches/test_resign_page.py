"""The game page's resignation, without JavaScript: the offers open, each with what it
costs the player (the game and its points, or the match), the offer in the opponent's
banner with Accept and Decline, each confirmed as a take or a drop is, in the reader's
language; the match page says how its games are resigned.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from gammon import FixedDice, SeededDice
from matches import record
from matches.models import Game

pytestmark = pytest.mark.django_db


def client_for(user: User, language: str = "en") -> Client:
    """A signed-in client; the site speaks the language of the player's profile."""
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


def start(player: User, opponent: User, monkeypatch: pytest.MonkeyPatch, **options) -> Game:
    """White (the challenger) opened with 3-1 and must move."""
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1)]))
    now = timezone.now()
    challenge = challenge_services.challenge_create(
        challenger=player, opponent=opponent, now=now, **options
    )
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
    game = match.current_game
    assert game is not None
    return game


@pytest.fixture
def game(player: User, opponent: User, monkeypatch: pytest.MonkeyPatch) -> Game:
    return start(player, opponent, monkeypatch, length=3)


def banner_of(page: str) -> str:
    found = re.search(r'<strong id="banner">(.*?)</strong>', page, re.S)
    assert found
    return html.unescape(found.group(1).strip())


def page_of(client: Client, game: Game) -> str:
    response = client.get(reverse("game_detail", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_offers_say_what_each_costs_and_the_opponent_answers_in_the_banner(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    mover = game.match.player(game.turn_color)
    waiter = game.match.player(game.turn_color.other)
    url = reverse("game_detail", args=[game.pk])
    page = page_of(client_for(mover), game)
    assert 'id="resign-form"' not in page  # no resignation at once in this match
    levels = re.findall(r'name="level" value="(\w+)" data-confirm="([^"]*)"', page)
    assert [(level, html.unescape(text)) for level, text in levels] == [
        (
            "single",
            "Offer to resign a single game? You lose this game and 1 point; the match goes on.",
        ),
        ("gammon", "Offer to resign a gammon? You lose this game and 2 points; the match goes on."),
        ("backgammon", "Offer to resign a backgammon? You lose 3 points, and with them the match."),
    ]  # a 3-point match at 0-0: only the backgammon is the match
    assert "You lose the match: " in page and "is given the 3 points they need." in page

    # Without the box ticked, the offer is asked again, with the reason; nothing changes.
    response = client_for(mover).post(
        url, {"action": "offer_resign", "ply": game.ply, "level": "gammon"}
    )
    assert response.status_code == 400
    assert "Tick the box to confirm your offer to resign." in response.content.decode()
    game.refresh_from_db()
    assert game.state == Game.State.MOVING
    response = client_for(mover).post(
        url, {"action": "offer_resign", "ply": game.ply, "level": "single", "confirm": "on"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.state, game.resign_offer) == (Game.State.RESIGNING, 1)

    answering = page_of(client_for(waiter), game)
    assert (
        banner_of(answering)
        == f"{mover.public_name} offers to resign a single game: accept or decline?"
    )
    assert "You win this game and 1 point." in answering
    assert 'data-confirm="Accept the resignation? You win this game and 1 point."' in answering
    assert 'id="resign-decline-form"' in answering
    assert f"{mover.public_name} rolled 3 and 1." in answering  # the board: the offerer's roll
    waiting = page_of(client_for(mover), game)
    assert banner_of(waiting) == (
        f"Waiting for {waiter.public_name} to answer your offer to resign a single game"
    )
    assert 'id="resign-accept-form"' not in waiting
    spectator = page_of(Client(), game)
    assert "offers to resign a single game" in banner_of(spectator)

    response = client_for(waiter).post(url, {"action": "decline_resign", "ply": game.ply})
    assert response.status_code == 400  # the answer is confirmed, as a take or a drop is
    response = client_for(waiter).post(
        url, {"action": "decline_resign", "ply": game.ply, "confirm": "on"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.state, game.turn) == (Game.State.MOVING, int(game.match.color_of(mover)))
    page = page_of(client_for(mover), game)
    assert re.findall(r'name="level" value="(\w+)"', page) == ["gammon", "backgammon"]
    assert "Declines the resignation" in page  # the record says so

    monkeypatch.setattr(record, "dice", SeededDice(1))
    client_for(mover).post(
        url, {"action": "offer_resign", "ply": game.ply, "level": "gammon", "confirm": "on"}
    )
    game.refresh_from_db()
    response = client_for(waiter).post(
        url, {"action": "accept_resign", "ply": game.ply, "confirm": "on"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.is_finished and game.points == 2


def test_the_dialog_and_the_banner_speak_spanish(game: Game) -> None:
    mover = game.match.player(game.turn_color)
    waiter = game.match.player(game.turn_color.other)
    page = html.unescape(page_of(client_for(mover, "es"), game))
    assert "¿Ofrecer abandonar con un backgammon? Pierdes 3 puntos, y con ellos el match." in page
    assert (
        "Una oferta rechazada no cuesta nada." in page
        or "una oferta rechazada no cuesta nada" in page
    )
    client_for(mover).post(
        reverse("game_detail", args=[game.pk]),
        {"action": "offer_resign", "ply": game.ply, "level": "single", "confirm": "on"},
    )
    answering = page_of(client_for(waiter, "es"), game)
    assert banner_of(answering) == (
        f"{mover.public_name} ofrece abandonar con una partida simple: ¿aceptas o rechazas?"
    )
    assert "Ganas esta partida y 1 punto." in html.unescape(answering)


def test_a_refused_offer_is_the_page_again_with_the_reason(game: Game) -> None:
    waiter = game.match.player(game.turn_color.other)
    response = client_for(waiter, "es").post(
        reverse("game_detail", args=[game.pk]),
        {"action": "offer_resign", "ply": game.ply, "level": "single", "confirm": "on"},
    )
    assert response.status_code == 403
    assert "Solo puedes ofrecer abandonar en tu turno." in response.content.decode()


def test_the_match_page_says_how_a_game_is_resigned(
    game: Game, player: User, opponent: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = Client().get(reverse("match_detail", args=[game.match_id])).content.decode()
    assert "a game is resigned by an offer the opponent accepts or declines" in page
    other = start(player, opponent, monkeypatch, resignation="immediate")
    page = Client().get(reverse("match_detail", args=[other.match_id])).content.decode()
    assert "a game is resigned at once (a gammon while nothing is borne off)" in page


def test_the_challenge_form_offers_both_ways_of_resigning(player: User) -> None:
    client = client_for(player)
    page = client.get(reverse("challenge_new")).content.decode()
    assert 'name="resignation"' in page and '<option value="offer" selected>' in page
    response = client.post(
        reverse("challenge_new"),
        {
            "variant": "standard",
            "length": 3,
            "days_per_move": 3,
            "time_bank_days": 0,
            "cube_limit": 64,
            "rated": "on",
            "resignation": "immediate",
        },
    )
    assert response.status_code == 302
    assert player.challenges_sent.get().resignation == "immediate"
