"""A page whose socket cannot connect falls back to its poll, silently (issue 28): here
the site is served by pytest-django's live server, WSGI only, which refuses every socket.
The page still follows the game in place, with no reload."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from gammon import FixedDice
from matches import turns

from .helpers import game_url
from .test_game_page import two_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_page_without_its_socket_polls_and_updates_in_place(new_page, monkeypatch) -> None:
    game, mover, waiter = two_players(monkeypatch, FixedDice([(3, 1), (5, 2)]), length=3)
    page = new_page(user=waiter)
    page.clock.install()
    page.goto(game_url(game))
    expect(page.locator("html")).to_have_attribute("data-live", "polling")
    page.evaluate("window.stillHere = true")
    turns.game_play_move(
        game_id=game.pk, player=mover, play_text="8/5 6/5", expected_ply=game.ply,
        now=timezone.now(),
    )  # fmt: skip
    page.clock.fast_forward("00:21")
    expect(page.locator("#banner")).to_have_text(re.compile(r"^Your turn: roll"))
    assert page.evaluate("window.stillHere === true"), "the page reloaded"
    assert page.locator("html").get_attribute("data-live-moved") == "2"
