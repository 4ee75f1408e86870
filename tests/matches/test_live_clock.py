"""The live clock (issue 28): a delay per turn, then a reserve; a fallen clock is claimed.

Every test passes ``now``; nothing sleeps. alice (White) opens 3-1 against bob.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from accounts.models import User
from backgammon.errors import Conflict
from gammon import Termination
from matches import clock, endings, turns
from matches.export import export_mat
from matches.models import Game, GameEvent, Match
from tests.matches.clock_helpers import NOW, start_game, white_opens
from tests.matches.gnubg_mat import gnubg_import

pytestmark = pytest.mark.django_db
S = timedelta(seconds=1)

#: alice opens 3-1 (8/5 6/5), bob then throws 6-5 (24/13) and alice 6-4.
DICE = ((3, 1), (6, 5), (6, 4), (5, 2), (4, 3))


def live_game(monkeypatch: pytest.MonkeyPatch, white: User, black: User, **options: Any) -> Game:
    options = {"length": 1, "live_delay": 11, "live_reserve": 90, **options}
    return start_game(monkeypatch, white, black, *DICE, **options)


def bob_runs(game: Game, bob: User, now: datetime) -> Game:
    game.refresh_from_db()
    return turns.game_play_move(
        game_id=game.pk, player=bob, play_text="24/13", expected_ply=game.ply, now=now
    )


def claim(game: Game, user: User, now: datetime) -> Game:
    game.refresh_from_db()
    return endings.game_claim_time(game_id=game.pk, player=user, expected_ply=game.ply, now=now)


def test_a_live_match_keeps_each_reserve_and_no_deadline(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = live_game(monkeypatch, player, opponent)
    match = game.match
    assert match.is_live and (match.bank_white, match.bank_black) == (90 * S, 90 * S)
    assert game.deadline_at is None  # the expiry sweep passes a live game by
    assert game.turn_started_at == NOW
    assert clock.games_expire_overdue(now=NOW + timedelta(days=30)) == 0


def test_the_delay_runs_first_then_the_reserve(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = live_game(monkeypatch, player, opponent)
    game = white_opens(monkeypatch, game, player, NOW + 5 * S)  # within the delay
    assert game.match.bank_white == 90 * S
    assert game.turn == 1 and game.turn_started_at == NOW + 5 * S
    game = bob_runs(game, opponent, NOW + 5 * S + 31 * S)  # 20 s over the delay
    match = Match.objects.get(pk=game.match_id)
    assert (match.bank_white, match.bank_black) == (90 * S, 70 * S)
    took = list(GameEvent.objects.filter(game=game, took__isnull=False).values_list("kind", "took"))
    assert took == [("move", 5 * S), ("move", 31 * S)]  # the record keeps the clock


def test_a_clock_with_time_left_cannot_be_claimed(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = live_game(monkeypatch, player, opponent)
    game = white_opens(monkeypatch, game, player, NOW)
    flag = NOW + 101 * S  # bob's turn began at NOW: 11 s, then 90 s
    with pytest.raises(Conflict) as refused:
        claim(game, player, flag - S)
    assert refused.value.code == "time_left" and refused.value.status == 409
    assert "1 second" in str(refused.value)
    with translation.override("es"):
        assert "segundo" in str(refused.value)
    with pytest.raises(Conflict) as own:
        claim(game, opponent, flag + S)  # bob is on turn: his own clock is not his to claim
    assert own.value.code == "your_turn"
    game.refresh_from_db()
    assert not game.is_finished and game.ply == 3


def test_a_correspondence_game_has_no_time_out_to_claim(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent, *DICE, length=1)
    game = white_opens(monkeypatch, game, player, NOW)
    with pytest.raises(Conflict) as refused:
        claim(game, player, NOW + timedelta(days=30))
    assert refused.value.code == "not_live"
    with translation.override("ca"):
        assert "rellotge" in str(refused.value)


def test_a_claimed_time_out_wins_a_one_point_match(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = live_game(monkeypatch, player, opponent)
    game = white_opens(monkeypatch, game, player, NOW)
    game = claim(game, player, NOW + 101 * S)
    assert game.is_finished and game.termination == Termination.TIME_CLAIM
    assert game.winner == 0
    match = Match.objects.get(pk=game.match_id)
    assert match.status == Match.Status.FINISHED and match.result == Match.Result.WHITE
    assert match.bank_black == timedelta(0)
    kinds = list(game.events.values_list("kind", "color", "value"))
    assert kinds[-2:] == [("timeout_claim", 0, 2), ("win", 0, 2)]


def test_unclaimed_play_goes_on_with_the_fallen_clock_at_zero(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = live_game(monkeypatch, player, opponent)
    game = white_opens(monkeypatch, game, player, NOW)
    late = NOW + 300 * S
    game = bob_runs(game, opponent, late)  # nobody claimed: bob still moves
    match = Match.objects.get(pk=game.match_id)
    assert match.bank_black == timedelta(0)
    assert endings.live_time_left(game, late) == 101 * S  # alice's clock, whole
    game.refresh_from_db()
    game = turns.game_play_move(
        game_id=game.pk, player=player, play_text="24/18 13/9", expected_ply=game.ply, now=late
    )
    # bob's next turn has the delay alone: after 11 s alice may claim.
    assert endings.live_time_left(game, late + 10 * S) == S
    assert claim(game, player, late + 11 * S).termination == Termination.TIME_CLAIM


def test_in_a_longer_match_a_claim_counts_as_a_gammon(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = live_game(monkeypatch, player, opponent, length=5)
    game = white_opens(monkeypatch, game, player, NOW)
    claim(game, player, NOW + 101 * S)
    match = Match.objects.get(pk=game.match_id)
    assert match.status == Match.Status.PLAYING and match.score == (2, 0)
    second = match.current_game
    assert second is not None and second.number == 2 and second.turn_started_at == NOW + 101 * S


def test_by_the_match_option_a_claim_loses_the_match(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = live_game(monkeypatch, player, opponent, length=5, timeout_loses_match=True)
    assert game.match.timeout_loses_match
    game = white_opens(monkeypatch, game, player, NOW)
    game = claim(game, player, NOW + 101 * S)
    match = Match.objects.get(pk=game.match_id)
    assert match.status == Match.Status.FINISHED and match.score == (5, 0)
    assert game.events.get(kind="timeout_claim").notation == "match"


def test_the_option_to_lose_the_match_needs_a_live_match_longer_than_a_point(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = live_game(monkeypatch, player, opponent, length=1, timeout_loses_match=True)
    assert not game.match.timeout_loses_match
    other = start_game(monkeypatch, opponent, player, *DICE, length=5, timeout_loses_match=True)
    assert not other.match.timeout_loses_match


@pytest.mark.gnubg
def test_gnubg_imports_a_claimed_match(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User, gnubg: str, tmp_path: Path
) -> None:
    game = live_game(monkeypatch, player, opponent, length=5)
    game = white_opens(monkeypatch, game, player, NOW)
    claim(game, player, NOW + 101 * S)
    match = Match.objects.get(pk=game.match_id)
    text = export_mat(match, xg_header=False)
    (tmp_path / "import").mkdir()
    result = gnubg_import(gnubg, text, tmp_path / "import")
    assert result.messages == []
    assert result.score() == (2, 0)
