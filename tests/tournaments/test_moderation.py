"""Moderators and tournaments: a match adjudicated advances the tournament, a player
replaced before their first move, a tournament cancelled; each audited, from the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.models import User
from matches.models import Match
from moderation import rulings
from moderation.models import AuditEntry
from moderation.permissions import MODERATORS_GROUP
from tests.factories import UserFactory
from tournaments.models import Entry, Tournament

from .helpers import START, run

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(db: None) -> User:
    user = UserFactory(username="mona", is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return user


@pytest.fixture
def moderator_client(moderator: User) -> Client:
    client = Client()
    client.force_login(moderator)
    return client


def test_an_adjudicated_match_is_audited_and_advances_the_tournament(
    monkeypatch: pytest.MonkeyPatch, moderator: User
) -> None:
    tournament, _ = run(monkeypatch, "knockout", 4)
    top, bottom = tournament.pairings.order_by("index")
    for pairing in (top, bottom):
        assert pairing.match is not None
        rulings.match_adjudicate(
            moderator=moderator, match=pairing.match, decision="white", reason="Abandoned.",
            now=START,
        )  # fmt: skip
    assert AuditEntry.objects.filter(action="moderation.match.adjudicated").count() == 2
    final = tournament.pairings.get(round=2)
    assert {final.white_id, final.black_id} == {top.white_id, bottom.white_id}


def test_a_player_is_replaced_from_the_admin_before_their_first_move(
    monkeypatch: pytest.MonkeyPatch, moderator: User, moderator_client: Client
) -> None:
    tournament, field = run(monkeypatch, "knockout", 4)
    pairing = tournament.pairings.order_by("index").first()
    assert pairing is not None and pairing.match is not None
    waiting = pairing.match.black if pairing.match.games.get().turn == 0 else pairing.match.white
    newcomer = UserFactory(username="newcomer")
    url = reverse("admin:tournaments_tournament_replace-player", args=[tournament.pk])
    response = moderator_client.post(
        url, {"username": waiting.username, "replacement": "newcomer", "reason": "Ill."}
    )
    assert response.status_code == 302
    entry = Entry.objects.get(tournament=tournament, player=newcomer)
    assert entry.seed is not None
    pairing.refresh_from_db()
    assert pairing.match is not None and pairing.match.status == Match.Status.PLAYING
    assert newcomer.pk in (pairing.match.white_id, pairing.match.black_id)
    audit = AuditEntry.objects.get(action="moderation.tournament.player_replaced")
    assert (audit.actor, audit.target_user, audit.reason) == (moderator, waiting, "Ill.")


def test_a_cancelled_tournament_cancels_its_matches_in_play(
    monkeypatch: pytest.MonkeyPatch, moderator: User, moderator_client: Client
) -> None:
    tournament, _ = run(monkeypatch, "round_robin", 4)
    url = reverse("admin:tournaments_tournament_cancel", args=[tournament.pk])
    assert moderator_client.post(url, {"reason": "Server trouble."}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert not Match.objects.filter(status=Match.Status.PLAYING).exists()
    assert set(Match.objects.values_list("result", flat=True)) == {"cancelled"}
    audit = AuditEntry.objects.get(action="moderation.tournament.cancelled")
    assert audit.target_id == tournament.pk
    player = UserFactory(username="plain")
    client = Client()
    client.force_login(player)
    assert client.post(url, {"reason": "x"}).status_code in (302, 403)
    assert AuditEntry.objects.filter(action="moderation.tournament.cancelled").count() == 1
