"""``matches.locking.game_for_update`` builds the instances the ORM's select_related would."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from matches import clock, services
from matches.locking import game_for_update
from matches.models import Game, Notification
from tests.factories import UserFactory

from .clock_helpers import NOW, start_game, white_opens

pytestmark = pytest.mark.django_db


def _values(instance) -> dict:  # type: ignore[no-untyped-def]
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_the_locked_game_equals_the_orms(monkeypatch: pytest.MonkeyPatch) -> None:
    alice = UserFactory(username="alice", display_name="Alice", language="es")
    bob = UserFactory(username="bob", time_zone="Europe/Madrid")
    game = start_game(monkeypatch, alice, bob, length=0, time_bank_days=2, cube_limit=None)
    game = white_opens(monkeypatch, game, alice, NOW + timedelta(hours=1))
    # Every kind of column: JSON (board), durations (banks), datetimes set and unset.
    clock.vacation_take(
        user=bob, start=NOW.date() + timedelta(days=3), end=NOW.date() + timedelta(days=4), now=NOW
    )
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = game_for_update(game.pk)
    assert len(queries) == 1
    if connection.features.has_select_for_update_of:
        assert "FOR UPDATE OF g, m" in queries[0]["sql"]
    orm = Game.objects.select_related("match", "match__white", "match__black").get(pk=game.pk)
    assert locked is not None
    pairs = [
        (locked, orm),
        (locked.match, orm.match),
        (locked.match.white, orm.match.white),
        (locked.match.black, orm.match.black),
    ]
    for ours, theirs in pairs:
        assert _values(ours) == _values(theirs)
        assert not ours._state.adding and ours._state.db == theirs._state.db
    assert locked.match.bank_white is not None and locked.match.black.vacations_until is not None
    assert isinstance(locked.board, dict) and locked.board == orm.board
    with CaptureQueriesContext(connection) as queries:
        assert locked.match.white.username == "alice" and locked.match.black.pk == bob.pk
    assert len(queries) == 0
    assert game_for_update(game.pk + 1000) is None


def test_the_game_and_its_new_record_rows_are_saved_together(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """One statement on PostgreSQL (``bulk.save_with_rows``), two elsewhere: same rows."""
    from matches.models import GameEvent

    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_game(monkeypatch, alice, bob, 3, 1, (5, 2), length=3, cube_limit=1)
    with CaptureQueriesContext(connection) as queries:
        game = white_opens(monkeypatch, game, alice, NOW)  # the move, then Black's roll
    added = game.new_events
    assert [e.kind for e in added] == ["move", "roll"]
    stored = list(GameEvent.objects.filter(game=game).order_by("ply"))
    assert [e.pk for e in stored[-2:]] == [e.pk for e in added]
    assert [(e.ply, e.kind, e.notation, e.die1, e.die2, e.color) for e in stored[-2:]] == [
        (e.ply, e.kind, e.notation, e.die1, e.die2, e.color) for e in added
    ]
    writes = [q["sql"] for q in queries.captured_queries if "matches_gameevent" in q["sql"]]
    assert len(writes) == 1
    if connection.vendor == "postgresql":
        # With them, the dice counters and activity and Black's turn notification.
        assert writes[0].startswith("WITH d0 AS (INSERT INTO") and "UPDATE" in writes[0]
        for table in ("stats_counter", "stats_playerstats", "matches_notification"):
            assert table in writes[0]
    notice = Notification.objects.get(game=game, kind="your_turn")
    assert notice.recipient_id == bob.pk and notice.status in ("pending", "sent", "skipped")
    stored_game = Game.objects.get(pk=game.pk)
    assert (stored_game.ply, stored_game.board, stored_game.die1, stored_game.die2) == (
        game.ply,
        game.board,
        5,
        2,
    )


def test_writes_deferred_under_one_key_are_built_once_at_the_save(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Two rolls in one action count their dice in one upsert (one statement on
    PostgreSQL could not change a counter twice)."""
    from stats.models import Counter

    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_game(monkeypatch, alice, bob, length=3)
    builds: list[list[int]] = []
    table = connection.ops.quote_name(Counter._meta.db_table)

    def build(rows: list[int]) -> list:  # type: ignore[type-arg]
        builds.append(rows)
        sql = f"UPDATE {table} SET count = count + %s WHERE player_id IS NULL AND key = %s"
        return [(sql, [sum(rows), "opening:3"], None)]

    before = Counter.objects.get(player=None, key="opening:3").count
    game.record(services._event(game, "adjudicate", NOW, notation="test"))
    game.defer("test.key", [1], build)
    game.defer("test.key", [2], build)
    game.save()
    assert builds == [[1, 2]]
    assert Counter.objects.get(player=None, key="opening:3").count == before + 3
    game.save()  # nothing is left to write
    assert builds == [[1, 2]]
