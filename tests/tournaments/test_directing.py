"""A tournament's director acts on their own tournaments, a moderator on any, and no one
on a tournament they play in (code ``stake``): cancelling it and replacing a player, as
the moderation app calls them, and stopping a repeating one (``test_repeating``)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from accounts.models import User
from backgammon.errors import Forbidden
from matches.models import Match
from tests.factories import UserFactory
from tournaments import creation, directing, registration
from tournaments.models import Entry, Tournament

from .helpers import NOW, START, run, staff_moderator

pytestmark = pytest.mark.django_db


def other_director() -> User:
    user = UserFactory(username="otherdirector")
    user.user_permissions.add(Permission.objects.get(codename="manage_tournament"))
    return User.objects.get(pk=user.pk)


def waiting_player(tournament: Tournament) -> User:
    """The player of the first match who has not moved yet (replaceable)."""
    pairing = tournament.pairings.order_by("index").first()
    assert pairing is not None and pairing.match is not None
    match = pairing.match
    return match.black if match.games.get().turn == 0 else match.white


def test_a_director_cancels_their_own_tournament_and_no_other_directors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, _ = run(monkeypatch, "knockout", 4)
    with pytest.raises(Forbidden):
        directing.tournament_cancel(
            tournament_id=tournament.pk, actor=other_director(), reason="Mine now.", now=START
        )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert Match.objects.filter(status=Match.Status.PLAYING).count() == 2
    directing.tournament_cancel(
        tournament_id=tournament.pk, actor=tournament.created_by, reason="Too slow.", now=START
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED


def test_another_director_may_not_replace_a_player_but_a_moderator_may(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, _ = run(monkeypatch, "knockout", 4)
    waiting, newcomer = waiting_player(tournament), UserFactory(username="newcomer")
    with pytest.raises(Forbidden):
        directing.entry_replace(
            tournament_id=tournament.pk, actor=other_director(), player=waiting, by=newcomer,
            now=START,
        )  # fmt: skip
    assert Entry.objects.filter(tournament=tournament, player=waiting).exists()
    entry = directing.entry_replace(
        tournament_id=tournament.pk, actor=staff_moderator(), player=waiting, by=newcomer,
        now=START,
    )  # fmt: skip
    assert entry.player == newcomer


def test_a_moderator_who_plays_in_the_tournament_does_not_act_on_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mona = staff_moderator()
    tournament = creation.tournament_create(
        creator=mona, now=NOW, name="Staff cup", format="knockout", starts_at=START,
        length=1, min_players=2,
    )  # fmt: skip
    registration.tournament_register(tournament_id=tournament.pk, user=mona, now=NOW)
    for username in ("p1", "p2", "p3"):
        registration.tournament_register(
            tournament_id=tournament.pk, user=UserFactory(username=username), now=NOW
        )
    from tournaments import advance

    advance.tournaments_start_due(now=START)
    tournament.refresh_from_db()
    waiting, newcomer = waiting_player(tournament), UserFactory(username="newcomer")
    with pytest.raises(Forbidden) as replaced:
        directing.entry_replace(
            tournament_id=tournament.pk, actor=mona, player=waiting, by=newcomer, now=START
        )
    with pytest.raises(Forbidden) as cancelled:
        directing.tournament_cancel(tournament_id=tournament.pk, actor=mona, reason="x", now=START)
    assert replaced.value.code == cancelled.value.code == "stake"
    assert replaced.value.status == 403 and "another moderator" in str(replaced.value)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert not Entry.objects.filter(player=newcomer).exists()
    # Another moderator, who plays in nothing, may.
    directing.tournament_cancel(
        tournament_id=tournament.pk, actor=staff_moderator("max"), reason="Stake.", now=START
    )


def test_a_moderator_who_directs_but_does_not_play_may_act_and_not_enter_themselves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, _ = run(monkeypatch, "knockout", 4)
    director = tournament.created_by
    director.is_staff = True
    director.save(update_fields=["is_staff"])
    waiting = waiting_player(tournament)
    with pytest.raises(Forbidden) as themselves:
        directing.entry_replace(
            tournament_id=tournament.pk, actor=director, player=waiting, by=director, now=START
        )
    assert themselves.value.code == "stake"
    assert not Entry.objects.filter(player=director).exists()
    entry = directing.entry_replace(
        tournament_id=tournament.pk, actor=director, player=waiting,
        by=UserFactory(username="newcomer"), now=START,
    )  # fmt: skip
    assert entry.player.username == "newcomer"
