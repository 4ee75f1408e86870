"""gnubg's analysis on the pages, in a real browser (issue 15): a finished match analysed,
its game's record marked, a click on a mark shows that ply's board with the play made and
gnubg's best as arrows, and the top plays; axe-core finds nothing serious on the analysed
game page or the match page with its summary table."""

from __future__ import annotations

import pytest

from analysis.models import Decision
from tests.analysis.helpers import SEVEN_POINTS, analysed_match
from tests.factories import UserFactory

from .helpers import game_url, shoot
from .test_accessibility import BLOCKING, violations

pytestmark = [pytest.mark.browser, pytest.mark.gnubg, pytest.mark.django_db(transaction=True)]


def test_a_click_on_a_mark_shows_the_play_made_and_gnubgs_best(new_page, bot_games) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    match = analysed_match(bot_games, alice, bob)
    play = (
        Decision.objects.filter(kind=Decision.Kind.PLAY).exclude(mark="").order_by("-equity_lost")
    ).first()
    assert play is not None

    page = new_page(user=alice, width=1280)
    page.goto(f"/matches/{match.pk}/")
    page.locator("#analysis-summary, .analysis-summary").first.wait_for()
    page.goto(game_url(play.game))
    page.locator(f"a.analysis-mark[href='?ply={play.ply}#analysis']").click()
    section = page.locator("#analysis")
    section.wait_for()
    assert play.best in section.inner_text() and play.made in section.inner_text()
    assert section.locator("svg.board line.best-move-arrow").count() == len(play.best_steps)
    assert section.locator("table.candidates tbody tr").count() == len(play.candidates)
    section.scroll_into_view_if_needed()
    shoot(page, "analysed-ply")
    blocking = [v["id"] for v in violations(page) if v["impact"] in BLOCKING]
    assert not blocking, blocking
    page.goto(f"/matches/{match.pk}/")
    blocking = [v["id"] for v in violations(page) if v["impact"] in BLOCKING]
    assert not blocking, blocking


def test_a_missed_double_marks_its_turn_and_the_steps_reach_it(new_page, bot_games) -> None:
    """The turn's line carries the worse of its play's and its missed double's marks; ◀
    from the play's position stops at the roll, where the missed double is shown."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    analysed_match(bot_games, alice, bob, SEVEN_POINTS)
    missed = (
        Decision.objects.filter(kind=Decision.Kind.NO_DOUBLE)
        .exclude(mark="")
        .order_by("-equity_lost")
        .first()
    )
    assert missed is not None
    play = Decision.objects.get(game=missed.game, record=missed.record, kind="play")

    page = new_page(user=alice, width=1280)
    page.goto(game_url(missed.game) + f"?ply={play.ply}#board")
    line = page.locator(f"#record a.what[href='?ply={play.ply}#board']")
    assert line.get_attribute("aria-current") == "true"
    page.locator("#record-prev").click()
    page.wait_for_url(f"**?ply={missed.ply}#board")
    section = page.locator("#analysis")
    section.wait_for()
    assert "missed double" in section.inner_text()
    assert line.get_attribute("aria-current") == "true"  # the same turn, at its roll
    page.locator("#record").scroll_into_view_if_needed()
    shoot(page, "missed-double")
    blocking = [v["id"] for v in violations(page) if v["impact"] in BLOCKING]
    assert not blocking, blocking
    page.locator("#record-next").click()
    page.wait_for_url(f"**?ply={play.ply}#board")
