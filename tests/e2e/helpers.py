"""Steps the browser tests share: playing a turn by clicking, as a person would."""

from __future__ import annotations

from typing import Any

from matches.models import Game


def game_url(game: Game) -> str:
    return f"/games/{game.pk}/"


def click_a_move(page: Any) -> str:
    """Click checkers and destinations until the play is complete; return its notation.

    Picks the first checker that can move and its first destination, step by step.
    """
    for _ in range(8):
        if page.locator("#move-submit").is_enabled():
            break
        page.locator("svg.board .target.movable").first.click()
        page.locator("svg.board .target.dest").first.click()
    assert page.locator("#move-submit").is_enabled(), "the play never became complete"
    return page.locator("#move-status").inner_text()


def take_turn(page: Any, game: Game) -> None:
    """Do what the page offers the player: roll, or move by clicking and submit."""
    page.goto(game_url(game))
    roll = page.locator("form button", has_text="Roll")
    if roll.count():
        roll.first.click()
        page.wait_for_load_state()
    if page.locator("#move-panel").is_visible():
        click_a_move(page)
        with page.expect_navigation():
            page.locator("#move-submit").click()
