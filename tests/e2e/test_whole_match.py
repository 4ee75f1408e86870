"""Whole matches in a real browser (issue 14's tests): both players through their own
pages, one on a desktop moving by drag and drop, the other on a phone tapping checkers
and dragging them with a finger, some turns typed in the notation box; the cube's
double, take, redouble and drop and a resignation through the page's buttons and
dialogs; and a waiting page that follows the opponent by itself (its 20 s poll, driven
by Playwright's clock: the test never reloads).

The live server runs in this process, so the dice are scripted or seeded through
``matches.record.dice``. Key states are saved at 1280 and 390 px wide
(``test-output/e2e/state-*.png``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from accounts.models import User
from gammon import Color, FixedDice, SeededDice
from matches import record
from matches.models import Game, Match
from tests.factories import UserFactory

from .helpers import click_a_move, game_url, shoot
from .test_play import start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_TURNS = 80  # a Hypergammon game takes about 20 to 30; more means the loop is stuck


def drag_a_move(page: Any) -> None:
    """Drag movable checkers, each onto the first point the page lights up for it, until
    the play is complete; the player confirms moves, so the page asks and the test sends.

    A drag lights its legal destinations (``.dest``) once the pointer has moved; a drop
    renders at once, so after ``mouse.up`` the page shows either the next checker to move
    or the confirmation.
    """
    for _ in range(8):
        if page.locator("#move-confirm").is_visible():
            break
        source = page.locator("svg.board .target.movable").first
        box = source.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 12, y + 12, steps=2)  # past the 8 px that starts a drag
        dest = page.locator("svg.board .target.dest").first
        to = dest.bounding_box()
        page.mouse.move(to["x"] + to["width"] / 2, to["y"] + to["height"] / 2, steps=3)
        page.mouse.up()
    else:
        raise AssertionError("the dragged play never became complete")
    with page.expect_navigation():
        page.locator("#move-confirm-yes").click()


def touch_drag_a_move(page: Any) -> None:
    """Drag checkers with a finger, as a phone's touch screen sends it (Chromium's touch
    events through the DevTools protocol; the page sees touch pointer events), each onto
    the first point the page lights up for it, until the page sends the play.

    The player does not confirm moves, so the drop that completes the play sends it: the
    page marks its board ``data-sending`` at once, then leaves.
    """
    touch = page.context.new_cdp_session(page)

    def finger(kind: str, x: float | None = None, y: float | None = None) -> None:
        points = [] if x is None else [{"x": x, "y": y}]
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    for _ in range(8):
        source = page.locator("svg.board .target.movable").first
        box = source.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        finger("touchStart", x, y)
        for step in (4, 8, 12):  # past the 8 px that starts a drag
            finger("touchMove", x + step, y + step)
        to = page.locator("svg.board .target.dest").first.bounding_box()
        tx, ty = to["x"] + to["width"] / 2, to["y"] + to["height"] / 2
        finger("touchMove", (x + tx) / 2, (y + ty) / 2)
        finger("touchMove", tx, ty)
        page.evaluate("window.stillHere = true")
        finger("touchEnd")
        # The drop either rendered the next checker to move, or marked the board as
        # sending the play; then wait until the page has left (its window is new).
        page.wait_for_function(
            "() => window.stillHere !== true"
            " || !document.querySelector('.board-figure[data-sending=\"true\"]')"
        )
        if not page.evaluate("window.stillHere === true"):
            page.wait_for_load_state()
            return
    raise AssertionError("the touch-dragged play never became complete")


def type_a_move(page: Any) -> None:
    """Type the first legal play the page lists into the notation box and Submit it."""
    play = page.locator("#legal-plays option").first.get_attribute("value")
    page.locator("#id_play").fill(play)
    assert page.locator("#move-status").inner_text() == f"{play} is legal: Submit it."
    with page.expect_navigation():
        page.locator("#move-submit").click()


def follow_until(page: Any, game: Game) -> None:
    """Let the open page catch up with ``game`` by its own poll (the WSGI live server
    refuses its socket): jump the page's clock past the 20 s tick, and wait until it has
    brought itself up to the current ply, in place."""
    from playwright.sync_api import expect

    live = page.locator("#live-game")
    if game.is_finished:
        page.clock.fast_forward("00:21")
        expect(page.locator("#banner")).to_contain_text(re.compile(r"\b(won|lost)\b"))
        return
    if live.get_attribute("data-ply") != str(game.ply):
        page.clock.fast_forward("00:21")
    expect(live).to_have_attribute("data-ply", str(game.ply))


def test_a_whole_hypergammon_match_dragged_on_a_desktop_and_by_touch_on_a_phone(
    new_page, monkeypatch
) -> None:
    alice = UserFactory(username="alice", confirm_moves=True)  # drags, on a desktop
    bob = UserFactory(username="bob")  # taps, on a phone
    game = start_match(alice, bob, monkeypatch, SeededDice(132), length=1, variant="hypergammon")
    match = game.match
    pages = {
        alice.pk: new_page(user=alice, width=1280),
        bob.pk: new_page(user=bob, width=390, touch=True),
    }
    for page in pages.values():
        page.clock.install()
        page.goto(game_url(game))  # the only navigation the test makes: the pages follow
    phone = pages[bob.pk]
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    moved = {alice.pk: 0, bob.pk: 0}
    reloads = 0
    for turn in range(MAX_TURNS):
        game.refresh_from_db()
        if game.is_finished:
            break
        mover: User = match.player(game.turn_color)
        page = pages[mover.pk]
        page.evaluate("window.stillHere = true")  # gone if the page reloads itself
        follow_until(page, game)
        reloads += not page.evaluate("window.stillHere === true")
        assert page.locator("#banner").inner_text().startswith("Your move: you rolled"), turn
        if turn == 0:
            shoot(page, "whole-match-first-move")
        ply = game.ply
        if moved[mover.pk] % 3 == 2:
            type_a_move(page)
        elif mover.pk == alice.pk:
            drag_a_move(page)
        elif moved[mover.pk] % 3 == 1:
            touch_drag_a_move(page)
        else:
            click_a_move(page, tap=True)
        moved[mover.pk] += 1
        game.refresh_from_db()
        assert game.ply > ply, f"turn {turn}: the move was not recorded"
    else:
        pytest.fail(f"the match did not end in {MAX_TURNS} turns")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert min(moved.values()) >= 3, moved  # each player dragged (or tapped), and typed
    assert reloads == 0, "a waiting page reloaded instead of following the game in place"
    winner = match.player(Color(game.winner))
    for page in pages.values():
        follow_until(page, game)  # the loser's page learns of the end by itself too
        banner = page.locator("#banner").inner_text()
        verb = "won" if pages[winner.pk] is page else "lost"
        assert re.fullmatch(rf"You {verb} the match \d+–\d+", banner), banner
        result = page.locator("#game-result").inner_text()
        assert result.startswith(f"You {verb} {game.points} point"), result
        assert not page.locator("#move-panel").is_visible()
        assert not page.locator("#live-game").count()  # a finished game stops polling
        assert not page.locator("#away-score").count()  # no "-2-away" after a backgammon
    shoot(phone, "whole-match-finished")
    with phone.expect_navigation():
        phone.locator(".game-meta a").first.click()  # the match page says how it ended
    facts = phone.locator("dl.facts").inner_text()
    assert f"{winner.public_name} won" in facts and match.get_result_display() not in facts


def answer(page: Any, button: str, says: str) -> None:
    """Press a cube or resign button, check the dialog's text, and confirm it."""
    page.locator("form button", has_text=button).click()
    dialog = page.locator("#confirm-dialog")
    assert dialog.is_visible()
    assert says in dialog.inner_text(), dialog.inner_text()
    with page.expect_navigation():
        page.locator("#confirm-dialog-yes").click()


