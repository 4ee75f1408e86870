"""The game page of issue 14 in a real browser: the turn banner, the cube on offer, the
resignation's confirmation, moving by one click, dragging and typing, and live updates.

Each state is also saved at 1280 px and 390 px wide (``test-output/e2e/state-*.png``) for
a reviewer to look at.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from gammon import FixedDice, SeededDice
from matches import record, turns
from matches.models import Game
from tests import records
from tests.factories import UserFactory

from .helpers import game_url, shoot
from .test_play import start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def two_players(
    monkeypatch: pytest.MonkeyPatch, dice: Any, **options: Any
) -> tuple[Game, User, User]:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_match(alice, bob, monkeypatch, dice, **options)
    mover = game.match.player(game.turn_color)
    return game, mover, game.match.player(game.turn_color.other)


def test_the_banner_and_resigning_with_the_dialog(new_page, monkeypatch) -> None:
    """A match resigned at once (the option ``resignation: immediate``); offers to
    resign are ``test_resign_offers.py``'s."""
    game, mover, waiter = two_players(
        monkeypatch, FixedDice([(3, 1)]), length=3, resignation="immediate"
    )
    page = new_page(user=mover)
    page.goto(game_url(game))
    assert page.locator("#banner").inner_text() == "Your move: you rolled 3-1"
    assert not page.locator("form.swap-dice").is_visible()  # with JS the dice swap themselves
    chip = page.locator("#dice-swap .die-chip.next")
    assert chip.inner_text() == "3"
    assert chip.evaluate("el => getComputedStyle(el).color") != "rgb(255, 255, 255)"
    shoot(page, "move")
    watching = new_page(user=waiter)
    watching.goto(game_url(game))
    assert (
        watching.locator("#banner")
        .inner_text()
        .startswith(f"Waiting for {mover.public_name} to move")
    )
    assert not watching.locator("text=Swap the dice").count()
    shoot(watching, "waiting")
    spectator = new_page(user=UserFactory(username="carol"))
    spectator.goto(game_url(game))
    assert spectator.locator("#banner").inner_text().endswith("to move, with 3-1")
    assert not spectator.locator("#move-panel").is_visible()
    shoot(spectator, "spectator")

    monkeypatch.setattr(record, "dice", SeededDice(5))  # the next game's opening roll
    page.locator("summary", has_text="Resign or offer a draw").click()
    page.locator("#resign-form button").click()
    dialog = page.locator("#confirm-dialog")
    assert dialog.is_visible()
    assert "You lose this game and 2 points; the match goes on." in dialog.inner_text()
    shoot(page, "resign-dialog")
    page.locator("#confirm-dialog-no").click()
    game.refresh_from_db()
    assert not game.is_finished
    page.locator("#resign-form button").click()
    with page.expect_navigation():
        page.locator("#confirm-dialog-yes").click()
    game.refresh_from_db()
    assert game.is_finished and game.points == 2
    assert page.locator("#banner").inner_text() == "You lost 2 points (Resignation)."
    shoot(page, "finished")


def test_a_double_on_offer_shows_on_the_doublers_side(new_page, monkeypatch) -> None:
    game, mover, doubler = two_players(monkeypatch, FixedDice([(3, 1)]), length=3)
    now = timezone.now()
    turns.game_play_move(
        game_id=game.pk, player=mover, play_text="8/5 6/5", expected_ply=game.ply, now=now
    )
    game.refresh_from_db()
    turns.game_double(game_id=game.pk, player=doubler, expected_ply=game.ply, now=now)
    page = new_page(user=mover)
    page.goto(game_url(game))
    assert (
        page.locator("#banner").inner_text() == f"{doubler.public_name} doubled to 2: take or drop?"
    )
    cube = page.locator("svg.board g.cube")
    assert cube.get_attribute("data-value") == "2"
    assert cube.get_attribute("data-offered-by") in ("white", "black")
    shoot(page, "double-offered")


def test_one_click_moves_play_the_higher_die_first_and_the_dice_swap(new_page, monkeypatch) -> None:
    game, mover, _ = two_players(monkeypatch, FixedDice([(3, 1)]), length=3)
    page = new_page(user=mover)
    page.goto(game_url(game))
    page.locator("#target-13").click()  # the 3 first: 13/10
    assert page.locator("#id_play").input_value() == "13/10"
    shoot(page, "one-click-half")
    page.locator("#move-undo").click()
    assert page.locator("#id_play").input_value() == ""
    page.locator("#dice-swap").click()  # now the 1 first
    page.locator("#target-24").click()
    assert page.locator("#id_play").input_value() == "24/23"
    assert page.locator("#target-13").get_attribute("data-completes") == "true"
    with page.expect_navigation():
        page.locator("#target-13").click()  # the last die: sent at once
    game.refresh_from_db()
    assert game.events.filter(notation="24/23 13/10").exists()


def test_drag_and_drop_with_the_confirmation_and_undo(new_page, monkeypatch) -> None:
    game, mover, _ = two_players(monkeypatch, FixedDice([(3, 1)]), length=3)
    mover.confirm_moves = True
    mover.save()
    page = new_page(user=mover)
    page.goto(game_url(game))
    page.locator("#target-8").drag_to(page.locator("#target-4"))  # one checker, both dice
    assert page.locator("#move-confirm").is_visible()
    assert not page.locator("#move-undo").is_visible()  # the confirmation has its own Undo
    assert page.locator("svg.board g.stack[data-point='4']").get_attribute("data-count") == "1"
    shoot(page, "confirm-move")
    page.locator("#move-confirm-no").click()  # undo steps back the dragged checker
    assert not page.locator("svg.board g.stack[data-point='4']").count()
    assert page.locator("#id_play").input_value() == ""
    page.locator("#target-6").drag_to(page.locator("#target-5"))
    page.locator("#target-8").drag_to(page.locator("#target-5"))
    assert "8/5 6/5" in page.locator("#move-confirm-text").inner_text()
    with page.expect_navigation():
        page.locator("#move-confirm-yes").click()
    game.refresh_from_db()
    assert game.events.filter(notation="8/5 6/5").exists()


