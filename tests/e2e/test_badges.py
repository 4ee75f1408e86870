"""The header's counts (games waiting, unread notices) in a real browser (issue 26: the
unread count was a dark badge on the dark header, a pill nobody could see).

Bob has a game waiting for him and an unread notice; his dashboard is shot in Spanish at
1280x800 and 390x844 (the phone's menu open, where the unread count is), in
test-output/e2e/badges-<width>.png, and each badge's painted colours are read back.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from tests.factories import UserFactory
from tests.matches.clock_helpers import start_game
from tests.test_contrast import contrast

from .conftest import OUTPUT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def hex_colour(css: str) -> str:
    """``rgb(r, g, b)`` as the browser reports a colour, in ``#rrggbb``."""
    red, green, blue = (int(n) for n in re.findall(r"\d+", css)[:3])
    return f"#{red:02x}{green:02x}{blue:02x}"


def painted(page: Any, selector: str) -> tuple[str, str, str]:
    """The badge's background and text colours, and the header's background behind it."""
    colours = page.locator(selector).evaluate(
        """badge => {
            let behind = badge.parentElement;
            while (getComputedStyle(behind).backgroundColor === "rgba(0, 0, 0, 0)") {
                behind = behind.parentElement;
            }
            return [getComputedStyle(badge).backgroundColor, getComputedStyle(badge).color,
                    getComputedStyle(behind).backgroundColor];
        }"""
    )
    return hex_colour(colours[0]), hex_colour(colours[1]), hex_colour(colours[2])


def test_the_headers_counts_stand_out_on_it_in_spanish(
    new_page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    bob = UserFactory(username="bob", display_name="Bob", language="es")
    alice = UserFactory(username="alice", display_name="Alice")
    now = timezone.now()
    # Alice is White and Bob, with the higher die of the opening roll, moves first.
    game = start_game(monkeypatch, alice, bob, (1, 3), now=now)
    assert game.match.player(game.turn_color) == bob
    challenge_services.challenge_create(challenger=alice, opponent=bob, now=now, length=3)
    bob = User.objects.get(pk=bob.pk)
    page = new_page(user=bob, width=1280, locale="es")
    OUTPUT.mkdir(parents=True, exist_ok=True)
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/dashboard/")
        if page.locator(".nav-toggle").is_visible():
            page.locator(".nav-toggle").click()
        badges = [".nav-quick .badge", "#nav-links .badge"]
        for selector in badges:
            background, text, header = painted(page, selector)
            assert contrast(background, header) >= 3, (width, selector, background, header)
            assert contrast(text, background) >= 4.5, (width, selector, text, background)
        assert page.locator("#nav-links .badge").inner_text().strip().isdigit()
        page.screenshot(path=str(OUTPUT / f"badges-{width}.png"))
