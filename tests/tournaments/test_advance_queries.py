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
from stats.services import counters_add
from tournaments import advance

from .helpers import START, live, play_out, run

pytestmark = pytest.mark.django_db

#: A finish that pairs nothing: the tournament locked (found by its match), the pairing
#: with its entries and players, its result, the loser's elimination, the notices, and
#: the query of the feeding matches and the next one.
PAIRS_NOTHING = 6
#: A finish that starts the next match: the same, plus the match, its game and opening
#: roll, the roll's dice counters (locked, then bumped), the players' activity, the first
#: mover's turn notice (the other's of the game read, the mover's last one looked for,
#: to refresh, then written), and the pairing.
PAIRS_A_MATCH = PAIRS_NOTHING + 10


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
    # The opening roll's counters exist, as they do once players have played a while (a
    # counter's first use costs an insert and a read more).
    counters_add(
        [(None, f"opening:{d}") for d in range(1, 7)]
        + [(u.pk, f"opening:{d}") for u in field for d in range(1, 7)],
        amount=0,
    )

    first = advance_statements(monkeypatch, by_index[2].match)  # type: ignore[arg-type]
    assert len(first) == PAIRS_NOTHING, "\n".join(first)
    before = set(Notification.objects.values_list("pk", flat=True))
    second = advance_statements(monkeypatch, by_index[3].match)  # type: ignore[arg-type]
    assert len(second) == PAIRS_A_MATCH, "\n".join(second)
    inserts = [sql for sql in second if 'INTO "notifications_notification"' in sql]
    assert len(inserts) == 2  # the tournament's notices, and the first mover's turn
    told = Notification.objects.exclude(pk__in=before).filter(kind__startswith="tourney_")
    # The loser is out; both players of the new match hear of it, and nothing else.
    assert sorted(told.values_list("kind", flat=True)) == ["tourney_match"] * 2 + ["tourney_out"]
