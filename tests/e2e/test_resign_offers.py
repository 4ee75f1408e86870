"""Resigning by an offer, in a real browser and in Spanish (issue 26, item 6): the player
on turn offers a single game, the opponent declines it in the banner (each step asked in
the page's dialog, with what it costs or wins); the same player, still on turn, may only
offer more now, and offers a gammon, which the opponent accepts.

States are saved at 1280 and 390 px wide (``test-output/e2e/state-*.png``).
"""

from __future__ import annotations

from typing import Any

import pytest

from gammon import FixedDice, SeededDice
from matches import record
from matches.models import Game
from tests.factories import UserFactory

from .helpers import game_url, shoot
from .test_play import start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_resign_menu(page: Any) -> None:
    page.locator("summary", has_text="Abandonar u ofrecer tablas").click()


def confirm(page: Any, says: str, state: str) -> None:
    """The dialog says ``says``; its screenshot is saved, then it is confirmed."""
    dialog = page.locator("#confirm-dialog")
    assert dialog.is_visible()
    assert says in dialog.inner_text(), dialog.inner_text()
    shoot(page, state)
    with page.expect_navigation():
        page.locator("#confirm-dialog-yes").click()


def test_an_offer_declined_then_a_bigger_one_accepted_in_spanish(new_page, monkeypatch) -> None:
    alice = UserFactory(username="alice", language="es")
    bob = UserFactory(username="bob", language="es")
    game = start_match(alice, bob, monkeypatch, FixedDice([(3, 1)]), length=5)
    match = game.match
    offerer, answerer = match.player(game.turn_color), match.player(game.turn_color.other)
    page = new_page(user=offerer, width=1280, locale="es")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(game_url(game))

    open_resign_menu(page)
    choices = page.locator("#resign-offer-form input[name=level]")
    assert choices.count() == 3  # single, gammon, backgammon: none ends a 5-point match
    assert page.locator("#resign-offer-form").inner_text().count("el match sigue") == 3
    assert not page.locator("#id_confirm_offer_resign").is_visible()  # the dialog asks
    page.locator("#resign-offer-form input[value=single]").check()
    shoot(page, "resign-offer-choices-es")
    page.locator("#resign-offer-form button[type=submit]").click()
    confirm(
        page,
        "¿Ofrecer abandonar con una partida simple? Pierdes esta partida y 1 punto; el match "
        "sigue.",
        "resign-offer-dialog-es",
    )
    assert page.locator("#banner").inner_text() == (
        f"Esperando a que {answerer.public_name} responda a tu oferta de abandonar con una "
        "partida simple"
    )

    answering = new_page(user=answerer, width=390, locale="es")
    answering.set_viewport_size({"width": 390, "height": 844})
    answering.goto(game_url(game))
    assert answering.locator("#banner").inner_text() == (
        f"{offerer.public_name} ofrece abandonar con una partida simple: ¿aceptas o rechazas?"
    )
    assert answering.locator("#resign-offer-detail").inner_text() == "Ganas esta partida y 1 punto."
    shoot(answering, "resign-offer-to-answer-es")
    answering.locator("#resign-decline-form button").click()
    confirm(answering, "¿Rechazar el abandono? La partida sigue donde estaba.", "resign-decline-es")
    game.refresh_from_db()
    assert (game.state, game.turn) == (Game.State.MOVING, int(match.color_of(offerer)))

    # Declined, the offer cost nothing; this turn the offerer may only offer more.
    page.goto(game_url(game))
    open_resign_menu(page)
    assert [choices.nth(i).get_attribute("value") for i in range(choices.count())] == [
        "gammon",
        "backgammon",
    ]
    page.locator("#resign-offer-form input[value=gammon]").check()
    page.locator("#resign-offer-form button[type=submit]").click()
    confirm(
        page,
        "¿Ofrecer abandonar con un gammon? Pierdes esta partida y 2 puntos; el match sigue.",
        "resign-offer-gammon-es",
    )

    monkeypatch.setattr(record, "dice", SeededDice(5))  # the next game's opening roll
    answering.goto(game_url(game))
    answering.locator("#resign-accept-form button").click()
    confirm(answering, "¿Aceptar el abandono? Ganas esta partida y 2 puntos.", "resign-accept-es")
    game.refresh_from_db()
    match.refresh_from_db()
    assert game.is_finished and game.winner == int(match.color_of(answerer))
    assert (game.termination, game.points) == ("resign", 2)
    assert match.score[match.color_of(answerer)] == 2
    kinds = list(game.events.values_list("kind", flat=True))
    assert kinds[-5:] == ["resign_offer", "resign_decline", "resign_offer", "resign_accept", "win"]
    shoot(answering, "resign-accepted-es")
