"""Steps the browser tests share: playing a turn by clicking, as a person would."""

from __future__ import annotations

from typing import Any

from matches.models import Game

from .conftest import OUTPUT


def game_url(game: Game) -> str:
    return f"/games/{game.pk}/"


def shoot(page: Any, state: str) -> None:
    """Save the page as it is now at desktop and phone widths, then restore its size."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(OUTPUT / f"state-{state}-{width}.png"), full_page=True)
    page.set_viewport_size(size)


def click_a_move(page: Any, *, tap: bool = False) -> int:
    """Click movable checkers, each playing the next die, until the play is sent; the
    number of clicks it took (a confirmation counts as one).

    Without the confirm preference the page sends the play at the last die: the click on
    a checker marked ``data-completes`` is the one that leaves the page. With it, the
    page asks first and the test confirms. With ``tap`` the checkers are tapped (a touch
    screen's page).
    """
    for clicks in range(1, 9):
        checker = page.locator("svg.board .target.movable").first
        if not checker.count():
            break
        if checker.get_attribute("data-completes") == "true":
            if page.locator("#move-confirm").count() and page_confirms(page):
                checker.tap() if tap else checker.click()
                with page.expect_navigation():
                    page.locator("#move-confirm-yes").click()
                return clicks + 1
            with page.expect_navigation():
                checker.tap() if tap else checker.click()
            return clicks
        checker.tap() if tap else checker.click()
    raise AssertionError("the play never became complete")


def page_confirms(page: Any) -> bool:
    import json

    return bool(json.loads(page.locator("#board-data").text_content())["confirm"])


def take_turn(page: Any, game: Game) -> None:
    """Do what the page offers the player: roll, or move by clicking (sent at the last die)."""
    page.goto(game_url(game))
    roll = page.locator("form button", has_text="Roll")
    if roll.count():
        roll.first.click()
        page.wait_for_load_state()
    if page.locator("#move-panel").is_visible():
        click_a_move(page)


def running_knockout(field: list[Any], *, name: str = "Winter knock-out cup") -> Any:
    """A 1-point knock-out of ``field`` (four players), started: its bracket is drawn."""
    from datetime import timedelta

    from django.utils import timezone

    from tests.tournaments.helpers import moderator
    from tournaments import advance, creation, registration

    now = timezone.now()
    cup = creation.tournament_create(
        creator=moderator(),
        now=now,
        name=name,
        format="knockout",
        length=1,
        min_players=2,
        starts_at=now + timedelta(minutes=5),
        description="Four players, one point a match.",
    )
    for user in field:
        registration.tournament_register(tournament_id=cup.pk, user=user, now=now)
    advance.tournaments_start_due(now=cup.starts_at)
    return cup
