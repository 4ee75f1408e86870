"""A chouette on the website with three players (issue 16): ann creates it on the form,
bob and cy join on its page, ann starts it; game 1 is played on the game pages to its
end: bob, the captain, moves by clicking, ann (the box) rolls and types her move, bob
proposes the team's double, cy agrees on his own page, ann takes it, and bob bears off
by typing. The session page then shows the points and the places rotated.

The places come from the joining order (ann in the box, bob captain, cy next) and the
dice are scripted; the board is put near its end through the ORM after the start, as
tests/chouettes/helpers.py's ``set_board`` does, to keep the test short.
"""

from __future__ import annotations

from typing import Any

import pytest

from chouettes.models import Chouette
from gammon import FixedDice
from matches import record
from matches.models import Game
from tests import records
from tests.chouettes.helpers import board_of
from tests.factories import UserFactory

from .helpers import click_a_move, game_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def press(page: Any, selector: str) -> None:
    """Click a button that posts a form, and wait for the page it leads to."""
    with page.expect_navigation():
        page.locator(selector).click()


def type_the_move(page: Any) -> None:
    play = page.locator("#legal-plays option").first.get_attribute("value")
    page.locator("#id_play").fill(play)
    press(page, "#move-submit")


def test_three_players_set_up_and_play_a_chouette_game_on_the_website(
    new_page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    ann, bob, cy = (UserFactory(username=name) for name in ("ann", "bob", "cy"))
    # The board's opening (ann 1, bob 3: the captain moves first with 3-1), ann's 2-1,
    # bob's 6-6 after the take, and game 2's opening.
    monkeypatch.setattr(record, "dice", FixedDice([1, 3, (2, 1), (6, 6), 4, 2]))
    pages = {user.username: new_page(user=user) for user in (ann, bob, cy)}

    box = pages["ann"]
    box.goto("/chouettes/new")
    box.locator("#id_max_players").select_option("3")
    box.locator("input[name=places_from_dice][value=order]").check()
    press(box, "#chouette-form button[type=submit]")
    chouette = Chouette.objects.get()
    session = f"/chouettes/{chouette.pk}/"
    assert box.url.endswith(session)

    for name in ("bob", "cy"):
        pages[name].goto(session)
        press(pages[name], "#chouette-join")
        expect(pages[name].locator(f"#line-{name}")).to_be_visible()
    press(box, "#chouette-start")  # ann's page is still the one the form led to
    expect(box.locator("#line-ann")).to_contain_text("In the box")
    expect(box.locator("#line-bob")).to_contain_text("Captain")

    board = Game.objects.get(match__chouette_game__chouette=chouette)
    # Near the end: the team (Black) has two checkers on its 6 point, the box five on its 1.
    records.game_made_by_hand(board.pk)
    Game.objects.filter(pk=board.pk).update(board=board_of(white={1: 5}, black={6: 2}))

    captain, member = pages["bob"], pages["cy"]
    captain.goto(game_url(board))
    assert not captain.locator("button", has_text="Double to").count()
    click_a_move(captain)  # bob's 3-1, by clicking checkers

    box.goto(game_url(board))
    press(box, "form button:has-text('Roll')")
    type_the_move(box)  # ann's 2-1, typed

    captain.goto(game_url(board))
    press(captain, "#chouette-propose")
    expect(captain.locator("#chouette-awaited")).to_contain_text("Cy to vote on the team's double")
    member.goto(game_url(board))
    press(member, "#chouette-vote-yes")
    box.goto(game_url(board))
    assert not box.locator("#team-chat").count()
    press(box, "#chouette-box-take")

    captain.goto(game_url(board))  # the doubler rolls at once after the take: 6-6
    expect(captain.locator("#chouette-decisions")).to_contain_text("Cy agreed")
    type_the_move(captain)
    board.refresh_from_db()
    assert board.is_finished

    member.goto(session)
    expect(member.locator("#points-ann")).to_contain_text("-4")
    expect(member.locator("#points-bob")).to_contain_text("2")
    expect(member.locator("#points-cy")).to_contain_text("2")
    expect(member.locator("#game-1")).to_contain_text("Ann -4")
    # The team won: the captain goes into the box, cy captains, ann goes to the line.
    expect(member.locator("#line-bob")).to_contain_text("In the box")
    expect(member.locator("#line-cy")).to_contain_text("Captain")
    expect(member.locator("#line-ann")).to_contain_text("Team member")