def test_double_take_redouble_drop_then_a_resignation_at_its_cost(new_page, monkeypatch) -> None:
    # White opens with 3-1; Black doubles, White takes, Black rolls 5-2; White redoubles,
    # Black drops; game 2 opens with White's 4 against Black's 2.
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    dice = FixedDice([(3, 1), (5, 2), (4, 2)])
    game = start_match(
        alice, bob, monkeypatch, dice, length=5, variant="hypergammon", resignation="immediate"
    )
    match = game.match
    white, black = new_page(user=match.white, width=1280), new_page(user=match.black, width=390)
    white.goto(game_url(game))
    click_a_move(white)

    black.goto(game_url(game))
    assert black.locator("#banner").inner_text() == "Your turn: roll or double"
    with black.expect_navigation():
        black.locator("form button", has_text="Double to 2").click()
    assert black.locator("#banner").inner_text().startswith("Waiting for")

    white.goto(game_url(game))
    assert white.locator("#banner").inner_text().endswith("doubled to 2: take or drop?")
    shoot(white, "whole-match-double")
    answer(white, "Take", "The cube goes to 2.")
    game.refresh_from_db()
    assert (game.cube_value, game.cube_owner) == (2, int(Color.WHITE))

    black.goto(game_url(game))
    assert black.locator("#banner").inner_text() == "Your move: you rolled 5-2"
    click_a_move(black)

    white.goto(game_url(game))
    assert white.locator("#banner").inner_text() == "Your turn: roll or double"
    with white.expect_navigation():
        white.locator("form button", has_text="Double to 4").click()
    black.goto(game_url(game))
    assert black.locator("svg.board g.cube").get_attribute("data-value") == "4"
    shoot(black, "whole-match-redouble")
    answer(black, "Drop", "You lose this game and 2 points.")
    game.refresh_from_db()
    match.refresh_from_db()
    assert game.is_finished and (game.winner, game.points) == (int(Color.WHITE), 2)
    assert (match.score_white, match.score_black) == (2, 0)
    assert black.locator("#banner").inner_text() == "You lost 2 points (Double dropped)."

    # Game 2, reached through the finished game's link: Black resigns it.
    with black.expect_navigation():
        black.locator("a", has_text="Go to the next game of the match").click()
    second = match.games.get(number=2)
    assert black.url.endswith(game_url(second))
    monkeypatch.setattr(record, "dice", SeededDice(5))  # game 3's opening roll
    black.locator("summary", has_text="Resign or offer a draw").click()
    black.locator("#resign-form button").click()
    text = black.locator("#confirm-dialog").inner_text()
    cost = int(re.search(r"You lose this game and (\d+) points?", text).group(1))
    shoot(black, "whole-match-resign-dialog")
    with black.expect_navigation():
        black.locator("#confirm-dialog-yes").click()
    second.refresh_from_db()
    match.refresh_from_db()
    assert second.is_finished and second.winner == int(Color.WHITE)
    assert second.points == cost == 2  # a gammon: nothing borne off, the cube at 1
    assert (match.score_white, match.score_black) == (2 + cost, 0)
    assert f"You lost {cost} points" in black.locator("#banner").inner_text()
    shoot(black, "whole-match-resigned")
