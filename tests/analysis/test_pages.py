"""The analysis on the match page, its progress poll and the API: what each visitor sees,
and nothing at all of a match in play."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext, pgettext

from accounts.models import User
from analysis.models import MatchAnalysis
from gammon import Color
from gnubg_bridge.analysis import ERROR_RATINGS
from tests.bot_games import BotGames

from .helpers import analysed_match, finished_match, match_in_play

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def client_of(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page(match_id: int, user: User | None) -> str:
    response = client_of(user).get(f"/matches/{match_id}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.usefixtures("gnubg_here")
def test_a_player_of_a_finished_match_gets_the_button_and_a_visitor_does_not(
    bot_games: BotGames, player: User, opponent: User, outsider: User
) -> None:
    match = finished_match(bot_games, player, opponent)
    assert "Analyse with GNU Backgammon" in page(match.pk, player)
    for someone in (outsider, None):
        html = page(match.pk, someone)
        assert "Analyse with GNU Backgammon" not in html and "Not analysed yet." in html

    response = client_of(player).post(f"/matches/{match.pk}/analysis/request")
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert MatchAnalysis.objects.get(match=match).status == "queued"
    html = page(match.pk, outsider)
    assert 'id="analysis-progress"' in html and "Queued for analysis" in html
    assert "js/analysis.js" in html


@pytest.mark.usefixtures("gnubg_here")
def test_an_outsiders_request_is_refused_in_their_language(
    bot_games: BotGames, player: User, opponent: User, outsider: User
) -> None:
    match = finished_match(bot_games, player, opponent)
    outsider.language = "es"
    outsider.save()
    response = client_of(outsider).post(f"/matches/{match.pk}/analysis/request")
    assert response.status_code == 403
    assert "Solo los jugadores" in response.content.decode()
    assert not MatchAnalysis.objects.exists()


@pytest.mark.usefixtures("no_gnubg")
def test_without_gnubg_the_page_says_analysis_is_unavailable(
    bot_games: BotGames, player: User, opponent: User
) -> None:
    match = finished_match(bot_games, player, opponent)
    html = page(match.pk, player)
    assert "Analysis is unavailable" in html and "Analyse with GNU Backgammon" not in html
    response = client_of(player).post(f"/matches/{match.pk}/analysis/request")
    assert response.status_code == 503
    assert not MatchAnalysis.objects.exists()


@pytest.mark.usefixtures("gnubg_here")
def test_nothing_is_given_of_a_match_in_play_by_page_or_api(player: User, opponent: User) -> None:
    match = match_in_play(player, opponent, NOW)
    html = page(match.pk, player)
    assert "no analysis, hint or evaluation while it is played" in html
    assert "Analyse with GNU Backgammon" not in html
    client = client_of(player)
    assert client.post(f"/matches/{match.pk}/analysis/request").status_code == 409
    progress = client.get(f"/matches/{match.pk}/analysis/progress")
    assert progress.status_code == 409 and progress.json()["code"] == "match_not_finished"
    for method in ("get", "post"):
        response = getattr(client, method)(f"/api/matches/{match.pk}/analysis")
        assert response.status_code == 409
        assert response.json()["code"] == "match_not_finished" and response.json()["detail"]
    # Even a row written by hand (none can be) is not shown while the match is played.
    MatchAnalysis.objects.create(match=match, requested_at=NOW, status="done")
    assert client.get(f"/api/matches/{match.pk}/analysis").status_code == 409
    assert "Analysed at" not in page(match.pk, player)
    assert not MatchAnalysis.objects.exclude(pk=match.pk).exists()


@pytest.mark.usefixtures("gnubg_here")
def test_the_progress_says_which_game_is_analysed(
    bot_games: BotGames, player: User, opponent: User
) -> None:
    match = finished_match(bot_games, player, opponent)
    progress = client_of(None).get(f"/matches/{match.pk}/analysis/progress")
    assert progress.json() == {"status": "none", "games_done": 0, "games_total": 0, "text": ""}
    MatchAnalysis.objects.create(
        match=match, requested_at=NOW, status="running", games_done=2, games_total=7
    )
    state = client_of(None).get(f"/matches/{match.pk}/analysis/progress").json()
    assert state["status"] == "running" and state["text"] == "Analysing game 3 of 7"
    assert "Analysing game 3 of 7" in page(match.pk, None)


@pytest.mark.usefixtures("gnubg_here")
def test_the_api_refuses_a_visitors_request_and_queues_a_players(
    bot_games: BotGames, player: User, opponent: User
) -> None:
    match = finished_match(bot_games, player, opponent)
    url = f"/api/matches/{match.pk}/analysis"
    assert client_of(None).post(url).status_code == 401
    missing = client_of(None).get(url)
    assert missing.status_code == 404 and missing.json()["code"] == "not_analysed"
    response = client_of(opponent).post(url)
    assert response.status_code == 202
    assert response.json()["status"] == "queued" and response.json()["players"] == []
    assert client_of(player).post(url).status_code == 202  # the same, not a second one
    assert MatchAnalysis.objects.count() == 1


@pytest.mark.gnubg
def test_a_done_analysis_shows_gnubgs_table_and_the_api_every_decision(
    bot_games: BotGames, player: User, opponent: User
) -> None:
    match = analysed_match(bot_games, player, opponent)
    white, black = MatchAnalysis.objects.get(match=match).players.all()

    html = page(match.pk, None)
    assert "Analysed at 0 plies" in html
    assert "PR = 500 × (chequer play error + cube error, in EMG)" in html
    rate = white.texts["Overall statistics"]["Error rate mEMG (MWC)"].strip()
    white_cell = f'<td data-label="{match.white.public_name}">'
    assert f"{white_cell}{rate}</td>" in html
    assert f"{white_cell}{white.overall_rating}</td>" in html
    assert f"{white_cell}{white.pr:.2f}</td>" in html

    data = client_of(None).get(f"/api/matches/{match.pk}/analysis").json()
    assert data["status"] == "done" and data["plies"] == 0
    assert [p["color"] for p in data["players"]] == ["white", "black"]
    assert data["players"][1]["texts"] == black.texts and data["players"][1]["pr"] == black.pr
    decisions = data["decisions"]
    assert decisions and {d["kind"] for d in decisions} >= {"play", "double", "take", "drop"}
    play = next(d for d in decisions if d["kind"] == "play")
    assert play["ply"] is not None and play["color"] in ("white", "black")
    assert play["candidates"][0]["play"] == play["best"]


@pytest.mark.usefixtures("gnubg_here")
def test_a_failed_analysis_may_be_asked_for_again_by_a_player(
    bot_games: BotGames, player: User, opponent: User, outsider: User
) -> None:
    match = finished_match(bot_games, player, opponent)
    MatchAnalysis.objects.create(
        match=match, requested_at=NOW, status="failed", error="gnubg exited in /tmp/x"
    )
    html = page(match.pk, player)
    assert "The analysis failed" in html and "Analyse again" in html
    assert "/tmp/x" not in html  # gnubg's own words stay out of the page
    assert "Analyse again" not in page(match.pk, outsider)
    assert client_of(player).post(f"/matches/{match.pk}/analysis/request").status_code == 302
    assert MatchAnalysis.objects.get(match=match).status == "queued"


@pytest.mark.gnubg
@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_table_and_the_status_read_in_the_readers_language(
    bot_games: BotGames, player: User, opponent: User, language: str
) -> None:
    """gnubg's ratings are labels, said in the reader's language with gnubg's own words
    in a tooltip; the Snowie error rate is the rate alone (gnubg's "(+0.000%)" after it is
    no figure); the status names the winner."""
    match = analysed_match(bot_games, player, opponent)
    players = list(MatchAnalysis.objects.get(match=match).players.all())
    player.language = language
    player.save(update_fields=["language"])
    html = page(match.pk, player)
    start = html.index('class="analysis-summary')
    table = html[start : html.index("</table>", start)]
    shown = 0
    for figures in players:
        for rating in (figures.chequer_rating, figures.cube_rating, figures.overall_rating):
            assert rating in ERROR_RATINGS or rating == "n/a"
        ratings = {
            figures.chequer_rating: "gnubg rating",
            figures.cube_rating: "gnubg rating",
            figures.overall_rating: "gnubg rating",
            figures.luck_rating: "gnubg luck rating",
        }
        for rating, context in ratings.items():
            with translation.override(language):
                words = pgettext(context, rating)
            if words == rating:  # the same word in this language ("Expert" in Catalan)
                assert f">{escape(words)}</td>" in table
            else:
                tip = f'<span title="GNU Backgammon: {escape(rating)}">{escape(words)}</span>'
                assert tip in table
            shown += 1
        snowie = figures.texts["Overall statistics"]["Snowie error rate"]
        assert "(" in snowie  # gnubg's table, as stored
        rate = snowie.split("(")[0].strip()
        name = escape(match.player(Color(figures.color)).public_name)
        assert f'<td data-label="{name}">{rate}</td>' in table
    assert shown >= 4 and "+0.000%" not in table
    winner = match.white if match.result == "white" else match.black
    with translation.override(language):
        says = gettext("%(name)s won") % {"name": winner.public_name}
    assert says in html and "Black won" not in html and "White won" not in html
