"""The match page follows its analysis without a reload: "Analysing game 3 of 7", then the
next game, then the figures (the page reloads itself once it is done)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from analysis.models import MatchAnalysis
from tests.analysis.helpers import finished_match
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_match_page_follows_the_analysis(new_page: Any, bot_games: Any) -> None:
    from playwright.sync_api import expect

    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    match = finished_match(bot_games, alice, bob)
    analysis = MatchAnalysis.objects.create(
        match=match,
        requested_at=datetime(2026, 3, 2, tzinfo=UTC),
        status="running",
        games_done=2,
        games_total=7,
    )
    page = new_page(user=bob)
    page.clock.install()
    page.goto(f"/matches/{match.pk}/")
    progress = page.locator("#analysis-progress")
    expect(progress).to_have_text("Analysing game 3 of 7")
    MatchAnalysis.objects.filter(pk=analysis.pk).update(games_done=4)
    page.clock.fast_forward("00:06")
    expect(progress).to_have_text("Analysing game 5 of 7")
    MatchAnalysis.objects.filter(pk=analysis.pk).update(status="done", games_done=7)
    with page.expect_navigation():
        page.clock.fast_forward("00:06")
    expect(page.locator("#analysis-title + p")).to_contain_text("Analysed at 0 plies")
