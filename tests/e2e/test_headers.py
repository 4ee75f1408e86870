"""The site's pages under its Content-Security-Policy, in a real browser (issue 12).

The ``new_page`` fixture fails a test when any page logs a CSP violation, in every browser
test; here the visitors' pages, the API docs (Swagger UI and Redoc), the admin and the
game page are visited, each checked at once so that a failure names the page.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from gammon import FixedDice
from matches import record
from notifications.models import Notification
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def visit(page: Any, path: str, *, fetches: bool = False) -> None:
    """Open ``path`` and check its policy and the violations its loading reported.

    goto waits for the load event: every style, script, image and font the page names is
    in by then. Only a page whose script ``fetches`` more as it starts (the API docs read
    the schema) is also given until the network is quiet (half a second of silence, which
    the other pages would only spend waiting).
    """
    response = page.goto(path)
    assert response.ok, f"{path}: {response.status}"
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "style-src 'self'" in policy, f"{path}: {policy!r}"
    if fetches:
        page.wait_for_load_state("networkidle")
    assert page.csp_violations == [], f"{path}: {page.csp_violations}"
    assert page.js_errors == [], f"{path}: {page.js_errors}"


def test_no_main_page_violates_the_content_security_policy(new_page, monkeypatch) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1)]))
    now = timezone.now()
    challenge = challenge_services.challenge_create(
        challenger=alice, opponent=bob, now=now, length=3
    )
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=bob, now=now)
    game = match.current_game
    assert game is not None
    mover = match.player(game.turn_color)

    anonymous = new_page()
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/admin/login/", "/stats/"):
        visit(anonymous, path)
    visit(anonymous, "/api/docs/", fetches=True)
    # Swagger UI has run (its bundle, start-up script and the schema all loaded).
    anonymous.locator(".swagger-ui .info .title").wait_for()
    assert "Backgammon API" in anonymous.locator(".swagger-ui .info .title").inner_text()
    # Redoc has run, styled (its <style> elements carry the nonce), search and all.
    anonymous.goto("/api/redoc/")
    anonymous.get_by_role("heading", name="Backgammon API").wait_for()
    anonymous.get_by_placeholder("Search...").fill("challenge")
    anonymous.locator("[data-role='search:results'] li").first.wait_for()
    anonymous.wait_for_load_state("networkidle")
    # Only the footer's logo, which Redoc fetches from its CDN, is refused, on purpose.
    assert all("cdn.redoc.ly" in v for v in anonymous.csp_violations), anonymous.csp_violations
    anonymous.csp_violations.clear()
    assert anonymous.js_errors == []

    # The signed-in pages are walked in three languages by test_phone_width.py, under the
    # same fixture, which fails on any violation; here the game and match pages.
    page = new_page(user=mover)
    for path in (f"/games/{game.pk}/", f"/matches/{match.pk}/"):
        visit(page, path)
    root = User.objects.create_superuser("root", "root@example.com", "pw")
    admin = new_page(user=root)
    for path in (
        "/admin/",
        "/admin/accounts/user/",
        f"/admin/accounts/user/{mover.pk}/change/",
        f"/admin/matches/match/{match.pk}/change/",
        f"/admin/matches/game/{game.pk}/change/",
    ):
        visit(admin, path)

    # The game page's script ran: the board is interactive.
    page.goto(f"/games/{game.pk}/")
    page.locator(".board-figure.ready").wait_for()
    assert page.csp_violations == []


def test_a_violation_would_be_caught(new_page, live_server) -> None:
    """The listener itself: a page with an inline script under the same policy is reported."""
    page = new_page()
    header = "script-src 'self'"
    page.route(
        f"{live_server.url}/inline-test/",
        lambda route: route.fulfill(
            status=200,
            headers={"Content-Type": "text/html", "Content-Security-Policy": header},
            body="<!DOCTYPE html><p>x</p><script>document.title = 'ran';</script>",
        ),
    )
    with page.expect_console_message(lambda message: "csp-violation:" in message.text):
        page.goto("/inline-test/")
    assert page.title() != "ran"
    assert any("script-src" in v for v in page.csp_violations), page.csp_violations
    page.csp_violations.clear()  # seen; the fixture must not fail this test for it


def relative_luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# The text colour of an element and the first opaque background behind it, as [r, g, b].
COLOURS = """(el) => {
  const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
  const color = rgb(getComputedStyle(el).color).slice(0, 3);
  for (let node = el; node; node = node.parentElement) {
    const bg = rgb(getComputedStyle(node).backgroundColor);
    if (bg.length < 4 || bg[3] > 0) return [color, bg.slice(0, 3)];
  }
  return [color, [255, 255, 255]];
}"""


def test_the_mark_as_read_buttons_are_readable(new_page) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    challenge_services.challenge_create(
        challenger=bob, opponent=alice, now=timezone.now(), length=3
    )
    assert Notification.objects.filter(recipient=alice, read_at=None).exists()
    page = new_page(user=alice)
    page.goto("/notifications/")
    button = page.locator("ul.notifications button", has_text="Mark as read").first
    assert button.is_visible()
    color, background = button.evaluate(COLOURS)
    ratio = contrast(tuple(color), tuple(background))
    assert ratio >= 4.5, f"text {color} on {background}: contrast {ratio:.2f} (WCAG AA is 4.5)"
