"""The dice counted from the record by the beat (stats/dice.py), not by the move."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from matches.models import GameEvent
from stats.dice import SETTLE, _count_batch, dice_cursor, dice_expected, stats_count_dice
from stats.models import Counter, Cursor, PlayerStats
from stats.recount import stats_differences, stats_repair
from stats.tasks import clock_count_dice
from tests.bot_games import BotGames
from tests.stats.helpers import count_dice, match_start

pytestmark = pytest.mark.django_db


def dice_counters() -> dict[tuple[int | None, str], int]:
    rows = Counter.objects.filter(key__regex=r"^(roll|opening):").exclude(count=0)
    return {(pid, key): n for pid, key, n in rows.values_list("player_id", "key", "count")}


def test_a_move_counts_no_dice_the_beat_does(player: User, opponent: User) -> None:
    match_start(player, opponent, length=3)
    assert dice_counters() == {}
    assert count_dice() == 1  # the opening roll
    assert sum(n for (pid, key), n in dice_counters().items() if pid is None) == 2
    assert count_dice() == 0  # nothing new


def test_counting_in_pieces_gives_what_the_recount_gives_whole(
    bot_games: BotGames, player: User, opponent: User, outsider: User
) -> None:
    bot_games.load("site", alice=player, bob=opponent, charlie=outsider)
    now = timezone.now()
    thrown = GameEvent.objects.filter(kind__in=("roll", "opening")).count()
    assert thrown > 100
    # A few beat runs cut short after one batch, of a few sizes; then a whole run.
    counted = sum(_count_batch(now, None, batch)[0] for batch in (1, 1, 7, 7, 50))
    assert 0 < counted < thrown
    counted += stats_count_dice(now=now, settle=None, batch=40)
    assert counted == thrown
    assert dice_cursor().event_id == GameEvent.objects.latest("pk").pk
    assert dice_counters() == {k: n for k, n in dice_expected(GameEvent.objects.all()).items() if n}
    assert stats_differences() == []


def test_the_recount_checks_the_dice_up_to_the_cursor_and_repairs_them(
    player: User, opponent: User
) -> None:
    match_start(player, opponent, length=3)
    assert stats_differences() == []  # not counted yet: the cursor is before the roll
    count_dice()
    Counter.objects.filter(player=player, key__startswith="opening:").delete()
    found = stats_differences()
    assert found and all(d.key.startswith("opening:") for d in found)
    stats_repair()
    assert stats_differences() == []


def test_the_count_stops_before_a_roll_too_young_to_be_sure_of(
    player: User, opponent: User, outsider: User
) -> None:
    """Ids are given at insert, not at commit: a roll may show up after a later one. The
    count passes no event younger than a minute, nor any event after it."""
    now = timezone.now()
    old = match_start(player, opponent, length=3, now=now - timedelta(minutes=5))
    young = match_start(player, outsider, length=3, now=now)
    late = match_start(opponent, outsider, length=3, now=now - timedelta(minutes=5))
    assert stats_count_dice(now=now) == 1  # the first only
    cursor = dice_cursor()
    assert cursor.event_id < young.games.get().events.get().pk
    assert cursor.counted_until == old.games.get().events.get().created_at
    assert stats_count_dice(now=now + timedelta(minutes=2)) == 2
    cursor.refresh_from_db()
    assert cursor.counted_until == now + timedelta(minutes=1)
    assert late.games.get().events.get().pk <= cursor.event_id
    assert stats_differences() == []


def test_the_throwers_are_marked_active_never_back_in_time(player: User, opponent: User) -> None:
    then = timezone.now() - timedelta(hours=3)
    match_start(player, opponent, length=3, now=then)
    later = timezone.now()
    PlayerStats.objects.update_or_create(player=player, defaults={"last_active_at": later})
    count_dice()
    assert PlayerStats.objects.get(player=player).last_active_at == later
    assert PlayerStats.objects.get(player=opponent).last_active_at == then


def test_the_beat_task_counts(player: User, opponent: User) -> None:
    match_start(player, opponent, length=3, now=timezone.now() - timedelta(minutes=2))
    assert clock_count_dice() == 1


def test_the_dice_page_says_how_fresh_its_figures_are(
    client: Client, player: User, opponent: User
) -> None:
    dice_cursor()
    Cursor.objects.update(counted_until=None)  # as before the first count
    page = client.get("/stats/dice/").content.decode()
    assert "No roll has been counted yet. The rolls thrown are added every minute." in page
    when = datetime(2026, 12, 6, 16, 10, tzinfo=UTC)  # a fixed clock: the text names it
    match_start(player, opponent, length=3, now=when - timedelta(minutes=5))
    stats_count_dice(now=when + SETTLE)
    page = client.get("/stats/dice/").content.decode()
    assert "Rolls thrown until" in page and "are counted." in page
    page = client.get("/stats/dice/", HTTP_ACCEPT_LANGUAGE="ca").content.decode()
    assert "Estan comptades les tirades fetes fins al 6 de desembre de 2026 a les 16:10." in page
    page = client.get("/stats/dice/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Están contadas las tiradas hechas hasta el 6 de diciembre de 2026" in page
