"""A chouette's boards count in the chouette's own points, never in the players' record
(their dice count for the site only): the live counters skip them, and the recount
(``recount_stats``) agrees, because both ask ``stats.services`` which matches count
(issue 25)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from matches import endings
from matches.models import Game, Match
from stats import services
from stats.models import Counter, PlayerStats
from stats.recount import counters_expected, stats_differences
from tests.chouettes.helpers import seat_table, start
from tests.stats.helpers import count_dice, match_resign, match_start

pytestmark = pytest.mark.django_db


def test_chouette_games_leave_the_record_alone_and_the_recount_clean(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 1, 3)  # game 1: ann the box, bob captain (on roll with 3-1), cy in line
    table.move("bob", "8/5 6/5")
    table.act("box_double", "ann")  # each member answers: both drop, the game is over
    table.act("team_answer", "cy", take=False)
    table.roll(3, 1)  # game 2's opening
    table.act("team_answer", "bob", take=False)
    # Game 2 (ann the box again, cy captain, bob in line): the team doubles, the box drops.
    assert table.places() == ("ann", "cy", ("bob",))
    table.move("ann", "8/5 6/5")
    table.act("team_propose_double", "cy")
    table.act("team_vote", "bob", agree=True)
    table.roll(2, 1)  # game 3's opening
    table.act("box_answer", "ann", take=False)
    # Game 3: the box doubles, the captain drops and the next in line takes: the board's
    # Black changes hands (so its dice count for the site only); then the box resigns.
    box, captain, line = table.places()
    table.move(box, "13/11 6/5")
    table.roll((6, 5))
    table.roll_board(captain)
    table.move(captain, "24/13")
    table.act("box_double", box)
    table.act("team_answer", captain, take=False)
    table.roll((4, 2))  # the doubler rolls once the double is taken
    table.act("team_answer", line[0], take=True)
    board = table.board
    assert board.match.black == table.users[line[0]]
    table.roll(5, 2)  # game 4's opening
    endings.game_resign(
        game_id=board.pk, player=board.match.white, expected_ply=board.ply, now=table.tick()
    )
    boards = Match.objects.filter(chouette=True, status=Match.Status.FINISHED)
    assert boards.count() == 3
    # An ordinary match beside them, counted as ever.
    table.roll(6, 1)
    ordinary = match_resign(
        match_start(table.users["ann"], table.users["bob"], length=3), table.users["ann"]
    )

    assert not services.counts(boards.first())  # type: ignore[arg-type]
    assert services.counts(ordinary)
    assert set(services.counted(Match.objects.all())) == {ordinary}
    games = services.counted(Game.objects.all(), "match").filter(state=Game.State.FINISHED)
    assert {g.match_id for g in games} == {ordinary.pk}

    # The players' record holds the ordinary match only.
    count_dice()
    expected = counters_expected()
    matches = {
        key: n for (player, key), n in expected.items() if player is None and "match:" in key
    }
    assert matches == {f"match:standard:{ordinary.result}": 1}
    cy = table.users["cy"]
    for prefix in ("game:", "match:", "roll:", "opening:"):
        assert not Counter.objects.filter(player=cy, key__startswith=prefix).exists()
    assert Counter.objects.filter(player=None, key__startswith="roll:").exists()
    assert stats_differences() == []
    out = StringIO()
    call_command("recount_stats", stdout=out)  # raises CommandError on any difference
    call_command("recount_stats", "--repair", stdout=out)
    assert "Repaired" not in out.getvalue()
    assert not Counter.objects.filter(player=cy, key__startswith="game:").exists()
    assert PlayerStats.objects.get(player=cy).rated_matches == 0
