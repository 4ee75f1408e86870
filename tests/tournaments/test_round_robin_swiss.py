"""Round-robin groups and Swiss rounds through the services."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from matches.models import Match
from tournaments import advance, registration
from tournaments.models import Entry, Pairing, Tournament

from .helpers import START, entry, live, play_all, play_out, run

pytestmark = pytest.mark.django_db


def test_a_five_player_round_robin_plays_everyone_at_once_and_ranks_the_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, field = run(monkeypatch, "round_robin", 5, length=3)
    matches = live(tournament)
    assert len(matches) == 10
    pairs = {frozenset((p.white.player_id, p.black.player_id)) for p in matches}  # type: ignore[union-attr]
    assert pairs == {frozenset((a.pk, b.pk)) for a, b in combinations(field, 2)}
    whites = [p.white.player_id for p in matches]
    assert sorted(whites.count(u.pk) for u in field) == [2, 2, 2, 2, 2]

    rng = random.Random(9)
    quitter = field[4]
    played = [p for p in matches if quitter.pk in (p.white.player_id, p.black.player_id)][:1]
    play_out(played[0].match, rng)  # type: ignore[arg-type]
    registration.tournament_withdraw(tournament_id=tournament.pk, user=quitter, now=START)
    theirs = [
        p
        for p in tournament.pairings.all()
        if quitter.pk in (p.white.player_id, p.black.player_id)  # type: ignore[union-attr]
    ]
    assert all(p.winner_id is not None for p in theirs)  # the rest forfeited, results stand
    assert tournament.pairings.get(pk=played[0].pk).finished_at is not None

    play_all(tournament, seed=2)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    table = advance.group_tables(tournament)[1]
    ranks = {row.player: row.rank for row in table}
    for e in tournament.entries.all():
        assert e.rank == ranks[e.pk]
    assert tournament.winner_id == Entry.objects.get(pk=table[0].player).player_id
    wins = [row.wins for row in table]
    assert wins == sorted(wins, reverse=True) and sum(wins) == 10


def test_groups_whose_winners_play_a_knockout(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament, field = run(monkeypatch, "round_robin", 6, group_size=3, knockout_after=True)
    assert sorted(tournament.entries.values_list("group", flat=True)) == [1, 1, 1, 2, 2, 2]
    assert tournament.pairings.filter(stage="group").count() == 6
    play_all(tournament, seed=3)
    tournament.refresh_from_db()
    final = tournament.pairings.get(stage="knockout")
    tables = advance.group_tables(tournament)
    assert {final.white_id, final.black_id} == {tables[1][0].player, tables[2][0].player}
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.winner_id == final.winner.player_id  # type: ignore[union-attr]


def test_a_ten_player_four_round_swiss_pairs_each_round_after_the_last_with_no_repeats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, field = run(monkeypatch, "swiss", 10, rounds=4, min_players=6)
    rng = random.Random(11)
    for round_ in range(1, 5):
        current = live(tournament)
        assert {p.round for p in current} == {round_}
        assert len(current) == 5
        for pairing in current:
            assert not tournament.pairings.filter(round=round_ + 1).exists()
            play_out(pairing.match, rng)  # type: ignore[arg-type]
        tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    met = [
        frozenset((p.white_id, p.black_id))
        for p in tournament.pairings.all()
        if p.black_id is not None
    ]
    assert len(met) == len(set(met)) == 20
    table = advance.swiss_table(tournament)
    assert [row.rank for row in table] == list(range(1, 11))
    assert sum(row.score for row in table) == 20
    assert entry(tournament, field[0]).rank is not None


def test_an_odd_swiss_gives_one_bye_a_round(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament, _ = run(monkeypatch, "swiss", 5, rounds=2, min_players=3)
    byes = tournament.pairings.filter(black__isnull=True)
    assert byes.count() == 1 and byes.get().forfeit
    play_all(tournament, seed=7)
    assert Pairing.objects.filter(black__isnull=True).count() == 2
    assert len(set(Pairing.objects.filter(black__isnull=True).values_list("white", flat=True))) == 2
    assert Match.objects.filter(status=Match.Status.PLAYING).count() == 0
