"""Two tournament matches ending at the same instant on PostgreSQL: each waits for the
other on the tournament row, and the match they both feed is paired exactly once."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from matches import endings
from tournaments import advance
from tournaments.models import Pairing

from .helpers import START, run

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(tasks: list[Callable[[], None]]) -> list[BaseException]:
    barrier = threading.Barrier(len(tasks))
    errors: list[BaseException] = []

    def go(task: Callable[[], None]) -> None:
        try:
            barrier.wait()
            task()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=go, args=(task,)) for task in tasks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive()
    return errors


def test_feeding_matches_ending_together_pair_the_next_one_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, _ = run(monkeypatch, "knockout", 8)
    feeders = list(tournament.pairings.filter(round=1, index__in=(0, 1)).select_related("match"))

    def resign(pairing: Pairing) -> Callable[[], None]:
        def task() -> None:
            match = pairing.match
            assert match is not None
            game = match.games.get()
            endings.game_resign(
                game_id=game.pk,
                player=match.white,
                expected_ply=None,
                now=START,
                whole_match=True,
            )

        return task

    assert run_together([resign(p) for p in feeders]) == []
    assert tournament.pairings.filter(round=2).count() == 1
    assert advance.tournaments_advance(now=START) == 0  # the beat finds nothing left
    assert tournament.pairings.filter(round=2).count() == 1