def test_typing_a_move_moves_the_board_and_one_submit_sends_it(new_page, monkeypatch) -> None:
    game, mover, _ = two_players(monkeypatch, FixedDice([(3, 1)]), length=3)
    page = new_page(user=mover)
    page.goto(game_url(game))
    assert page.locator("button[type=submit]", has_text="Send the move").count() == 0
    assert page.locator("#move-submit").count() == 1
    page.locator("#id_play").fill("24/23  13/10")
    assert page.locator("svg.board g.stack[data-point='23']").get_attribute("data-count") == "1"
    assert page.locator("svg.board g.stack[data-point='10']").get_attribute("data-count") == "1"
    with page.expect_navigation():
        page.locator("#move-submit").click()
    game.refresh_from_db()
    assert game.events.filter(notation="24/23 13/10").exists()


def test_a_page_left_open_follows_the_opponents_move(new_page, monkeypatch) -> None:
    from playwright.sync_api import expect

    game, mover, waiter = two_players(monkeypatch, FixedDice([(3, 1), (5, 2)]), length=3)
    page = new_page(user=waiter)
    page.clock.install()
    page.goto(game_url(game))
    assert page.locator("#banner").inner_text().startswith("Waiting for")
    page.clock.fast_forward("00:21")  # a poll with nothing new: the page stays
    # Its answer counted means the next poll is scheduled, so the clock can move on.
    expect(page.locator("#live-game")).to_have_attribute("data-polls", "1")
    turns.game_play_move(
        game_id=game.pk, player=mover, play_text="8/5 6/5", expected_ply=game.ply,
        now=timezone.now(),
    )  # fmt: skip
    page.clock.fast_forward("00:21")
    expect(page.locator("#banner")).to_have_text(re.compile(r"^Your turn: roll"))
    shoot(page, "roll-or-double")


def test_the_last_move_is_drawn_and_the_arrow_keys_step_through_the_record(
    new_page, monkeypatch
) -> None:
    game, mover, waiter = two_players(monkeypatch, FixedDice([(3, 1), (5, 2)]), length=3)
    turns.game_play_move(
        game_id=game.pk, player=mover, play_text="8/5 6/5", expected_ply=game.ply,
        now=timezone.now(),
    )  # fmt: skip
    game.refresh_from_db()
    page = new_page(user=waiter)
    page.goto(game_url(game))
    assert page.locator("svg.board .last-move-arrow").count() == 2
    assert page.locator("svg.board .last-move-ghost").count() == 2
    shoot(page, "last-move")
    with page.expect_navigation():
        page.keyboard.press("ArrowLeft")
    assert "ply=" in page.url
    assert page.locator(".message.history").is_visible()
    with page.expect_navigation():
        page.keyboard.press("ArrowRight")
    assert "ply=" not in page.url
    assert page.locator("#record th", has_text=waiter.public_name).count() == 1


def test_a_double_click_bears_a_checker_off_with_both_dice(new_page, monkeypatch) -> None:
    from gammon import Color, Position

    game, mover, _ = two_players(monkeypatch, FixedDice([(3, 1)]), length=3)
    home, far = {4: 1, 2: 2}, {12: 15}  # each side's own numbering; 12 is the mover's 13
    sides = (home, far) if game.turn_color == Color.WHITE else (far, home)
    position = Position.from_sides(*sides)
    stored = {"points": list(position.points), "bar": list(position.bar), "off": list(position.off)}
    records.game_made_by_hand(game.pk)
    Game.objects.filter(pk=game.pk).update(board=stored)  # a test position (setup only)
    page = new_page(user=mover)
    page.goto(game_url(game))
    with page.expect_navigation():
        page.locator("#target-4").dblclick()
    game.refresh_from_db()
    assert game.position().checkers_of(game.match.color_of(mover)) == {2: 2}


def test_a_move_by_tapping_on_a_phone_in_catalan(new_page, monkeypatch) -> None:
    game, mover, _ = two_players(monkeypatch, FixedDice([(3, 1)]), length=3)
    mover.language = "ca"
    mover.save()
    page = new_page(user=mover, width=390, locale="ca", touch=True)
    page.goto(game_url(game))
    assert page.locator("#banner").inner_text() == "Et toca moure: has tret 3-1"
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone"
    page.locator("#target-8").tap()
    assert page.locator("#id_play").input_value() == "8/5"
    with page.expect_navigation():
        page.locator("#target-6").tap()
    game.refresh_from_db()
    assert game.events.filter(notation="8/5 6/5").exists()


@pytest.mark.parametrize(
    ("width", "height", "at_least", "at_most"),
    [(1440, 900, 800, 960), (1280, 720, 600, 960), (390, 844, 300, 390)],
)
def test_the_board_takes_the_room_a_screen_offers(
    new_page, monkeypatch, width: int, height: int, at_least: int, at_most: int
) -> None:
    """A desktop's board grows past the old 44rem (704 px) cap, up to 60rem and no
    taller than the window leaves room for; a phone's fills its width without scrolling."""
    game, mover, _ = two_players(monkeypatch, FixedDice([(3, 1)]), length=3)
    page = new_page(user=mover, width=width)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(game_url(game))
    box = page.locator("svg.board").bounding_box()
    assert at_least <= box["width"] <= at_most, box
    assert box["y"] + box["height"] <= height, box  # in view (test_layout.py: all of it)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
