"""The end of a game and of a match on the game page (issue 26): the players read it in the
second person with the score from their side, a spectator in the third person with
names; the match's rematch and its analysis are offered where it ended; a challenge or a
rematch that a computer player accepts at once lands on the board."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from bots import services as bot_services
from challenges import services as challenge_services
from challenges.models import Challenge
from gammon import FixedDice
from matches import record, turns
from matches.models import Game, Match
from tests.stats.helpers import match_resign, match_start

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_of(user: User | None, game: Game, language: str = "en") -> str:
    if user is not None and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    client = client_for(user) if user is not None else Client()
    url = reverse("game_detail", args=[game.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def banner_of(page: str) -> str:
    found = re.search(r'<strong id="banner">(.*?)</strong>', page, re.S)
    assert found, "no banner on the page"
    return found.group(1).strip()


def result_line(page: str) -> str:
    found = re.search(r'<span class="muted" id="game-result">(.*?)</span>', page, re.S)
    return found.group(1).strip() if found else ""


@pytest.fixture
def won_by_player(player: User, opponent: User) -> Match:
    """A 3-point match the opponent resigned whole: the player won it 3-0."""
    return match_resign(match_start(player, opponent, length=3), opponent)


def test_each_player_reads_the_matchs_end_from_their_side(
    won_by_player: Match, player: User, opponent: User
) -> None:
    game = won_by_player.games.get()
    assert banner_of(page_of(player, game)) == "You won the match 3–0"
    assert banner_of(page_of(opponent, game)) == "You lost the match 0–3"
    lost = page_of(opponent, game)
    assert result_line(lost).startswith("You lost ") and " point" in result_line(lost)
    assert banner_of(page_of(opponent, game, "es")) == "Has perdido el match 0–3"
    assert banner_of(page_of(opponent, game, "ca")) == "Has perdut el match 0–3"


def test_a_spectator_reads_the_end_with_names_and_the_winners_score_first(
    won_by_player: Match, player: User, outsider: User
) -> None:
    game = won_by_player.games.get()
    for viewer in (outsider, None):
        page = page_of(viewer, game)
        assert banner_of(page) == f"{player.public_name} won the match 3–0"
        assert result_line(page).startswith(f"{player.public_name} won ")


def test_the_rematch_and_the_analysis_are_on_the_game_page(
    won_by_player: Match, player: User, outsider: User
) -> None:
    game = won_by_player.games.get()
    mine = page_of(player, game)
    assert f'action="/matches/{won_by_player.pk}/rematch/"' in mine and ">Rematch<" in mine
    analysis = f'href="/matches/{won_by_player.pk}/#analysis-title"'
    assert analysis in mine and "See the analysis" in mine
    watched = page_of(outsider, game)
    assert "/rematch/" not in watched and analysis in watched


def test_a_game_that_ends_inside_a_match_speaks_of_the_game(
    player: User, opponent: User, monkeypatch: pytest.MonkeyPatch, outsider: User
) -> None:
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1), (4, 2)]))
    match = match_start(player, opponent, length=5)
    game = match.current_game
    assert game is not None
    mover, doubler = match.player(game.turn_color), match.player(game.turn_color.other)
    now = timezone.now()
    turns.game_play_move(
        game_id=game.pk, player=mover, play_text="8/5 6/5", expected_ply=game.ply, now=now
    )
    game.refresh_from_db()
    turns.game_double(game_id=game.pk, player=doubler, expected_ply=game.ply, now=now)
    game.refresh_from_db()
    turns.game_drop(game_id=game.pk, player=mover, expected_ply=game.ply, now=now)
    game.refresh_from_db()
    assert game.is_finished and Match.objects.get(pk=match.pk).status == Match.Status.PLAYING
    assert banner_of(page_of(doubler, game)) == "You won 1 point (Double dropped)."
    assert banner_of(page_of(mover, game)) == "You lost 1 point (Double dropped)."
    assert banner_of(page_of(mover, game, "es")) == "Has perdido 1 punto (Doble rechazado)."
    watched = page_of(outsider, game)
    assert banner_of(watched) == f"{doubler.public_name} won 1 point (Double dropped)."
    assert 'id="match-end"' not in page_of(mover, game)


def test_a_money_session_ends_as_a_session(player: User, opponent: User) -> None:
    session = match_resign(match_start(player, opponent, length=0, cube_limit=None), opponent)
    game = session.games.get()
    mine, theirs = (
        session.score[session.color_of(player)],
        session.score[session.color_of(opponent)],
    )
    assert banner_of(page_of(player, game)) == f"You won the session {mine}–{theirs}"


@pytest.fixture
def gnubg_here(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """gnubg "installed" (an empty file): bots accept; their turns are queued after the
    commit, which a test's transaction never reaches, so gnubg never runs."""
    program = tmp_path / "gnubg"
    program.touch()
    monkeypatch.setenv("GNUBG", str(program))


def test_a_rematch_with_the_computer_lands_on_the_new_board(player: User, gnubg_here: None) -> None:
    bot = bot_services.bots_create()[0].user
    first = challenge_services.challenge_create(
        challenger=player, opponent=bot, now=timezone.now(), length=1
    )
    assert first.match is not None  # the computer accepted at once
    finished = match_resign(first.match, player)
    response = client_for(player).post(f"/matches/{finished.pk}/rematch/")
    rematch = Match.objects.exclude(pk=finished.pk).get()
    game = rematch.games.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert Challenge.objects.get(match=rematch).challenger == player
