"""How many SQL statements a knock-out's advance costs inside the finishing move
(bench/tournaments.py times it): the tournament found and locked in one query, and the
advance's notices (the loser's, the winner's, the new match's) written in one ``INSERT``."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import endings
from matches.models import Match
from notifications.models import Notification
from tournaments import advance

from .helpers import START, live, play_out, run

pytestmark = pytest.mark.django_db

#: A finish that pairs nothing: the tournament locked (found by its match), the pairing
#: with its entries and players, its result, the loser's elimination, the notices, and
#: the query of the feeding matches and the next one.
PAIRS_NOTHING = 6
#: A finish that starts the next match: the same, plus the match, its game, its opening
#: roll, and the pairing. The first mover's turn notice goes into the notices' one
#: ``INSERT`` (a new game has no notice to refresh), and the dice are counted later, by
#: the beat (stats/dice.py).
PAIRS_A_MATCH = PAIRS_NOTHING + 4


def advance_statements(monkeypatch: pytest.MonkeyPatch, match: Match) -> list[str]:
    """The statements of ``pairing_finished`` alone, as the match is resigned."""
    seen: list[str] = []
    original = advance.pairing_finished

    def counted(finished: Match, now: Any) -> Any:
        with CaptureQueriesContext(connection) as queries:
            result = original(finished, now)
        seen.extend(q["sql"] for q in queries.captured_queries)
        return result

    monkeypatch.setattr(advance, "pairing_finished", counted)
    match.refresh_from_db()
    game = match.current_game
    assert game is not None
    endings.game_resign(
        game_id=game.pk,
        player=match.white,
        expected_ply=None,
        now=START + timedelta(hours=1),
        whole_match=True,
    )
    monkeypatch.setattr(advance, "pairing_finished", original)
    return seen


def test_a_knockout_advance_reads_and_writes_each_thing_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, field = run(monkeypatch, "knockout", 8)
    by_index = {p.index: p for p in live(tournament)}
    rng = random.Random(3)
    play_out(by_index[0].match, rng)  # type: ignore[arg-type]

    first = advance_statements(monkeypatch, by_index[2].match)  # type: ignore[arg-type]
    assert len(first) == PAIRS_NOTHING, "\n".join(first)
    before = set(Notification.objects.values_list("pk", flat=True))
    second = advance_statements(monkeypatch, by_index[3].match)  # type: ignore[arg-type]
    assert len(second) == PAIRS_A_MATCH, "\n".join(second)
    inserts = [sql for sql in second if 'INTO "notifications_notification"' in sql]
    assert len(inserts) == 1  # the tournament's notices with the first mover's turn
    told = Notification.objects.exclude(pk__in=before).exclude(kind="match_over")
    # Beside the finished match's ends: the loser is out; both players of the new match
    # hear of it, the first mover that it is their turn, and nothing else.
    assert sorted(told.values_list("kind", flat=True)) == sorted(
        ["tourney_match"] * 2 + ["tourney_out", "your_turn"]
    )
    new = Match.objects.get(tournament_pairing__round=2, tournament_pairing__index=1)
    game = new.current_game
    assert game is not None
    turn = told.get(kind="your_turn")
    assert (turn.game, turn.recipient) == (game, new.player(game.turn_color))
    assert not [sql for sql in second if "stats_counter" in sql]
