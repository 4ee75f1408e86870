"""Counters kept by the signal receivers, and the recount that checks them."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F

from accounts.models import User
from matches.models import Game, Match
from stats import selectors
from stats.models import Counter, PlayerStats
from stats.recount import stats_differences
from tests.bot_games import BotGames
from tests.factories import UserFactory
from tests.stats.helpers import count_dice, match_draw, match_resign, match_start

pytestmark = pytest.mark.django_db


def finished_games_by_result() -> dict[str, int]:
    counts = {"white": 0, "black": 0, "draw": 0}
    for winner in Game.objects.filter(state=Game.State.FINISHED).values_list("winner", flat=True):
        counts["draw" if winner is None else ("white", "black")[winner]] += 1
    return counts


def test_a_site_with_no_games_shows_zeros(client) -> None:
    stats = selectors.site_stats()
    line = stats.games["all"]
    assert (line.white, line.black, line.draw, line.total) == (0, 0, 0, 0)
    assert str(line.white_pct) == str(line.draw_pct) == "0.00"
    assert stats.games_in_progress == stats.matches_in_progress == stats.active_players == 0
    content = client.get("/stats/").content.decode()
    assert "0 (0.00 %)" in content


def site_matches(bot_games: BotGames, player: User, opponent: User, outsider: User) -> list[Match]:
    """The session's five bot matches (tests/bot_games.py ``site``) among the three."""
    return bot_games.load("site", alice=player, bob=opponent, charlie=outsider)


def test_bot_played_matches_are_counted_and_the_recount_finds_no_difference(
    bot_games: BotGames, player: User, opponent: User, outsider: User
) -> None:
    played = site_matches(bot_games, player, opponent, outsider)
    assert {m.variant for m in played} == {"standard", "nackgammon", "hypergammon"}
    assert not all(m.rated for m in played)
    live = match_start(player, outsider, length=7)

    stats = selectors.site_stats()
    counts = finished_games_by_result()
    line = stats.games["all"]
    assert (line.white, line.black, line.draw) == (counts["white"], counts["black"], 0)
    assert (
        stats.games["nackgammon"].total
        == Game.objects.filter(match__variant="nackgammon", state=Game.State.FINISHED).count()
    )
    assert stats.matches["all"].total == len(played) == 5
    assert sum(stats.terminations.values()) == line.total
    assert stats.games_in_progress == 1
    assert stats.matches_in_progress == 1
    assert stats.active_players == 3
    assert live.status == Match.Status.PLAYING

    assert stats_differences() == []
    call_command("recount_stats")  # raises CommandError on any difference


def test_the_recount_finds_and_repairs_a_tampered_counter(
    bot_games: BotGames, player: User, opponent: User, outsider: User
) -> None:
    site_matches(bot_games, player, opponent, outsider)
    count_dice()
    assert Counter.objects.filter(key="roll:65", player=player).exists()
    Counter.objects.filter(player__isnull=True, key__startswith="game:standard:").update(
        count=F("count") + 5
    )
    Counter.objects.filter(key="roll:65", player=player).delete()
    PlayerStats.objects.filter(player=player).update(experience=77)

    found = stats_differences()
    assert found
    assert any(d.key == "stats.experience" and d.stored == 77 for d in found)
    with pytest.raises(CommandError):
        call_command("recount_stats")

    call_command("recount_stats", "--repair")
    assert stats_differences() == []


def test_a_drawn_match_counts_as_a_drawn_game_and_match(player: User, opponent: User) -> None:
    match = match_draw(match_start(player, opponent, length=5))
    stats = selectors.site_stats()
    assert stats.games["all"].draw == 1
    assert stats.matches["all"].draw == 1
    assert stats.terminations["draw"] == 1
    record = selectors.player_record(player)
    assert record.games.total.drawn == 1
    assert record.matches.total.drawn == 1
    color = "white" if match.white_id == player.pk else "black"
    assert record.matches.by_color[color].drawn == 1
    assert stats_differences() == []


def test_a_resigned_match_counts_for_the_winner_by_colour_and_variant(
    player: User, opponent: User
) -> None:
    match = match_resign(match_start(player, opponent, length=3, variant="hypergammon"), opponent)
    stats = selectors.site_stats()
    winner_color = "white" if match.white_id == player.pk else "black"
    assert getattr(stats.matches["hypergammon"], winner_color) == 1
    assert stats.terminations["resign"] == 1
    won = selectors.player_record(player)
    lost = selectors.player_record(opponent)
    assert won.matches.by_variant["hypergammon"].won == 1
    assert won.matches.by_color[winner_color].won == 1
    assert lost.matches.total.lost == 1
    assert won.games.total.played == lost.games.total.played == 1


def test_gammons_are_counted_for_both_players(
    bot_games: BotGames, player: User, opponent: User, outsider: User
) -> None:
    site_matches(bot_games, player, opponent, outsider)
    gammons = list(Game.objects.filter(termination="gammon").select_related("match"))
    winners = [g.match.white_id if g.winner == 0 else g.match.black_id for g in gammons]
    losers = [g.match.black_id if g.winner == 0 else g.match.white_id for g in gammons]
    for user in (player, opponent):
        won, lost = winners.count(user.pk), losers.count(user.pk)
        # The games counted really hold gammons won and lost by each player.
        assert won >= 1 and lost >= 1, (user.username, won, lost)
        record = selectors.player_record(user)
        assert record.gammons_won == won
        assert record.gammons_lost == lost
    assert selectors.player_record(outsider).gammons_won == winners.count(outsider.pk)
    assert sum(selectors.player_record(u).gammons_lost for u in (player, opponent, outsider)) == (
        len(gammons)
    )


def test_the_dice_counters_hold_every_roll_event(
    bot_games: BotGames, player: User, opponent: User, outsider: User
) -> None:
    site_matches(bot_games, player, opponent, outsider)
    from matches.models import GameEvent

    count_dice()  # the beat's count
    rolls = GameEvent.objects.filter(kind="roll").count()
    openings = GameEvent.objects.filter(kind="opening").count()
    dice = selectors.dice_stats()
    assert dice.total_rolls == rolls
    assert dice.total_faces == 2 * rolls + 2 * openings
    each = [selectors.dice_stats(user) for user in (player, opponent, outsider)]
    assert all(one.total_rolls for one in each)
    assert sum(one.total_rolls for one in each) == rolls
    assert sum(one.total_faces for one in each) == dice.total_faces


def test_a_player_without_games_has_an_empty_record() -> None:
    newcomer = UserFactory(username="newcomer")
    record = selectors.player_record(newcomer)
    assert record.games.total.played == 0
    assert record.rating == 1500.0
    assert record.history == []
