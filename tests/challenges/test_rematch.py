""" "Rematch" on a finished match: the service, the match page's button and its view."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction, NotFound
from challenges.models import Challenge
from challenges.services import challenge_rematch
from matches.models import Match
from tests.stats.helpers import match_resign, match_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(player: User, opponent: User) -> Match:
    match = match_start(
        player, opponent, length=0, cube_limit=None, jacoby=True, days_per_move=5, rated=False
    )
    return match_resign(match, opponent)


def test_it_offers_the_opponent_a_match_with_the_same_options(
    finished: Match, player: User, opponent: User
) -> None:
    challenge = challenge_rematch(match_id=finished.pk, user=opponent, now=timezone.now())
    assert challenge.challenger == opponent and challenge.opponent == player
    assert challenge.status == Challenge.Status.OPEN
    assert (challenge.length, challenge.cube_limit, challenge.jacoby) == (0, None, True)
    assert (challenge.days_per_move, challenge.rated, challenge.variant) == (5, False, "standard")


def test_it_refuses_a_match_still_in_play(player: User, opponent: User) -> None:
    match = match_start(player, opponent)
    with pytest.raises(Conflict, match="still in play"):
        challenge_rematch(match_id=match.pk, user=player, now=timezone.now())
    assert Challenge.objects.filter(status=Challenge.Status.OPEN).count() == 0


def test_it_refuses_someone_who_did_not_play(finished: Match, outsider: User) -> None:
    with pytest.raises(Forbidden):
        challenge_rematch(match_id=finished.pk, user=outsider, now=timezone.now())


def test_it_refuses_a_missing_match(player: User) -> None:
    with pytest.raises(NotFound):
        challenge_rematch(match_id=10**9, user=player, now=timezone.now())


def test_it_does_not_offer_the_same_rematch_twice(finished: Match, player: User) -> None:
    challenge_rematch(match_id=finished.pk, user=player, now=timezone.now())
    with pytest.raises(Conflict, match="already offered"):
        challenge_rematch(match_id=finished.pk, user=player, now=timezone.now())
    assert Challenge.objects.filter(challenger=player, status="open").count() == 1


def test_it_refuses_an_opponent_who_is_gone(finished: Match, player: User, opponent: User) -> None:
    User.objects.filter(pk=opponent.pk).update(is_active=False)
    with pytest.raises(InvalidAction):
        challenge_rematch(match_id=finished.pk, user=player, now=timezone.now())


def test_the_match_page_shows_the_button_to_its_players_only(
    finished: Match, player: User, outsider: User
) -> None:
    url = f"/matches/{finished.pk}/"
    client = Client()
    assert b"/rematch/" not in client.get(url).content  # a visitor
    client.force_login(outsider)
    assert b"/rematch/" not in client.get(url).content
    client.force_login(player)
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'action="/matches/{finished.pk}/rematch/"' in html and ">Rematch<" in html


def test_a_match_in_play_shows_no_button(player: User, opponent: User) -> None:
    match = match_start(player, opponent)
    client = Client()
    client.force_login(player)
    assert b"/rematch/" not in client.get(f"/matches/{match.pk}/").content


def test_the_button_sends_the_challenge(finished: Match, player: User, opponent: User) -> None:
    client = Client()
    client.force_login(player)
    response = client.post(f"/matches/{finished.pk}/rematch/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302 and response["Location"] == "/challenges/"
    assert Challenge.objects.filter(challenger=player, opponent=opponent, status="open").exists()


def test_a_refused_rematch_is_the_match_page_with_the_reason(player: User, opponent: User) -> None:
    match = match_start(player, opponent)
    client = Client()
    client.force_login(player)
    response = client.post(f"/matches/{match.pk}/rematch/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409
    assert b"This match is still in play" in response.content
    assert client.post("/matches/999999/rematch/").status_code == 404
