"""A chouette on the website with three players (issue 16): ann creates it on the form,
bob and cy join on its page, ann starts it; game 1 is played on the game pages to its
end: bob, the captain, moves by clicking, ann (the box) rolls and types her move, bob
proposes the team's double, cy agrees on his own page, ann takes it (each confirmed in
the page's dialog), and bob bears off by typing. The session page then shows the points
and the places rotated. A second test, in Spanish, has every vote and answer asked twice
with its cost, and each player told in the second person what is awaited from them
(screenshots at 1280x800 and 390x844 in test-output/e2e/chouette-*.png).

The places come from the joining order (ann in the box, bob captain, cy next) and the
dice are scripted; the board is put near its end through the ORM after the start, as
tests/chouettes/helpers.py's ``set_board`` does, to keep the test short.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from chouettes.models import Chouette, Decision
from gammon import FixedDice
from matches import record
from matches.models import Game
from tests import records
from tests.chouettes.helpers import board_of, box_doubles, seat_table
from tests.factories import UserFactory

from .conftest import OUTPUT
from .helpers import click_a_move, game_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def press(page: Any, selector: str) -> None:
    """Click a button that posts a form, and wait for the page it leads to."""
    with page.expect_navigation():
        page.locator(selector).click()


def press_and_confirm(page: Any, selector: str) -> None:
    """Click a cube decision and confirm it in the dialog it opens."""
    page.locator(selector).click()
    with page.expect_navigation():
        page.locator("#confirm-dialog-yes").click()


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
    press_and_confirm(member, "#chouette-vote-yes")
    box.goto(game_url(board))
    assert not box.locator("#team-chat").count()
    press_and_confirm(box, "#chouette-box-take")

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


SIZES = ((1280, 800), (390, 844))


def screens(page: Any, state: str) -> None:
    """The window as the player sees it, at a laptop's and a phone's size, in
    test-output/e2e/chouette-<state>-<width>.png; the page's size is put back."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(OUTPUT / f"chouette-{state}-{width}.png"))
    page.set_viewport_size(size)


def confirm(page: Any, button: str, question: str, state: str) -> None:
    """Click a decision: its dialog asks ``question``; a first Cancel sends nothing, then
    Confirm sends it (and the page reloads)."""
    from playwright.sync_api import expect

    decisions = Decision.objects.count()
    page.locator(button).click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#confirm-dialog-text")).to_have_text(question)
    screens(page, state)
    page.locator("#confirm-dialog-no").click()
    expect(dialog).to_be_hidden()
    assert Decision.objects.count() == decisions  # the first click decided nothing
    page.locator(button).click()
    with page.expect_navigation():
        page.locator("#confirm-dialog-yes").click()
    assert Decision.objects.count() == decisions + 1


def test_votes_and_answers_are_confirmed_with_their_cost_in_spanish(
    new_page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four players, in Spanish: ann (the box) doubles; bob and cy take and di drops, each
    in the dialog that states what it costs; bob proposes the team's redouble, cy (who is
    told in the second person that his vote is awaited) agrees; ann drops, reading what
    it costs her against each member, at their different stakes."""
    from playwright.sync_api import expect

    table = seat_table(monkeypatch, 4)
    table.now = timezone.now()  # the deadlines the pages show are to come
    for user in table.users.values():
        user.language = "es"
        user.save(update_fields=["language"])
    box_doubles(table)
    board = table.board
    pages = {name: new_page(user=user, locale="es") for name, user in table.users.items()}

    member = pages["cy"]
    member.goto(game_url(board))
    expect(member.locator("#banner")).to_have_text(
        "La caja ha doblado, tu cubo a 2: ¿aceptas o rechazas?"
    )
    expect(member.locator("#chouette-you")).to_contain_text(
        "Se espera tu respuesta al doble de la caja: quedan"
    )
    expect(member.locator("#id_chouette_confirm_take")).to_be_hidden()  # the dialog asks
    confirm(member, "#chouette-take", "¿Aceptar el doble de la caja? Tu cubo pasa a 2.", "take")
    pages["bob"].goto(game_url(board))
    confirm(
        pages["bob"],
        "#chouette-take",
        "¿Aceptar el doble de la caja? Tu cubo pasa a 2.",
        "take-bob",
    )
    table.roll((6, 5))  # the box, who doubled, rolls at once once every member answered
    pages["di"].goto(game_url(board))
    confirm(
        pages["di"],
        "#chouette-drop",
        "¿Rechazar el doble de la caja? Pierdes esta partida y 1 punto.",
        "drop",
    )
    expect(pages["di"].locator("#banner")).to_have_text(
        "Has rechazado el doble de la caja: estás fuera de esta partida."
    )
    table.move("ann", "13/7 13/8")

    captain = pages["bob"]
    captain.goto(game_url(board))
    expect(captain.locator("#banner")).to_have_text("Tu turno: tira, o propón el doble del equipo")
    press(captain, "#chouette-propose")  # a proposal, like a double, is one click
    expect(captain.locator("#banner")).to_have_text(
        "Tu equipo vota si dobla a la caja: se espera a Cy."
    )
    box = pages["ann"]
    box.goto("/dashboard/")  # the board waits for the team: its row says so, with the deadline
    row = box.locator("table.games tr", has_text=f"Chouette n.º {table.chouette.pk}, partida 1")
    expect(row).to_contain_text("estás en la caja")
    expect(row).to_contain_text("El equipo vota si te dobla")
    expect(row.locator("time")).to_have_count(1)
    screens(box, "dashboard-box")
    member.goto(game_url(board))
    expect(member.locator("#banner")).to_have_text(
        "Te toca votar: el equipo propone doblar a la caja, tu cubo a 4. "
        "¿Estás de acuerdo o te niegas?"
    )
    screens(member, "vote")
    confirm(
        member,
        "#chouette-vote-yes",
        "¿De acuerdo con doblar a la caja? Si la caja acepta, tu cubo pasa a 4; "
        "si rechaza, ganas 2 puntos.",
        "vote-yes",
    )

    box.goto(game_url(board))
    expect(box.locator("#banner")).to_have_text("El equipo ha doblado a 4: ¿aceptas o rechazas?")
    screens(box, "box-answer")
    table.roll(4, 2)  # the next game's opening, once ann drops
    confirm(
        box,
        "#chouette-box-drop",
        "¿Rechazar el doble del equipo? Pierdes esta partida y 4 puntos (2 para Bob, "
        "2 para Cy). Di, que rechazó, te paga igualmente 1 punto.",
        "box-drop",
    )
    assert table.points() == {"ann": -3, "bob": 2, "cy": 2, "di": -1}
    box.goto(f"/chouettes/{table.chouette.pk}/")
    expect(box.locator("#points-ann")).to_contain_text("-3")
    expect(box.locator("#points-di")).to_contain_text("-1")
