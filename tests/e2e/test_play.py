"""The game page in a real browser: moving by clicking, the cube, languages, phone width."""

from __future__ import annotations

import random
import re

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from gammon import FixedDice, SeededDice
from matches import record, turns
from matches.bots import bot_act
from matches.models import Game, Match
from tests.factories import UserFactory

from .helpers import game_url, take_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def start_match(white: User, black: User, monkeypatch, dice, **options) -> Game:
    monkeypatch.setattr(record, "dice", dice)
    now = timezone.now()
    challenge = challenge_services.challenge_create(
        challenger=white, opponent=black, now=now, **options
    )
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=black, now=now)
    game = match.current_game
    assert game is not None
    return game


def test_sign_up_challenge_and_accept(new_page, live_server) -> None:
    bob = UserFactory(username="bob")
    page = new_page()
    page.goto("/accounts/signup/")
    page.fill("[name=email]", "dora@example.com")
    page.fill("[name=username]", "dora")
    page.fill("[name=password1]", "a long enough pass phrase 7")
    page.fill("[name=password2]", "a long enough pass phrase 7")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    # Verification is mandatory: follow the link in the e-mail.
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail.outbox[-1].body)
    assert link, mail.outbox[-1].body
    page.goto(link.group(0).replace(re.match(r"https?://[^/]+", link.group(0)).group(0), ""))
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("h1", has_text="Your games").is_visible()

    page.goto("/challenges/new/")
    page.fill("[name=opponent]", "bob")
    page.select_option("[name=length]", "1")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    assert "Your challenge has been sent to Bob." in page.content()

    bob_page = new_page(user=bob)
    bob_page.goto("/dashboard/")
    with bob_page.expect_navigation():
        bob_page.locator("form button", has_text="Accept").first.click()
    assert bob_page.locator("svg.board").is_visible()
    assert Match.objects.get().status == Match.Status.PLAYING


def test_a_whole_one_point_match_played_by_clicking(new_page, monkeypatch) -> None:
    """Alice clicks every move of a whole match on a desktop (Hypergammon's three checkers
    a side keep it short; test_whole_match.py drags, taps and types)."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_match(alice, bob, monkeypatch, SeededDice(11), length=1, variant="hypergammon")
    match = game.match
    me = match.color_of(alice)
    page = new_page(user=alice)
    rng = random.Random(3)
    turns = 0
    for _ in range(400):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        game = match.current_game
        if game.turn != int(me):
            bot_act(game, rng, timezone.now())
            continue
        ply = game.ply
        take_turn(page, game)
        turns += 1
        game.refresh_from_db()
        assert game.ply > ply, page.content()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, "the match did not end"
    page.goto(game_url(match.games.get()))
    assert page.locator(".status", has_text="the match").is_visible()  # "You won the match 1–0"
    assert turns > 5


def test_double_and_take_with_the_confirmation_dialog(new_page, monkeypatch) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_match(alice, bob, monkeypatch, FixedDice([(3, 1), (5, 2)]), length=3)
    white, black = game.match.white, game.match.black
    turns.game_play_move(
        game_id=game.pk, player=white, play_text="8/5 6/5", expected_ply=game.ply,
        now=timezone.now(),
    )  # fmt: skip
    game.refresh_from_db()
    doubler = new_page(user=black)
    doubler.goto(game_url(game))
    with doubler.expect_navigation():
        doubler.locator("button", has_text="Double to 2").click()
    taker = new_page(user=white)
    taker.goto(game_url(game))
    assert not taker.locator("#id_confirm_take").is_visible()  # the dialog replaces it
    taker.locator("button", has_text="Take").click()
    dialog = taker.locator("#confirm-dialog")
    assert dialog.is_visible()
    assert "The cube goes to 2" in dialog.inner_text()
    taker.locator("#confirm-dialog-no").click()  # changed my mind
    game.refresh_from_db()
    assert game.state == Game.State.DOUBLED
    taker.locator("button", has_text="Take").click()
    with taker.expect_navigation():
        taker.locator("#confirm-dialog-yes").click()
    game.refresh_from_db()
    assert (game.cube_value, game.cube_owner) == (2, int(game.match.color_of(white)))
    assert taker.locator("svg.board g.cube").get_attribute("data-value") == "2"
    assert taker.locator(".record", has_text="Takes").is_visible()


def test_clicking_undoing_and_confirming_a_move_in_spanish(new_page, monkeypatch) -> None:
    alice = UserFactory(username="alice", language="es", confirm_moves=True)
    bob = UserFactory(username="bob")
    game = start_match(alice, bob, monkeypatch, FixedDice([(3, 1)]), length=3)
    mover = game.match.player(game.turn_color)
    mover.language, mover.confirm_moves = "es", True
    mover.save()
    page = new_page(user=mover, locale="es")
    page.goto(game_url(game))
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.locator("#move-status").inner_text().startswith("Pulsa una ficha para moverla 3")
    # 8/5 6/5: a click on the 8 plays the 3 (the higher die first); undo it; then the 8 and
    # the 6, and the page asks before sending.
    page.locator("#target-8").click()
    assert page.locator(".die-chip.used").count() == 1
    assert page.locator("#id_play").input_value() == "8/5"
    page.locator("#move-undo").click()
    assert page.locator(".die-chip.used").count() == 0
    page.locator("#target-8").click()
    page.locator("#target-6").click()
    assert page.locator("#move-confirm").is_visible()
    assert "¿Enviar 8/5 6/5?" in page.locator("#move-confirm-text").inner_text()
    assert page.locator("#id_play").input_value() == "8/5 6/5"
    with page.expect_navigation():
        page.locator("#move-confirm-yes").click()
    game.refresh_from_db()
    assert game.events.filter(notation="8/5 6/5").exists()
    assert page.locator(".record", has_text="8/5 6/5").is_visible()


def test_the_game_page_at_phone_width_and_by_keyboard(new_page, monkeypatch) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_match(alice, bob, monkeypatch, FixedDice([(3, 1)]), length=3)
    mover = game.match.player(game.turn_color)
    page = new_page(user=mover, width=360)
    page.goto(game_url(game))
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone"
    box = page.locator("svg.board").bounding_box()
    assert box["width"] <= 360
    # The keyboard alone: focus the 8, Enter (it plays the 3), then the 6, Enter (the 1),
    # and the play is sent at the last die.
    page.locator("#target-8").focus()
    page.keyboard.press("Enter")
    page.locator("#target-6").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    game.refresh_from_db()
    assert game.events.filter(notation="8/5 6/5").exists()
    # The record: each move shows its position.
    six = "svg.board g.checkers[data-point='6']"
    assert page.locator(six).get_attribute("data-count") == "4"
    page.locator(".record a", has_text="Opening roll").click()
    assert page.locator(".message.history").is_visible()
    assert page.locator(six).get_attribute("data-count") == "5"
