"""A new player's first minutes, in Spanish (issue 26, item 8): Dora signs up, follows
the link of the e-mail in the same browser and lands signed in on a dashboard that
offers to play the computer and lists Carol's open challenge, which Dora accepts.
Screenshots at 1280x800 and 390x844 in test-output/e2e/dashboard-*.png.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from matches.models import Match
from tests.factories import UserFactory

from .conftest import OUTPUT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = ((1280, 800), (390, 844))


def screens(page: Any, state: str) -> None:
    """The whole page at a laptop's and a phone's width (the first screen is what the
    window shows), in test-output/e2e/dashboard-<state>-<width>.png."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(OUTPUT / f"dashboard-{state}-{width}.png"), full_page=True)
    page.set_viewport_size(size)


def test_a_new_player_lands_signed_in_on_a_dashboard_that_offers_a_first_game(
    new_page: Any,
) -> None:
    from playwright.sync_api import expect

    carol = UserFactory(username="carol", display_name="Carol")
    open_challenge = challenge_services.challenge_create(
        challenger=carol, now=timezone.now(), length=3
    )
    page = new_page(locale="es", width=1280)
    page.goto("/accounts/signup/")
    page.fill("[name=email]", "dora@example.com")
    page.fill("[name=username]", "dora")
    page.fill("[name=password1]", "a long enough pass phrase 7")
    page.fill("[name=password2]", "a long enough pass phrase 7")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", mail.outbox[-1].body)
    assert link, mail.outbox[-1].body
    page.goto(link.group(1))
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()

    # Signed in by the confirmation, in the browser Dora signed up in.
    expect(page.locator("h1")).to_have_text("Tus partidas")
    dora = User.objects.get(username="dora")
    expect(page.locator("#start-game")).to_contain_text("Empieza una partida")
    expect(page.locator("#play-computer")).to_have_text("Juega contra la máquina")
    offered = page.locator("li.challenge", has_text="Carol")
    expect(offered).to_contain_text("match a 3 puntos")
    screens(page, "new-player")

    with page.expect_navigation():
        offered.locator("button", has_text="Aceptar").click()
    match = Match.objects.get(challenge=open_challenge)
    assert {match.white_id, match.black_id} == {carol.pk, dora.pk}
    page.goto("/dashboard/")
    expect(page.locator("#start-game")).to_have_count(0)  # a game in play now
    expect(page.locator("#open-challenges")).to_be_visible()


def test_the_player_page_lists_matches_from_the_players_side_in_spanish(new_page: Any) -> None:
    """The player page's matches: whom against, by display name, and the result from the
    page's player's side (screenshots: dashboard-player-page-*.png)."""
    from playwright.sync_api import expect

    from tests.stats.helpers import match_resign, match_start

    alice = UserFactory(username="alice", display_name="Alice the Bold")
    bob = UserFactory(username="bob", display_name="Bobby Tables")
    won = match_resign(match_start(alice, bob, length=3), bob)
    match_start(bob, alice, length=5)
    page = new_page(locale="es", width=1280)
    page.goto("/players/alice/")
    row = page.locator(f"#match-{won.pk}")
    expect(row).to_contain_text("contra Bobby Tables")
    expect(row).to_contain_text("Ganado 3–0")
    screens(page, "player-page")
