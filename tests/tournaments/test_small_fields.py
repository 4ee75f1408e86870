"""Every format with 0, 1, 2 (and for groups 3) players: the page and the API answer at
each step, registering and withdrawing, at the start, and to the end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from tests.matches.api_helpers import token_client
from tournaments import advance, creation, registration
from tournaments.models import Entry, Tournament

from .helpers import NOW, START, live, moderator, play_all, play_out, players

pytestmark = pytest.mark.django_db

FORMATS: dict[str, dict[str, Any]] = {
    "knockout": {"format": "knockout"},
    "round_robin": {"format": "round_robin"},
    "groups": {"format": "round_robin", "group_size": 2, "knockout_after": True},
    "swiss": {"format": "swiss", "rounds": 1},
}


def cup(kind: str) -> Tournament:
    return creation.tournament_create(
        creator=moderator(), now=NOW, name="Small cup", starts_at=START, length=1,
        min_players=2, **FORMATS[kind],
    )  # fmt: skip


def answers(tournament: Tournament) -> dict[str, Any]:
    """The page (200) and the API's tournament (200), whose body is returned."""
    page = Client().get(tournament.get_absolute_url())
    assert page.status_code == 200, page.content.decode()[:3000]
    api = APIClient().get(f"/api/tournaments/{tournament.pk}/")
    assert api.status_code == 200, api.content.decode()[:3000]
    body: dict[str, Any] = api.json()
    return body


@pytest.mark.parametrize("kind", list(FORMATS))
def test_registering_and_withdrawing_down_to_one_player_answers(kind: str) -> None:
    tournament = cup(kind)
    assert answers(tournament)["standings"] == []
    first, second = (token_client(user) for user in players(2))
    entered = first.post(f"/api/tournaments/{tournament.pk}/enter")
    assert entered.status_code == 200, entered.content.decode()[:3000]
    assert [(row["rank"], row["score"]) for row in entered.json()["standings"]] == [(0, 0)]
    assert Entry.objects.filter(tournament=tournament).count() == 1
    assert second.post(f"/api/tournaments/{tournament.pk}/enter").status_code == 200
    assert len(answers(tournament)["standings"]) == 2
    withdrawn = second.post(f"/api/tournaments/{tournament.pk}/withdraw")
    assert withdrawn.status_code == 200, withdrawn.content.decode()[:3000]
    assert withdrawn.json()["players"] == 1 and len(withdrawn.json()["standings"]) == 1


@pytest.mark.parametrize("count", [0, 1])
@pytest.mark.parametrize("kind", list(FORMATS))
def test_too_few_players_cancel_the_start_and_the_pages_still_answer(kind: str, count: int) -> None:
    tournament = cup(kind)
    for user in players(count):
        registration.tournament_register(tournament_id=tournament.pk, user=user, now=NOW)
    advance.tournaments_start_due(now=START)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    body = answers(tournament)
    assert (body["status"], len(body["standings"])) == ("cancelled", count)


@pytest.mark.parametrize("count", [2, 3])
@pytest.mark.parametrize("kind", list(FORMATS))
def test_two_or_three_players_play_every_format_to_its_end(
    monkeypatch: pytest.MonkeyPatch, kind: str, count: int
) -> None:
    from gammon import SeededDice
    from matches import record

    tournament = cup(kind)
    field = players(count)
    for user in field:
        registration.tournament_register(tournament_id=tournament.pk, user=user, now=NOW)
    monkeypatch.setattr(record, "dice", SeededDice(count))
    advance.tournaments_start_due(now=START)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert live(tournament)
    answers(tournament)
    play_all(tournament, seed=count)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.winner_id in {user.pk for user in field}
    ranks = sorted(answers(tournament)["standings"], key=lambda row: row["rank"])
    assert ranks[0]["player"]["username"] == User.objects.get(pk=tournament.winner_id).username


def four_player_swiss(monkeypatch: pytest.MonkeyPatch) -> Tournament:
    """A 3-round Swiss of four players, started: round 1's two matches in play."""
    from gammon import SeededDice
    from matches import record

    tournament = creation.tournament_create(
        creator=moderator(), now=NOW, name="Swiss", format="swiss", starts_at=START,
        length=1, min_players=4, rounds=3,
    )  # fmt: skip
    for user in players(4):
        registration.tournament_register(tournament_id=tournament.pk, user=user, now=NOW)
    monkeypatch.setattr(record, "dice", SeededDice(4))
    advance.tournaments_start_due(now=START)
    return tournament


def withdraw_whites(tournament: Tournament) -> None:
    """The white player of every match in play withdraws (their opponents win)."""
    for pairing in live(tournament):
        registration.tournament_withdraw(
            tournament_id=tournament.pk, user=pairing.white.player, now=START
        )


@pytest.mark.parametrize("last", ["withdraws", "plays"])
def test_a_swiss_that_cannot_pair_its_next_round_ends_on_its_standings(
    monkeypatch: pytest.MonkeyPatch, last: str
) -> None:
    tournament = four_player_swiss(monkeypatch)
    withdraw_whites(tournament)  # two left, who have not met: round 2 pairs them
    (final,) = live(tournament)
    if last == "withdraws":  # one player left for round 3
        withdraw_whites(tournament)
    else:  # the two left have met: no round 3 without a repeat
        play_out(final.match, random.Random(1))  # type: ignore[arg-type]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    final.refresh_from_db()
    assert final.winner is not None and tournament.winner_id == final.winner.player_id
    assert answers(tournament)["round"] == 2
