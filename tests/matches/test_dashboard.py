"""The dashboard (issue 26, items 4 and 8): a new player's first games, and the labels
of a chouette's board and a tournament's match, told in the second person.

A new player's empty dashboard offers to play the computer and lists the open challenges
they could accept. A chouette's board names its chouette and game, says what the board
waits for (the team's vote while it is held, with the vote's deadline) and whether the
reader is in the box or captains the team; a tournament's match names its tournament and
round. What a game belongs to is asked once for the whole list, whatever its length.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from chouettes.models import Seat
from gammon import FixedDice
from matches import record
from tests.chouettes.helpers import seat_table, start
from tests.factories import UserFactory
from tests.tournaments.helpers import live, run

pytestmark = pytest.mark.django_db


def dashboard(user: User, language: str = "en") -> str:
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    response = client.get(reverse("dashboard"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def test_a_new_players_dashboard_offers_the_computer_and_the_open_challenges() -> None:
    carol, dave, newcomer = (UserFactory(username=n) for n in ("carol", "dave", "newcomer"))
    now = timezone.now()
    open_one = challenge_services.challenge_create(challenger=carol, now=now, length=3)
    to_dave = challenge_services.challenge_create(challenger=carol, opponent=dave, now=now)
    own = challenge_services.challenge_create(challenger=newcomer, now=now)
    page = dashboard(newcomer)
    assert 'id="start-game"' in page
    assert f'href="{reverse("bot_list")}" id="play-computer">Play the computer</a>' in page
    assert "No game is waiting for you." not in page  # no empty tables for a new player
    section = page[page.index('id="open-challenges"') :]
    accept = reverse("challenge_accept", args=[open_one.pk])
    assert "Carol" in section and f'action="{accept}"' in section and "3-point match" in section
    for other in (to_dave, own):
        assert reverse("challenge_accept", args=[other.pk]) not in page
    assert "Desafíos abiertos que puedes aceptar" in dashboard(newcomer, "es")


def test_a_lapsed_open_challenge_is_not_offered() -> None:
    carol, newcomer = UserFactory(username="carol"), UserFactory(username="newcomer")
    past = timezone.now() - timedelta(days=30)
    lapsed = challenge_services.challenge_create(challenger=carol, now=past)
    page = dashboard(newcomer)
    assert reverse("challenge_accept", args=[lapsed.pk]) not in page
    assert "No open challenge right now." in page


def test_the_boxs_chouette_board_says_the_team_votes_with_the_votes_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 1, 3)  # bob (the captain, Black) opens
    table.move("bob", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("ann")
    table.move("ann", "24/13")
    page = dashboard(table.users["ann"])
    label = f"Chouette #{table.chouette.pk}, game 1"
    assert f'<a href="/chouettes/{table.chouette.pk}/">{label}</a>: you are in the box' in page
    assert "The team rolls" in page and "Money session" in page
    captain = dashboard(table.users["bob"])
    assert f"{label}</a>: you captain the team" in captain and "Roll or double" in captain

    table.act("team_propose_double", "bob")  # the board is held for cy's vote
    assert table.board.deadline_at is None
    deadline = Seat.objects.get(player=table.users["cy"]).deadline_at
    assert deadline is not None
    box = dashboard(table.users["ann"])
    assert "The team votes on doubling you" in box
    assert f'<time datetime="{deadline.isoformat()}' in box
    assert "Opponent rolls" not in box
    assert "Your team votes on doubling the box" in dashboard(table.users["bob"])
    assert "El equipo vota si te dobla" in dashboard(table.users["ann"], "es")


def test_a_tournament_match_names_its_tournament_and_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, field = run(monkeypatch, "knockout", 4)
    pairing = live(tournament)[0]
    player = pairing.match.white
    page = dashboard(player)
    link = reverse("tournament_detail", args=[tournament.pk])
    assert f'<a href="{link}">Test cup</a>, round 1' in page


def test_the_dashboard_asks_what_its_games_belong_to_once_for_the_whole_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The belongings are one question, each app answering in one query: four games cost
    the queries of one. (Each challenger plays White and wins the opening roll, so every
    game waits for its opponent: both pages have the same lists to fill.)"""
    monkeypatch.setattr(challenge_services.secrets, "randbelow", lambda n: 0)
    monkeypatch.setattr(record, "dice", FixedDice([3, 1] * 4))
    player = UserFactory(username="busy")
    client = Client()
    client.force_login(player)

    def queries() -> int:
        cache.clear()  # the tables drawn again, not read from the cache
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("dashboard")).status_code == 200
        return len(captured)

    def new_match(name: str) -> None:
        now = timezone.now()
        challenge = challenge_services.challenge_create(
            challenger=UserFactory(username=name), opponent=player, now=now
        )
        challenge_services.challenge_accept(challenge_id=challenge.pk, user=player, now=now)

    new_match("first")
    queries()  # the first page of a session writes what the next ones do not
    one = queries()
    for name in ("second", "third", "fourth"):
        new_match(name)
    assert queries() == one
