"""Knock-outs through the services: seeding by rating, byes to the top seeds, each match
paired as soon as both its players are known, a time-out, a withdrawal, an adjudication,
and the places."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from backgammon.errors import Conflict, NotFound
from gammon import Color
from matches import clock, moderator_actions
from matches.bots import bot_act
from matches.models import Match, Vacation
from notifications.models import Notification
from tournaments import registration
from tournaments.models import Entry, Pairing, Tournament

from .helpers import START, entry, live, play_all, play_out, run

pytestmark = pytest.mark.django_db


def names(pairing: Pairing) -> tuple[str, str]:
    assert pairing.black is not None
    return (pairing.white.player.username, pairing.black.player.username)


def test_an_eight_player_knockout_is_seeded_and_played_to_its_winner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, field = run(monkeypatch, "knockout", 8)
    assert tournament.status == Tournament.Status.RUNNING
    first = live(tournament)
    assert sorted(tuple(sorted(names(p))) for p in first) == [
        ("p01", "p08"),
        ("p02", "p07"),
        ("p03", "p06"),
        ("p04", "p05"),
    ]
    assert [e.player.username for e in tournament.entries.order_by("seed")] == [
        f"p{k:02d}" for k in range(1, 9)
    ]
    rng = random.Random(3)
    # Matches 0 and 1 of round 1 feed match 0 of round 2: it starts with nobody else done.
    by_index = {p.index: p for p in first}
    play_out(by_index[0].match, rng)  # type: ignore[arg-type]
    assert not tournament.pairings.filter(round=2).exists()
    play_out(by_index[1].match, rng)  # type: ignore[arg-type]
    second = tournament.pairings.get(round=2)
    assert second.index == 0 and second.match is not None
    assert tournament.pairings.filter(round=1, winner__isnull=True).count() == 2

    play_all(tournament, seed=4)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    final = tournament.pairings.get(round=3)
    assert tournament.winner_id == final.winner.player_id  # type: ignore[union-attr]
    ranks = sorted(tournament.entries.values_list("rank", flat=True))
    assert ranks == [1, 2, 3, 3, 5, 5, 5, 5]
    assert tournament.pairings.count() == 7
    told = Notification.objects.filter(kind=Notification.Kind.TOURNEY_RESULT).count()
    assert told == 8


def notified(kind: str, round_: int) -> list[str]:
    """Who has had the notice ``kind`` about ``round_``, by username (one line each)."""
    rows = Notification.objects.filter(kind=kind, payload__round=round_)
    return sorted(rows.values_list("recipient__username", flat=True))


def test_a_winner_hears_at_once_they_are_through_and_later_of_their_next_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, _ = run(monkeypatch, "knockout", 8)
    by_index = {p.index: p for p in live(tournament)}
    rng = random.Random(3)
    play_out(by_index[0].match, rng)  # type: ignore[arg-type]
    first = tournament.pairings.get(pk=by_index[0].pk).winner.player.username  # type: ignore[union-attr]
    # Through, while the next opponent is still playing: no match to announce yet.
    assert notified(Notification.Kind.TOURNEY_ADVANCED, 2) == [first]
    assert notified(Notification.Kind.TOURNEY_MATCH, 2) == []

    play_out(by_index[1].match, rng)  # type: ignore[arg-type]
    second = tournament.pairings.get(pk=by_index[1].pk).winner.player.username  # type: ignore[union-attr]
    # Both are told of the match they start; the second winner, whose match starts at
    # once, hears nothing else (one notice for one event), the first nothing twice.
    assert notified(Notification.Kind.TOURNEY_ADVANCED, 2) == [first]
    assert notified(Notification.Kind.TOURNEY_MATCH, 2) == sorted([first, second])

    play_all(tournament, seed=4)
    champion = tournament.pairings.get(round=3).winner.player.username  # type: ignore[union-attr]
    final = tournament.pairings.get(round=3)
    finalists = sorted(e.player.username for e in (final.white, final.black))  # type: ignore[union-attr]
    # The first semi-final's winner heard they were through; both of the final itself.
    assert len(notified(Notification.Kind.TOURNEY_ADVANCED, 3)) == 1
    assert set(notified(Notification.Kind.TOURNEY_ADVANCED, 3)) < set(finalists)
    assert notified(Notification.Kind.TOURNEY_MATCH, 3) == finalists
    # The final's winner is told the result, not that they are through to a fourth round.
    assert notified(Notification.Kind.TOURNEY_ADVANCED, 4) == []
    assert champion in finalists


def test_a_thirteen_player_knockout_with_byes_a_timeout_a_withdrawal_and_a_ruling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, field = run(monkeypatch, "knockout", 13, days_per_move=1)
    first = live(tournament)
    # a 16 bracket: the top three seeds have byes; 2 v 3's second-round pair needs no one
    in_round_1 = {u for p in first if p.round == 1 for u in names(p)}
    assert {"p01", "p02", "p03"}.isdisjoint(in_round_1) and len(in_round_1) == 10
    assert not any(p.round == 2 for p in first)

    # A time-out: the player on turn in one match lets the clock run out, while in the
    # others someone has acted since (their deadlines are later).
    rng = random.Random(6)
    for pairing in first[1:]:
        assert pairing.match is not None
        bot_act(pairing.match.current_game, rng, START + timedelta(hours=1))  # type: ignore[arg-type]
    timed = first[0].match
    assert timed is not None
    game = timed.current_game
    assert game is not None and game.deadline_at is not None
    assert clock.games_expire_overdue(now=game.deadline_at + timedelta(seconds=1)) == 1
    timed.refresh_from_db()
    assert timed.termination == "timeout"
    assert tournament.pairings.get(match=timed).winner is not None

    # A withdrawal: the player forfeits the match in play, and is out.
    quitter = first[1].white.player
    registration.tournament_withdraw(tournament_id=tournament.pk, user=quitter, now=START)
    assert entry(tournament, quitter).status == Entry.Status.WITHDRAWN
    forfeited = tournament.pairings.get(pk=first[1].pk)
    assert forfeited.winner_id == first[1].black_id

    # A moderator's ruling: the match is awarded to White.
    ruled = first[2].match
    assert ruled is not None
    moderator_actions.match_adjudicate(match_id=ruled.pk, winner=Color.WHITE, now=START)
    assert tournament.pairings.get(match=ruled).winner_id == first[2].white_id

    with pytest.raises(NotFound):  # withdrawn already
        registration.tournament_withdraw(tournament_id=tournament.pk, user=quitter, now=START)
    out = first[2].black
    assert out is not None
    with pytest.raises(Conflict) as eliminated:  # out already: nothing to withdraw from
        registration.tournament_withdraw(tournament_id=tournament.pk, user=out.player, now=START)
    assert eliminated.value.code == "out"

    play_all(tournament, seed=5)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    assert tournament.pairings.filter(match__isnull=False).count() == 12
    byes = tournament.pairings.filter(black__isnull=True, round=1)
    assert sorted(b.winner.player.username for b in byes) == ["p01", "p02", "p03"]  # type: ignore[union-attr]
    rounds = {}
    for p in tournament.pairings.all():
        for e in filter(None, (p.white_id, p.black_id)):
            assert (p.round, e) not in rounds, "a player paired twice in a round"
            rounds[(p.round, e)] = p.pk
    assert Match.objects.filter(status=Match.Status.PLAYING).count() == 0


@pytest.mark.parametrize("away", [True, False])
def test_the_next_match_starts_its_clock_around_the_players_vacations(
    monkeypatch: pytest.MonkeyPatch, away: bool
) -> None:
    """The next round's match is paired in the finishing move's transaction, and its first
    deadline waits out a vacation of either player, as any match's does."""
    tournament, field = run(monkeypatch, "knockout", 4, days_per_move=2)
    now = START + timedelta(hours=1)  # when play_out finishes the matches
    if away:
        for user in field:  # everyone is away for a week from the first round's end
            Vacation.objects.create(
                user=user,
                start=now.date(),
                end=now.date() + timedelta(days=6),
                starts_at=now,
                ends_at=now + timedelta(days=7),
                created_at=now,
            )
    rng = random.Random(3)
    for pairing in live(tournament):
        play_out(pairing.match, rng, actions=0)
    (final,) = live(tournament)
    assert final.round == 2
    assert final.match is not None
    game = final.match.games.get()
    expected = now + timedelta(days=2) + (timedelta(days=7) if away else timedelta())
    assert game.deadline_at == expected
