"""``manage.py replay_chouettes`` finds a chouette whose rows do not follow from its
record, and passes one that does (every test of this package is also checked after it
ran, by the package's conftest)."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from chouettes.models import Decision, Result, Seat
from chouettes.replay import chouette_differences
from matches.models import Game, Match

from .helpers import Table, seat_table, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> Table:
    """A 3-player chouette: game 1 doubled by the team, taken, won by the team; game 2 in
    play with the box's double awaiting answers."""
    table = seat_table(monkeypatch, 3)
    start(table, 1, 3)
    table.move("bob", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("ann")
    table.move("ann", "24/13")
    table.act("team_propose_double", "bob")
    table.roll((6, 5))
    table.act("team_vote", "cy", agree=True)
    table.act("box_answer", "ann", take=True)
    table.set_board(white={13: 15}, black={1: 1})
    table.roll(4, 2)  # game 2: the box (bob) opens
    table.move("bob", "1/off")
    table.move("bob", "8/4 6/4")
    table.roll((6, 5))
    table.roll_board("cy")
    table.move("cy", "24/13")
    table.act("box_double", "bob")
    return table


def test_a_chouette_that_follows_its_record_passes(played: Table) -> None:
    out = StringIO()
    call_command("replay_chouettes", stdout=out)
    assert "1 chouettes checked, 0 differ" in out.getvalue()


@pytest.mark.parametrize(
    ("corrupt", "expected"),
    [
        (lambda t: Result.objects.filter(player=t.users["cy"]).update(points=3), "results"),
        (lambda t: Seat.objects.filter(player=t.users["ann"]).update(games=7), "points in"),
        (
            lambda t: Match.objects.filter(pk=t.game.match_id).update(black=t.users["ann"]),
            "the board's Black",
        ),
        (lambda t: Game.objects.filter(pk=t.board.pk).update(held=False), "held"),
        (
            lambda t: Decision.objects.filter(kind=Decision.Kind.BOX_ANSWER).delete(),
            "results",
        ),
        (
            lambda t: t.game.__class__.objects.filter(pk=t.game.pk).update(
                places={
                    "box": t.users["cy"].pk,
                    "captain": t.users["bob"].pk,
                    "line": [t.users["ann"].pk],
                }
            ),
            "game 2",
        ),
    ],
    ids=["result", "seat", "captain", "hold", "decision", "places"],
)
def test_each_kind_of_drift_is_reported(
    played: Table, corrupt: Callable[[Table], object], expected: str, drifted: None
) -> None:
    corrupt(played)
    problems = chouette_differences(played.chouette)
    assert any(expected in p for p in problems), problems
    with pytest.raises(CommandError, match="1 of 1 chouettes differ"):
        call_command("replay_chouettes", stdout=StringIO())
