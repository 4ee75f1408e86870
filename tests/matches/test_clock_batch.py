"""The expiry sweep ends match-play games in batches (``endings.games_time_out_batch``,
ORM bulk writes): it must store exactly what the per-game service
(``endings.game_time_out``) stores, in a number of statements that does not grow with
the batch."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, models, transaction
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from challenges import services as challenge_services
from challenges.models import Challenge
from gammon import FixedDice
from matches import clock, endings, record, turns
from matches.models import Game, GameEvent, Match
from notifications.models import Notification
from stats.models import Counter, PlayerStats, RatingHistory
from tests.factories import UserFactory

from .clock_helpers import NOW, start_game, white_opens

LATER = NOW + timedelta(days=10)


def _scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven matches: rated and not, three variants, a time bank, a double pending,
    digest and mute players, one game on time, and a money session (last)."""
    alice, bob, carol = (UserFactory(username=name) for name in ("alice", "bob", "carol"))
    dave = UserFactory(username="dave", notify=User.Notify.DIGEST)
    erin = UserFactory(username="erin", email="", notify=User.Notify.NONE)
    game = start_game(monkeypatch, alice, bob, length=5)
    white_opens(monkeypatch, game, alice, NOW)
    start_game(monkeypatch, alice, carol, length=3, variant="nackgammon")
    game = start_game(monkeypatch, carol, dave, length=7)
    game = white_opens(monkeypatch, game, carol, NOW)
    turns.game_double(game_id=game.pk, player=dave, expected_ply=game.ply, now=NOW)
    start_game(monkeypatch, dave, erin, length=1, rated=False, days_per_move=1, time_bank_days=2)
    start_game(monkeypatch, bob, alice, length=5, variant="hypergammon")
    start_game(monkeypatch, alice, dave, length=5, days_per_move=30)  # not overdue
    game = start_game(monkeypatch, bob, erin, 3, 1, 4, 2, length=0, cube_limit=None)
    white_opens(monkeypatch, game, bob, NOW)


def _rows() -> dict[str, list[str]]:
    """Every row the expiry writes or reads, with ids replaced by stable keys."""
    users = dict(User.objects.values_list("pk", "username"))
    match_keys = {
        pk: i for i, pk in enumerate(Match.objects.order_by("pk").values_list("pk", flat=True))
    }
    games = {g.pk: (match_keys[g.match_id], g.number) for g in Game.objects.all()}
    keys: dict[type[models.Model], dict[Any, Any]] = {
        User: users,
        Match: match_keys,
        Game: games,
        Challenge: {
            pk: match_keys.get(m) for pk, m in Challenge.objects.values_list("pk", "match")
        },
    }
    snapshot: dict[str, list[str]] = {}
    for model in (Match, Game, GameEvent, Notification, Counter, PlayerStats, RatingHistory):
        rows = []
        for row in model.objects.all():
            values = {}
            for field in model._meta.concrete_fields:
                if field.primary_key and not field.is_relation:
                    continue
                value = getattr(row, field.attname)
                if field.is_relation and value is not None:
                    value = keys[field.related_model][value]
                values[field.name] = value
            rows.append(repr(sorted(values.items())))
        snapshot[model.__name__] = sorted(rows)
    return snapshot


def _expire_one_by_one() -> None:
    overdue = clock.overdue_games(LATER).order_by("deadline_at", "pk")
    for pk in list(overdue.values_list("pk", flat=True)):
        assert endings.game_time_out(game_id=pk, now=LATER) is not None


def _run(monkeypatch: pytest.MonkeyPatch, expire: Any, check: Any = None) -> dict[str, list[str]]:
    point = transaction.savepoint()
    try:
        _scenario(monkeypatch)
        expire()
        if check is not None:
            check()
        return _rows()
    finally:
        transaction.savepoint_rollback(point)


@pytest.mark.django_db
@pytest.mark.parametrize("batch", [1, 4, 500])
def test_the_batch_sweep_stores_what_the_per_game_service_stores(monkeypatch, batch) -> None:
    # Batches of one game (every field the same for the whole batch, so no ``bulk_update``),
    # of four and two, and all six at once.
    def sweep() -> None:
        assert clock.games_expire_overdue(now=LATER, batch=batch) == 6

    def check() -> None:
        call_command("replay_games", verbosity=0)  # raises on any difference
        call_command("recount_stats", verbosity=0)
        assert RatingHistory.objects.count() == 8  # four rated matches ended on time

    one_by_one = _run(monkeypatch, _expire_one_by_one)
    batched = _run(monkeypatch, sweep, check)
    assert batched.keys() == one_by_one.keys()
    for table, rows in one_by_one.items():
        assert batched[table] == rows, table
    assert len(batched["Notification"]) > 12  # time-outs, the money session's next turn


def _overdue_matches(monkeypatch: pytest.MonkeyPatch, count: int, *, offset: int) -> None:
    """``count`` matches out of time, White on turn in every other one (so a batch of two
    or more holds both winners: the statements do not depend on the draw)."""
    start = NOW - timedelta(days=30)
    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1), (1, 3)] * count))
    for i in range(offset, offset + count):
        white = UserFactory(username=f"w{i}")
        black = UserFactory(username=f"b{i}")
        challenge = challenge_services.challenge_create(
            challenger=white, opponent=black, now=start, days_per_move=1
        )
        challenge_services.challenge_accept(challenge_id=challenge.pk, user=black, now=start)


@pytest.mark.django_db
def test_a_batch_costs_the_same_statements_whatever_its_size(monkeypatch) -> None:
    counts = []
    for offset, size in ((0, 3), (100, 12)):
        _overdue_matches(monkeypatch, size, offset=offset)
        with CaptureQueriesContext(connection) as queries:
            assert clock.games_expire_overdue(now=NOW) == size
        counts.append(len(queries))
    winners = Game.objects.filter(termination="timeout").values_list("winner", flat=True)
    assert set(winners) == {0, 1}  # both colours win in each batch
    assert counts[0] == counts[1], counts
    # 16 per batch (the games and the matches each by one UPDATE of the values they share and
    # one bulk_update of the rest; the counters are locked, then bumped), plus a savepoint and
    # its release (and BEGIN), the last, empty claim with its own three, one INSERT of
    # the matches' analyses (analysis/, where gnubg is installed), one SELECT of the
    # tournament matches among them (tournaments/) and one UPDATE that reads the games'
    # turn notices, their turns being over (notifications/).
    assert counts[0] <= 25, [q["sql"][:80] for q in queries.captured_queries]


@pytest.mark.django_db
def test_a_failed_batch_falls_back_to_one_game_at_a_time(monkeypatch) -> None:
    _overdue_matches(monkeypatch, 3, offset=0)

    def broken(**kwargs: Any) -> list[Game]:
        raise RuntimeError("boom")

    monkeypatch.setattr(clock, "games_time_out_batch", broken)
    assert clock.games_expire_overdue(now=NOW) == 3
    assert Game.objects.filter(termination="timeout").count() == 3
    assert GameEvent.objects.filter(kind=GameEvent.Kind.TIMEOUT).count() == 3
