"""A chouette's board is resigned at once, never by an offer (issue 26, item 6): an
offer would need each member's answer at their own stake, as the box's double does, so
the board keeps the first rule (a gammon while nothing is borne off), each member
settled at their own cube."""

from __future__ import annotations

import pytest

from backgammon.errors import Conflict
from matches import endings, resignations, selectors
from matches.models import Resignation

from .helpers import seat_table, start

pytestmark = pytest.mark.django_db


def test_a_chouettes_board_takes_no_offer_to_resign_and_resigns_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 3, 1)  # the box (White) opens
    board = table.board
    box = board.match.white
    assert board.match.resignation == Resignation.IMMEDIATE
    assert selectors.game_actions(board, box) == ["move", "resign"]
    with pytest.raises(Conflict) as raised:
        resignations.game_offer_resignation(
            game_id=board.pk, player=box, level=1, expected_ply=board.ply, now=table.tick()
        )
    assert raised.value.code == "resign_outright"
    table.roll(4, 2)  # the next game's opening
    endings.game_resign(game_id=board.pk, player=box, expected_ply=board.ply, now=table.tick())
    board.refresh_from_db()
    assert (board.winner, board.termination, board.points) == (1, "resign", 2)
