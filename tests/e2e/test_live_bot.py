"""A live match against the computer, from the lobby's seek to the analysis (issue 28).

alice posts a live seek in the lobby (seed 004's clock, 11 s a turn then 90 s) and
nobody takes it: once its wait is over a bot does, and her lobby page follows her to the
board by itself. She plays every turn on the board; each of the bot's turns is its
``bots`` task, run as the worker would when it is queued, and reaches her open page over
its socket (the pages are served over ASGI), in place. When the match ends gnubg
analyses it, as every finished match, and the match page shows the analysis. Every wait
is on a condition of the page, none a sleep.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from analysis.models import MatchAnalysis
from bots import tasks as bot_tasks
from bots.services import bots_create
from challenges import services as challenge_services
from challenges.models import Challenge
from gammon import SeededDice
from matches import record
from matches.models import GameEvent, Match
from tests.factories import UserFactory

from .asgi_server import asgi_live_server  # noqa: F401 - the live_server fixture, over ASGI
from .helpers import game_url, shoot

pytestmark = [pytest.mark.browser, pytest.mark.gnubg, pytest.mark.django_db(transaction=True)]

MAX_TURNS = 80


def test_a_live_seek_taken_by_the_computer_is_played_on_its_clock_and_analysed(
    new_page, monkeypatch, settings
) -> None:
    settings.BOT_SEEK_WAIT = 0  # no person is coming: the bot may take it at once
    alice = UserFactory(username="alice", stay_after_move=True)
    bots_create()
    monkeypatch.setattr(record, "dice", SeededDice(14))
    monkeypatch.setattr(challenge_services.secrets, "randbelow", lambda n: 0)
    queued: list[tuple[Any, tuple[Any, ...]]] = []
    for task in (bot_tasks.bot_take_seek, bot_tasks.bot_play, bot_tasks.bot_claim_time):
        monkeypatch.setattr(
            task, "apply_async", lambda args, task=task, **options: queued.append((task, args))
        )

    def worker() -> None:
        """Run the bots' queued tasks, as the bots queue's worker does."""
        while queued:
            task, args = queued.pop(0)
            task(*args)

    page = new_page(user=alice, width=1280)
    page.goto("/play/")
    page.select_option("#id_length", "1")
    page.select_option("#id_clock", "11+90")
    page.click("#seek-submit")
    expect(page.locator("[data-mine]")).to_have_count(1)
    seek = Challenge.objects.get(challenger=alice)
    assert (seek.live_delay, seek.live_reserve) == (11, 90)

    worker()  # the seek's wait is over: a bot takes it
    # Her lobby hears that the match began, and takes her to the board.
    expect(page).to_have_url(re.compile(r"/games/\d+/$"), timeout=15_000)
    match = Match.objects.get()
    bot = match.player(1 - int(match.color_of(alice)))  # type: ignore[arg-type]
    assert bot.is_bot and match.is_live
    game = match.games.get()
    assert page.url.endswith(game_url(game)), page.url
    expect(page.locator("#live-clock")).to_be_visible()

    live = page.locator("#live-game")
    shot = False
    for _turn in range(MAX_TURNS):
        worker()
        game.refresh_from_db()
        if game.is_finished:
            break
        assert match.player(game.turn_color) == alice
        page.evaluate("window.stillHere = true")
        # The bot's move reaches the open page over its socket.
        expect(live).to_have_attribute("data-ply", str(game.ply), timeout=15_000)
        banner = page.locator("#banner").inner_text()
        if "offers to resign" in banner:  # the bot gives up what gnubg sees as lost
            with page.expect_navigation():
                page.locator("#resign-accept-form button").click()
                page.locator("#confirm-dialog-yes").click()
            continue
        assert banner.startswith("Your move: you rolled"), banner
        if not shot:
            shoot(page, "live-bot-move")
            shot = True
        play = page.locator("#legal-plays option").first.get_attribute("value")
        page.locator("#id_play").fill(play)
        page.locator("#move-submit").click()  # its answer redraws the board: a later ply
        expect(live).not_to_have_attribute("data-ply", str(game.ply), timeout=15_000)
    else:
        pytest.fail(f"the match did not end in {MAX_TURNS} turns")

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    expect(page.locator("#banner")).to_contain_text(re.compile(r"\b(won|lost)\b"))
    # The record keeps how long each move took, hers and the bot's.
    moves = GameEvent.objects.filter(game__match=match, kind="move")
    assert {e.color for e in moves} == {0, 1}
    assert all(took is not None for took in moves.values_list("took", flat=True))
    # Analysed once it ended, as every match; the match page shows it.
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.DONE, analysis.error
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#analysis-summary, .analysis-summary").first).to_be_visible()
