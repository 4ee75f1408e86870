"""A whole match against GNU Backgammon on the website (issue 15's loop).

The player challenges the computer through the challenge form, then plays every turn on
the game page (typing the first legal play the page lists, the quickest way here: moving
by click, drag and touch has its own whole-match test). The bot's turns are
``bots.tasks.bot_play`` tasks: the test holds each one as it is queued and runs it as
the worker would, while the player's page stays open, so the bot's move reaches the page
by the page's own poll (Playwright's clock jumps past its 20 s tick). She is on the site
all along: none of it reaches her inbox, then or once she has left (issue 26).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import User
from bots import tasks as bot_tasks
from bots.services import bots_create
from challenges import services as challenge_services
from gammon import SeededDice
from matches import record
from matches.models import Game, Match
from notifications import delivery
from tests.factories import UserFactory

from .helpers import game_url, shoot
from .test_whole_match import follow_until, type_a_move

pytestmark = [pytest.mark.browser, pytest.mark.gnubg, pytest.mark.django_db(transaction=True)]

MAX_TURNS = 80  # seed 14, as White: she moves 15 times (20 to 35 is usual)


def test_a_whole_match_against_the_computer_with_its_moves_arriving_on_the_open_page(
    new_page, monkeypatch
) -> None:
    # She stays on the game after each move (her preference) and waits for the bot there.
    alice = UserFactory(username="alice", notify=User.Notify.EVERY, stay_after_move=True)
    bots_create()
    monkeypatch.setattr(record, "dice", SeededDice(14))
    # She is White (the challenger's colour when the draw gives 0): the seed's short match.
    monkeypatch.setattr(challenge_services.secrets, "randbelow", lambda n: 0)
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        bot_tasks.bot_play, "apply_async", lambda args, **options: queued.append(tuple(args))
    )

    def deliver(pk: int, now: datetime) -> str:
        return delivery.notification_deliver(notification_id=pk, now=now)

    def worker() -> int:
        """Run the bot's queued turns, as the bots queue's worker does; how many moved."""
        played = 0
        while queued:
            played += bool(bot_tasks.bot_play(*queued.pop(0)))
        return played

    page = new_page(user=alice, width=1280)
    page.clock.install()
    page.goto("/challenges/new/")
    page.select_option("#id_computer", "gnubg-beginner")
    page.select_option("#id_length", "1")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").first.click()
    match = Match.objects.get()
    assert match.white == alice
    bot = match.black
    assert bot.is_bot and page.locator(".bot-badge").first.is_visible()
    game = match.games.get()
    # Straight to the board, ready to play (issue 26), not to the match page.
    assert page.url.endswith(game_url(game)), page.url
    assert page.locator("svg.board").is_visible()

    bot_turns, shot = 0, False
    for _turn in range(MAX_TURNS):
        bot_turns += worker()
        game.refresh_from_db()
        if game.is_finished:
            break
        assert match.player(game.turn_color) == alice
        assert page.url.endswith(game_url(game)), page.url
        page.evaluate("window.stillHere = true")
        follow_until(page, game)  # the bot's move arrives on the open page by itself
        banner = page.locator("#banner").inner_text()
        if "offers to resign" in banner:  # the bot gives up what gnubg sees as lost: take it
            with page.expect_navigation():
                page.locator("#resign-accept-form button").click()
                page.locator("#confirm-dialog-yes").click()
            continue
        assert banner.startswith("Your move: you rolled"), banner
        # The bot's move came into the open page in place: no reload (issue 28).
        assert page.evaluate("window.stillHere === true")
        if not shot:
            shoot(page, "bot-match-move")
            shot = True
        type_a_move(page)  # clicks and drags have their own tests (test_whole_match.py)
    else:
        pytest.fail(f"the match did not end in {MAX_TURNS} turns")

    assert bot_turns >= 3 and shot, bot_turns
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    follow_until(page, game)
    assert re.match(r"You (won|lost) the match \d+–\d+$", page.locator("#banner").inner_text())
    # Nothing was e-mailed to her while she played, nor is owed now that she leaves: what
    # the page showed her is read, and the turns she was told of are over.
    later = timezone.now() + timedelta(hours=1)
    delivery.notifications_sweep(now=later, send=lambda pk: bool(deliver(pk, later)))
    assert [m.subject for m in mail.outbox if alice.email in m.to] == []
    game = Game.objects.get(pk=game.pk)
    assert game.events.filter(color=match.color_of(bot)).exists()
