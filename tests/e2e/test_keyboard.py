"""Playing by keyboard (issue 26): a turn took 17 to 35 keys (14 Tabs to Roll, 14 more to
the first checker), and the focus fell to the top of the page when a move emptied a point.

The board is one tab stop; the arrow keys move among the checkers that can move; Enter
plays the next die; ``r`` rolls, ``c`` confirms, ``u`` undoes, ``b`` goes to the board,
and none of them fires while typing. The page lists the keys, and the focus comes back to
the board after each page load of a keyboard player.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from gammon import Color, FixedDice, Position
from matches import turns
from matches.models import Game, GameEvent
from tests import records
from tests.factories import UserFactory

from .helpers import game_url, shoot
from .test_play import start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_THE_BOARD = "document.activeElement && document.activeElement.closest('svg.board') !== null"
FOCUSED = "document.activeElement.id || document.activeElement.tagName"


class Keys:
    """The keyboard, counting every key pressed."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def press(self, key: str, *, navigates: bool = False) -> None:
        self.count += 1
        if navigates:
            with self.page.expect_navigation():
                self.page.keyboard.press(key)
        else:
            self.page.keyboard.press(key)


def waiting_to_roll(monkeypatch: pytest.MonkeyPatch) -> tuple[Game, User]:
    """A 3-point match whose second player must roll (or double) now, with 5-2 to come."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_match(alice, bob, monkeypatch, FixedDice([(3, 1), (5, 2)]), length=3)
    mover = game.match.player(game.turn_color)
    turns.game_play_move(
        game_id=game.pk, player=mover, play_text="8/5 6/5", expected_ply=game.ply,
        now=timezone.now(),
    )  # fmt: skip
    game.refresh_from_db()
    return game, game.match.player(game.turn_color)


def test_a_whole_turn_takes_three_keys(new_page, monkeypatch) -> None:
    """r rolls; the page that follows has its focus on the board, on its farthest back
    checker; Enter plays a die there and Enter the other, and the play is sent."""
    game, roller = waiting_to_roll(monkeypatch)
    page = new_page(user=roller, width=1280)
    page.goto(game_url(game))
    assert page.locator("#keyboard-help").is_visible()
    assert "r" in page.locator("#keyboard-help kbd").all_inner_texts()
    keys = Keys(page)
    keys.press("r", navigates=True)
    assert page.evaluate(IN_THE_BOARD), page.evaluate(FOCUSED)
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith("Point 24, your checkers: 2"), label
    keys.press("Enter")
    assert page.evaluate(IN_THE_BOARD), page.evaluate(FOCUSED)  # the focus stays
    keys.press("Enter", navigates=True)
    played = game.events.filter(color=int(game.match.color_of(roller)), kind=GameEvent.Kind.MOVE)
    assert played.count() == 1
    # The 5 cannot leave the 24 point (White's 6 point holds it): the first Enter plays the
    # 2 there, and the focus goes back to the farthest checker that can move the 5.
    assert sorted(played.get().notation.split()) == ["13/8", "24/22"]
    assert keys.count == 3, keys.count


def test_the_arrows_choose_a_checker_and_emptying_a_point_keeps_the_focus(
    new_page, monkeypatch
) -> None:
    """A bear-off: 4/1 empties the 4 point; the focus moves to the 2, not to the top of
    the page. The confirmation takes the focus, and c confirms."""
    game, mover, _ = two_players_confirming(monkeypatch)
    home, far = {4: 1, 2: 2}, {12: 15}  # each side's own numbering
    sides = (home, far) if game.turn_color == Color.WHITE else (far, home)
    position = Position.from_sides(*sides)
    stored = {"points": list(position.points), "bar": list(position.bar), "off": list(position.off)}
    records.game_made_by_hand(game.pk)
    Game.objects.filter(pk=game.pk).update(board=stored)  # a test position (setup only)
    page = new_page(user=mover, width=390)
    page.goto(game_url(game))
    keys = Keys(page)
    keys.press("b")
    assert page.evaluate(FOCUSED) == "target-4"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')").startswith(
        "Point 4, your checkers: 1"
    )
    keys.press("ArrowRight")
    assert page.evaluate(FOCUSED) == "target-2"
    keys.press("ArrowLeft")
    assert page.evaluate(FOCUSED) == "target-4"
    keys.press("Enter")  # 4/1: the 4 point is empty now
    assert page.locator("svg.board g.stack[data-point='4']").count() == 0
    assert page.evaluate(FOCUSED) == "target-2"
    shoot(page, "keyboard-half")
    keys.press("Enter")  # 2/1: the play is complete, and asked
    assert page.evaluate(FOCUSED) == "move-confirm-yes"
    keys.press("u")  # undo the last checker: back on the board
    assert page.evaluate(IN_THE_BOARD)
    keys.press("Enter")
    keys.press("c", navigates=True)
    game.refresh_from_db()
    assert game.events.filter(notation="4/1 2/1").exists()
    assert keys.count == 8  # b, → ←, Enter, Enter, u, Enter, c


def two_players_confirming(monkeypatch: pytest.MonkeyPatch) -> tuple[Game, User, User]:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_match(alice, bob, monkeypatch, FixedDice([(3, 1)]), length=3)
    mover = game.match.player(game.turn_color)
    mover.confirm_moves = True
    mover.save()
    return game, mover, game.match.player(game.turn_color.other)


def test_the_board_is_one_tab_stop(new_page, monkeypatch) -> None:
    game, mover, _ = two_players_confirming(monkeypatch)
    page = new_page(user=mover, width=1280)
    page.goto(game_url(game))
    stops = page.evaluate("[...document.querySelectorAll('svg.board [tabindex=\"0\"]')].length")
    assert stops == 1
    page.keyboard.press("b")
    first = page.evaluate(FOCUSED)
    page.keyboard.press("Tab")
    assert not page.evaluate(IN_THE_BOARD), "Tab stayed inside the board"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED) == first


def test_the_keys_do_not_fire_while_typing_in_the_chat(new_page, monkeypatch) -> None:
    game, roller = waiting_to_roll(monkeypatch)
    page = new_page(user=roller, width=1280)
    page.goto(game_url(game))
    page.locator("#id_message_text").focus()
    page.keyboard.type("rub")
    assert page.locator("#id_message_text").input_value() == "rub"
    game.refresh_from_db()
    assert game.state == Game.State.ROLLING and page.url.endswith(game_url(game))
    page.locator("h1").click()  # out of the box: now r rolls
    with page.expect_navigation():
        page.keyboard.press("r")
    game.refresh_from_db()
    assert game.state == Game.State.MOVING
