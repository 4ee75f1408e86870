"""A live 1-point match on a short clock, in two browsers (issue 28).

alice posts a seek in the lobby on a test clock of 1 s a turn and a 2 s reserve
(``LIVE_CLOCK_PRESETS``); bob takes it from his lobby and lands on the board, and
alice's lobby page follows him there by itself. alice, on turn, lets her clock run out:
bob's page counts it down, shows the claim button when it falls, and his claim wins the
match. Every wait is on a condition of the page, none a sleep.

The pages are served over ASGI, sockets included: when alice closes her page, bob's shows
her "away" in place, and when she opens it again the mark goes.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import User
from challenges import services as challenge_services
from challenges.models import Challenge
from gammon import FixedDice, Termination
from matches import record
from matches.models import Match
from tests.factories import UserFactory
from tests.matches.clock_helpers import start_game

from .asgi_server import asgi_live_server  # noqa: F401 - the live_server fixture, over ASGI
from .conftest import OUTPUT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_live_match_where_one_clock_runs_out_and_the_win_is_claimed(
    new_page, monkeypatch, settings
) -> None:
    settings.LIVE_CLOCK_PRESETS = [(1, 2), (11, 90)]
    alice = UserFactory(username="alice")
    bob = UserFactory(username="bob")
    # The seeker (alice) is White and opens with 3-1: her clock runs first.
    monkeypatch.setattr(challenge_services.secrets, "randbelow", lambda n: 0)
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1), (6, 5), (6, 4), (5, 2)]))

    her = new_page(alice)
    her.goto("/play/")
    her.select_option("#id_length", "1")
    her.select_option("#id_clock", "1+2")
    her.click("#seek-submit")
    expect(her.locator("[data-mine]")).to_have_count(1)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    her.screenshot(path=str(OUTPUT / "live-lobby-seek.png"), full_page=True)
    seek = Challenge.objects.get(challenger=alice)
    assert (seek.live_delay, seek.live_reserve) == (1, 2)

    his = new_page(bob)
    his.goto("/play/")
    his.click(f"#accept-seek-{seek.pk}")
    expect(his).to_have_url(re.compile(r"/games/\d+/$"))
    # Her lobby hears that the match began, and takes her to the board.
    expect(her).to_have_url(re.compile(r"/games/\d+/$"), timeout=15_000)
    assert her.url == his.url

    # She does not move: 1 s, then 2 s, and bob may claim.
    expect(his.locator("#live-clock")).to_be_visible()
    his.screenshot(path=str(OUTPUT / "live-clock-running.png"))
    expect(her.locator("#claim-time")).to_have_count(0)
    expect(his.locator("#claim-time")).to_be_visible(timeout=15_000)
    expect(his.locator("#live-clock-fallen")).to_be_visible()
    his.click("#claim-time")
    expect(his.locator("body")).to_contain_text("ran out of time: you win the match")

    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED and match.result == Match.Result.BLACK
    game = match.games.get()
    assert game.termination == Termination.TIME_CLAIM
    assert list(game.events.values_list("kind", flat=True))[-2:] == ["timeout_claim", "win"]
    assert User.objects.get(pk=alice.pk) == alice


def test_the_opponent_who_closes_the_page_is_shown_away_in_place_and_back(
    new_page, monkeypatch
) -> None:
    alice = UserFactory(username="alice")
    bob = UserFactory(username="bob")
    game = start_game(
        monkeypatch, alice, bob, now=timezone.now(), length=1, live_delay=11, live_reserve=90
    )
    url = f"/games/{game.pk}/"

    def opened(user: User):
        page = new_page(user)
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("data-live", "open")
        return page

    his = opened(bob)
    his.evaluate("window.stillHere = true")
    her_mark = his.locator("#live-clock-away-white")  # alice plays White
    her = opened(alice)
    expect(her.locator("#live-clock-away-white")).to_have_count(0)  # never her own
    expect(her_mark).to_be_hidden()  # her page is open: at the board

    her.close()
    expect(her_mark).to_be_visible(timeout=5_000)
    his.screenshot(path=str(OUTPUT / "live-clock-opponent-away.png"))

    opened(alice)
    expect(her_mark).to_be_hidden(timeout=5_000)
    assert his.evaluate("window.stillHere === true"), "his page was never reloaded"
