"""Bots as players see them: challenged by form or API, marked everywhere, refused with a
reason where they cannot play, unrated and off the leaderboard unless the site rates them.

gnubg is never run here: a challenge's acceptance queues the bot's first turn after the
commit, which a test's transaction never reaches. Whether gnubg is installed is what
``GNUBG`` names (an empty file is "installed").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import gettext
from pytest_django.fixtures import Settings

from accounts.models import User
from bots import services
from bots.models import Bot
from challenges.models import Challenge
from matches.models import Match
from stats.models import PlayerStats
from tests.matches.api_helpers import token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def bots(db: None) -> dict[str, Bot]:
    return {bot.level: bot for bot in services.bots_create()}


@pytest.fixture
def gnubg_here(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    program = tmp_path / "gnubg"
    program.touch()
    monkeypatch.setenv("GNUBG", str(program))


@pytest.fixture
def no_gnubg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GNUBG", str(tmp_path / "not-installed"))


def test_the_challenge_form_plays_the_computer_at_the_chosen_level(
    bots: dict[str, Bot], gnubg_here: None, player: User, player_client: Client
) -> None:
    form = player_client.get("/challenges/new/?computer=gnubg-expert")
    assert 'value="gnubg-expert" selected' in form.content.decode()
    response = player_client.post(
        "/challenges/new/",
        {
            "computer": "gnubg-expert",
            "variant": "standard",
            "length": 3,
            "days_per_move": 3,
            "time_bank_days": 0,
            "cube_limit": 64,
            "rated": "on",
        },
    )
    match = Match.objects.get()
    # Straight to the board of the first game, ready to play (issue 26), not the match page.
    game = match.games.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert {match.white, match.black} == {player, bots["expert"].user}
    assert not match.rated  # BOT_MATCHES_RATED is off by default
    page = player_client.get(match.get_absolute_url()).content.decode()
    assert "GNU Backgammon (Expert)" in page
    assert 'class="badge bot-badge"' in page


def test_the_api_challenges_a_bot_by_username_and_marks_it(
    bots: dict[str, Bot], gnubg_here: None, player: User, settings: Settings
) -> None:
    settings.BOT_MATCHES_RATED = True
    client = token_client(player)
    listed = client.get("/api/bots/").json()
    assert [row["level"] for row in listed][:1] == ["beginner"]
    assert all(row["is_bot"] and row["available"] for row in listed)
    response = client.post(
        "/api/challenges/", {"opponent": "gnubg-world-class", "length": 1}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "accepted" and body["opponent_is_bot"] is True
    assert body["rated"] is True  # the site rates bot matches here
    match = client.get(f"/api/matches/{body['match']}/").json()
    players = {
        match["white"]["username"]: match["white"],
        match["black"]["username"]: match["black"],
    }
    assert players["gnubg-world-class"]["is_bot"] is True
    assert players[player.username]["is_bot"] is False
    assert client.get("/api/me/").json()["is_bot"] is False


def test_without_gnubg_bots_are_unavailable_and_a_challenge_is_refused_with_the_reason(
    bots: dict[str, Bot], no_gnubg: None, player: User, player_client: Client
) -> None:
    client = token_client(player)
    response = client.post("/api/challenges/", {"opponent": "gnubg-expert"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "bots_unavailable"
    assert "GNU Backgammon is not installed" in response.json()["detail"]
    assert not Challenge.objects.exists() and not Match.objects.exists()
    assert all(row["available"] is False for row in client.get("/api/bots/").json())
    page = player_client.get("/computer/").content.decode()
    assert "unavailable" in page
    profile = player_client.get("/players/gnubg-expert/").content.decode()
    assert "GNU Backgammon is not installed here" in profile
    assert "Challenge this player" not in profile
    form = player_client.get("/challenges/new/").content.decode()
    assert "(unavailable)" in form
    # Everything else works: a challenge to a person is made.
    other = User.objects.create_user("dora", "dora@example.com", "x")
    assert (
        client.post("/api/challenges/", {"opponent": other.username}, format="json").status_code
        == 201
    )


def test_a_bot_refuses_a_variant_gnubg_cannot_play(
    bots: dict[str, Bot], gnubg_here: None, player: User
) -> None:
    player.language = User.Language.SPANISH
    player.save(update_fields=["language"])
    client = token_client(player)
    response = client.post(
        "/api/challenges/",
        {"opponent": "gnubg-beginner", "variant": "hypergammon"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "bot_refuses"
    assert response.json()["detail"] == "GNU Backgammon no juega a Hypergammon."
    assert not Challenge.objects.exists()


def test_bots_are_on_the_leaderboard_only_when_their_matches_are_rated(
    bots: dict[str, Bot], player: User, settings: Settings
) -> None:
    for user in (player, bots["expert"].user):
        PlayerStats.objects.update_or_create(
            player=user, defaults={"rated_matches": 50, "rating": 1600}
        )
    client = Client()

    def names() -> list[str]:
        rows = client.get("/api/stats/leaderboard/").json()["results"]
        return [row["username"] for row in rows]

    assert names() == [player.username]
    settings.BOT_MATCHES_RATED = True
    assert set(names()) == {player.username, "gnubg-expert"}
    page = client.get("/stats/leaderboard/").content.decode()
    assert 'class="badge bot-badge"' in page
    directory = client.get("/players/?q=gnubg").content.decode()
    assert 'class="badge bot-badge"' in directory


def test_a_bot_gets_no_email_and_cannot_sign_in(bots: dict[str, Bot]) -> None:
    for bot in bots.values():
        assert bot.user.is_bot and bot.user.email == ""
        assert bot.user.notify == User.Notify.NONE
        assert not bot.user.has_usable_password()
    services.bots_create()
    assert Bot.objects.count() == len(bots)  # idempotent


def test_a_person_with_a_bots_username_keeps_their_account(db: None) -> None:
    person = User.objects.create_user("GNUBG-Expert", "me@example.com", "secret")
    levels = {bot.level for bot in services.bots_create()}
    assert "expert" not in levels and "beginner" in levels
    person.refresh_from_db()
    assert not person.is_bot and person.has_usable_password()


@pytest.mark.parametrize(
    ("language", "expert"),
    [("en", "GNU Backgammon (Expert)"), ("es", "GNU Backgammon (Experto)")],
)
def test_a_bots_level_is_named_in_the_readers_language(
    bots: dict[str, Bot], player: User, player_client: Client, language: str, expert: str
) -> None:
    """A bot's name is the site's label of its level: every level has one, and the page
    of the computer players and a match against one say it in the reader's language."""
    assert set(services.BOT_NAMES) == set(bots) == set(services.decisions.LEVELS)
    assert bots["expert"].user.display_name == "GNU Backgammon (Expert)"
    player.language = language
    player.save(update_fields=["language"])
    listed = player_client.get("/computer/").content.decode()
    for bot in bots.values():
        with translation.override(language):
            assert gettext(services.BOT_NAMES[bot.level]) in listed
    assert expert in listed
    match = Match.objects.create(
        white=player, black=bots["expert"].user, length=1, created_at=timezone.now()
    )
    assert expert in player_client.get(match.get_absolute_url()).content.decode()


def test_on_a_phone_each_figure_of_the_computer_page_says_what_it_is(
    bots: dict[str, Bot], gnubg_here: None, player_client: Client
) -> None:
    """Issue 26: a phone showed bare "0" and "0.06". Each row of the table becomes a card
    there, and each cell is labelled by its column (data-label)."""
    import re

    page = player_client.get("/computer/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    table = page[page.index('<table class="stack">') : page.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]  # the heading row aside
    assert len(rows) == len(bots)
    for row in rows:
        cells = re.findall(r"<td([^>]*)>(.*?)</td>", row, re.S)
        labels = [re.search(r'data-label="([^"]*)"', attrs) for attrs, _text in cells]
        assert [m.group(1) if m else None for m in labels] == [
            None,  # the title cell heads the card
            "Look-ahead (plies)",
            "Noise",
            None,  # the Challenge link
        ]
