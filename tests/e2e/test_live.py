"""Pages that follow what happens, over their socket (issue 28), in a real browser served
over ASGI: Bob's open game page shows Alice's move in place, the checkers sliding, with
no reload; a message in the chat comes in without losing what Bob was writing; his
dashboard and header badge count the game that became his.

Every action that must reach a socket goes through the server, by Alice's browser (see
tests/e2e/asgi_server.py). The marker ``window.stillHere``, set once the page has loaded,
would be gone after any navigation.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from gammon import FixedDice
from matches.models import Game

from .asgi_server import asgi_live_server  # noqa: F401 - the live_server fixture, over ASGI
from .helpers import game_url, shoot
from .test_game_page import two_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def opened(page: Any, url: str) -> None:
    """Open ``url``, wait until its socket follows, and mark the window."""
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("data-live", "open")
    page.evaluate("window.stillHere = true")


def still_here(page: Any) -> bool:
    return bool(page.evaluate("window.stillHere === true"))


def test_the_opponents_move_shows_in_place_with_the_checkers_sliding(new_page, monkeypatch) -> None:
    game, alice, bob = two_players(monkeypatch, FixedDice([(3, 1), (5, 2)]), length=3)
    watching = new_page(user=bob)
    opened(watching, game_url(game))
    assert watching.locator("#banner").inner_text().startswith("Waiting for")
    assert not watching.locator("svg.board g.checkers[data-point='20']").count()

    moving = new_page(user=alice)
    moving.goto(game_url(game))
    moving.locator("#id_play").fill("8/5 6/5")
    with moving.expect_navigation():
        moving.locator("#move-submit").click()

    expect(watching.locator("#banner")).to_have_text(re.compile(r"^Your turn: roll"))
    assert still_here(watching), "the page reloaded instead of updating in place"
    html = watching.locator("html")
    expect(html).to_have_attribute("data-live-moved", "2")  # two checkers slid to Bob's 20
    arrived = watching.locator("svg.board g.checkers[data-point='20']")
    assert arrived.get_attribute("data-count") == "2"
    ply = str(Game.objects.get(pk=game.pk).ply)
    expect(watching.locator("#live-game")).to_have_attribute("data-ply", ply)
    expect(watching.locator("#roll-button")).to_be_visible()
    shoot(watching, "live-move-arrived")
    # The page works as if loaded afresh: Bob rolls from it.
    with watching.expect_navigation():
        watching.locator("#roll-button").click()
    expect(watching.locator("#banner")).to_have_text(re.compile(r"^Your move: you rolled 5-2"))


def test_a_chat_message_comes_in_and_what_was_being_written_stays(new_page, monkeypatch) -> None:
    game, alice, bob = two_players(monkeypatch, FixedDice([(3, 1)]), length=3)
    watching = new_page(user=bob)
    opened(watching, game_url(game))
    watching.locator("#id_message_text").fill("Good luck, and")
    watching.locator("#id_message_text").focus()

    writing = new_page(user=alice)
    writing.goto(game_url(game) + "#messages")
    writing.locator("#id_message_text").fill("Have a good game!")
    with writing.expect_navigation():
        writing.locator("form.message-form button[type=submit]").click()

    expect(watching.locator("#messages .messages-list")).to_contain_text("Have a good game!")
    assert still_here(watching)
    assert watching.locator("#id_message_text").input_value() == "Good luck, and"
    assert watching.evaluate("document.activeElement.id") == "id_message_text"


def test_the_dashboard_and_its_badge_count_the_game_that_became_yours(
    new_page, monkeypatch
) -> None:
    game, alice, bob = two_players(monkeypatch, FixedDice([(3, 1), (5, 2)]), length=3)
    dashboard = new_page(user=bob)
    opened(dashboard, "/dashboard/")
    assert not dashboard.locator("#nav-dashboard .badge").count()
    assert dashboard.locator("#dashboard").inner_text().count("No game is waiting for you.") == 1

    moving = new_page(user=alice)
    moving.goto(game_url(game))
    moving.locator("#id_play").fill("8/5 6/5")
    with moving.expect_navigation():
        moving.locator("#move-submit").click()

    expect(dashboard.locator("#nav-dashboard .badge")).to_have_text("1")
    expect(dashboard.locator("#dashboard a[href='/next/']")).to_be_visible()
    assert still_here(dashboard)
    shoot(dashboard, "live-dashboard")


HIDE = """(hidden) => {
  const value = hidden ? "hidden" : "visible";
  Object.defineProperty(document, "visibilityState", { value, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_tab_closes_its_socket_and_catches_up_when_shown(new_page, monkeypatch) -> None:
    game, alice, bob = two_players(monkeypatch, FixedDice([(3, 1), (5, 2)]), length=3)
    watching = new_page(user=bob)
    opened(watching, game_url(game))
    watching.evaluate(HIDE, True)
    expect(watching.locator("html")).to_have_attribute("data-live", "hidden")

    moving = new_page(user=alice)
    moving.goto(game_url(game))
    moving.locator("#id_play").fill("8/5 6/5")
    with moving.expect_navigation():
        moving.locator("#move-submit").click()
    # Hidden, the page heard nothing: it still shows the game before the move.
    assert watching.locator("#banner").inner_text().startswith("Waiting for")

    watching.evaluate(HIDE, False)
    expect(watching.locator("#banner")).to_have_text(re.compile(r"^Your turn: roll"))
    expect(watching.locator("html")).to_have_attribute("data-live", "open")
    assert still_here(watching)


def test_a_chouette_page_shows_who_joins_in_place(new_page) -> None:
    from django.utils import timezone

    from chouettes import seating
    from tests.factories import UserFactory

    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    chouette = seating.chouette_create(creator=ann, now=timezone.now(), open_to_all=True)
    page = new_page()  # a visitor
    opened(page, chouette.get_absolute_url())
    assert not page.locator("#chouette-page a[href='/players/bob/']").count()

    seating.chouette_join(chouette_id=chouette.pk, user=bob, now=timezone.now())

    expect(page.locator("#chouette-page a[href='/players/bob/']")).to_be_visible()
    assert still_here(page)


def test_a_tournament_page_shows_results_and_the_next_round_in_place(new_page) -> None:
    from django.utils import timezone

    from matches import endings
    from tests.tournaments.helpers import players
    from tournaments.models import Pairing

    from .helpers import running_knockout

    cup = running_knockout(players(4))
    page = new_page()  # a visitor
    opened(page, cup.get_absolute_url())
    expect(page.locator("dd", has_text="Round 1 of 2")).to_be_visible()

    for pairing in Pairing.objects.filter(tournament=cup, round=1).select_related("match__white"):
        match = pairing.match
        assert match is not None and match.current_game is not None
        endings.game_resign(
            game_id=match.current_game.pk,
            player=match.white,
            expected_ply=None,
            now=timezone.now(),
            whole_match=True,
        )

    expect(page.locator("dd", has_text="Round 2 of 2")).to_be_visible()
    assert still_here(page)
    shoot(page, "live-tournament")
