"""A tournament in a real browser (issue 17): a player registers on the tournament's page,
plays their 1-point knock-out match on the board, and sees the bracket take them on."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db.models import Q
from django.utils import timezone

from gammon import SeededDice
from matches import endings, record
from matches.bots import bot_act
from tests.factories import UserFactory
from tests.tournaments.helpers import moderator, players
from tournaments import advance, creation, registration
from tournaments.models import Pairing

from .helpers import take_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_register_play_the_match_and_see_the_bracket_advance(new_page, monkeypatch) -> None:
    monkeypatch.setattr(record, "dice", SeededDice(17))
    now = timezone.now()
    cup = creation.tournament_create(
        creator=moderator(),
        now=now,
        name="Browser cup",
        format="knockout",
        length=1,
        min_players=4,
        max_players=4,
        starts_at=now + timedelta(minutes=5),
    )
    others = players(3)
    for user in others:
        registration.tournament_register(tournament_id=cup.pk, user=user, now=now)
    me = UserFactory(username="walter", display_name="Walter")

    page = new_page(user=me)
    page.goto(cup.get_absolute_url())
    with page.expect_navigation():
        page.locator("main form button", has_text="Register").click()
    assert page.locator(".messages", has_text="You are registered.").is_visible()
    assert cup.entries.filter(player=me).exists()

    assert advance.tournaments_start_due(now=cup.starts_at) == 1
    mine = Pairing.objects.select_related("match").get(
        Q(match__white=me) | Q(match__black=me), tournament=cup, round=1
    )
    match = mine.match
    assert match is not None
    # Whoever opens: the opponent's turns are played through the services, mine on the board.
    rng = random.Random(2)
    game = match.current_game
    assert game is not None
    while game.turn_color != match.color_of(me):
        bot_act(game, rng, timezone.now())
        game.refresh_from_db()
    ply = game.ply
    take_turn(page, game)
    game.refresh_from_db()
    assert game.ply > ply
    # The opponent gives up the match; the other semi-final is finished through the services.
    opponent = match.black if match.white_id == me.pk else match.white
    endings.game_resign(
        game_id=game.pk, player=opponent, expected_ply=None, now=timezone.now(), whole_match=True
    )
    other = Pairing.objects.select_related("match__white").get(
        tournament=cup, round=1, index=1 - mine.index
    )
    assert other.match is not None
    endings.game_resign(
        game_id=other.match.current_game.pk,
        player=other.match.white,
        expected_ply=None,
        now=timezone.now(),
        whole_match=True,
    )

    page.goto(cup.get_absolute_url())
    final_x = int(
        page.locator("svg.bracket text.bracket-round")
        .get_by_text("Final", exact=True)
        .get_attribute("x")
    )
    final = page.locator(f'svg.bracket text.bracket-name[x="{final_x + 8}"]').all_text_contents()
    assert "Walter" in final, final
    assert len([name for name in final if name != "…"]) == 2
    assert page.locator("dd", has_text="Round 2 of 2").is_visible()
    assert page.locator("#my-matches-title").is_visible()
    first = page.locator('svg.bracket text.bracket-name[x="9"]').all_text_contents()
    assert sorted(first) == sorted(["Walter", *(u.public_name for u in others)])
